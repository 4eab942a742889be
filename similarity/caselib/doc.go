// Package caselib is caselink's case library: it reads incident cases (the
// post-mortem "cases" caselink links), validates them, and rewrites their
// "related" lists without losing a byte of anything else.
//
// What lives here: the case model (Case, Text, Impact, Source, Location),
// loading (Load, LoadSeeds, and LoadRecords for cases that come as records,
// such as the rows of a database table: package pgstore), validation errors
// (Error), the writer (WriteRelated, SpliceRelated), a case's object as in
// its file (Objects), one case read again from where it lies without
// loading the library (Library.Spans, ReadCase) and the files' stamps that
// tell a cache the library is unchanged (Stamp within a process,
// FileStamps across processes), an atomic file write (WriteFile), and the duplicate
// decisions curators record with their stores (Decision, DecisionStore,
// DecisionFile; the PostgreSQL store is in package pgstore). What does not: scoring and similarity (the
// similarity engine), tokenizing (package tokenize), evaluation (package eval)
// and command-line flags or output (cmd/caselink). The package uses only the
// standard library and package seeds.
//
// # Inputs
//
// A case is one JSON object. Load accepts any number of paths, read in the
// order given:
//
//   - a file with the extension .jsonl is JSON Lines: one case object per
//     line; blank lines are allowed; CRLF line ends are fine;
//   - any other file (.json, .txt, …) is looked at by its first non-blank
//     line: when that line is a whole object on its own (it begins with '{'
//     and ends with '}'), the file is read as JSON Lines, so a compact
//     one-line case and a file of several one-line cases both work;
//     otherwise the whole file must be one JSON value: one case, such as a
//     pretty-printed object (a second object after it is an error), or a
//     list of case objects, each element one case (the writer splices each
//     element in place);
//   - a file whose first non-blank character is neither '{' nor '[' is not
//     a case file (a README among the cases, say): an error, or skipped
//     whole when lenient (IsNotCaseFile);
//   - a folder is searched recursively for files ending in .json, .jsonl or
//     .txt (in any letter case), read in lexical order; files and folders
//     whose names begin with "." are skipped, as are symbolic links to
//     folders (links to files are read), and so is what the folder's
//     IgnoreFile (.caselinkignore) lists;
//   - "-" is standard input, read by the same rule as a .json file.
//
// A file is read once however often it is named (a path given twice, or a
// file given beside its folder).
//
// Files must be UTF-8 (a leading byte order mark is allowed and kept) and
// must hold at least one case; a folder must hold at least one case file.
// Every case needs a non-empty string "id", unique across everything loaded.
// A "date" must be YYYY, YYYY-MM or YYYY-MM-DD with a real month and day
// (CheckDate): "June 2016" is an error, as caselink could not place it in
// time.
//
// A Case holds only the fields caselink uses; each may be null or missing,
// and each must otherwise have one of the types described on Case, or loading
// fails (a null inside a list too). Other members ("review", "docs", …) are not decoded,
// only checked to be valid JSON, and the writer never touches them.
//
// JSON Lines input is streamed in chunks and decoded in parallel by
// GOMAXPROCS workers, with results in input order; the library keeps the
// decoded fields only, never the raw bytes, and remembers each file's size,
// modification time and a hash of its content so the writer can refuse a file
// that changed in the meantime.
//
// The JSON is read by a scanner of its own (scan.go, decode.go) rather than
// by a general decoder. Measured against a prototype on the JSON v2 text
// layer (github.com/go-json-experiment/json/jsontext) decoding the same
// fields of the 6,854 real incident cases on one core, it takes about half
// the CPU time (35 ms against 65 ms a pass over 10.5 MB), and its errors
// point at the offending byte with a message about cases ("where a member
// name is expected" at the '}' after a trailing comma, where jsontext names
// the comma).
//
// # Errors
//
// Load stops at the first problem and returns it as an *Error, one line such
// as
//
//	cases.jsonl:12:40: invalid character 'x' where a value is expected
//	cases.jsonl:12: case "IL-0100": field "domain": expected a list of strings, found a string
//	cases/a.json:1: field "id": missing
//	b.jsonl:3: case "IL-0100": duplicate id (first at a.jsonl:7)
//	old.json:1:2: file is not UTF-8 (byte 0xFF)
//	empty.json: empty file: no case in it
//
// A known field that appears twice in a case is an error too. Line numbers
// are those of the case in a JSON Lines file and those of the
// offending spot in a multi-line file; columns are 1-based byte offsets in
// the line. With LoadOptions.Lenient set, each bad case is instead reported
// to LoadOptions.Warn and skipped; a file that is not UTF-8 or is empty is
// skipped whole, and of two cases with the same id the first is kept.
//
// # Writing
//
// WriteRelated replaces the value of each named case's top-level "related"
// member inside the file's original bytes, or adds the member at the end of
// the object, in the object's own style; SpliceRelated does this for one
// object and documents the layout rules. Files are replaced atomically and
// only when their bytes change; see WriteRelated. Libraries read from
// standard input or from the embedded seeds cannot be written, nor can
// cases read by LoadRecords (their store writes them: pgstore).
//
// # Records
//
// LoadRecords decodes cases that are not in files with the same rules and
// errors; each error names the source and the record's Row in place of
// file:line, e.g.
//
//	postgres table cases row (0,2): case "IL-0100": duplicate id (first at postgres table cases row (0,1))
package caselib
