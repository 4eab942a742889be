package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Query is one judged query: text an on-call engineer would paste, with the
// grades of the cases that answer it.
type Query struct {
	// ID names the query; rankings are keyed by it. Unique within a file.
	ID string `json:"id"`
	// Text is what is sent to the engine.
	Text string `json:"text"`
	// Relevant maps case id → grade: 2 = the case to find, 1 = related.
	// Cases not listed are judged not relevant (grade 0).
	Relevant map[string]int `json:"relevant"`
	// Candidates, when not nil, are the only cases to rank for this query
	// (re-ranking tasks such as SemEval); nil means the whole library.
	Candidates []string `json:"candidates,omitempty"`
	// Kind groups queries for per-kind breakdowns ("alert", "log", …);
	// empty when the file gives none.
	Kind string `json:"kind,omitempty"`
}

// Judgments holds graded links between cases: subject case id → judged case
// id → grade. The subjects are the cases a relate evaluation asks about.
type Judgments map[string]map[string]int

// Add records that b has the given grade for subject a, and, unless oneway,
// that a has it for subject b. A pair recorded twice keeps the higher grade
// (and never less than 0), as score.py does.
func (j Judgments) Add(a, b string, grade int, oneway bool) {
	j.set(a, b, grade)
	if !oneway {
		j.set(b, a, grade)
	}
}

func (j Judgments) set(a, b string, grade int) {
	m := j[a]
	if m == nil {
		m = make(map[string]int)
		j[a] = m
	}
	m[b] = max(grade, m[b])
}

