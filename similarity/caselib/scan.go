package caselib

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// scan.go is a small strict JSON scanner (RFC 8259) over a byte slice. It
// validates everything it passes over, skips values without allocating, and
// reports the first syntax error with its byte offset. It does not check
// UTF-8 (callers do that once per line or file); bytes >= 0x80 are accepted
// inside strings and rejected elsewhere, as encoding/json does.

// maxDepth bounds the nesting of lists and objects (as in encoding/json).
const maxDepth = 10000

// syntaxError is a malformed-JSON error at byte offset off.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

// scanner reads JSON from data starting at pos. Syntax errors panic with a
// *syntaxError; entry points recover them with catch.
type scanner struct {
	data  []byte
	pos   int
	depth int
	end   string // what the end of data is called in messages: "line" or "file"
	buf   []byte // scratch for unescaping
}

// catch turns a panicking *syntaxError into *err; other panics go on.
func catch(err **syntaxError) {
	if r := recover(); r != nil {
		se, ok := r.(*syntaxError)
		if !ok {
			panic(r)
		}
		*err = se
	}
}

func (s *scanner) fail(off int, format string, args ...any) {
	panic(&syntaxError{off: off, msg: fmt.Sprintf(format, args...)})
}

// failAt reports an unexpected byte (or the end of data) at s.pos.
func (s *scanner) failAt(context string) {
	if s.pos >= len(s.data) {
		end := s.end
		if end == "" {
			end = "input"
		}
		s.fail(s.pos, "unexpected end of %s %s", end, context)
	}
	s.fail(s.pos, "invalid character %s %s", describeByte(s.data[s.pos:]), context)
}

// describeByte names the character at the start of b for a message.
func describeByte(b []byte) string {
	c := b[0]
	switch {
	case c >= 0x20 && c < 0x7f:
		if c == '\'' {
			return `"'"`
		}
		return "'" + string(c) + "'"
	case c < utf8.RuneSelf:
		return fmt.Sprintf("U+%04X", c)
	}
	r, _ := utf8.DecodeRune(b)
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02X", c)
	}
	return fmt.Sprintf("%q (U+%04X)", r, r)
}

// ws skips JSON whitespace.
func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the byte at pos, or 0 at the end (0 is never valid there).
func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// plain[c] is true for bytes that stand for themselves inside a string.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special reports whether any of the 8 bytes in x is '"', '\\' or a control
// character (< 0x20). Each test is exact: a borrow can only start at a byte
// that matches.
func special(x uint64) bool {
	lt20 := (x - 0x20*ones) &^ x
	quote := x ^ '"'*ones
	bslash := x ^ '\\'*ones
	return (lt20|(quote-ones)&^quote|(bslash-ones)&^bslash)&highs != 0
}

// str scans a string whose opening quote is at pos. It returns the bounds of
// the content (without quotes) and whether it holds escapes; pos ends after
// the closing quote.
func (s *scanner) str() (start, end int, esc bool) {
	d := s.data
	i := s.pos + 1
	start = i
	for {
		for i+8 <= len(d) && !special(binary.LittleEndian.Uint64(d[i:])) {
			i += 8
		}
		for i < len(d) && plain[d[i]] {
			i++
		}
		if i >= len(d) {
			s.pos = i
			s.failAt("in string")
		}
		switch c := d[i]; c {
		case '"':
			s.pos = i + 1
			return start, i, esc
		case '\\':
			esc = true
			if i+1 >= len(d) {
				s.pos = i + 1
				s.failAt("in string escape")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(d) {
						s.pos = i + k
						s.failAt(`in \u escape`)
					}
					if !isHex(d[i+k]) {
						s.pos = i + k
						s.failAt(`in \u escape (expected a hex digit)`)
					}
				}
				i += 6
			default:
				s.pos = i + 1
				s.fail(i, "invalid escape %s in string", describeEscape(d[i:]))
			}
		default: // control character
			s.pos = i
			s.fail(i, "control character U+%04X in string (write it as an escape)", c)
		}
	}
}

