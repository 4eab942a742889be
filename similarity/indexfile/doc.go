// Package indexfile is the byte layout of caselink's two files on disk: the
// index cache file (NAME.idx), which keeps the arrays of an index so that a
// process opening the same library again neither tokenizes nor weighs it,
// and the library stamp (NAME.lib), which says what the library's files were
// when the index was built. FORMAT.md, beside this file, specifies both, with
// their versioning and compatibility rules.
//
// The index file is driven by one declarative table, [IndexSections]: each
// section's id, element type, count and owner. The [Writer] and the reader
// ([Parse], [Open]) both check a file against it, so a section missing,
// swapped with another or of the wrong length fails at open with a
// [*SectionError] naming it, before any array is used.
//
// What lives here: headers, checksums, the section table, the field-by-field
// encoding of the stamp, mapping a file. What does not: what the arrays mean
// and how they are derived from the cases (package similarity: cachefile.go
// and lazy.go put and get the sections), where the files live and when a
// stamp is trusted (cmd/caselink: cache.go, stampfile.go), and writing a file
// atomically (caselib.WriteFile, which this package calls).
package indexfile
