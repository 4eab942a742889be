package caselib

import (
	"errors"
	"iter"
	"strconv"
	"unicode/utf8"
)

// Record is one case object read from somewhere other than a file, such as
// a row of a database table.
type Record struct {
	// Row names the record in messages and in the case's Location, e.g. a
	// table row's id. It must not be empty.
	Row string
	// Data is the case object, one JSON value. LoadRecords copies it, so
	// the producer may reuse the buffer once the yield returns.
	Data []byte
}

// recordsBatch is how many bytes of records one decoding job holds.
const recordsBatch = 256 << 10

// recSpan is one record inside a job's data: its row and where it ends.
type recSpan struct {
	row string
	end int
}

// LoadRecords reads the cases of recs, which come from source (a name for
// messages, such as `postgres table "cases"`), with the validation and
// errors of Load: each error names source and the record's Row in place of
// a file and line (source row (0,7): case "IL-0100": field "domain": …).
// An error from recs stops the load and is returned as it is. Records are
// decoded in parallel, like JSON Lines, and kept in the order recs yields
// them. Cases read this way are read-only for WriteRelated: whoever owns
// the records writes them back.
func LoadRecords(source string, recs iter.Seq2[Record, error], opts LoadOptions) (*Library, error) {
	lib, err := load(opts, func(p *loader) {
		src := &fileState{display: source, kind: srcRecords, lines: true}
		j := &job{kind: jobRecords, src: src, data: p.getBuf(recordsBatch)}
		flush := func() bool {
			if len(j.recs) == 0 {
				return true
			}
			j.done = make(chan struct{})
			ok := p.send(j)
			j = &job{kind: jobRecords, src: src, data: p.getBuf(recordsBatch)}
			return ok
		}
		for r, err := range recs {
			if err != nil {
				p.send(&job{kind: jobFail, src: src, err: &Error{File: source, Msg: "cannot read", Err: recsFailure{err}}, fatal: true, done: closed})
				return
			}
			if len(j.data)+len(r.Data) > cap(j.data) && !flush() { // never grow a buffer
				return
			}
			j.data = append(j.data, r.Data...)
			j.recs = append(j.recs, recSpan{row: r.Row, end: len(j.data)})
		}
		if !flush() {
			return
		}
		p.putBuf(j.data)
		p.send(&job{kind: jobEnd, src: src, done: closed})
	})
	var rf recsFailure
	if errors.As(err, &rf) {
		return nil, rf.err
	}
	return lib, err
}

// recsFailure carries an error of the records' producer through the loader.
type recsFailure struct{ err error }

func (r recsFailure) Error() string { return r.err.Error() }

// decodeRecords decodes the records of a jobRecords job.
func (p *loader) decodeRecords(d *caseDecoder, j *job) {
	start := 0
	for _, r := range j.recs {
		data := j.data[start:r.end]
		start = r.end
		if max := p.opts.maxCase(); max >= 0 && int64(len(data)) > max {
			e := tooLarge(j.src.display, 0, int64(len(data)), max)
			e.Row = r.row
			j.out = append(j.out, result{err: e})
			continue
		}
		if !utf8.Valid(data) {
			e := notUTF8(j.src, data, 1)
			e.Line, e.Row = 0, r.row
			j.out = append(j.out, result{err: e})
			continue
		}
		c, ce := d.decodeCase(data, 0, "record")
		if ce != nil {
			e := &Error{File: j.src.display, Row: r.row, ID: ce.id, Field: ce.field, Msg: ce.msg}
			if ce.syntax {
				e.Msg = "at byte " + strconv.Itoa(ce.off+1) + ": " + e.Msg
			}
			j.out = append(j.out, result{err: e})
			continue
		}
		c.Loc = Location{File: j.src.display, Row: r.row}
		c.src = j.src
		j.out = append(j.out, result{c: c})
	}
}
