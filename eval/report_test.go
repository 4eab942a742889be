package eval

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteTable(t *testing.T) {
	m := Metrics{NDCG: 0.81234, MRR: 0.75, P1: 0.5, P1Best: 0.5, R5: 1, MAP: 2.0 / 3, N: 12}
	r := Metrics{NDCG: 1, MRR: 1, P1: 1, P1Best: 1, R5: 1, MAP: 1, N: 4}
	rows := []Row{
		{Name: "bm25", Match: &m, Relate: &r, ByKind: map[string]Metrics{
			"log":   {NDCG: 0.5, N: 4},
			"alert": {NDCG: 0.25, N: 8},
		}},
		{Name: "tfidf-sublinear", Relate: &r},
		{Name: "match-only", Match: &m},
	}
	want := `                 match                                               relate
name               ndcg     mrr      p1  p1best      r5     map   n    ndcg     mrr      p1  p1best      r5     map  n
bm25             0.8123  0.7500  0.5000  0.5000  1.0000  0.6667  12  1.0000  1.0000  1.0000  1.0000  1.0000  1.0000  4
  alert          0.2500  0.0000  0.0000  0.0000  0.0000  0.0000   8
  log            0.5000  0.0000  0.0000  0.0000  0.0000  0.0000   4
tfidf-sublinear       -       -       -       -       -       -   -  1.0000  1.0000  1.0000  1.0000  1.0000  1.0000  4
match-only       0.8123  0.7500  0.5000  0.5000  1.0000  0.6667  12       -       -       -       -       -       -  -
`
	var buf bytes.Buffer
	if err := WriteTable(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != want {
		t.Errorf("WriteTable:\n%s\nwant:\n%s", got, want)
	}

	// Only the groups some row has are shown.
	buf.Reset()
	WriteTable(&buf, []Row{{Name: "x", Relate: &r}})
	want = "      relate\nname    ndcg     mrr      p1  p1best      r5     map  n\nx     1.0000  1.0000  1.0000  1.0000  1.0000  1.0000  4\n"
	if got := buf.String(); got != want {
		t.Errorf("WriteTable relate only:\n%q\nwant:\n%q", got, want)
	}
	buf.Reset()
	WriteTable(&buf, nil)
	if got := buf.String(); got != "name\n" {
		t.Errorf("WriteTable(nil) = %q", got)
	}
}

func TestWriteJSON(t *testing.T) {
	m := Metrics{NDCG: 0.812349, MRR: 1.0 / 3, N: 2}
	rows := []Row{
		{Name: "a", Match: &m, ByKind: map[string]Metrics{"z": m, "b": m}},
		{Name: "b", Relate: &m},
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, s := range []string{`"ndcg": 0.8123`, `"mrr": 0.3333`, `"p1best": 0`, `"n": 2`} {
		if !strings.Contains(got, s) {
			t.Errorf("WriteJSON output lacks %s:\n%s", s, got)
		}
	}
	if strings.Index(got, `"b": {`) > strings.Index(got, `"z": {`) {
		t.Errorf("kinds not sorted:\n%s", got)
	}
	if m.NDCG != 0.812349 {
		t.Errorf("WriteJSON changed its input")
	}
	var back []Row
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[0].Relate != nil || back[1].Match != nil || back[1].Relate.MRR != 0.3333 {
		t.Errorf("round trip = %+v", back)
	}
	buf.Reset()
	WriteJSON(&buf, nil)
	if got := buf.String(); got != "[]\n" {
		t.Errorf("WriteJSON(nil) = %q", got)
	}
}
