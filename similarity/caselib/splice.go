package caselib

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// splice.go rewrites the "related" member of one JSON object in place; the
// rules are in SpliceRelated's documentation.

// member is a top-level member of an object: offsets into the object bytes.
type member struct {
	keyStart, keyEnd int // the name, quotes included
	valStart, valEnd int
	related, id      bool // the name is "related" / "id"
}

// objectLayout is the top-level structure of a JSON object.
type objectLayout struct {
	start, end int // offsets of '{' and just after '}'
	members    []member
}

// parseLayout scans b, which must hold exactly one JSON object (whitespace
// around it allowed), and returns its top-level members.
func parseLayout(b []byte) (lay objectLayout, err error) {
	s := scanner{data: b, end: "input"}
	var serr *syntaxError
	func() {
		defer catch(&serr)
		s.ws()
		lay.start = s.pos
		if s.peek() != '{' {
			if s.pos >= len(b) {
				s.failAt("where an object is expected")
			}
			k := s.kind()
			s.skip()
			s.fail(lay.start, "expected a JSON object, found %s", k)
		}
		s.depth = 1
		s.pos++
		s.ws()
		if s.peek() == '}' {
			s.pos++
		} else {
			for {
				ks, ke, esc := s.key()
				m := member{keyStart: ks - 1, keyEnd: ke + 1, valStart: s.pos}
				name := b[ks:ke]
				if esc {
					name = unescape(nil, name)
				}
				m.related = string(name) == "related"
				m.id = string(name) == "id"
				s.skip()
				m.valEnd = s.pos
				lay.members = append(lay.members, m)
				if !s.next('}') {
					break
				}
			}
		}
		lay.end = s.pos
		s.ws()
		if s.pos < len(b) {
			s.fail(s.pos, "unexpected data after the object")
		}
	}()
	if serr != nil {
		return lay, serr
	}
	return lay, nil
}

// SpliceRelated returns a copy of obj, the bytes of one JSON object (with
// optional whitespace around it), whose top-level "related" value is ids, most
// similar first, as a list of JSON strings. Every other byte is kept.
//
// When obj has a top-level "related" member, only its value is replaced.
// Otherwise the member is added as the object's last member, right after the
// value of the current last member, so whatever follows that value (a
// newline and the indentation of the closing brace, say) stays in place.
//
// The new bytes follow the object's own style. A new member copies the bytes
// between the first member's name and its value (":" or ": ") and the bytes
// after the first comma between members (nothing, a space, or a newline and
// indentation). The list copies the layout of the first non-empty list among
// the object's top-level members, "related" itself first: one line or one
// element per line, the padding inside its brackets, and the separator between
// its elements. An object without such a list gets ["a","b"] in a compact
// object, ["a", "b"] in one whose members are separated by ", ", and one
// element per line, indented one step deeper than the members, in a
// multi-line object. Ids are written without HTML escaping; in an object that
// writes all non-ASCII characters as \u escapes, ids do the same. An empty
// ids gives [].
//
// SpliceRelated fails when obj is not exactly one JSON object, when the
// object has two "related" members, or when an id is not valid UTF-8.
func SpliceRelated(obj []byte, ids []string) ([]byte, error) {
	out, _, err := spliceRelated(obj, ids)
	return out, err
}

// spliceRelated is SpliceRelated that also returns the object's top-level
// "id" when it is a string (for the writer's sanity check).
func spliceRelated(obj []byte, ids []string) (out []byte, id string, err error) {
	for _, s := range ids {
		if !utf8.ValidString(s) {
			return nil, "", fmt.Errorf("caselib: SpliceRelated: id %q is not valid UTF-8", s)
		}
	}
	lay, err := parseLayout(obj)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			line, col := position(obj, se.off)
			return nil, "", fmt.Errorf("caselib: SpliceRelated: invalid JSON object at %d:%d: %s", line, col, se.msg)
		}
		return nil, "", err
	}
	rel := -1
	for i, m := range lay.members {
		if m.related {
			if rel >= 0 {
				return nil, "", errors.New(`caselib: SpliceRelated: the object has two "related" members`)
			}
			rel = i
		}
		if m.id && obj[m.valStart] == '"' {
			s := scanner{data: obj, pos: m.valStart}
			id = s.stringValue()
		}
	}
	st := layoutStyle(obj, lay, rel)
	list := st.appendList(nil, ids, asciiOnly(obj))

	out = make([]byte, 0, len(obj)+len(list)+32)
	switch {
	case rel >= 0:
		m := lay.members[rel]
		out = append(out, obj[:m.valStart]...)
		out = append(out, list...)
		out = append(out, obj[m.valEnd:]...)
	case len(lay.members) == 0:
		out = append(out, obj[:lay.start+1]...)
		out = append(out, `"related"`...)
		out = append(out, st.colon...)
		out = append(out, list...)
		out = append(out, obj[lay.start+1:]...)
	default:
		last := lay.members[len(lay.members)-1]
		out = append(out, obj[:last.valEnd]...)
		out = append(out, ',')
		out = append(out, st.memberSep...)
		out = append(out, `"related"`...)
		out = append(out, st.colon...)
		out = append(out, list...)
		out = append(out, obj[last.valEnd:]...)
	}
	return out, id, nil
}

// listStyle is how a list is laid out: "[" open elem sep elem ... close "]".
type listStyle struct {
	open, sep, close string
	colon, memberSep string // for a new member: name-to-value bytes, after-comma bytes
}

