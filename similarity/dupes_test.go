package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

func TestDayNumber(t *testing.T) {
	t.Parallel()
	base, _ := dayNumber("2024-01-10")
	for _, tc := range []struct {
		in   string
		diff int // days after 2024-01-10
		ok   bool
	}{
		{"2024-01-10", 0, true},
		{"2024-01-11", 1, true},
		{"2024-03-01", 51, true}, // 2024 is a leap year: 21 + 29 + 1
		{"2025-01-10", 366, true},
		{"2023-01-10", -365, true},
		{"2024-01-10T23:59:00Z", 0, true},
		{"2024-01-10 08:00", 0, true},
		{"", 0, false},
		{"2024", 0, false},
		{"2024-01", 0, false},
		{"2024/01/10", 0, false},
		{"2024-13-01", 0, false},
		{"2024-01-00", 0, false},
		{"2024-01-1x", 0, false},
		{"2024-01-10x", 0, false},
	} {
		d, ok := dayNumber(tc.in)
		if ok != tc.ok || (ok && d-base != tc.diff) {
			t.Errorf("dayNumber(%q) = %d (%+d days), %v; want %+d days, %v", tc.in, d, d-base, ok, tc.diff, tc.ok)
		}
	}
}

// twins returns a library where NEW and OLD are the same write-up as BASE,
// NEW filed a day later and OLD three years earlier, among unrelated cases.
func twins(t *testing.T, cfg Config) *Index {
	t.Helper()
	mk := func(id, date, title, summary string) *caselib.Case {
		c := &caselib.Case{ID: id, Date: date}
		c.Title.EN, c.Summary.EN = title, summary
		return c
	}
	const title = "Checkout returns 502 after the load balancer certificate expired"
	const summary = "The TLS certificate on the public load balancer expired; handshakes failed and checkout returned 502."
	cases := []*caselib.Case{
		mk("BASE", "2024-01-10", title, summary),
		mk("NEW", "2024-01-11", title, summary),
		mk("OLD", "2021-01-10", title, summary),
		mk("UNDATED", "", title, summary),
		mk("DNS", "2024-01-10", "DNS resolution failed in one region", "A bad resolver config made lookups time out."),
		mk("DISK", "2024-01-12", "Database disk filled up", "Write-ahead logs filled the volume and writes stopped."),
	}
	ix, err := BuildCases(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// A write-up filed the next day is a more probable duplicate than the same
// write-up three years older: the date prior discounts the older one, and
// leaves pairs with an undated case alone.
func TestDupeScoreDatePrior(t *testing.T) {
	t.Parallel()
	ix := twins(t, DefaultConfig())
	at := func(id string) int { d, _ := ix.Lookup(id); return d }
	base := at("BASE")
	simNew, simOld := ix.CaseSimilarity(base, at("NEW")), ix.CaseSimilarity(base, at("OLD"))
	if math.Abs(simNew-simOld) > 1e-9 {
		t.Fatalf("same text, different similarity: %v vs %v", simNew, simOld)
	}
	dNew, dOld := ix.DupeScore(base, at("NEW")), ix.DupeScore(base, at("OLD"))
	if !(dNew > dOld) {
		t.Errorf("DupeScore next day %v, three years apart %v: want the next day higher", dNew, dOld)
	}
	w, tau := ix.cfg.DupeDate, ix.cfg.DupeDays
	if want := simOld * (1 - w + w*math.Exp(-1095/tau)); math.Abs(dOld-want) > 1e-9 {
		t.Errorf("DupeScore three years apart = %v, want %v", dOld, want)
	}
	if got := ix.DupeScore(base, at("UNDATED")); math.Abs(got-ix.CaseSimilarity(base, at("UNDATED"))) > 1e-12 {
		t.Errorf("undated pair: DupeScore %v, want the similarity itself", got)
	}
	// An undated copy keeps its full similarity, a day's gap costs a little.
	if got := ix.DupesOf(base, 3, 0); fmt.Sprint(ids(got)) != "[UNDATED NEW OLD]" {
		t.Errorf("DupesOf(BASE) = %v, want [UNDATED NEW OLD]", hitIDs(got))
	}
	pairs := ix.Duplicates(0.3, 10, nil)
	if len(pairs) < 6 {
		t.Fatalf("Duplicates(0.3): %d pairs, want the 6 among the four copies", len(pairs))
	}
	for _, p := range pairs {
		if want := ix.DupeScore(p.A, p.B); math.Abs(p.Score-want) > 1e-9 || p.Score > p.Similarity+1e-12 {
			t.Errorf("pair %s~%s: score %v similarity %v, DupeScore %v", ix.Case(p.A).ID, ix.Case(p.B).ID, p.Score, p.Similarity, want)
		}
	}

	// With the prior off, dupes ranks by similarity alone: OLD ties NEW
	// and the tie breaks by id.
	cfg := DefaultConfig()
	cfg.DupeDate = 0
	off := twins(t, cfg)
	if got := off.DupesOf(base, 3, 0); fmt.Sprint(ids(got)) != "[NEW OLD UNDATED]" {
		t.Errorf("prior off: DupesOf(BASE) = %v, want [NEW OLD UNDATED]", hitIDs(got))
	}
}

// DupesOf must equal a brute-force ranking of every other case by DupeScore:
// the date prior is applied inside the pruned search, bounds included.
func TestDupesOfIsExact(t *testing.T) {
	t.Parallel()
	cases := synthLibrary(400, 11)
	r := rand.New(rand.NewPCG(5, 5))
	for i, c := range cases {
		if i%9 != 0 { // a few undated cases
			c.Date = fmt.Sprintf("20%02d-%02d-%02d", 18+r.IntN(6), 1+r.IntN(12), 1+r.IntN(28))
		}
	}
	cfg := DefaultConfig()
	cfg.DupeDays = 30 // a sharp prior reorders the most
	ix, err := BuildCases(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, minScore := range []float64{0, 0.1} {
		for d := range ix.Len() {
			var all []Hit // brute force, once per case, cut for each k
			for x := range ix.Len() {
				if s := ix.DupeScore(d, x); x != d && s >= minScore && ix.CaseSimilarity(d, x) > 0 {
					all = append(all, Hit{Doc: x, ID: ix.Case(x).ID, Score: s})
				}
			}
			sortHits(all)
			for _, k := range []int{1, 5, 20} {
				want := all[:min(k, len(all))]
				if got := ix.DupesOf(d, k, minScore); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
					t.Fatalf("k=%d min=%v case %s: DupesOf %v, brute force %v", k, minScore, ix.Case(d).ID, hitIDs(got), hitIDs(want))
				}
			}
		}
	}
}

// Duplicates lists the pairs that each case's own DupesOf gives, each pair
// once, whichever side found it, as DupeScore scores it, A the case whose
// id comes first. Each case sees only its k best, so in a library of near
// copies many pairs are found from one side alone; the list must keep those
// and must not list the others twice.
func TestDuplicatesArePairsOfDupesOf(t *testing.T) {
	t.Parallel()
	cases := nearDuplicates(nearDuplicates(synthLibrary(300, 13), 13), 14)
	r := rand.New(rand.NewPCG(13, 13))
	for i, c := range cases {
		c.ID = fmt.Sprintf("C-%03d-%d", r.IntN(1000), i) // unique, in no order of the copies
		if i%7 != 0 {
			c.Date = fmt.Sprintf("2021-%02d-%02d", 1+r.IntN(2), 1+r.IntN(28))
		}
	}
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2} {
		const threshold = 0.3
		type key struct{ a, b int }
		want := map[key]bool{}
		oneSided := 0
		for d := range ix.Len() {
			for _, h := range ix.DupesOf(d, k, threshold) {
				a, b := d, h.Doc
				if ix.ID(b) < ix.ID(a) {
					a, b = b, a
				}
				if want[key{a, b}] || ix.DupeScore(a, b) < threshold {
					continue // (scored from one side, a pair may fall a hair under)
				}
				want[key{a, b}] = true
				if !slices.ContainsFunc(ix.DupesOf(h.Doc, k, threshold), func(x Hit) bool { return x.Doc == d }) {
					oneSided++
				}
			}
		}
		got := ix.Duplicates(threshold, k, nil)
		t.Logf("k=%d: %d pairs, %d found from one side", k, len(want), oneSided)
		if len(got) != len(want) {
			t.Fatalf("k=%d: %d pairs, want %d", k, len(got), len(want))
		}
		if oneSided == 0 {
			t.Fatalf("k=%d: no pair is found from one side only; the test does not test that", k)
		}
		for i, p := range got {
			if !want[key{p.A, p.B}] {
				t.Fatalf("k=%d: pair %s %s is no case's DupesOf (or A's id is not the first)", k, ix.ID(p.A), ix.ID(p.B))
			}
			if s := ix.DupeScore(p.A, p.B); p.Score != s || p.Score < threshold {
				t.Fatalf("k=%d: pair %s %s scores %v, DupeScore %v", k, ix.ID(p.A), ix.ID(p.B), p.Score, s)
			}
			if p.Event != ix.EventEvidence(p.A, p.B).Score || p.Similarity != ix.CaseSimilarity(p.A, p.B) {
				t.Fatalf("k=%d: pair %s %s: event %v similarity %v, want %v %v", k, ix.ID(p.A), ix.ID(p.B), p.Event, p.Similarity, ix.EventEvidence(p.A, p.B).Score, ix.CaseSimilarity(p.A, p.B))
			}
			if i > 0 && !pairBefore(ix, got[i-1], p) {
				t.Fatalf("k=%d: pairs %d and %d out of order", k, i-1, i)
			}
		}
	}
}

// pairBefore reports whether p comes before q in the order of Duplicates.
func pairBefore(ix *Index, p, q Pair) bool {
	if p.Score != q.Score {
		return p.Score > q.Score
	}
	if ix.ID(p.A) != ix.ID(q.A) {
		return ix.ID(p.A) < ix.ID(q.A)
	}
	return ix.ID(p.B) < ix.ID(q.B)
}
