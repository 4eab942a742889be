package caselib

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// copyTree copies the file or folder src into dir and returns the copy's path.
func copyTree(t testing.TB, src, dir string) string {
	t.Helper()
	dst := filepath.Join(dir, filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// objects splits the bytes of a case file into its case objects the way the
// loader does, returning each object (line ends and BOM stripped) keyed by
// its line.
func objects(t testing.TB, data []byte, lines bool) map[int][]byte {
	t.Helper()
	out := make(map[int][]byte)
	data = bytes.TrimPrefix(data, bom)
	if !lines {
		// A document's case is located at the line its object starts on.
		lead := data[:len(data)-len(bytes.TrimLeft(data, " \t\r\n"))]
		out[1+bytes.Count(lead, nl)] = data
		return out
	}
	for i, l := range bytes.Split(data, nl) {
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) > 0 {
			out[i+1] = l
		}
	}
	return out
}

// generic decodes one JSON object with encoding/json.
func generic(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return m
}

// refCase decodes a case with encoding/json and the documented rules: the
// reference the hand-written decoder is checked against.
func refCase(t testing.TB, b []byte) *Case {
	t.Helper()
	m := generic(t, b)
	str := func(v any) string {
		s, _ := v.(string)
		return s
	}
	text := func(v any) Text {
		switch v := v.(type) {
		case string:
			return Text{EN: v}
		case map[string]any:
			return Text{EN: str(v["en"]), KO: str(v["ko"])}
		}
		return Text{}
	}
	strs := func(v any) []string {
		var out []string
		switch v := v.(type) {
		case string:
			if v != "" {
				out = append(out, v)
			}
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	texts := func(v any) []Text {
		var out []Text
		l, _ := v.([]any)
		for _, e := range l {
			switch e := e.(type) {
			case string:
				out = append(out, Text{EN: e})
			case map[string]any:
				if in, ok := e["text"]; ok {
					out = append(out, text(in))
				} else {
					out = append(out, text(e))
				}
			}
		}
		return out
	}
	c := &Case{
		ID: str(m["id"]), Org: str(m["org"]), Date: str(m["date"]),
		Title: text(m["title"]), Summary: text(m["summary"]), SymptomsText: text(m["symptoms_text"]),
		Trigger: text(m["trigger"]), Detection: text(m["detection"]), Lessons: text(m["lessons"]),
		Remediation: texts(m["remediation"]), ActionItems: texts(m["action_items"]),
		Domain: strs(m["domain"]), Symptoms: strs(m["symptoms"]), Components: strs(m["components"]),
		Contributing: strs(m["contributing"]), RootCause: strs(m["root_cause"]), Related: strs(m["related"]),
		RecurrenceOf: str(m["recurrence_of"]), URL: str(m["url"]), Severity: str(m["severity"]),
	}
	if tl, ok := m["timeline"].(map[string]any); ok {
		c.DetectedAfter, c.ResolvedAfter = str(tl["detected_after"]), str(tl["resolved_after"])
	}
	switch v := m["impact"].(type) {
	case string:
		c.Impact.Scope = v
	case map[string]any:
		c.Impact = Impact{Scope: str(v["scope"]), Users: str(v["users"]), Region: str(v["region"])}
	}
	l, _ := m["sources"].([]any)
	for _, e := range l {
		switch e := e.(type) {
		case string:
			c.Sources = append(c.Sources, Source{URL: e})
		case map[string]any:
			c.Sources = append(c.Sources, Source{URL: str(e["url"]), Kind: str(e["kind"])})
		}
	}
	return c
}

// sameModel compares the decoded fields of two cases (not Loc).
func sameModel(a, b *Case) bool {
	x, y := *a, *b
	x.Loc, y.Loc, x.src, y.src, x.elem, y.elem, x.at, y.at = Location{}, Location{}, nil, nil, 0, 0, span{}, span{}
	return reflect.DeepEqual(x, y)
}

// confined checks that old and new differ only inside the "related" value
// of the object old (or, when old has no "related", only by an insertion).
func confined(t testing.TB, old, new []byte) {
	t.Helper()
	lay, err := parseLayout(old)
	if err != nil {
		t.Fatal(err)
	}
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	for _, m := range lay.members {
		if m.related {
			if p < m.valStart || len(old)-s > m.valEnd {
				t.Fatalf("bytes %d..%d changed outside the related value %d..%d", p, len(old)-s, m.valStart, m.valEnd)
			}
			return
		}
	}
	if len(old)-s != p {
		t.Fatalf("without related, old bytes %d..%d changed (want a pure insertion)", p, len(old)-s)
	}
}

// checkSpliced checks new = old with "related" set to ids, by the model and
// by the bytes.
func checkSpliced(t testing.TB, old, new []byte, ids []string) {
	t.Helper()
	confined(t, old, new)
	want := generic(t, old)
	got := generic(t, new)
	rel := make([]any, len(ids))
	for i, id := range ids {
		rel[i] = id
	}
	want["related"] = rel
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("decoded result differs:\nold %s\nnew %s", old, new)
	}
}
