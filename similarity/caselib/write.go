package caselib

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// WriteRelated sets the "related" list of the cases named in related (case
// id -> ids, most similar first) and rewrites, atomically, only the files
// whose bytes change. It returns those files, as the user named them, in
// load order.
//
// Only the value of each case's top-level "related" member changes (or the
// member is added, see SpliceRelated); every other byte of the file stays as
// it was. A case whose related list already equals the new one (a missing or
// null "related" counts as empty) is left alone, so a file in which nothing
// changes is not written and keeps its modification time.
//
// Every id in related must name a case of lib that was read from a file:
// cases from standard input or the embedded seeds are read-only. A file that
// changed since it was loaded is refused: the size and modification time of
// every file holding a named case are checked, and the content of a file
// being rewritten is compared (by hash) with what was loaded.
//
// Each file is written to a temporary file in its folder, synced, given the
// original's permissions and renamed over the original (over the target of a
// symbolic link). The renames start only when every temporary file is ready;
// a failure before that removes the temporary files and leaves the originals
// as they were. (Should a rename itself fail after others have succeeded, the
// files already replaced are returned with the error.) On success the cases'
// Related fields and the library's record of the files are updated, so the
// library can be written again. WriteRelated must not run concurrently with
// itself or with readers of the same library.
func WriteRelated(lib *Library, related map[string][]string) ([]string, error) {
	if lib == nil {
		return nil, errors.New("caselib: WriteRelated: nil library")
	}
	edits, touched, err := planEdits(lib, related)
	if err != nil {
		return nil, err
	}
	// Refuse when a file of the request has visibly changed, even when it
	// needs no rewrite: the library's view of it is stale.
	for _, e := range touched {
		if err := e.checkStat(); err != nil {
			return nil, err
		}
	}
	sweepFolders(touched)
	if len(edits) == 0 {
		return nil, nil
	}
	// Prepare every temporary file.
	for i, e := range edits {
		if err := e.prepare(lib.seed); err != nil {
			for _, e := range edits[:i+1] {
				e.discard()
			}
			return nil, err
		}
	}
	// Replace the originals.
	var written []string
	for i, e := range edits {
		err := hook("rename", e.src.display)
		if err == nil {
			err = e.checkStat()
		}
		if err == nil {
			err = os.Rename(e.tmp, e.target)
		}
		if err == nil {
			forgetTemp(e.tmp)
		}
		if err != nil {
			for _, e := range edits[i:] {
				e.discard()
			}
			syncDirs(edits[:i])
			for _, e := range edits[:i] {
				e.commit()
			}
			if len(written) > 0 {
				err = fmt.Errorf("%w (already written: %v)", err, written)
			}
			return written, asError(e.src, "cannot replace the file", err)
		}
		e.tmp = ""
		written = append(written, e.src.display)
	}
	syncDirs(edits)
	for _, e := range edits {
		e.commit()
	}
	return written, nil
}

// DropText empties every case of lib but for what WriteRelated needs: its
// id, its related list and where it lies in its file. A caller that is done
// with the cases' text (relate, between searching and writing a library too
// large to hold twice) lets the text go before it writes; the library can
// still be written, but its cases no longer describe the incidents, so
// anything built from them (an index holding the same cases) must not be
// used afterwards.
func (l *Library) DropText() {
	for _, c := range l.Cases {
		*c = c.skeleton()
	}
}

// skeleton returns what WriteRelated needs of c: its id, its related list
// and where it lies in its file.
func (c *Case) skeleton() Case {
	return Case{ID: c.ID, Related: c.Related, Loc: c.Loc, src: c.src, elem: c.elem, at: c.at}
}

// fileEdit is the pending rewrite of one file.
type fileEdit struct {
	src    *fileState
	byLine map[int]*Case // cases to change, by line (by element of a file that is a list of cases)
	ids    map[*Case][]string
	target string // the file to replace (symbolic links resolved)
	tmp    string // the prepared temporary file, "" when none
	size   int64
	hash   uint64
}

