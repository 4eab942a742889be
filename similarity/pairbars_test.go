package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// clusteredLibrary is synthLibrary where every case has copies that differ
// in a few words and days: the near-duplicates of scaled libraries, where
// neighbourhoods overlap and the pair bars of AllRelated matter most.
func clusteredLibrary(n, copies int, seed uint64) []*caselib.Case {
	r := rand.New(rand.NewPCG(seed, 2))
	base := synthLibrary(n, seed)
	edit := func(s string) string {
		w := strings.Fields(s)
		for i := range w {
			if r.IntN(6) == 0 {
				w[i] = fmt.Sprintf("v%dx", r.IntN(50))
			}
		}
		return strings.Join(w, " ")
	}
	var cases []*caselib.Case
	for _, c := range base {
		cases = append(cases, c)
		for j := range copies {
			x := *c
			x.ID = fmt.Sprintf("%s-%d", c.ID, j)
			x.Title.EN, x.Summary.EN = edit(c.Title.EN), edit(c.Summary.EN)
			if c.Date != "" && r.IntN(2) == 0 {
				x.Date = c.Date[:8] + fmt.Sprintf("%02d", 1+r.IntN(28))
			}
			cases = append(cases, &x)
		}
	}
	// Copies spread over the library, as a scale-up's are.
	r.Shuffle(len(cases), func(i, j int) { cases[i], cases[j] = cases[j], cases[i] })
	return cases
}