func describeEscape(b []byte) string {
	if len(b) > 1 && b[1] >= 0x20 && b[1] < 0x7f {
		return "'\\" + string(b[1]) + "'"
	}
	return "'\\' followed by " + describeByte(b[1:])
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// stringValue scans a string at pos and returns its decoded value.
func (s *scanner) stringValue() string {
	start, end, esc := s.str()
	if !esc {
		return string(s.data[start:end])
	}
	s.buf = unescape(s.buf[:0], s.data[start:end])
	return string(s.buf)
}

// unescape appends the decoded form of string content b (already validated)
// to dst. Lone surrogates become U+FFFD, as in encoding/json.
func unescape(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			j := i + 1
			for j < len(b) && b[j] != '\\' {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
			continue
		}
		switch b[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(b[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if r2 := utf16.DecodeRune(r, hex4(b[i+2:])); r2 != utf8.RuneError {
						dst = utf8.AppendRune(dst, r2)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, b[i+1])
		}
		i += 2
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// skip scans over any JSON value at pos (after whitespace).
func (s *scanner) skip() {
	switch c := s.peek(); c {
	case '"':
		s.str()
	case '{':
		s.enter()
		s.pos++
		s.ws()
		if s.peek() == '}' {
			s.pos++
			s.depth--
			return
		}
		for {
			s.key()
			s.skip()
			if !s.next('}') {
				break
			}
		}
		s.depth--
	case '[':
		s.enter()
		s.pos++
		s.ws()
		if s.peek() == ']' {
			s.pos++
			s.depth--
			return
		}
		for {
			s.ws()
			s.skip()
			if !s.next(']') {
				break
			}
		}
		s.depth--
	case 't':
		s.lit("true")
	case 'f':
		s.lit("false")
	case 'n':
		s.lit("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			s.num()
			return
		}
		s.failAt("where a value is expected")
	}
}

func (s *scanner) enter() {
	s.depth++
	if s.depth > maxDepth {
		s.fail(s.pos, "lists and objects nested more than %d deep", maxDepth)
	}
}

// key scans `ws "name" ws : ws` inside an object and returns the bounds of
// the name's content and whether it holds escapes.
func (s *scanner) key() (start, end int, esc bool) {
	s.ws()
	if s.peek() != '"' {
		s.failAt("where a member name (a string) is expected")
	}
	start, end, esc = s.str()
	s.ws()
	if s.peek() != ':' {
		s.failAt("after member name (expected ':')")
	}
	s.pos++
	s.ws()
	return
}

// next scans the separator after a member or element: it returns true after
// ',' and false after the closing byte.
func (s *scanner) next(closing byte) bool {
	s.ws()
	switch s.peek() {
	case ',':
		s.pos++
		return true
	case closing:
		s.pos++
		return false
	}
	if closing == '}' {
		s.failAt("after object member (expected ',' or '}')")
	}
	s.failAt("after list element (expected ',' or ']')")
	return false
}

func (s *scanner) lit(word string) {
	for i := 0; i < len(word); i++ {
		if s.pos >= len(s.data) || s.data[s.pos] != word[i] {
			if i == 0 {
				s.failAt("where a value is expected")
			}
			s.failAt("in literal " + word)
		}
		s.pos++
	}
}

// num scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) num() {
	d := s.data
	if s.peek() == '-' {
		s.pos++
	}
	switch c := s.peek(); {
	case c == '0':
		s.pos++
	case c >= '1' && c <= '9':
		for s.pos < len(d) && d[s.pos] >= '0' && d[s.pos] <= '9' {
			s.pos++
		}
	default:
		s.failAt("in number (expected a digit)")
	}
	if s.peek() == '.' {
		s.pos++
		s.digits()
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		s.digits()
	}
}

func (s *scanner) digits() {
	d := s.data
	if c := s.peek(); c < '0' || c > '9' {
		s.failAt("in number (expected a digit)")
	}
	for s.pos < len(d) && d[s.pos] >= '0' && d[s.pos] <= '9' {
		s.pos++
	}
}

// kind names the type of the value starting at pos, for messages.
func (s *scanner) kind() string {
	switch c := s.peek(); c {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
