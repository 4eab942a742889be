package caselib

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// decode.go turns the bytes of one case object into a *Case. It decodes only
// the fields of the model, skips (but still validates) everything else, and
// collects the first wrong-typed field while it reads on, so that the error
// can name the case id even when "id" comes later in the object.

// caseError is a problem with one case object, before it gets a file name.
type caseError struct {
	off    int    // byte offset in the decoded data
	syntax bool   // malformed JSON (the message gets a column)
	id     string // case id, when known
	field  string
	msg    string
}

// caseDecoder decodes case objects. It is not safe for concurrent use; each
// worker has its own.
type caseDecoder struct {
	scanner
	typeErr *caseError // first wrong-typed field of the current case
	sawID   bool       // the current case has an "id" member
	seen    uint32     // the model fields the current case has
	query   bool       // the current object has "text" or "relevant": a judged query's members
	start   int        // offset of the current case's '{'
}

// fieldPath names a field for messages, built only when needed: field, field[idx],
// field.sub or field[idx].sub.
type fieldPath struct {
	field string
	idx   int // < 0: none
	sub   string
}

func top(field string) fieldPath { return fieldPath{field: field, idx: -1} }

func (p fieldPath) with(sub string) fieldPath { p.sub = sub; return p }

func (p fieldPath) String() string {
	s := p.field
	if p.idx >= 0 {
		s += "[" + strconv.Itoa(p.idx) + "]"
	}
	if p.sub != "" {
		s += "." + p.sub
	}
	return s
}

// known top-level fields, as bits, to reject duplicates.
const (
	fID = 1 << iota
	fOrg
	fDate
	fTitle
	fSummary
	fSymptomsText
	fTrigger
	fDetection
	fLessons
	fRemediation
	fActionItems
	fImpact
	fDomain
	fSymptoms
	fComponents
	fContributing
	fRootCause
	fRelated
	fRecurrenceOf
	fURL
	fSources
	fSeverity
)

// decodeCase decodes the object at data[pos:] (after optional whitespace);
// only whitespace may follow it. what names the unit for messages about
// trailing data ("line", "file" or "record").
func (d *caseDecoder) decodeCase(data []byte, pos int, what string) (c *Case, cerr *caseError) {
	d.data, d.pos, d.depth, d.end = data, pos, 0, what
	d.typeErr = nil
	c = new(Case)
	var serr *syntaxError
	func() {
		defer catch(&serr)
		d.ws()
		d.start = d.pos
		if d.peek() != '{' {
			if d.pos >= len(d.data) {
				d.failAt("where a case object is expected")
			}
			k := d.kind()
			d.skip() // a syntax error in it comes first
			d.fail(d.start, "expected a JSON object (one case), found %s", k)
		}
		d.object(c)
		d.ws()
		if d.pos < len(d.data) {
			if what == "record" {
				d.fail(d.pos, "unexpected data after the case object")
			}
			if what == "file" {
				d.fail(d.pos, "unexpected data after the case object (a .json file holds one JSON object, or one object per line)")
			}
			d.fail(d.pos, "unexpected data after the case object (a JSON Lines line holds one object)")
		}
	}()
	switch {
	case serr != nil:
		return nil, &caseError{off: serr.off, syntax: true, id: c.ID, msg: serr.msg}
	case d.typeErr != nil:
		d.typeErr.id = c.ID
		return nil, d.typeErr
	case strings.TrimSpace(c.ID) == "":
		msg := "missing"
		if c.ID != "" || d.sawID {
			msg = "empty"
		}
		return nil, &caseError{off: d.start, field: "id", msg: msg}
	case d.query && d.seen&^fID == 0:
		// {"id","text","relevant"}: a judged query file among the cases.
		return nil, &caseError{off: d.start, id: c.ID, msg: "a judged query (id, text, relevant), not a case: give its file to caselink eval --queries, " +
			"and keep it out of --cases (move it out of the folder or list it in " + IgnoreFile + ")"}
	}
	if i := strings.IndexFunc(c.ID, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(c.ID[i:])
		return nil, &caseError{off: d.start, id: c.ID, field: "id", msg: fmt.Sprintf("has the control character %U: an id is printed to terminals and pages, so it must be printable", r)}
	}
	if msg := badID(c.ID); msg != "" {
		return nil, &caseError{off: d.start, id: shortID(c.ID), field: "id", msg: msg}
	}
	return c, nil
}

