package similarity

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// osa is the optimal string alignment distance, computed the plain way, to
// check the lexicon's trie walk against.
func osa(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// testLexicon returns a lexicon of the words of set, canonical id = position
// in byte order, and the words.
func testLexicon(set map[string]bool) (*lexicon, []string) {
	words := slices.Sorted(maps.Keys(set))
	lx := &lexicon{words: words, canon: make([]uint32, len(words)), mask: make([]uint32, len(words)), size: make([]uint8, len(words))}
	for i, w := range words {
		lx.canon[i], lx.mask[i], lx.size[i] = uint32(i), letterSet(w), uint8(len(w))
	}
	return lx, words
}

// The search finds the same nearest word as comparing the query with every
// word of the lexicon: the letter-set and length filters and the early exit
// lose nothing.
func TestLexiconNearestIsExhaustive(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdeor"[r.IntN(7)]
		}
		return string(b)
	}
	set := map[string]bool{}
	for len(set) < 3000 {
		set[word(3+r.IntN(8))] = true
	}
	lx, words := testLexicon(set)
	df := make([]int32, len(words))
	for i := range df {
		df[i] = int32(r.IntN(5))
	}
	for range 400 {
		q := word(3 + r.IntN(9))
		if set[q] {
			continue
		}
		for maxEdits := 1; maxEdits <= 2; maxEdits++ {
			best, bestD := -1, maxEdits+1
			for i, w := range words {
				if w[0] != q[0] && (len(q) < 2 || w[0] != q[1] || w[1] != q[0]) {
					continue
				}
				d := osa(q, w)
				if d <= maxEdits && (d < bestD || (d == bestD && df[i] > df[best])) {
					best, bestD = i, d
				}
			}
			c, d, ok := lx.nearest(q, maxEdits, df)
			if ok != (best >= 0) || (ok && (int(c) != best || d != bestD)) {
				t.Fatalf("nearest(%q, %d) = %v %d %v, want %v %d", q, maxEdits, c, d, ok, best, bestD)
			}
		}
	}
}

func typoLibrary() []*caselib.Case {
	mk := func(id, title, summary string) *caselib.Case {
		c := &caselib.Case{ID: id}
		c.Title.EN, c.Summary.EN = title, summary
		return c
	}
	return []*caselib.Case{
		mk("A-1", "Redis primary failed over during a live migration", "Clients saw connection refused until the replica was promoted."),
		mk("A-2", "Disk full on the logging hosts", "The primary log volume filled up overnight; rotation was broken."),
		mk("A-3", "Certificate expired on the edge", "TLS handshakes failed for every client after the certificate expired."),
		mk("A-4", "Sequence exhausted in PostgreSQL", "nextval reached the maximum of an INT32 sequence; postgres refused inserts with an error."),
		mk("A-5", "Kafka consumers lagged", "Consumer group rebalances stalled processing for an hour in us-east-1."),
	}
}