// planEdits checks the request and groups the changing cases by file, in
// load order. touched lists every file holding a case of the request.
func planEdits(lib *Library, related map[string][]string) (edits, touched []*fileEdit, err error) {
	bySrc := make(map[*fileState]*fileEdit)
	matched := 0
	for _, c := range lib.Cases {
		ids, ok := related[c.ID]
		if !ok {
			continue
		}
		matched++
		for _, id := range ids {
			if id == "" {
				return nil, nil, &Error{File: c.Loc.File, Line: c.Loc.Line, ID: c.ID, Field: "related", Msg: "cannot write an empty id"}
			}
		}
		switch {
		case c.src == nil:
			return nil, nil, &Error{File: c.Loc.File, Line: c.Loc.Line, ID: c.ID, Msg: "cannot write related: the case was not loaded from a file"}
		case c.src.kind == srcStdin:
			return nil, nil, &Error{File: c.Loc.File, Line: c.Loc.Line, ID: c.ID, Msg: "cannot write related: the case was read from standard input"}
		case c.src.kind == srcRecords:
			return nil, nil, &Error{File: c.Loc.File, Row: c.Loc.Row, ID: c.ID, Msg: "cannot write related: the case was read from a database, not a file"}
		case c.src.kind == srcEmbedded:
			return nil, nil, &Error{File: c.Loc.File, Line: c.Loc.Line, ID: c.ID, Msg: "cannot write related: the embedded seed cases are read-only"}
		case c.src.kind != srcFile:
			return nil, nil, &Error{File: c.Loc.File, Line: c.Loc.Line, ID: c.ID, Msg: "cannot write related: the case was not read from a regular file"}
		}
		e := bySrc[c.src]
		if e == nil {
			e = &fileEdit{src: c.src, byLine: make(map[int]*Case), ids: make(map[*Case][]string)}
			bySrc[c.src] = e
			touched = append(touched, e)
		}
		if slices.Equal(c.Related, ids) {
			continue
		}
		if c.src.list {
			e.byLine[c.elem] = c
		} else {
			e.byLine[c.Loc.Line] = c
		}
		e.ids[c] = ids
	}
	if matched < len(related) {
		var unknown []string
		for id := range related {
			if lib.byID[id] == nil {
				unknown = append(unknown, id)
			}
		}
		sort.Strings(unknown)
		if len(unknown) > 0 {
			return nil, nil, fmt.Errorf("caselib: WriteRelated: no case %q in the library", unknown[0])
		}
	}
	// Files in load order.
	order := make(map[*fileState]int, len(lib.files))
	for i, f := range lib.files {
		order[f] = i
	}
	sort.SliceStable(touched, func(i, j int) bool { return order[touched[i].src] < order[touched[j].src] })
	for _, e := range touched {
		if len(e.byLine) > 0 {
			edits = append(edits, e)
		}
	}
	return edits, touched, nil
}

func asError(src *fileState, msg string, err error) error {
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	return &Error{File: src.display, Msg: msg, Err: err}
}

func (e *fileEdit) changed() error {
	return &Error{File: e.src.display, Msg: "file changed since it was loaded; load it again before writing related"}
}

// checkStat compares the file's size and modification time with those seen
// when it was loaded.
func (e *fileEdit) checkStat() error {
	st, err := os.Stat(e.src.path)
	if err != nil {
		return asError(e.src, "cannot write related", err)
	}
	if st.Size() != e.src.size || !st.ModTime().Equal(e.src.mtime) {
		return e.changed()
	}
	return nil
}

// prepare writes the new content to a temporary file next to the target,
// syncs it and gives it the original's permissions.
func (e *fileEdit) prepare(seed maphash.Seed) (err error) {
	target, err := filepath.EvalSymlinks(e.src.path)
	if err != nil {
		return asError(e.src, "cannot write related", err)
	}
	e.target = target
	in, err := os.Open(target)
	if err != nil {
		return asError(e.src, "cannot write related", err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return asError(e.src, "cannot write related", err)
	}
	if err := writable(target, st); err != nil {
		return &Error{File: e.src.display, Msg: "cannot write related: the file is read-only; make it writable (chmod u+w) first", Err: err}
	}
	var hin, hout maphash.Hash
	hin.SetSeed(seed)
	hout.SetSeed(seed)
	var w *countWriter
	e.tmp, err = writeTemp(target, e.src.display, st.Mode(), func(tmp *os.File) error {
		w = &countWriter{w: tmp, h: &hout}
		bw := bufio.NewWriterSize(w, 1<<20)
		var err error
		if e.src.lines {
			err = e.rewriteLines(in, bw, &hin)
		} else {
			err = e.rewriteDoc(in, bw, &hin)
		}
		if err == nil {
			err = bw.Flush()
		}
		return err
	})
	if err != nil {
		return asError(e.src, "cannot write related", err)
	}
	e.size, e.hash = w.n, hout.Sum64()
	return nil
}

type countWriter struct {
	w io.Writer
	h *maphash.Hash
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	return n, err
}

// splice rewrites the object of case c, checking that it is the case loaded.
func (e *fileEdit) splice(c *Case, obj []byte) ([]byte, error) {
	out, id, err := spliceRelated(obj, e.ids[c])
	if err != nil {
		return nil, e.changed()
	}
	if id != c.ID {
		return nil, e.changed()
	}
	return out, nil
}

// readLine returns the next line of r with its end, or what is left at
// the end of the input (with io.EOF). A line longer than r's buffer is
// gathered in *long. The line is valid until the next call.
func readLine(r *bufio.Reader, long *[]byte) ([]byte, error) {
	l, err := r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		*long = append((*long)[:0], l...)
		for err == bufio.ErrBufferFull {
			l, err = r.ReadSlice('\n')
			*long = append(*long, l...)
		}
		l = *long
	}
	return l, err
}