// MaxIDLen is the longest case id accepted, in bytes: ids are printed on
// every line of output and in page addresses, and the longest of 6,854 real
// incidents has 73.
const MaxIDLen = 200

// badID says what is wrong with an id that is not empty and printable,
// "" when nothing is: ids become page paths (/cases/{id}), file-like keys
// and words on a command line, where a slash or a space at either end would
// name another case or none.
func badID(id string) string {
	switch {
	case len(id) > MaxIDLen:
		return fmt.Sprintf("is %d bytes long, over the limit of %d", len(id), MaxIDLen)
	case strings.ContainsRune(id, '/'):
		return "has a '/': an id is part of the case's address (/cases/ID), so it cannot hold one"
	case strings.TrimSpace(id) != id:
		return "begins or ends with a space: remove it (ids are compared exactly)"
	}
	return ""
}

// shortID is an id cut for an error message: a 100,000-character id is
// not repeated whole.
func shortID(id string) string {
	if len(id) <= 60 {
		return id
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(id[cut]) {
		cut--
	}
	return id[:cut] + "…"
}

// caseList returns the bounds of the elements of the JSON list at data[pos:]
// (after optional whitespace), a file that holds a list of cases; only
// whitespace may follow the list. The elements are checked to be valid
// JSON, not yet to be cases.
func (d *caseDecoder) caseList(data []byte, pos int) (spans [][2]int, cerr *caseError) {
	d.data, d.pos, d.depth, d.end = data, pos, 0, "file"
	var serr *syntaxError
	func() {
		defer catch(&serr)
		d.ws()
		d.enter()
		d.pos++ // '['
		d.ws()
		if d.peek() == ']' {
			d.pos++
		} else {
			for {
				d.ws()
				start := d.pos
				d.skip()
				spans = append(spans, [2]int{start, d.pos})
				if !d.next(']') {
					break
				}
			}
		}
		d.ws()
		if d.pos < len(d.data) {
			d.fail(d.pos, "unexpected data after the list of cases")
		}
	}()
	if serr != nil {
		return nil, &caseError{off: serr.off, syntax: true, msg: serr.msg}
	}
	return spans, nil
}

// wrongType records a type error for the value at pos (the first one wins)
// and skips the value.
func (d *caseDecoder) wrongType(p fieldPath, expected string) {
	if d.typeErr == nil {
		d.typeErr = &caseError{off: d.pos, field: p.String(), msg: "expected " + expected + ", found " + d.kind()}
	}
	d.skip()
}

func (d *caseDecoder) object(c *Case) {
	d.enter()
	d.pos++
	d.ws()
	d.sawID, d.query, d.seen = false, false, 0
	if d.peek() == '}' {
		d.pos++
		d.depth--
		return
	}
	var seen uint32
	for {
		ks, ke, esc := d.key()
		name := d.data[ks:ke]
		if esc {
			d.buf = unescape(d.buf[:0], name)
			name = d.buf
		}
		if n := string(name); n == "text" || n == "relevant" {
			d.query = true
		}
		bit := d.member(c, string(name))
		if bit != 0 {
			if seen&bit != 0 && d.typeErr == nil {
				d.typeErr = &caseError{off: ks - 1, field: string(name), msg: "appears twice in the object"}
			}
			seen |= bit
		}
		if !d.next('}') {
			break
		}
	}
	d.seen = seen
	d.depth--
}

// member decodes the value of top-level member name into c and returns the
// field's bit (0 for fields outside the model, which are skipped).
func (d *caseDecoder) member(c *Case, name string) uint32 {
	if bit, ok := d.textMember(c, name); ok {
		return bit
	}
	if bit, ok := d.listMember(c, name); ok {
		return bit
	}
	switch name {
	case "id":
		d.sawID = d.peek() == '"'
		c.ID = d.str1("id")
		return fID
	case "org":
		c.Org = d.str1("org")
		return fOrg
	case "date":
		at := d.pos
		c.Date = d.str1("date")
		if c.Date != "" && d.typeErr == nil {
			if err := CheckDate(c.Date); err != nil {
				d.typeErr = &caseError{off: at, field: "date", msg: err.Error()}
			}
		}
		return fDate
	case "impact":
		c.Impact = d.impact()
		return fImpact
	case "timeline":
		c.DetectedAfter, c.ResolvedAfter = d.timeline()
		return 0 // not a model field that must appear once: libraries use "timeline" for other shapes too
	case "recurrence_of":
		c.RecurrenceOf = d.str1("recurrence_of")
		return fRecurrenceOf
	case "url":
		c.URL = d.str1("url")
		return fURL
	case "sources":
		c.Sources = d.sources()
		return fSources
	case "severity":
		c.Severity = d.str1("severity")
		return fSeverity
	}
	d.skip()
	return 0
}

// textMember decodes a member that is text ({"en","ko"}) or a list of
// texts; ok is false for any other name.
func (d *caseDecoder) textMember(c *Case, name string) (bit uint32, ok bool) {
	switch name {
	case "title":
		c.Title = d.text("title")
		return fTitle, true
	case "summary":
		c.Summary = d.text("summary")
		return fSummary, true
	case "symptoms_text":
		c.SymptomsText = d.text("symptoms_text")
		return fSymptomsText, true
	case "trigger":
		c.Trigger = d.text("trigger")
		return fTrigger, true
	case "detection":
		c.Detection = d.text("detection")
		return fDetection, true
	case "lessons":
		c.Lessons = d.text("lessons")
		return fLessons, true
	case "remediation":
		c.Remediation = d.texts("remediation")
		return fRemediation, true
	case "action_items":
		c.ActionItems = d.texts("action_items")
		return fActionItems, true
	}
	return 0, false
}

// listMember decodes a member that is a list of strings (the tags and
// related); ok is false for any other name.
func (d *caseDecoder) listMember(c *Case, name string) (bit uint32, ok bool) {
	switch name {
	case "domain":
		c.Domain = d.strs("domain", "a list of strings")
		return fDomain, true
	case "symptoms":
		c.Symptoms = d.strs("symptoms", "a list of strings")
		return fSymptoms, true
	case "components":
		c.Components = d.strs("components", "a list of strings")
		return fComponents, true
	case "contributing":
		c.Contributing = d.strs("contributing", "a list of strings")
		return fContributing, true
	case "root_cause":
		if d.peek() == '"' {
			if s := d.stringValue(); s != "" {
				c.RootCause = []string{s}
			}
		} else {
			c.RootCause = d.strs("root_cause", "a string or a list of strings")
		}
		return fRootCause, true
	case "related":
		c.Related = d.strs("related", "a list of case ids (strings)")
		return fRelated, true
	}
	return 0, false
}

// str1 decodes a string or null.
func (d *caseDecoder) str1(field string) string { return d.str1p(top(field)) }

func (d *caseDecoder) str1p(p fieldPath) string {
	switch d.peek() {
	case '"':
		return d.stringValue()
	case 'n':
		d.lit("null")
		return ""
	}
	d.wrongType(p, "a string")
	return ""
}

const textExpected = `a string or an object with "en" and "ko"`

// text decodes a Text: {"en","ko"}, a string, or null.
func (d *caseDecoder) text(field string) Text { return d.textp(top(field)) }

func (d *caseDecoder) textp(p fieldPath) (t Text) {
	switch d.peek() {
	case '"':
		t.EN = d.stringValue()
	case 'n':
		d.lit("null")
	case '{':
		d.textObject(p, &t, nil)
	default:
		d.wrongType(p, textExpected)
	}
	return t
}

// textObject decodes the members of an {"en","ko"} object into t. When inner
// is not nil, a "text" member is decoded into *inner and *hasInner set (the
// element form {"text": {...}} of remediation and action items).
func (d *caseDecoder) textObject(p fieldPath, t *Text, inner *Text) (hasInner bool) {
	d.objectMembers(func(name []byte) {
		switch string(name) {
		case "en":
			t.EN = d.str1p(p.with("en"))
		case "ko":
			t.KO = d.str1p(p.with("ko"))
		case "text":
			if inner != nil {
				*inner = d.textp(p.with("text"))
				hasInner = true
				return
			}
			d.skip()
		default:
			d.skip()
		}
	})
	return hasInner
}

// objectMembers scans an object at pos, calling f with each member name
// (unescaped) with pos at the value; f must consume the value.
func (d *caseDecoder) objectMembers(f func(name []byte)) {
	d.enter()
	d.pos++
	d.ws()
	if d.peek() == '}' {
		d.pos++
		d.depth--
		return
	}
	for {
		ks, ke, esc := d.key()
		name := d.data[ks:ke]
		if esc {
			name = unescape(nil, name)
		}
		f(name)
		if !d.next('}') {
			break
		}
	}
	d.depth--
}

// listElements scans a list at pos, calling f with each element's index with
// pos at the element; f must consume it.
func (d *caseDecoder) listElements(f func(i int)) {
	d.enter()
	d.pos++
	d.ws()
	if d.peek() == ']' {
		d.pos++
		d.depth--
		return
	}
	for i := 0; ; i++ {
		d.ws()
		f(i)
		if !d.next(']') {
			break
		}
	}
	d.depth--
}

// strs decodes a list of strings (or null); a null element is a type
// error, as a writer that drops it would change the list behind the
// user's back.
func (d *caseDecoder) strs(field, expected string) []string {
	switch d.peek() {
	case 'n':
		d.lit("null")
		return nil
	case '[':
	default:
		d.wrongType(top(field), expected)
		return nil
	}
	var out []string
	d.listElements(func(i int) {
		if d.peek() == '"' {
			out = append(out, d.stringValue())
			return
		}
		d.wrongType(fieldPath{field: field, idx: i}, "a string")
	})
	return out
}

// texts decodes remediation or action_items.
func (d *caseDecoder) texts(field string) []Text {
	switch d.peek() {
	case 'n':
		d.lit("null")
		return nil
	case '[':
	default:
		d.wrongType(top(field), `a list of texts`)
		return nil
	}
	var out []Text
	d.listElements(func(i int) {
		switch d.peek() {
		case '"':
			out = append(out, Text{EN: d.stringValue()})
		case '{':
			var t, inner Text
			if d.textObject(fieldPath{field: field, idx: i}, &t, &inner) {
				t = inner
			}
			out = append(out, t)
		default:
			d.wrongType(fieldPath{field: field, idx: i}, `a string, a {"text": …} object or an {"en", "ko"} object`)
		}
	})
	return out
}

func (d *caseDecoder) impact() (im Impact) {
	switch d.peek() {
	case 'n':
		d.lit("null")
	case '"':
		im.Scope = d.stringValue()
	case '{':
		d.objectMembers(func(name []byte) {
			switch string(name) {
			case "scope":
				im.Scope = d.str1("impact.scope")
			case "users":
				im.Users = d.str1("impact.users")
			case "region":
				im.Region = d.str1("impact.region")
			default:
				d.skip()
			}
		})
	default:
		d.wrongType(top("impact"), `an object with "scope", "users" and "region", or a string`)
	}
	return im
}

// timeline takes "detected_after" and "resolved_after" (strings or null)
// from a timeline object. A list of events (objects or strings) is left
// alone, as libraries use the name for that too; any other value, or an
// element of the list that is no event, is a type error.
func (d *caseDecoder) timeline() (detected, resolved string) {
	switch d.peek() {
	case 'n':
		d.lit("null")
	case '[':
		d.listElements(func(i int) {
			if c := d.peek(); c != '{' && c != '"' {
				d.wrongType(fieldPath{field: "timeline", idx: i}, "an event (an object or a string)")
				return
			}
			d.skip()
		})
	case '{':
		d.objectMembers(func(name []byte) {
			switch string(name) {
			case "detected_after":
				detected = d.str1p(top("timeline").with("detected_after"))
			case "resolved_after":
				resolved = d.str1p(top("timeline").with("resolved_after"))
			default:
				d.skip()
			}
		})
	default:
		d.wrongType(top("timeline"), `an object with "detected_after" and "resolved_after", or a list of events`)
	}
	return detected, resolved
}

func (d *caseDecoder) sources() []Source {
	switch d.peek() {
	case 'n':
		d.lit("null")
		return nil
	case '[':
	default:
		d.wrongType(top("sources"), `a list of {"url", "kind"} objects`)
		return nil
	}
	var out []Source
	d.listElements(func(i int) {
		switch d.peek() {
		case '"':
			out = append(out, Source{URL: d.stringValue()})
		case '{':
			var src Source
			p := fieldPath{field: "sources", idx: i}
			d.objectMembers(func(name []byte) {
				switch string(name) {
				case "url":
					src.URL = d.str1p(p.with("url"))
				case "kind":
					src.Kind = d.str1p(p.with("kind"))
				default:
					d.skip()
				}
			})
			out = append(out, src)
		default:
			d.wrongType(fieldPath{field: "sources", idx: i}, `an object with "url" and "kind"`)
		}
	})
	return out
}
