package caselib

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Error is every error Load, LoadSeeds and WriteRelated report about the
// input: one line naming the file, the line (and column for malformed JSON),
// the case id and the field when they are known, e.g.
//
//	cases.jsonl:12: case "IL-0100": field "domain": expected a list of strings, found a string
//	cases.jsonl:7:31: invalid character '}' after object member (expected ',' or '}')
//	b.json:1: case "IL-0100": duplicate id (first at a.json:1)
type Error struct {
	File  string    // file as the user named it, "<stdin>", or "seeds/…" for an embedded seed
	Line  int       // 1-based line; 0 when the error is about the whole file
	Row   string    // the record (database row) for a case read by LoadRecords; "" otherwise
	Col   int       // 1-based byte column within Line; 0 when not about one spot
	ID    string    // case id when known
	Field string    // field path such as "domain" or "title.en" or "remediation[2]"; "" when none
	Msg   string    // what is wrong
	Other *Location // for a duplicate id: where the id was seen first
	Err   error     // underlying error (e.g. from the file system), if any

	notCase  bool // the file holds no JSON at all (see IsNotCaseFile)
	tooLarge bool // a case over LoadOptions.MaxCaseBytes (see IsTooLarge)
}

// IsTooLarge reports whether err is about a case larger than
// LoadOptions.MaxCaseBytes.
func IsTooLarge(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.tooLarge
}

// tooLarge returns the error of a case of n bytes over the limit max.
func tooLarge(file string, line int, n, max int64) *Error {
	return &Error{File: file, Line: line, tooLarge: true,
		Msg: fmt.Sprintf("case is %s, over the limit of %s per case", mib(n), mib(max))}
}

// mib writes a size in MiB with one decimal (KiB or bytes when smaller).
func mib(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// IsNotCaseFile reports whether err is about a file that is not a case file
// at all (it does not begin with '{' or '['), such as a README among the
// case files; lenient loading skips such a file.
func IsNotCaseFile(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.notCase
}

// Error returns the one-line message.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Row != "" {
		b.WriteString(" row ")
		b.WriteString(e.Row)
	}
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	if e.ID != "" {
		b.WriteString("case ")
		b.WriteString(strconv.Quote(e.ID))
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString("field ")
		b.WriteString(strconv.Quote(e.Field))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Other != nil {
		b.WriteString(" (first at ")
		b.WriteString(e.Other.String())
		b.WriteByte(')')
	}
	if e.Err != nil {
		b.WriteString(": ")
		err := e.Err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already at the front
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }
