// Package tuned keeps the engine weights a library learned from its
// curators: the [weights] table of the library's caselink.toml (read, write,
// apply to a similarity.Config), the log of links relate wrote itself (so
// that they are not learned from), and the search `caselink tune` runs to
// choose the weights by grouped cross-validation on the curated links and
// on the verdicts given on match hits (feedback.go).
//
// The set of weights a library may carry is the Fields list: one place to
// adjust when the engine's Config changes. The rest of caselink.toml (the
// server's settings, defaults) belongs to the general config loader and is
// kept byte for byte when the weights are saved. Scoring itself lives in
// package similarity; this package only chooses its numbers.
package tuned

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// FileName is the configuration file kept in a library's folder.
const FileName = "caselink.toml"

// Table is the name of the TOML table the weights live in.
const Table = "weights"

// Field is one weight of similarity.Config that a [weights] table may set.
type Field struct {
	// Key names it in the table.
	Key string
	// Doc says what it weighs, for --help and error messages.
	Doc string
	// Of returns the Config field it sets.
	Of func(c *similarity.Config) *float64
}

// Fields are the weights a library may carry, in the order they are written.
// Views are normalized by the engine; tag kinds weigh the kinds of tag
// against one another inside the tag view; every value is in [0, 1].
var Fields = func() []Field {
	fs := []Field{}
	for v := range similarity.NumViews {
		view := similarity.View(v)
		fs = append(fs, Field{Key: view.String(), Doc: "weight of the " + view.String() + " view in case-to-case scores",
			Of: func(c *similarity.Config) *float64 { return &c.Views[view] }})
	}
	for k, name := range similarity.TagKindNames {
		fs = append(fs, Field{Key: "tag_" + name, Doc: "weight of " + name + ": tags inside the tag view",
			Of: func(c *similarity.Config) *float64 { return &c.TagKinds[k] }})
	}
	return append(fs,
		Field{Key: "relate_date", Doc: "weight of the date prior of relate",
			Of: func(c *similarity.Config) *float64 { return &c.RelateDate }},
		Field{Key: "cross_views", Doc: "weight, in relate, of a title's words meeting another record's body (records written as a title and a body)",
			Of: func(c *similarity.Config) *float64 { return &c.CrossViews }},
		Field{Key: "dupes_date", Doc: "weight of the date prior of dupes",
			Of: func(c *similarity.Config) *float64 { return &c.DupeDate }},
		Field{Key: "second_stage", Doc: "weight of the second stage of match",
			Of: func(c *similarity.Config) *float64 { return &c.Expand }},
	)
}()

// field returns the Field of a key.
func field(key string) (Field, bool) {
	for _, f := range Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Weights are the values of a [weights] table: key of a Field → value. A
// key absent keeps the engine's default.
type Weights struct {
	Values map[string]float64
	// Note says where the weights came from (tune writes the date, the
	// number of curated links and the held-out gain); it is not applied.
	Note string
}

// Empty reports whether w sets no weight.
func (w Weights) Empty() bool { return len(w.Values) == 0 }

// Apply sets the fields of cfg that w names.
func Apply(cfg *similarity.Config, w Weights) {
	for _, f := range Fields {
		if x, ok := w.Values[f.Key]; ok {
			*f.Of(cfg) = x
		}
	}
}

// Capture returns the values of the given keys in cfg (every Field when
// keys is empty).
func Capture(cfg similarity.Config, keys ...string) Weights {
	w := Weights{Values: map[string]float64{}}
	for _, f := range Fields {
		if len(keys) == 0 || slices.Contains(keys, f.Key) {
			w.Values[f.Key] = *f.Of(&cfg)
		}
	}
	return w
}

// check reports a value out of range or a table whose views all weigh 0.
func (w Weights) check(cfg similarity.Config) error {
	for _, k := range slices.Sorted(maps.Keys(w.Values)) {
		x := w.Values[k]
		if _, ok := field(k); !ok {
			return fmt.Errorf("unknown key %q (known: %s)", k, strings.Join(Keys(), ", "))
		}
		if math.IsNaN(x) || x < 0 || x > 1 {
			return fmt.Errorf("%s = %v: want a number from 0 to 1", k, x)
		}
	}
	Apply(&cfg, w)
	var sum float64
	for _, x := range cfg.Views {
		sum += x
	}
	if sum == 0 {
		return errors.New("every view weighs 0: give at least one of symptoms, cause, response, tags a weight above 0")
	}
	return nil
}

// Keys returns the keys of every Field, in order.
func Keys() []string {
	ks := make([]string, len(Fields))
	for i, f := range Fields {
		ks[i] = f.Key
	}
	return ks
}

// Load reads the [weights] table of the TOML file at path. A missing file,
// or one without the table, gives empty Weights and no error. Errors name
// the file and the key.
func Load(path string) (Weights, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Weights{}, nil
	}
	if err != nil {
		return Weights{}, err
	}
	return Parse(path, data)
}

// Parse reads the [weights] table of a TOML document; path names it in
// errors.
func Parse(path string, data []byte) (Weights, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return Weights{}, fmt.Errorf("%s: %v", path, err)
	}
	raw, ok := doc[Table]
	if !ok {
		return Weights{}, nil
	}
	tab, ok := raw.(map[string]any)
	if !ok {
		return Weights{}, fmt.Errorf("%s: %s is not a table", path, Table)
	}
	w := Weights{Values: map[string]float64{}}
	for _, k := range slices.Sorted(maps.Keys(tab)) {
		switch x := tab[k].(type) {
		case int64:
			w.Values[k] = float64(x)
		case float64:
			w.Values[k] = x
		case string:
			if k != "note" {
				return Weights{}, fmt.Errorf("%s: [%s] %s = %q: want a number from 0 to 1", path, Table, k, x)
			}
			w.Note = x
		default:
			return Weights{}, fmt.Errorf("%s: [%s] %s: want a number from 0 to 1, got %T", path, Table, k, x)
		}
	}
	if err := w.check(similarity.DefaultConfig()); err != nil {
		return Weights{}, fmt.Errorf("%s: [%s] %v", path, Table, err)
	}
	return w, nil
}

// Encode returns w as a [weights] table, keys in the order of Fields.
func (w Weights) Encode() []byte {
	var b bytes.Buffer
	b.WriteString("[" + Table + "]\n")
	if w.Note != "" {
		b.WriteString("note = " + strconv.Quote(w.Note) + "\n")
	}
	for _, f := range Fields {
		if x, ok := w.Values[f.Key]; ok {
			fmt.Fprintf(&b, "%s = %s\n", f.Key, strconv.FormatFloat(x, 'f', -1, 64))
		}
	}
	return b.Bytes()
}

// header matches a TOML table header line, [name] or [[name]].
var header = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_\-."' ]+?)\s*\]\]?\s*(#.*)?$`)

// Save writes w as the [weights] table of the TOML file at path: the table
// is replaced where it is (or added at the end), and every other line of the
// file is kept as it is. The file is written to a temporary file in the
// same folder and renamed over the original, so a failed write leaves it
// whole. A file whose other settings would not read back the same (a
// weights key outside the table, say) is left alone and reported.
func Save(path string, w Weights) error {
	if err := w.check(similarity.DefaultConfig()); err != nil {
		return fmt.Errorf("%s: [%s] %v", path, Table, err)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var before map[string]any
	if _, err := toml.Decode(string(old), &before); err != nil {
		return fmt.Errorf("%s: %v (fix the file first; the weights were not written)", path, err)
	}
	data := splice(old, w.Encode())
	var after map[string]any
	if _, err := toml.Decode(string(data), &after); err != nil {
		return fmt.Errorf("%s: cannot place the [%s] table safely (%v); move it to a table of its own by hand", path, Table, err)
	}
	delete(before, Table)
	got := after[Table]
	delete(after, Table)
	if !reflect.DeepEqual(before, after) {
		return fmt.Errorf("%s: cannot place the [%s] table without changing other settings; move them out of it by hand", path, Table)
	}
	if back, err := Parse(path, data); err != nil || !reflect.DeepEqual(back.Values, w.Values) || got == nil {
		return fmt.Errorf("%s: the [%s] table would not read back as written; fix the file by hand", path, Table)
	}
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	return caselib.WriteFileAtomic(path, data, perm)
}

// splice replaces the [weights] table of a TOML document (its header and
// every line up to the next table header, sub-tables [weights.x] included)
// with table, or appends table when the document has none.
func splice(doc, table []byte) []byte {
	lines := strings.SplitAfter(string(doc), "\n")
	start, end := -1, len(lines)
	for i, l := range lines {
		m := header.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
		if m == nil {
			continue
		}
		name := strings.Trim(m[1], `"'`)
		ours := name == Table || strings.HasPrefix(name, Table+".")
		switch {
		case start < 0 && ours:
			start = i
		case start >= 0 && !ours:
			end = i
		}
		if start >= 0 && end < len(lines) {
			break
		}
	}
	var b bytes.Buffer
	if start < 0 {
		b.Write(doc)
		if len(doc) > 0 {
			if !bytes.HasSuffix(doc, []byte("\n")) {
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
		b.Write(table)
		return b.Bytes()
	}
	for _, l := range lines[:start] {
		b.WriteString(l)
	}
	b.Write(table)
	if end < len(lines) {
		b.WriteString("\n")
		for _, l := range lines[end:] {
			b.WriteString(l)
		}
	}
	return b.Bytes()
}

// Changes lists, for display, the keys whose value differs between from
// and to: "key from → to", in the order of Fields.
func Changes(from, to Weights) []string {
	var out []string
	for _, f := range Fields {
		a, okA := from.Values[f.Key]
		b, okB := to.Values[f.Key]
		if !okB || okA && math.Abs(a-b) < 1e-9 {
			continue
		}
		out = append(out, fmt.Sprintf("%-14s %.3f → %.3f", f.Key, a, b))
	}
	return out
}
