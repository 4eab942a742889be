package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
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
