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

	// inline (set by tests to measure the pipeline against a plain loop)
	// decodes and collects every job in send, in the producer's goroutine.
	inline bool
	dec    caseDecoder
	err    error // the inline load's first error
}

type jobKind uint8

const (
	jobLines   jobKind = iota // data holds whole lines of a JSON Lines file
	jobDoc                    // data holds a whole file that is one case
	jobFail                   // a problem found by the producer
	jobEnd                    // the end of a file
	jobRecords                // data holds records given to LoadRecords, split by recs
	jobNotice                 // err is an entry left out, for LoadOptions.Notice
)

type job struct {
	kind  jobKind
	src   *fileState
	data  []byte
	line  int       // line number of data[0]
	off   int64     // offset of data[0] in the file
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
	if p.inline {
		if p.err != nil {
			return false
		}
		p.decode(&p.dec, j)
		p.putBuf(j.data)
		j.data = nil
		p.err = p.take(j)
		return p.err == nil
	}
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

// leftOut queues a notice of a folder entry Load leaves out (see
// LoadOptions.Notice), so that it is told in input order by the collector.
func (p *loader) leftOut(fpath, why string) {
	if p.opts.Notice != nil {
		p.send(&job{kind: jobNotice, err: &Error{File: fpath, Msg: "not read: " + why}, done: closed})
	}
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
	first := 64 << 10
	if sizeHint >= 0 {
		first = int(min(sizeHint+1, chunkSize)) // +1: see EOF in one read
	}
	st := &stream{p: p, src: src, r: r, buf: p.getBuf(first)}
	st.h.SetSeed(p.lib.seed)
	firstLine, err := st.firstLine()
	if err != nil {
		return st.readErr(err)
	}
	if firstLine == nil {
		p.putBuf(st.buf)
		msg := "empty file: no case in it"
		if st.size > 0 {
			msg = "blank file: no case in it"
		}
		return p.fail(src, &Error{File: src.display, Msg: msg}, false)
	}
	t := bytes.TrimRight(firstLine, " \t\r")
	t = bytes.TrimLeft(bytes.TrimPrefix(t, bom), " \t\r")
	if enc := utf16Of(firstLine); enc != "" {
		p.putBuf(st.buf)
		return p.fail(src, &Error{File: src.display, notCase: true,
			Msg: "file is " + enc + "; caselink reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8"}, false)
	}
	if t[0] != '{' && t[0] != '[' {
		p.putBuf(st.buf)
		return p.fail(src, notCaseFile(src), false)
	}
	if !lines {
		lines = t[0] == '{' && t[len(t)-1] == '}'
	}
	src.lines = lines
	if lines {
		return st.queueLines()
	}
	return st.queueDoc(t[0] == '[', sizeHint)
}

// stream is one input being read by readStream: the bytes read and not yet
// queued, and the size and hash of all read so far.
type stream struct {
	p    *loader
	src  *fileState
	r    io.Reader
	h    maphash.Hash
	size int64
	buf  []byte
	eof  bool
}

// fill reads until buf is full or the input ends; a full buffer is grown
// first.
func (st *stream) fill() error {
	if len(st.buf) == cap(st.buf) {
		nb := make([]byte, len(st.buf), 2*cap(st.buf))
		copy(nb, st.buf)
		st.buf = nb
	}
	for len(st.buf) < cap(st.buf) && !st.eof {
		n, err := st.r.Read(st.buf[len(st.buf):cap(st.buf)])
		st.h.Write(st.buf[len(st.buf) : len(st.buf)+n])
		st.size += int64(n)
		st.buf = st.buf[:len(st.buf)+n]
		if err == io.EOF {
			st.eof = true
		} else if err != nil {
			return err
		}
	}
	return nil
}

// readErr queues a read failure, which stops the load.
func (st *stream) readErr(err error) bool {
	return st.p.fail(st.src, &Error{File: st.src.display, Msg: "cannot read", Err: err}, true)
}

// firstLine reads until the first non-blank line and returns it (inside
// buf, without its line end), nil when the input is blank.
func (st *stream) firstLine() ([]byte, error) {
	for off := 0; ; {
		if i := bytes.IndexByte(st.buf[off:], '\n'); i >= 0 {
			if l := st.buf[off : off+i]; !blank(l, off == 0) {
				return l, nil
			}
			off += i + 1
			continue
		}
		if st.eof {
			if l := st.buf[off:]; !blank(l, off == 0) {
				return l, nil
			}
			return nil, nil
		}
		if err := st.fill(); err != nil {
			return nil, err
		}
	}
}

// queueDoc reads the rest of a file that is one JSON value (a case, or a
// list of cases when list) and queues it whole.
func (st *stream) queueDoc(list bool, sizeHint int64) bool {
	p := st.p
	limit := p.opts.maxCase()
	if list {
		limit = -1 // each element is checked
	}
	for {
		if limit >= 0 && int64(len(st.buf)) > limit {
			p.putBuf(st.buf)
			return p.fail(st.src, tooLarge(st.src.display, 0, max(st.size, sizeHint), limit), false)
		}
		if st.eof {
			break
		}
		if err := st.fill(); err != nil {
			return st.readErr(err)
		}
	}
	if !p.send(&job{kind: jobDoc, src: st.src, data: st.buf, line: 1, first: true, done: make(chan struct{})}) {
		return false
	}
	return st.end()
}

// end records the size and hash of the input read in full and queues the
// end of the file.
func (st *stream) end() bool {
	st.src.size = st.size
	st.src.hash = st.h.Sum64()
	return st.p.send(&job{kind: jobEnd, src: st.src, done: closed})
}

// queueLines reads a JSON Lines file and queues it in chunks of whole lines.
func (st *stream) queueLines() bool {
	p := st.p
	line, atStart := 1, true
	for {
		if !st.eof {
			if err := st.fill(); err != nil {
				return st.readErr(err)
			}
		}
		buf := st.buf
		cut := len(buf)
		if !st.eof {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 {
				continue // a line longer than buf: fill grows it
			}
			cut = i + 1
		}
		var next []byte
		if !st.eof {
			next = p.getBuf(max(chunkSize, 2*(len(buf)-cut)))
			next = append(next, buf[cut:]...)
		}
		if cut > 0 {
			j := &job{kind: jobLines, src: st.src, data: buf[:cut], line: line, first: atStart, done: make(chan struct{}),
				off: st.size - int64(len(buf))}
			line += bytes.Count(buf[:cut], nl)
			atStart = false
			if !p.send(j) { // buf belongs to the worker now
				return false
			}
		} else {
			p.putBuf(buf)
		}
		st.buf = next
		if st.eof {
			return st.end()
		}
	}
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

// oddSpaceLine returns the error of a line that failed to decode and holds
// only space, some of it space JSON does not allow (a vertical tab, a form
// feed, U+0085, a no-break space...), nil for any other line: such a line
// is neither blank nor a case, and the error names its first such character
// so that it can be found. (The hint for a line that is not a whole object
// needs a line with something besides space.)
func oddSpaceLine(src *fileState, l []byte, start, line int) *Error {
	if len(bytes.TrimSpace(l[start:])) > 0 {
		return nil
	}
	i := start
	for i < len(l) && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r') {
		i++
	}
	r, _ := utf8.DecodeRune(l[i:])
	return &Error{File: src.display, Line: line, Col: i + 1,
		Msg: fmt.Sprintf("line of blank space holds %U, which JSON does not read as space: remove it", r)}
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
			p.decode(&d, j)
		}
		p.putBuf(j.data)
		j.data = nil
		close(j.done)
	}
}