func TestTyposAreForgiven(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(typoLibrary(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	clean := ix.Match(Query{Text: "redis primary failed over, connection refused", K: 3})
	typo := ix.Match(Query{Text: "redis primry failed over, conection refused", K: 3})
	if len(typo.Hits) == 0 || typo.Hits[0].ID != "A-1" {
		t.Fatalf("typo paste: hits %v, want A-1 first", typo.Hits)
	}
	// A corrected word weighs less than the word written right.
	if !(typo.Hits[0].Score < clean.Hits[0].Score) {
		t.Errorf("typo score %v not below clean score %v", typo.Hits[0].Score, clean.Hits[0].Score)
	}
	why := ix.ExplainMatch(typo, typo.Hits[0]).Why(10)
	for _, want := range []string{"primry→primary", "conection→connection"} {
		if !slices.Contains(why, want) {
			t.Errorf("why = %q: want %q", why, want)
		}
	}
	// Off: the misspelt words count for nothing.
	cfg := DefaultConfig()
	cfg.Typos = false
	off, _ := BuildCases(typoLibrary(), cfg)
	res := off.Match(Query{Text: "primry conection", K: 3})
	if len(res.Hits) != 0 {
		t.Errorf("typos off: hits %v, want none", res.Hits)
	}
}

// Numbers, ids, class terms and short words are never read as another word,
// nor is a word the library has.
func TestTyposLeaveIDsNumbersAndKnownWords(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(typoLibrary(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"us-east-2",         // an id with digits, one edit from us-east-1
		"INT64",             // digits
		"10.0.0.2",          // a class term
		"lgo",               // three letters: too short ("log" is one edit away)
		"disk full primary", // known words stay as they are
	} {
		terms := ix.an.Analyze(text)
		before := fmt.Sprint(terms)
		fixes := ix.fixTypos(terms)
		for _, f := range sortFixes(fixes) {
			got := ix.voc.terms[ix.craw[f.canon]]
			t.Errorf("%q: corrected to %q (%d edits), want no correction", text, got, f.edits)
		}
		if fmt.Sprint(terms) != before {
			t.Errorf("%q: terms rewritten to %v", text, terms)
		}
	}
	// The same paste word written right and misspelt is no correction.
	terms := ix.an.Analyze("primary primry")
	if f := ix.fixTypos(terms); len(f) != 0 {
		t.Errorf("primary primry: corrections %v, want none (the paste has the word)", f)
	}
}

// A real English word the library never uses is no typo: with TypoWords
// it is left as it is ("stale" is not read as "stall"); a misspelling is
// still corrected.
func TestTyposLeaveEnglishWords(t *testing.T) {
	for _, gate := range []bool{true, false} {
		cfg := DefaultConfig()
		cfg.TypoWords = gate
		ix, err := BuildCases(typoLibrary(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		terms := ix.an.Analyze("primry stale")
		fixes := ix.fixTypos(terms)
		var got []string
		for _, f := range sortFixes(fixes) {
			got = append(got, ix.voc.terms[ix.craw[f.canon]])
		}
		want := []string{"primari"} // primry → primary; stale → stall only without the gate
		if !gate {
			want = []string{"primari", "stall"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("TypoWords %v: corrections %q, want %q", gate, got, want)
		}
	}
}

// Reasons name the case's own words, the paste's form beside them when it
// differs, and they are the same from a fresh index and after a reload that
// removed the case that first spelt a word.
func TestReasonsInTheCasesWords(t *testing.T) {
	t.Parallel()
	lib := typoLibrary()
	ix, err := BuildCases(lib, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	res := ix.Match(Query{Text: "nextval: reached maximum value of sequence audit_log_id_seq PostgresWriteErrors", K: 3})
	if len(res.Hits) == 0 || res.Hits[0].ID != "A-4" {
		t.Fatalf("hits %v, want A-4 first", res.Hits)
	}
	why := ix.ExplainMatch(res, res.Hits[0]).Why(10)
	if !slices.Contains(why, "postgres (from PostgresWriteErrors)") {
		t.Errorf("why = %q: want postgres (from PostgresWriteErrors)", why)
	}
	seen := map[string]bool{}
	for _, w := range why {
		if seen[strings.ToLower(w)] {
			t.Errorf("why = %q: %q twice", why, w)
		}
		seen[strings.ToLower(w)] = true
		if strings.HasPrefix(w, "PostgresWriteErrors") || strings.HasPrefix(w, "audit_log_id_seq") {
			t.Errorf("why = %q: %q is the paste's word, not the case's", why, w)
		}
	}

	// Case B-1 spells it "Table", B-2 "table": once B-1 is gone, a reload
	// and a fresh index name B-2's word the same way, as B-2 writes it.
	mk := func(id, s string) *caselib.Case {
		c := &caselib.Case{ID: id}
		c.Summary.EN = s
		return c
	}
	b1, b2, b3 := mk("B-1", "Table lock on orders"), mk("B-2", "the tables locked under load"), mk("B-3", "table lock on invoices, replicas lagging")
	old, err := BuildCases([]*caselib.Case{b1, b2, b3}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	re, err := old.Reindex(Documents([]*caselib.Case{b2, b3}))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := BuildCases([]*caselib.Case{b2, b3}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"TABLE locks", "replica lag on the tables"} {
		a, b := re.Match(Query{Text: q, K: 3}), fresh.Match(Query{Text: q, K: 3})
		for i := range a.Hits {
			wa, wb := fmt.Sprint(re.ExplainMatch(a, a.Hits[i]).Why(6)), fmt.Sprint(fresh.ExplainMatch(b, b.Hits[i]).Why(6))
			if wa != wb {
				t.Errorf("%q hit %d: why after reload %s, fresh %s", q, i, wa, wb)
			}
		}
	}
	d2, _ := re.Lookup("B-2")
	d3, _ := re.Lookup("B-3")
	pa, pf := re.ExplainPair(d3, d2).Why(6), fresh.ExplainPair(d3, d2).Why(6)
	if fmt.Sprint(pa) != fmt.Sprint(pf) || !slices.Contains(pa, "tables") {
		t.Errorf("pair B-3→B-2: why after reload %q, fresh %q; want B-2's own \"tables\"", pa, pf)
	}
}

// sortFixes returns the corrections in id order.
func sortFixes(m map[uint32]typoFix) []typoFix {
	var out []typoFix
	for _, f := range m {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b typoFix) int { return cmp.Compare(a.canon, b.canon) })
	return out
}

// BenchmarkLexiconNearest times one typo lookup in a lexicon of 300,000
// words (a library far richer in words than the 100,000-case scale-up,
// whose lexicon has about 5,000).
func BenchmarkLexiconNearest(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	set := map[string]bool{}
	for len(set) < 300000 {
		n := 4 + r.IntN(9)
		w := make([]byte, n)
		for i := range w {
			w[i] = byte('a' + r.IntN(26))
		}
		set[string(w)] = true
	}
	lx, words := testLexicon(set)
	df := make([]int32, len(words))
	qs := []string{"conection", "migraton", "primri", "kubernets", "replicaton", "certficate"}
	b.ResetTimer()
	for i := range b.N {
		q := qs[i%len(qs)]
		lx.nearest(q, typoEdits(len(q)), df)
	}
}
