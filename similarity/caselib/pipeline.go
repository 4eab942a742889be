package caselib

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"path/filepath"
	"unicode/utf8"
)

// pipeline.go streams input through decoding workers. The producer (one
// goroutine) reads files in chunks of whole lines and queues each chunk
// twice: on work, for any free worker, and on order, which the collector
// (the caller's goroutine) follows to take the results in input order. Chunk
// buffers are recycled once decoded and the number of queued chunks is
// bounded, so a large JSON Lines file is never held in memory.

// chunkSize is the size of the read buffers: a chunk holds the whole lines
// that fit in it (a longer line grows its buffer).
const chunkSize = 1 << 20

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 4 * chunkSize

type loader struct {
	opts  LoadOptions
	lib   *Library
	work  chan *job
	order chan *job
	stop  chan struct{}
	free  chan []byte
	read  map[string]bool // absolute paths of the files read so far (producer only)
}

type jobKind uint8

const (
	jobLines   jobKind = iota // data holds whole lines of a JSON Lines file
	jobDoc                    // data holds a whole file that is one case
	jobFail                   // a problem found by the producer
	jobEnd                    // the end of a file
	jobRecords                // data holds records given to LoadRecords, split by recs
)

type job struct {
	kind  jobKind
	src   *fileState
	data  []byte
	line  int       // line number of data[0]
	first bool      // data starts at the start of the file (may hold a BOM)
	recs  []recSpan // jobRecords
	err   *Error    // jobFail
	fatal bool      // jobFail: stop even when lenient
	out   []result
	done  chan struct{} // closed when out is ready
}