// rewriteLines copies a JSON Lines file, splicing the lines of the changing
// cases, and checks that the input is the content that was loaded.
func (e *fileEdit) rewriteLines(in io.Reader, w *bufio.Writer, h *maphash.Hash) error {
	r := bufio.NewReaderSize(in, 1<<20)
	var long []byte
	var size int64
	done := 0
	for line := 1; ; line++ {
		l, err := readLine(r, &long)
		if err != nil && err != io.EOF {
			return err
		}
		h.Write(l)
		size += int64(len(l))
		if c := e.byLine[line]; c != nil {
			body, end := l, len(l)
			if end > 0 && body[end-1] == '\n' {
				end--
				if end > 0 && body[end-1] == '\r' {
					end--
				}
			}
			start := 0
			if line == 1 && bytes.HasPrefix(body, bom) {
				start = len(bom)
			}
			out, serr := e.splice(c, body[start:end])
			if serr != nil {
				return serr
			}
			if bytes.IndexByte(out, '\n') >= 0 {
				return fmt.Errorf("internal error: spliced line %d spans lines", line)
			}
			w.Write(body[:start])
			w.Write(out)
			if _, werr := w.Write(body[end:]); werr != nil {
				return werr
			}
			done++
		} else if _, werr := w.Write(l); werr != nil {
			return werr
		}
		if err == io.EOF {
			break
		}
	}
	if size != e.src.size || h.Sum64() != e.src.hash || done != len(e.byLine) {
		return e.changed()
	}
	return nil
}

// rewriteDoc rewrites a file that is one case.
func (e *fileEdit) rewriteDoc(in io.Reader, w *bufio.Writer, h *maphash.Hash) error {
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	h.Write(data)
	if int64(len(data)) != e.src.size || h.Sum64() != e.src.hash || (!e.src.list && len(e.byLine) != 1) {
		return e.changed()
	}
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	if e.src.list {
		return e.rewriteList(data, start, w)
	}
	var c *Case
	for _, one := range e.byLine {
		c = one
	}
	out, err := e.splice(c, data[start:])
	if err != nil {
		return err
	}
	w.Write(data[:start])
	_, err = w.Write(out)
	return err
}

// rewriteList rewrites a file that is a JSON list of cases, splicing the
// elements of the changing cases.
func (e *fileEdit) rewriteList(data []byte, start int, w *bufio.Writer) error {
	var d caseDecoder
	spans, ce := d.caseList(data, start)
	if ce != nil {
		return e.changed()
	}
	at, done := 0, 0
	for i, sp := range spans {
		c := e.byLine[i]
		if c == nil {
			continue
		}
		out, err := e.splice(c, data[sp[0]:sp[1]])
		if err != nil {
			return err
		}
		w.Write(data[at:sp[0]])
		w.Write(out)
		at = sp[1]
		done++
	}
	if done != len(e.byLine) {
		return e.changed()
	}
	_, err := w.Write(data[at:])
	return err
}

// discard removes the temporary file, if any.
func (e *fileEdit) discard() {
	if e.tmp != "" {
		os.Remove(e.tmp)
		forgetTemp(e.tmp)
		e.tmp = ""
	}
}

// commit records the new state of a written file in the library.
func (e *fileEdit) commit() {
	for c, ids := range e.ids {
		c.Related = slices.Clone(ids)
	}
	e.src.size, e.src.hash = e.size, e.hash
	if st, err := os.Stat(e.src.path); err == nil {
		e.src.mtime = st.ModTime()
	}
}

// sweepFolders removes the stale temporary files of earlier, killed runs
// from the folders about to be written (see SweepTemps).
func sweepFolders(edits []*fileEdit) {
	seen := make(map[string]bool)
	for _, e := range edits {
		target, err := filepath.EvalSymlinks(e.src.path)
		if err != nil {
			continue
		}
		if dir := filepath.Dir(target); !seen[dir] {
			seen[dir] = true
			SweepTemps(dir)
		}
	}
}

// syncDirs flushes the folders of the renamed files (best effort: not every
// system can sync a folder).
func syncDirs(edits []*fileEdit) {
	seen := make(map[string]bool)
	for _, e := range edits {
		dir := filepath.Dir(e.target)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		syncDir(dir)
	}
}

// writable reports a file the user may not write: one without any write
// permission bit (even for root, who could replace it, the bits say it is
// not to be changed) or one this process cannot open for writing. The
// rename that replaces a file needs only the folder to be writable, so
// without this check a read-only file would be rewritten.
func writable(path string, st fs.FileInfo) error {
	if st.Mode().Perm()&0o222 == 0 {
		return fs.ErrPermission
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