// Subjects returns the subject case ids in sorted order.
func (j Judgments) Subjects() []string {
	ids := make([]string, 0, len(j))
	for id := range j {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// ReadQueries reads a judged query file in JSON Lines; see ParseQueries.
func ReadQueries(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseQueries(f, path)
}

// ParseQueries reads judged queries, one JSON object per line:
//
//	{"id": "q1", "text": "...", "relevant": {"IL-0191": 2, "IL-0371": 1}, "candidates": [...], "kind": "..."}
//
// id, text and relevant are required; candidates and kind are optional; other
// keys (such as ir_order) are ignored. Grades are integers >= 0. Blank lines
// are skipped. Errors name the input (name:line) and what is wrong.
func ParseQueries(r io.Reader, name string) ([]Query, error) {
	var qs []Query
	firstLine := map[string]int{}
	err := eachLine(r, name, func(n int, line []byte) error {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return nil
		}
		q, err := parseQuery(line)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if prev, ok := firstLine[q.ID]; ok {
			return fmt.Errorf("%s:%d: query id %q already used on line %d", name, n, q.ID, prev)
		}
		firstLine[q.ID] = n
		qs = append(qs, q)
		return nil
	})
	return qs, err
}

func parseQuery(line []byte) (Query, error) {
	var raw struct {
		ID         *string                    `json:"id"`
		Text       *string                    `json:"text"`
		Relevant   map[string]json.RawMessage `json:"relevant"`
		Candidates []*string                  `json:"candidates"`
		Kind       *string                    `json:"kind"`
	}
	if line[0] != '{' {
		return Query{}, errors.New("not a JSON object (want one query object per line)")
	}
	if err := json.Unmarshal(line, &raw); err != nil {
		return Query{}, fmt.Errorf("invalid query JSON: %v", err)
	}
	var q Query
	switch {
	case raw.ID == nil:
		return q, errors.New(`missing "id"`)
	case *raw.ID == "":
		return q, errors.New(`empty "id"`)
	}
	q.ID = *raw.ID
	switch {
	case raw.Text == nil:
		return q, fmt.Errorf("query %q: missing \"text\"", q.ID)
	case strings.TrimSpace(*raw.Text) == "":
		return q, fmt.Errorf("query %q: empty \"text\"", q.ID)
	}
	q.Text = *raw.Text
	if raw.Relevant == nil {
		return q, fmt.Errorf("query %q: missing \"relevant\" (an object of case id to grade; {} when no case is relevant)", q.ID)
	}
	q.Relevant = make(map[string]int, len(raw.Relevant))
	for id, v := range raw.Relevant {
		if id == "" {
			return q, fmt.Errorf("query %q: empty case id in \"relevant\"", q.ID)
		}
		g, err := strconv.Atoi(string(v))
		if err != nil {
			return q, fmt.Errorf("query %q: grade of %q is %s, want an integer >= 0", q.ID, id, v)
		}
		if g < 0 {
			return q, fmt.Errorf("query %q: grade of %q is %d, want an integer >= 0", q.ID, id, g)
		}
		q.Relevant[id] = g
	}
	if raw.Candidates != nil {
		q.Candidates = make([]string, 0, len(raw.Candidates))
		seen := make(map[string]bool, len(raw.Candidates))
		for i, c := range raw.Candidates {
			switch {
			case c == nil || *c == "":
				return q, fmt.Errorf("query %q: candidate %d is empty", q.ID, i+1)
			case seen[*c]:
				return q, fmt.Errorf("query %q: candidate %q listed twice", q.ID, *c)
			}
			seen[*c] = true
			q.Candidates = append(q.Candidates, *c)
		}
	}
	if raw.Kind != nil {
		q.Kind = *raw.Kind
	}
	return q, nil
}

// ReadPairs reads a related-pairs file in TSV; see ParsePairs.
func ReadPairs(path string) (Judgments, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParsePairs(f, path)
}

// ParsePairs reads graded links between cases, one per line:
//
//	caseA<TAB>caseB<TAB>grade[<TAB>oneway]
//
// A pair counts both ways unless the fourth column is "oneway"; then only B
// is judged for subject A (B does not become a subject). Grades are integers
// >= 0; a pair given twice keeps the higher grade. Blank lines and lines
// starting with # are skipped, but for a pair whose first id starts with #
// (three or four fields, the third a grade). Unlike score.py, which skips
// lines it cannot use, a malformed line is an error naming the input
// (name:line).
//
// A judged set's library-duplicates.tsv reads too: its header line
// (dv_id, library_id, relation, note) is skipped, and each row's relation
// is a grade: same-event (and same-event-likely, same-event-partial) 2,
// downstream-effect 1.
func ParsePairs(r io.Reader, name string) (Judgments, error) {
	j := Judgments{}
	relations := false // the file is a library-duplicates.tsv
	first := true
	err := eachLine(r, name, func(n int, raw []byte) error {
		line := strings.TrimSpace(string(raw))
		if line == "" {
			return nil
		}
		f := strings.Split(line, "\t")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if strings.HasPrefix(line, "#") && !judgedRow(f, relations) {
			return nil // a comment, or a header such as #query<TAB>case<TAB>grade
		}
		if first {
			first = false
			if len(f) >= 3 && f[2] == "relation" {
				relations = true
				return nil
			}
		}
		if relations {
			if len(f) < 3 || f[0] == "" || f[1] == "" {
				return fmt.Errorf("%s:%d: want dv_id<TAB>library_id<TAB>relation<TAB>note", name, n)
			}
			g, ok := relationGrade[f[2]]
			switch {
			case f[0] == f[1]:
				return fmt.Errorf("%s:%d: case %q paired with itself", name, n, f[0])
			case !ok:
				return fmt.Errorf("%s:%d: relation %q: want same-event, same-event-likely, same-event-partial or downstream-effect", name, n, f[2])
			}
			j.Add(f[0], f[1], g, false)
			return nil
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		switch {
		case len(f) < 3 && strings.ContainsAny(line, " ,;"):
			return bad("want caseA<TAB>caseB<TAB>grade[<TAB>oneway], got %d tab-separated field(s); are the fields separated by spaces or commas instead of tabs?", len(f))
		case len(f) < 3:
			return bad("want caseA<TAB>caseB<TAB>grade[<TAB>oneway], got %d field(s)", len(f))
		case len(f) > 4:
			return bad("want caseA<TAB>caseB<TAB>grade[<TAB>oneway], got %d fields", len(f))
		case f[0] == "" || f[1] == "":
			return bad("empty case id")
		case f[0] == f[1]:
			return bad("case %q paired with itself", f[0])
		}
		g, err := strconv.Atoi(f[2])
		if err != nil || g < 0 {
			return bad("grade %q is not an integer >= 0", f[2])
		}
		oneway := false
		if len(f) == 4 {
			switch f[3] {
			case "oneway":
				oneway = true
			case "":
			default:
				return bad("fourth column is %q; the only value allowed is \"oneway\"", f[3])
			}
		}
		j.Add(f[0], f[1], g, oneway)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return j, nil
}

// judgedRow says whether the fields f of a line starting with # make a
// judged pair (a row of library-duplicates.tsv when relations) rather than
// a comment: a case id may start with # (an issue number, #4711).
func judgedRow(f []string, relations bool) bool {
	if relations {
		if len(f) < 3 {
			return false
		}
		_, ok := relationGrade[f[2]]
		return ok
	}
	if len(f) != 3 && len(f) != 4 {
		return false
	}
	g, err := strconv.Atoi(f[2])
	return err == nil && g >= 0 && (len(f) == 3 || f[3] == "" || f[3] == "oneway")
}

// relationGrade is the grade of each relation of a library-duplicates.tsv.
var relationGrade = map[string]int{"same-event": 2, "same-event-likely": 2, "same-event-partial": 2, "downstream-effect": 1}

// eachLine calls fn with each line of r (1-based number, without the line
// ending), with no limit on line length. A UTF-8 byte order mark at the start
// is dropped.
func eachLine(r io.Reader, name string, fn func(n int, line []byte) error) error {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if len(line) > 0 {
			line = bytes.TrimSuffix(line, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			if ferr := fn(n, line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}