func (st listStyle) appendList(dst []byte, ids []string, ascii bool) []byte {
	dst = append(dst, '[')
	if len(ids) == 0 {
		return append(dst, ']')
	}
	dst = append(dst, st.open...)
	for i, s := range ids {
		if i > 0 {
			dst = append(dst, st.sep...)
		}
		dst = appendString(dst, s, ascii)
	}
	dst = append(dst, st.close...)
	return append(dst, ']')
}

// layoutStyle works out the separators of obj (see the top of the file).
func layoutStyle(obj []byte, lay objectLayout, rel int) listStyle {
	st := memberStyle(obj, lay)
	found, sepFound := copyListLayout(obj, lay, rel, &st)
	multiline := false
	if found {
		multiline = strings.Contains(st.open, "\n")
	} else if strings.Contains(st.memberSep, "\n") {
		multiline = true
		st.open, st.close = deeperLines(obj, lay, st.memberSep)
	}
	if !sepFound {
		switch {
		case multiline:
			st.sep = "," + st.open
		case st.memberSep != "":
			st.sep = ", "
		default:
			st.sep = ","
		}
	}
	return st
}

// memberStyle returns the colon and member separator of obj's members.
func memberStyle(obj []byte, lay objectLayout) listStyle {
	var st listStyle
	ms := lay.members
	if len(ms) > 0 {
		st.colon = string(obj[ms[0].keyEnd:ms[0].valStart])
	} else {
		st.colon = ":"
	}
	switch {
	case len(ms) >= 2:
		i := ms[0].valEnd + bytes.IndexByte(obj[ms[0].valEnd:ms[1].keyStart], ',')
		st.memberSep = string(obj[i+1 : ms[1].keyStart])
	case len(ms) == 1:
		if ws := obj[lay.start+1 : ms[0].keyStart]; bytes.IndexByte(ws, '\n') >= 0 {
			st.memberSep = string(ws)
		} else if len(st.colon) > 1 {
			st.memberSep = " "
		}
	}
	return st
}

// copyListLayout copies into st the padding of a non-empty list member,
// "related" (member rel) first, and its element separator when it has two
// elements or more; it reports what it found.
func copyListLayout(obj []byte, lay objectLayout, rel int, st *listStyle) (found, sepFound bool) {
	ms := lay.members
	order := make([]int, 0, len(ms))
	if rel >= 0 {
		order = append(order, rel)
	}
	for i := range ms {
		if i != rel {
			order = append(order, i)
		}
	}
	for _, i := range order {
		m := ms[i]
		if obj[m.valStart] != '[' {
			continue
		}
		open, sep, close, n := listLayout(obj[m.valStart:m.valEnd])
		if n == 0 {
			continue
		}
		if !found {
			found = true
			st.open, st.close = open, close
		}
		if n >= 2 && sameShape(open, st.open) {
			st.sep = sep
			return true, true
		}
	}
	return found, false
}

// deeperLines returns the padding of a list written one element per line,
// one step deeper than the members separated by memberSep.
func deeperLines(obj []byte, lay objectLayout, memberSep string) (open, close string) {
	cut := strings.LastIndexByte(memberSep, '\n') + 1
	newline, indent := memberSep[:cut], memberSep[cut:]
	closing := ""
	if ms := lay.members; len(ms) > 0 {
		ws := obj[ms[len(ms)-1].valEnd : lay.end-1]
		closing = string(ws[bytes.LastIndexByte(ws, '\n')+1:])
	}
	step := "  "
	if len(indent) > len(closing) && strings.HasPrefix(indent, closing) {
		step = indent[len(closing):]
	}
	return newline + indent + step, newline + indent
}

// sameShape reports whether two list paddings agree on being multi-line.
func sameShape(a, b string) bool {
	return strings.Contains(a, "\n") == strings.Contains(b, "\n")
}

// listLayout returns the padding after '[', the separator between the first
// two elements, the padding before ']' and the number of elements of the
// (valid) list l.
func listLayout(l []byte) (open, sep, close string, n int) {
	s := scanner{data: l, pos: 1}
	s.ws()
	if s.peek() == ']' {
		return "", "", "", 0
	}
	open = string(l[1:s.pos])
	for {
		s.skip()
		n++
		end := s.pos
		s.ws()
		if s.peek() == ']' {
			close = string(l[end:s.pos])
			return
		}
		s.pos++ // ','
		s.ws()
		if n == 1 {
			sep = string(l[end:s.pos])
		}
	}
}

// asciiOnly reports whether obj writes non-ASCII characters only as \u
// escapes: it has no raw non-ASCII byte but at least one escape of one.
func asciiOnly(obj []byte) bool {
	for _, c := range obj {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for i := 0; ; {
		j := bytes.Index(obj[i:], []byte(`\u`))
		if j < 0 || i+j+6 > len(obj) {
			return false
		}
		i += j + 2
		if string(obj[i:i+2]) != "00" {
			return true
		}
	}
}

// appendString appends s as a JSON string: '"', '\\' and control characters
// escaped, everything else as is (or as \u escapes when ascii is set).
func appendString(dst []byte, s string, ascii bool) []byte {
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r < 0x20:
			dst = appendU(dst, r)
		case r >= utf8.RuneSelf && ascii:
			if r > 0xffff {
				r -= 0x10000
				dst = appendU(dst, 0xd800+(r>>10))
				dst = appendU(dst, 0xdc00+(r&0x3ff))
			} else {
				dst = appendU(dst, r)
			}
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

func appendU(dst []byte, r rune) []byte {
	dst = append(dst, `\u`...)
	h := strconv.FormatInt(int64(r), 16)
	for i := len(h); i < 4; i++ {
		dst = append(dst, '0')
	}
	return append(dst, h...)
}