// The bar the pairs found give a search is a lower bound of the k-th best
// score (or 0), for every case in turn; on a library of near-duplicates many
// cases get one; and AllRelated with its pair bars equals a brute-force
// scan, ids and scores, on one core and on several, with and without a
// score floor.
func TestPairBarsAreExact(t *testing.T) {
	ix, err := BuildCases(clusteredLibrary(120, 5, 21), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	brute := make([][]Hit, ix.Len()) // each case's top 10, best first
	for d := range brute {
		brute[d] = bruteRelated(ix, d, 10, 0)
	}
	top := func(d, k int, minScore float64) []Hit {
		h := slices.DeleteFunc(slices.Clone(brute[d]), func(x Hit) bool { return x.Score < minScore })
		return h[:min(k, len(h))]
	}
	for _, k := range []int{1, 4, 10} {
		pb := ix.newPairBars()
		sc := ix.getScorer()
		var q []qterm
		barred := 0
		for d := range ix.Len() {
			s := ix.nearSearch(d, k, 0, q, ix.relPrior, true)
			q = s.q
			bar := pb.bar(sc, &s, d)
			want := top(d, k, 0)
			if bar > 0 {
				barred++
				if len(want) < k || bar > want[k-1].Score {
					t.Fatalf("k=%d case %s: pair bar %v, brute force %v", k, ix.Case(d).ID, bar, scored(want))
				}
			}
			pb.publish(d, ix.run(sc, &s))
		}
		ix.putScorer(sc)
		t.Logf("k=%d: %d of %d cases started from a pair bar", k, barred, ix.Len())
		if barred < ix.Len()/5 {
			t.Errorf("k=%d: only %d of %d cases started from a pair bar", k, barred, ix.Len())
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, k := range []int{1, 4, 10} {
			for _, minScore := range []float64{0, 0.3} {
				all := ix.AllRelated(k, minScore, nil)
				for d := range ix.Len() {
					if got, want := scored(all[d]), scored(top(d, k, minScore)); got != want {
						t.Fatalf("procs=%d k=%d min=%v case %s: with pair bars %v, brute force %v", procs, k, minScore, ix.Case(d).ID, got, want)
					}
				}
			}
		}
	}
}

// Pair bars change no answer on a library without near-duplicates either:
// AllRelated with and without them agree.
func TestPairBarsChangeNothing(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(800, 3), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ix.opts.noPairBars = true
	without := ix.AllRelated(10, 0, nil)
	ix.opts.noPairBars = false
	with := ix.AllRelated(10, 0, nil)
	if !slices.EqualFunc(with, without, func(a, b []Hit) bool { return scored(a) == scored(b) }) {
		t.Fatal("AllRelated differs with pair bars")
	}
}

// maxCaseNorm is the most a case's vector with √(view weight) on its side
// may weigh (1, and float32 rounding).
const maxCaseNorm = 1 + 1e-5

// TestCaseNormsAreBounded checks, whatever the weighting, that each case's
// vector with √(view weight) on its side is at most its profile norm
// (unorm, which the Cauchy–Schwarz bounds of case-to-case searches use, and
// umax their largest) and at most 1; the largest is close to 1, so the
// bound could not be any tighter.
func TestCaseNormsAreBounded(t *testing.T) {
	t.Parallel()
	cfgs := map[string]func(*Config){
		"default":  func(*Config) {},
		"no lift":  func(c *Config) { c.TagLift = false },
		"pivot 0":  func(c *Config) { c.Pivot = 0 },
		"pivot 1":  func(c *Config) { c.Pivot = 1 },
		"own tags": func(c *Config) { c.ExpandTagKinds[0] = c.TagKinds[0] + 0.5; c.TagKinds[2] = 0.2 },
	}
	for name, change := range cfgs {
		cfg := DefaultConfig()
		change(&cfg)
		ix, err := BuildCases(clusteredLibrary(60, 3, 8), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*profile{ix.rel, ix.exp} {
			largest := 0.0
			for d := range ix.Len() {
				var n2 float64
				for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
					x := float64(p.w.at(ix.vkey[j], j)) * float64(p.scale[d])
					n2 += p.views[keyView(ix.vkey[j])] * x * x
				}
				if n := math.Sqrt(n2); n > float64(p.unorm[d]) {
					t.Fatalf("%s: case %d norm %v over its profile norm %v", name, d, n, p.unorm[d])
				}
				largest = max(largest, math.Sqrt(n2))
			}
			if largest > maxCaseNorm || largest < 0.99 || largest > p.umax {
				t.Errorf("%s: largest case norm %v, bound %v", name, largest, maxCaseNorm)
			}
		}
	}
}

// A case no search has found yet starts from the cases sharing its heaviest
// terms: that bar too is at most the brute-force k-th best score; on a
// library of near-duplicates, whose copies differ in a few words, most
// cases get one, and one close to their k-th best.
func TestHeavyTermBarsAreExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(clusteredLibrary(150, 4, 33), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	pb := ix.newPairBars() // nothing published: every bar is a heavy-term bar
	sc := ix.getScorer()
	var q []qterm
	for _, k := range []int{1, 3, 10} {
		barred, close := 0, 0
		for d := range ix.Len() {
			s := ix.nearSearch(d, k, 0, q, ix.relPrior, true)
			q = s.q
			bar := pb.bar(sc, &s, d)
			if bar == 0 {
				continue
			}
			barred++
			want := bruteRelated(ix, d, k, 0)
			if len(want) < k || bar > want[k-1].Score {
				t.Fatalf("k=%d case %s: heavy-term bar %v, brute force %v", k, ix.Case(d).ID, bar, scored(want))
			}
			if bar >= 0.9*want[k-1].Score {
				close++
			}
		}
		t.Logf("k=%d: %d of %d cases got a heavy-term bar, %d within 10%% of their k-th best", k, barred, ix.Len(), close)
		if barred < ix.Len()/2 {
			t.Errorf("k=%d: only %d of %d cases got a heavy-term bar", k, barred, ix.Len())
		}
		// The rarest terms' cases (the bar before) had 466 of 750 at k = 10.
		if close < ix.Len()*4/5 {
			t.Errorf("k=%d: only %d of %d heavy-term bars within 10%% of the k-th best", k, close, ix.Len())
		}
	}
}
