package eval

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseQueries(t *testing.T) {
	in := "\ufeff" + `{"id":"q1","text":"redis OOM","relevant":{"IL-0100":2,"IL-0194":1},"kind":"log","ir_order":{"x":1}}` + "\r\n" +
		"\n   \n" +
		`{"id":"q2","text":"rerank me","relevant":{},"candidates":["c1","c2"]}` + "\n" +
		`{"id":"q3","text":"zero grade","relevant":{"c1":0}}` // no final newline
	got, err := ParseQueries(strings.NewReader(in), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{
		{ID: "q1", Text: "redis OOM", Relevant: map[string]int{"IL-0100": 2, "IL-0194": 1}, Kind: "log"},
		{ID: "q2", Text: "rerank me", Relevant: map[string]int{}, Candidates: []string{"c1", "c2"}},
		{ID: "q3", Text: "zero grade", Relevant: map[string]int{"c1": 0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseQueries\n got %+v\nwant %+v", got, want)
	}
}

func TestParseQueriesErrors(t *testing.T) {
	ok := `{"id":"q1","text":"t","relevant":{"a":2}}`
	tests := []struct {
		name, in, err string
	}{
		{"bad JSON", ok + "\n{\"id\":", "q.jsonl:2: invalid query JSON"},
		{"not an object", `["q1"]`, "q.jsonl:1: not a JSON object"},
		{"trailing data", ok + ` {"id":"q2"}`, "q.jsonl:1: invalid query JSON"},
		{"missing id", `{"text":"t","relevant":{}}`, `q.jsonl:1: missing "id"`},
		{"empty id", `{"id":"","text":"t","relevant":{}}`, `q.jsonl:1: empty "id"`},
		{"id not a string", `{"id":7,"text":"t","relevant":{}}`, "q.jsonl:1: invalid query JSON"},
		{"duplicate id", ok + "\n\n" + ok, `q.jsonl:3: query id "q1" already used on line 1`},
		{"missing text", `{"id":"q1","relevant":{}}`, `q.jsonl:1: query "q1": missing "text"`},
		{"blank text", `{"id":"q1","text":"  ","relevant":{}}`, `q.jsonl:1: query "q1": empty "text"`},
		{"missing relevant", `{"id":"q1","text":"t"}`, `q.jsonl:1: query "q1": missing "relevant"`},
		{"null relevant", `{"id":"q1","text":"t","relevant":null}`, `q.jsonl:1: query "q1": missing "relevant"`},
		{"fractional grade", `{"id":"q1","text":"t","relevant":{"a":1.5}}`, `q.jsonl:1: query "q1": grade of "a" is 1.5, want an integer >= 0`},
		{"string grade", `{"id":"q1","text":"t","relevant":{"a":"2"}}`, `grade of "a" is "2"`},
		{"negative grade", `{"id":"q1","text":"t","relevant":{"a":-1}}`, `grade of "a" is -1`},
		{"empty case id", `{"id":"q1","text":"t","relevant":{"":1}}`, `empty case id in "relevant"`},
		{"empty candidate", `{"id":"q1","text":"t","relevant":{},"candidates":["a",""]}`, `query "q1": candidate 2 is empty`},
		{"null candidate", `{"id":"q1","text":"t","relevant":{},"candidates":[null]}`, `candidate 1 is empty`},
		{"repeated candidate", `{"id":"q1","text":"t","relevant":{},"candidates":["a","a"]}`, `candidate "a" listed twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseQueries(strings.NewReader(tt.in), "q.jsonl")
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error = %v, want one containing %q", err, tt.err)
			}
		})
	}
}

func TestParsePairs(t *testing.T) {
	in := "# a comment\n" +
		"\n" +
		"A\tB\t2\n" +
		"  # an indented comment\n" +
		"A\tC\t1\toneway\r\n" +
		"B\tA\t1\n" + // same pair again, lower grade: keeps 2
		"C\tD\t1\n" +
		"D\tC\t2\n" + // same pair again, higher grade: becomes 2
		"E\tF\t0\t\n" + // grade 0 still makes E and F subjects, as in score.py
		"G\tH\t1" // no final newline
	got, err := ParsePairs(strings.NewReader(in), "r.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := Judgments{
		"A": {"B": 2, "C": 1},
		"B": {"A": 2},
		"C": {"D": 2},
		"D": {"C": 2},
		"E": {"F": 0},
		"F": {"E": 0},
		"G": {"H": 1},
		"H": {"G": 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParsePairs\n got %v\nwant %v", got, want)
	}
	if s := got.Subjects(); !reflect.DeepEqual(s, []string{"A", "B", "C", "D", "E", "F", "G", "H"}) {
		t.Errorf("Subjects() = %v", s)
	}
}

// TestParsePairsHashIDs: a pair of case ids that start with # (issue
// numbers) is a pair, not a comment; comments and a #-header stay skipped.
// A row of library-duplicates.tsv too short for its relation is an error
// naming the line (it used to index past the row's end and panic).
func TestParsePairsHashIDs(t *testing.T) {
	in := "#query\tcase\tgrade\treason\n# note\twith a tab\n#12\t#34\t2\n#5\tA\t1\toneway\n"
	got, err := ParsePairs(strings.NewReader(in), "r.tsv")
	want := Judgments{"#12": {"#34": 2}, "#34": {"#12": 2}, "#5": {"A": 1}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ParsePairs = %v, %v; want %v", got, err, want)
	}
	dv := "dv_id\tlibrary_id\trelation\tnote\n#1\tx\tsame-event\t\nDV-2\ty\n"
	if _, err := ParsePairs(strings.NewReader(dv), "d.tsv"); err == nil || !strings.HasPrefix(err.Error(), "d.tsv:3: ") {
		t.Fatalf("short relation row: %v, want an error naming d.tsv:3", err)
	}
	got, err = ParsePairs(strings.NewReader(dv[:strings.LastIndex(dv, "DV-2")]), "d.tsv")
	if err != nil || got["#1"]["x"] != 2 {
		t.Fatalf("relation row of #1: %v, %v", got, err)
	}
}

func TestParsePairsErrors(t *testing.T) {
	tests := []struct {
		name, in, err string
	}{
		{"two fields", "A\tB\t2\nA\tB\n", "r.tsv:2: want caseA<TAB>caseB<TAB>grade[<TAB>oneway], got 2 field(s)"},
		{"spaces not tabs", "A B 2\n", "r.tsv:1: want caseA<TAB>caseB<TAB>grade[<TAB>oneway], got 1 tab-separated field(s); are the fields separated by spaces"},
		{"too many fields", "A\tB\t2\toneway\tx\n", "r.tsv:1: want caseA<TAB>caseB<TAB>grade[<TAB>oneway], got 5 fields"},
		{"grade not a number", "A\tB\thigh\n", `r.tsv:1: grade "high" is not an integer >= 0`},
		{"negative grade", "A\tB\t-1\n", `r.tsv:1: grade "-1" is not an integer >= 0`},
		{"empty id", "A\t\t2\n", "r.tsv:1: empty case id"},
		{"self pair", "A\tA\t2\n", `r.tsv:1: case "A" paired with itself`},
		{"unknown fourth column", "A\tB\t2\tboth\n", `r.tsv:1: fourth column is "both"`},
		{"short relation row", "dv_id\tlibrary_id\trelation\tnote\nDV-1\tx\n", "r.tsv:2: want dv_id<TAB>library_id<TAB>relation<TAB>note"},
		{"self relation", "dv_id\tlibrary_id\trelation\tnote\nDV-1\tDV-1\tsame-event\t\n", `r.tsv:2: case "DV-1" paired with itself`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := ParsePairs(strings.NewReader(tt.in), "r.tsv")
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error = %v, want one containing %q", err, tt.err)
			}
			if err != nil && j != nil {
				t.Errorf("got judgments %v along with an error", j)
			}
		})
	}
}

func TestJudgmentsAdd(t *testing.T) {
	j := Judgments{}
	j.Add("A", "B", 1, false)
	j.Add("A", "C", 2, true)
	j.Add("B", "A", 2, false)
	j.Add("A", "C", 1, true)
	want := Judgments{"A": {"B": 2, "C": 2}, "B": {"A": 2}}
	if !reflect.DeepEqual(j, want) {
		t.Errorf("got %v, want %v", j, want)
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	qp := filepath.Join(dir, "q.jsonl")
	rp := filepath.Join(dir, "r.tsv")
	if err := os.WriteFile(qp, []byte(`{"id":"q1","text":"t","relevant":{"a":2}}`+"\n"+`{"id":"q1"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rp, []byte("a\tb\t2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The error names the file by its path.
	if _, err := ReadQueries(qp); err == nil || !strings.HasPrefix(err.Error(), qp+":2: ") {
		t.Errorf("ReadQueries error = %v, want one starting with %q", err, qp+":2: ")
	}
	if j, err := ReadPairs(rp); err != nil || j["b"]["a"] != 2 {
		t.Errorf("ReadPairs = %v, %v", j, err)
	}
	if _, err := ReadQueries(filepath.Join(dir, "missing.jsonl")); !os.IsNotExist(err) {
		t.Errorf("ReadQueries(missing) error = %v, want not-exist", err)
	}
	if _, err := ReadPairs(filepath.Join(dir, "missing.tsv")); !os.IsNotExist(err) {
		t.Errorf("ReadPairs(missing) error = %v, want not-exist", err)
	}
}