// result is a decoded case or the error that replaced it.
type result struct {
	c    *Case
	err  *Error
	file bool // err concerns the whole file (not UTF-8)
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// send queues j; it returns false when the load has been stopped.
func (p *loader) send(j *job) bool {
	select {
	case p.order <- j:
	case <-p.stop:
		return false
	}
	if j.done == closed {
		return true
	}
	select {
	case p.work <- j:
		return true
	case <-p.stop:
		return false
	}
}

// fail queues a problem found by the producer. src may be nil (a path, not
// a file). It returns false to stop feeding.
func (p *loader) fail(src *fileState, err *Error, fatal bool) bool {
	if fatal || !p.opts.Lenient {
		p.send(&job{kind: jobFail, src: src, err: err, fatal: true, done: closed})
		return false
	}
	return p.send(&job{kind: jobFail, src: src, err: err, done: closed})
}

// getBuf returns an empty buffer with room for at least n bytes.
func (p *loader) getBuf(n int) []byte {
	select {
	case b := <-p.free:
		if cap(b) >= n {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, n)
}

func (p *loader) putBuf(b []byte) {
	if cap(b) > maxPooled {
		return
	}
	select {
	case p.free <- b:
	default:
	}
}

// readStream reads one file (or stdin) and queues its chunks. lines forces
// JSON Lines; otherwise the first non-blank line decides (see doc.go).
// sizeHint is the expected size, or -1 when unknown.
func (p *loader) readStream(src *fileState, r io.Reader, lines bool, sizeHint int64) bool {
	var h maphash.Hash
	h.SetSeed(p.lib.seed)
	var size int64
	first := 64 << 10
	if sizeHint >= 0 {
		first = int(min(sizeHint+1, chunkSize)) // +1: see EOF in one read
	}
	buf := p.getBuf(first)
	eof := false
	// fill reads until buf is full or the input ends; a full buffer is
	// grown first.
	fill := func() error {
		if len(buf) == cap(buf) {
			nb := make([]byte, len(buf), 2*cap(buf))
			copy(nb, buf)
			buf = nb
		}
		for len(buf) < cap(buf) && !eof {
			n, err := r.Read(buf[len(buf):cap(buf)])
			h.Write(buf[len(buf) : len(buf)+n])
			size += int64(n)
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return err
			}
		}
		return nil
	}
	readErr := func(err error) bool {
		return p.fail(src, &Error{File: src.display, Msg: "cannot read", Err: err}, true)
	}

	// Find the first non-blank line.
	var firstLine []byte
	for off := 0; ; {
		if i := bytes.IndexByte(buf[off:], '\n'); i >= 0 {
			if l := buf[off : off+i]; !blank(l, off == 0) {
				firstLine = l
				break
			}
			off += i + 1
			continue
		}
		if eof {
			if l := buf[off:]; !blank(l, off == 0) {
				firstLine = l
			}
			break
		}
		if err := fill(); err != nil {
			return readErr(err)
		}
	}
	if firstLine == nil {
		p.putBuf(buf)
		msg := "empty file: no case in it"
		if size > 0 {
			msg = "blank file: no case in it"
		}
		return p.fail(src, &Error{File: src.display, Msg: msg}, false)
	}
	t := bytes.TrimRight(firstLine, " \t\r")
	t = bytes.TrimLeft(bytes.TrimPrefix(t, bom), " \t\r")
	if enc := utf16Of(firstLine); enc != "" {
		p.putBuf(buf)
		return p.fail(src, &Error{File: src.display, notCase: true,
			Msg: "file is " + enc + "; caselink reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8"}, false)
	}
	if t[0] != '{' && t[0] != '[' {
		p.putBuf(buf)
		return p.fail(src, notCaseFile(src), false)
	}
	if !lines {
		lines = t[0] == '{' && t[len(t)-1] == '}'
	}
	src.lines = lines

	if !lines { // one JSON value: read it all
		limit := p.opts.maxCase()
		if t[0] == '[' {
			limit = -1 // a list: each element is checked
		}
		for {
			if limit >= 0 && int64(len(buf)) > limit {
				p.putBuf(buf)
				return p.fail(src, tooLarge(src.display, 0, max(size, sizeHint), limit), false)
			}
			if eof {
				break
			}
			if err := fill(); err != nil {
				return readErr(err)
			}
		}
		if !p.send(&job{kind: jobDoc, src: src, data: buf, line: 1, first: true, done: make(chan struct{})}) {
			return false
		}
	} else {
		line, atStart := 1, true
		for {
			if !eof {
				if err := fill(); err != nil {
					return readErr(err)
				}
			}
			cut := len(buf)
			if !eof {
				i := bytes.LastIndexByte(buf, '\n')
				if i < 0 {
					continue // a line longer than buf: fill grows it
				}
				cut = i + 1
			}
			var next []byte
			if !eof {
				next = p.getBuf(max(chunkSize, 2*(len(buf)-cut)))
				next = append(next, buf[cut:]...)
			}
			if cut > 0 {
				j := &job{kind: jobLines, src: src, data: buf[:cut], line: line, first: atStart, done: make(chan struct{})}
				line += bytes.Count(buf[:cut], nl)
				atStart = false
				if !p.send(j) { // buf belongs to the worker now
					return false
				}
			} else {
				p.putBuf(buf)
			}
			buf = next
			if eof {
				break
			}
		}
	}
	src.size = size
	src.hash = h.Sum64()
	return p.send(&job{kind: jobEnd, src: src, done: closed})
}

var (
	bom = []byte("\xef\xbb\xbf")
	nl  = []byte{'\n'}
)

// blank reports whether l holds only JSON whitespace (and, at the start of
// a file, a byte order mark).
func blank(l []byte, atStart bool) bool {
	if atStart {
		l = bytes.TrimPrefix(l, bom)
	}
	for _, c := range l {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// utf16Of names the encoding of a line that starts as UTF-16 text does (a
// byte order mark, or ASCII with every other byte zero), "" otherwise.
func utf16Of(l []byte) string {
	switch {
	case bytes.HasPrefix(l, []byte{0xff, 0xfe}):
		return "UTF-16 (little-endian)"
	case bytes.HasPrefix(l, []byte{0xfe, 0xff}):
		return "UTF-16 (big-endian)"
	case len(l) >= 2 && l[0] != 0 && l[1] == 0:
		return "UTF-16 (little-endian, no byte order mark)"
	case len(l) >= 2 && l[0] == 0 && l[1] != 0:
		return "UTF-16 (big-endian, no byte order mark)"
	}
	return ""
}

// notCaseFile reports a file that cannot hold cases (a README among case
// files, say), with the ways to keep it out of the library.
func notCaseFile(src *fileState) *Error {
	msg := "not a case file (a case file holds a JSON object, a list of them, or one object per line)"
	if src.root != "" {
		msg += "; move it out of the folder or list it in " + filepath.Join(src.root, IgnoreFile)
	}
	return &Error{File: src.display, Msg: msg, notCase: true}
}

// notUTF8 reports the first invalid byte of data, whose first byte is on
// line line of src.
func notUTF8(src *fileState, data []byte, line int) *Error {
	i := 0
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	ln, col := position(data, i)
	return &Error{File: src.display, Line: line + ln - 1, Col: col,
		Msg: fmt.Sprintf("file is not UTF-8 (byte 0x%02X)", data[i])}
}

// position returns the 1-based line and byte column of offset off in data.
func position(data []byte, off int) (line, col int) {
	line = 1 + bytes.Count(data[:off], nl)
	return line, off - bytes.LastIndexByte(data[:off], '\n')
}

// worker decodes queued chunks.
func (p *loader) worker() {
	var d caseDecoder
	for j := range p.work {
		select {
		case <-p.stop:
		default:
			switch j.kind {
			case jobLines:
				p.decodeLines(&d, j)
			case jobRecords:
				p.decodeRecords(&d, j)
			default:
				p.decodeDoc(&d, j)
			}
		}
		p.putBuf(j.data)
		j.data = nil
		close(j.done)
	}
}

func (p *loader) decodeLines(d *caseDecoder, j *job) {
	data := j.data
	ln := j.line
	for off := 0; off < len(data); ln++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		l := data[off:end]
		start := 0
		if j.first && ln == 1 && bytes.HasPrefix(l, bom) {
			start = len(bom)
		}
		off = end + 1
		if blank(l[start:], false) {
			continue
		}
		if max := p.opts.maxCase(); max >= 0 && int64(len(l)) > max {
			j.out = append(j.out, result{err: tooLarge(j.src.display, ln, int64(len(l)), max)})
			continue
		}
		if !utf8.Valid(l) {
			j.out = append(j.out, result{err: notUTF8(j.src, l, ln), file: true})
			return
		}
		c, ce := d.decodeCase(l, start, "line")
		if ce != nil {
			e := &Error{File: j.src.display, Line: ln, ID: ce.id, Field: ce.field, Msg: ce.msg}
			if ce.syntax {
				e.Col = ce.off + 1
				if t := bytes.TrimSpace(l[start:]); t[0] != '{' || t[len(t)-1] != '}' {
					e.Msg += " (JSON Lines holds one whole object per line, and this line is not one: " +
						"a pretty-printed file? jq -c . writes one object per line)"
				}
			}
			j.out = append(j.out, result{err: e})
			continue
		}
		c.Loc = Location{File: j.src.display, Line: ln}
		c.src = j.src
		j.out = append(j.out, result{c: c})
	}
}

func (p *loader) decodeDoc(d *caseDecoder, j *job) {
	data := j.data
	if !utf8.Valid(data) {
		j.out = append(j.out, result{err: notUTF8(j.src, data, 1), file: true})
		return
	}
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	if t := bytes.TrimLeft(data[start:], " \t\r\n"); len(t) > 0 && t[0] == '[' {
		p.decodeList(d, j, data, start)
		return
	}
	c, ce := d.decodeCase(data, start, "file")
	if ce != nil {
		j.out = append(j.out, result{err: errorIn(j.src, data, ce)})
		return
	}
	j.out = append(j.out, result{c: placed(c, j.src, data, d.start)})
}

// errorIn turns a problem found in data, the whole content of src, into an
// *Error at its line (and column, for malformed JSON).
func errorIn(src *fileState, data []byte, ce *caseError) *Error {
	line, col := position(data, ce.off)
	e := &Error{File: src.display, Line: line, ID: ce.id, Field: ce.field, Msg: ce.msg}
	if ce.syntax {
		e.Col = col
	}
	return e
}

// placed records that c was read from src, its object starting at offset
// start of data, the whole content of src.
func placed(c *Case, src *fileState, data []byte, start int) *Case {
	line, _ := position(data, start)
	c.Loc = Location{File: src.display, Line: line}
	c.src = src
	return c
}

// decodeList decodes a file that holds a JSON list of cases, each element
// one case.
func (p *loader) decodeList(d *caseDecoder, j *job, data []byte, start int) {
	j.src.list = true
	spans, ce := d.caseList(data, start)
	if ce == nil && len(spans) == 0 {
		ce = &caseError{off: start, msg: "empty list: no case in it"}
	}
	if ce != nil {
		j.out = append(j.out, result{err: errorIn(j.src, data, ce), file: true})
		return
	}
	for i, sp := range spans {
		if max := p.opts.maxCase(); max >= 0 && int64(sp[1]-sp[0]) > max {
			line, _ := position(data, sp[0])
			j.out = append(j.out, result{err: tooLarge(j.src.display, line, int64(sp[1]-sp[0]), max)})
			continue
		}
		c, ce := d.decodeCase(data[:sp[1]], sp[0], "file")
		if ce != nil {
			j.out = append(j.out, result{err: errorIn(j.src, data, ce)})
			continue
		}
		c = placed(c, j.src, data, d.start)
		c.elem = i
		j.out = append(j.out, result{c: c})
	}
}

// collect takes the results in input order, checks ids for duplicates and
// builds the library.
func (p *loader) collect() error {
	lib := p.lib
	for j := range p.order {
		<-j.done
		src := j.src
		switch j.kind {
		case jobFail:
			if err := p.problem(src, j.err, j.fatal); err != nil {
				return err
			}
		case jobEnd:
			if !src.skipped {
				lib.Cases = append(lib.Cases, src.pending...)
				lib.files = append(lib.files, src)
			}
			src.pending = nil
		default:
			if src.skipped {
				continue
			}
			for _, r := range j.out {
				if r.err != nil {
					if r.file {
						if err := p.problem(src, r.err, false); err != nil {
							return err
						}
						break
					}
					if err := p.problem(nil, r.err, false); err != nil {
						return err
					}
					continue
				}
				c := r.c
				if prev := lib.byID[c.ID]; prev != nil {
					other := prev.Loc
					err := &Error{File: c.Loc.File, Line: c.Loc.Line, Row: c.Loc.Row, ID: c.ID, Msg: "duplicate id", Other: &other}
					if err := p.problem(nil, err, false); err != nil {
						return err
					}
					continue
				}
				lib.byID[c.ID] = c
				src.pending = append(src.pending, c)
			}
		}
	}
	return nil
}

// problem handles a bad case (src == nil) or a bad file: it returns err when
// the load must stop, else warns and skips.
func (p *loader) problem(src *fileState, err *Error, fatal bool) error {
	if fatal || !p.opts.Lenient {
		return err
	}
	p.lib.Skipped++
	if p.opts.Warn != nil {
		p.opts.Warn(err)
	}
	if src != nil {
		src.skipped = true
		for _, c := range src.pending {
			if p.lib.byID[c.ID] == c {
				delete(p.lib.byID, c.ID)
			}
		}
		src.pending = nil
	}
	return nil
}