// decode decodes the data of job j into j.out.
func (p *loader) decode(d *caseDecoder, j *job) {
	switch j.kind {
	case jobLines:
		p.decodeLines(d, j)
	case jobRecords:
		p.decodeRecords(d, j)
	case jobDoc:
		p.decodeDoc(d, j)
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
			if e := oddSpaceLine(j.src, l, start, ln); e != nil {
				j.out = append(j.out, result{err: e})
				continue
			}
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
		c.at = spanOf(l[start:], j.off+int64(end-len(l)+start))
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
	c = placed(c, j.src, data, d.start)
	c.at = spanOf(data[start:], int64(start))
	j.out = append(j.out, result{c: c})
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
		c.at = spanOf(data[sp[0]:sp[1]], int64(sp[0]))
		j.out = append(j.out, result{c: c})
	}
}

// collect takes the results in input order, checks ids for duplicates and
// builds the library.
func (p *loader) collect() error {
	for j := range p.order {
		<-j.done
		if err := p.take(j); err != nil {
			return err
		}
		if p.opts.Progress != nil {
			p.opts.Progress(p.lib.taken())
		}
	}
	return nil
}

// take adds the results of one decoded job to the library.
func (p *loader) take(j *job) error {
	lib := p.lib
	src := j.src
	switch j.kind {
	case jobFail:
		return p.problem(src, j.err, j.fatal)
	case jobNotice:
		if p.opts.Notice != nil {
			p.opts.Notice(j.err)
		}
		return nil
	case jobEnd:
		if !src.skipped {
			lib.Cases = append(lib.Cases, src.pending...)
			lib.files = append(lib.files, src)
		}
		src.pending = nil
		return nil
	}
	if src.skipped {
		return nil
	}
	for _, r := range j.out {
		if r.err != nil {
			if r.file {
				return p.problem(src, r.err, false)
			}
			if err := p.problem(nil, r.err, false); err != nil {
				return err
			}
			continue
		}
		c := r.c
		if other, dup := lib.locationOf(c.ID); dup {
			err := &Error{File: c.Loc.File, Line: c.Loc.Line, Row: c.Loc.Row, ID: c.ID, Msg: "duplicate id", Other: &other}
			if err := p.problem(nil, err, false); err != nil {
				return err
			}
			continue
		}
		if lib.stream != nil {
			if err := lib.stream.give(c, src); err != nil {
				return err
			}
			if lib.stream.keep {
				sk := new(Case)
				*sk = c.skeleton()
				lib.byID[sk.ID] = sk
				src.pending = append(src.pending, sk)
			}
			continue
		}
		lib.byID[c.ID] = c
		src.pending = append(src.pending, c)
	}
	return nil
}

// taken returns how many cases the load has accepted so far.
func (l *Library) taken() int {
	if l.stream != nil {
		return len(l.stream.spans)
	}
	return len(l.byID)
}

// locationOf returns where the case of id already loaded was read, if one
// was.
func (l *Library) locationOf(id string) (Location, bool) {
	if l.stream != nil {
		return l.stream.location(id)
	}
	if prev := l.byID[id]; prev != nil {
		return prev.Loc, true
	}
	return Location{}, false
}

// problem handles a bad case (src == nil) or a bad file: it returns err when
// the load must stop, else warns and skips.
func (p *loader) problem(src *fileState, err *Error, fatal bool) error {
	if fatal || !p.opts.Lenient {
		return err
	}
	if src != nil && src.given {
		return ErrRetracted
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
