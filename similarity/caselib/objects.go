package caselib

import (
	"bufio"
	"bytes"
	"hash/maphash"
	"io"
	"os"
	"strings"

	"github.com/caselink/caselink/seeds"
)

// Objects calls fn with every case of lib and the case's JSON object as it
// is in its file (without a byte order mark or the whitespace around it),
// in load order. It reads the files again and refuses one whose content
// changed since it was loaded. Libraries read from standard input or by
// LoadRecords have no files to read again: Objects reports an error for
// them. obj is only valid during the call.
func Objects(lib *Library, fn func(c *Case, obj []byte) error) error {
	byFile := make(map[*fileState][]*Case, len(lib.files))
	for _, c := range lib.Cases {
		if c.src == nil {
			return &Error{File: c.Loc.File, ID: c.ID, Msg: "the case was not loaded from a file"}
		}
		byFile[c.src] = append(byFile[c.src], c)
	}
	for _, src := range lib.files {
		cases := byFile[src]
		if len(cases) == 0 {
			continue
		}
		var r io.ReadCloser
		var err error
		switch src.kind {
		case srcFile:
			r, err = os.Open(src.path)
		case srcEmbedded:
			r, err = seeds.FS.Open(strings.TrimPrefix(src.display, "seeds/"))
		default:
			return &Error{File: src.display, Msg: "cannot read the file again (only files and the embedded seeds can be)"}
		}
		if err != nil {
			return &Error{File: src.display, Msg: "cannot read", Err: err}
		}
		err = eachObject(src, r, lib.seed, cases, fn)
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// eachObject reads one file and calls fn for the given cases of it.
func eachObject(src *fileState, r io.Reader, seed maphash.Seed, cases []*Case, fn func(*Case, []byte) error) error {
	changed := &Error{File: src.display, Msg: "file changed since it was loaded; load it again"}
	var h maphash.Hash
	h.SetSeed(seed)
	br := bufio.NewReaderSize(io.TeeReader(r, &h), 1<<20)
	if !src.lines {
		data, err := io.ReadAll(br)
		if err != nil {
			return &Error{File: src.display, Msg: "cannot read", Err: err}
		}
		if h.Sum64() != src.hash {
			return changed
		}
		start := 0
		if bytes.HasPrefix(data, bom) {
			start = len(bom)
		}
		if !src.list {
			if len(cases) != 1 {
				return changed
			}
			return fn(cases[0], bytes.Trim(data[start:], " \t\r\n"))
		}
		var d caseDecoder
		spans, ce := d.caseList(data, start)
		if ce != nil {
			return changed
		}
		for _, c := range cases {
			if c.elem >= len(spans) {
				return changed
			}
			sp := spans[c.elem]
			if err := fn(c, bytes.Trim(data[sp[0]:sp[1]], " \t\r\n")); err != nil {
				return err
			}
		}
		return nil
	}
	byLine := make(map[int]*Case, len(cases))
	for _, c := range cases {
		byLine[c.Loc.Line] = c
	}
	var long []byte
	done := 0
	for line := 1; ; line++ {
		l, err := readLine(br, &long)
		if err != nil && err != io.EOF {
			return &Error{File: src.display, Msg: "cannot read", Err: err}
		}
		if c := byLine[line]; c != nil {
			if line == 1 {
				l = bytes.TrimPrefix(l, bom)
			}
			if ferr := fn(c, bytes.Trim(l, " \t\r\n")); ferr != nil {
				return ferr
			}
			done++
		}
		if err == io.EOF {
			break
		}
	}
	if h.Sum64() != src.hash || done != len(cases) {
		return changed
	}
	return nil
}
