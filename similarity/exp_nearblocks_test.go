// Experiment harness (issue 34): the neighbour search by block-max, and window bounds from the blocks' last cases.
// Environment-gated: EXP_LIB (a JSON Lines library; its index is cached beside it), EXP_PASTES, EXP_REPS, EXP_ONE, EXP_NB.
package similarity

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/caselink/caselink/similarity/caselib"
)

func expLoad(t *testing.T, path string) *Index {
	var key [32]byte
	copy(key[:], "exp-fixed-key")
	idx := path + ".idx"
	load := func(i int) (*caselib.Case, error) { return nil, errors.New("no cases") }
	if _, err := os.Stat(idx); err == nil {
		ix, err := OpenCacheLazy(idx, key, DefaultConfig(), load)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	b, err := NewBuilder(DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var c caselib.Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(&c); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	ix, _, err := b.Index(load)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.SaveCache(idx, key); err != nil {
		t.Fatal(err)
	}
	return ix
}

func expPastes(t *testing.T) []string {
	f, err := os.ReadFile(os.Getenv("EXP_PASTES"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range splitLines(string(f)) {
		if l == "" {
			continue
		}
		var q struct{ Text string }
		if err := json.Unmarshal([]byte(l), &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q.Text)
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func pct(lat []time.Duration, p float64) float64 {
	s := slices.Clone(lat)
	slices.Sort(s)
	return float64(s[min(len(s)-1, int(p*float64(len(s))))].Microseconds()) / 1000
}

// TestExpSplit times first pass and whole match per paste.
func TestExpSplit(t *testing.T) {
	lib := os.Getenv("EXP_LIB")
	if lib == "" {
		t.Skip()
	}
	ix := expLoad(t, lib)
	pastes := expPastes(t)
	reps, _ := strconv.Atoi(os.Getenv("EXP_REPS"))
	reps = max(reps, 1)
	var whole, first []time.Duration
	per := make([]time.Duration, len(pastes))
	perF := make([]time.Duration, len(pastes))
	for range reps {
		for i, p := range pastes {
			t0 := time.Now()
			ix.Match(Query{Text: p, K: 10})
			d := time.Since(t0)
			whole = append(whole, d)
			if per[i] == 0 || d < per[i] {
				per[i] = d
			}
			pa := ix.analyzePaste(p)
			t1 := time.Now()
			ix.search(&search{q: pa.q, k: max(10, ix.cfg.ExpandPool)})
			d1 := time.Since(t1)
			first = append(first, d1)
			if perF[i] == 0 || d1 < perF[i] {
				perF[i] = d1
			}
		}
	}
	fmt.Printf("whole p50 %.2f p99 %.2f | first p50 %.2f p99 %.2f\n", pct(whole, .5), pct(whole, .99), pct(first, .5), pct(first, .99))
	idx := make([]int, len(pastes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(per[b] - per[a]) })
	for _, i := range idx[:12] {
		fmt.Printf("paste %3d whole %.2f first %.2f ms terms %d\n", i, float64(per[i].Microseconds())/1000, float64(perF[i].Microseconds())/1000, len(ix.analyzePaste(pastes[i]).q))
	}
}

// TestExpExpand times the parts of the second stage of some pastes.
func TestExpExpand(t *testing.T) {
	lib := os.Getenv("EXP_LIB")
	if lib == "" {
		t.Skip()
	}
	ix := expLoad(t, lib)
	pastes := expPastes(t)
	for i := range pastes {
		for rep := 0; rep < 1; rep++ {
			res := &Result{paste: ix.analyzePaste(pastes[i])}
			k, pool := 10, max(10, ix.cfg.ExpandPool)
			t0 := time.Now()
			first := ix.search(&search{q: res.paste.q, k: pool})
			t1 := time.Now()
			best := first[0]
			srcQ := ix.caseQuery(best.Doc, ix.exp, nil)
			sims := make([]float64, len(first))
			for j := 1; j < len(first); j++ {
				sims[j] = ix.exact(srcQ, first[j].Doc, ix.exp)
			}
			e := ix.cfg.expandWeight(first, sims)
			t2 := time.Now()
			res.ExpandWeight = e
			res.ExpandedWeight = []float64{best.Score}
			out := make([]Hit, len(first))
			for j, h := range first {
				if j > 0 {
					h.Score = min(max((1-e)*h.First+e*best.Score*sims[j], 0), 1)
				}
				out[j] = h
			}
			minSim := 2.0
			var near []Hit
			if e > 0 {
				minSim = ix.neighbourBar(res, out, first, k, pool)
				if minSim <= 1 {
					near = ix.search(&search{q: srcQ, prof: ix.exp, k: pool, minScore: minSim})
					fmt.Printf("TA %.2f ", float64(time.Since(t2).Microseconds())/1000)
					tb := time.Now()
					near = ix.search(&search{q: srcQ, prof: ix.exp, k: pool, minScore: minSim, blocks: true})
					fmt.Printf("NB %.2f ", float64(time.Since(tb).Microseconds())/1000)
				}
			}
			t3 := time.Now()
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			t4 := time.Now()
			ix.Match(Query{Text: pastes[i], K: 10})
			fmt.Printf("match %.2f ", ms(time.Since(t4)))
			fmt.Printf("paste %3d first %.2f sims %.2f near %.2f (e %.3f bar %.3f, srcQ %d terms, best %.4f 10th %.4f last %.4f, near %d)\n", i, ms(t1.Sub(t0)), ms(t2.Sub(t1)), ms(t3.Sub(t2)), e, minSim, len(srcQ), best.Score, first[min(9, len(first)-1)].Score, first[len(first)-1].Score, len(near))
		}
	}
}

// TestExpSame compares Match with and without NB; then times both interleaved.
func TestExpSame(t *testing.T) {
	lib := os.Getenv("EXP_LIB")
	if lib == "" {
		t.Skip()
	}
	ix := expLoad(t, lib)
	pastes := expPastes(t)
	reps, _ := strconv.Atoi(os.Getenv("EXP_REPS"))
	reps = max(reps, 1)
	diff := 0
	var lat [2][]time.Duration
	for r := range reps {
		for i, p := range pastes {
			var got [2]string
			for v := range 2 {
				if (v+r+i)%2 == 0 {
					os.Setenv("NB", "1")
				} else {
					os.Unsetenv("NB")
				}
				vv := v
				if os.Getenv("NB") == "" {
					vv = 0
				} else {
					vv = 1
				}
				t0 := time.Now()
				res := ix.Match(Query{Text: p, K: 15})
				lat[vv] = append(lat[vv], time.Since(t0))
				got[vv] = fmt.Sprintf("%v %v", res.Hits, res.ExpandWeight)
			}
			if r == 0 && got[0] != got[1] {
				diff++
				if diff < 4 {
					t.Errorf("paste %d:\n%s\n%s", i, got[0], got[1])
				}
			}
		}
	}
	fmt.Printf("diff %d of %d; off p50 %.2f p99 %.2f | NB p50 %.2f p99 %.2f\n", diff, len(pastes), pct(lat[0], .5), pct(lat[0], .99), pct(lat[1], .5), pct(lat[1], .99))
}

// TestExpOne repeats one paste's neighbour search (EXP_ONE, EXP_NB) for a profile.
func TestExpOne(t *testing.T) {
	lib := os.Getenv("EXP_LIB")
	if lib == "" {
		t.Skip()
	}
	ix := expLoad(t, lib)
	pastes := expPastes(t)
	i, _ := strconv.Atoi(os.Getenv("EXP_ONE"))
	res := &Result{paste: ix.analyzePaste(pastes[i])}
	k, pool := 10, max(10, ix.cfg.ExpandPool)
	first := ix.search(&search{q: res.paste.q, k: pool})
	best := first[0]
	srcQ := ix.caseQuery(best.Doc, ix.exp, nil)
	sims := make([]float64, len(first))
	for j := 1; j < len(first); j++ {
		sims[j] = ix.exact(srcQ, first[j].Doc, ix.exp)
	}
	e := ix.cfg.expandWeight(first, sims)
	res.ExpandWeight = e
	res.ExpandedWeight = []float64{best.Score}
	out := make([]Hit, len(first))
	for j, h := range first {
		if j > 0 {
			h.Score = min(max((1-e)*h.First+e*best.Score*sims[j], 0), 1)
		}
		out[j] = h
	}
	minSim := ix.neighbourBar(res, out, first, k, pool)
	nb := os.Getenv("EXP_NB") != ""
	t0 := time.Now()
	for range 30 {
		ix.search(&search{q: srcQ, prof: ix.exp, k: pool, minScore: minSim, blocks: nb})
	}
	fmt.Printf("paste %d nb %v bar %.3f: %.2f ms\n", i, nb, minSim, float64(time.Since(t0).Microseconds())/1000/30)
}

// TestExpBound compares the old and new window bounds, interleaved, on the first pass and the whole match.
func TestExpBound(t *testing.T) {
	lib := os.Getenv("EXP_LIB")
	if lib == "" {
		t.Skip()
	}
	ix := expLoad(t, lib)
	pastes := expPastes(t)
	reps, _ := strconv.Atoi(os.Getenv("EXP_REPS"))
	reps = max(reps, 1)
	var first, whole [2][]time.Duration
	for r := range reps {
		for i, p := range pastes {
			pa := ix.analyzePaste(p)
			var got [2]string
			for v0 := range 2 {
				v := (v0 + r + i) % 2
				expOldBound = v == 0
				t0 := time.Now()
				h := ix.search(&search{q: pa.q, k: max(10, ix.cfg.ExpandPool)})
				first[v] = append(first[v], time.Since(t0))
				t1 := time.Now()
				res := ix.Match(Query{Text: p, K: 10})
				whole[v] = append(whole[v], time.Since(t1))
				got[v] = fmt.Sprint(h, res.Hits)
			}
			if got[0] != got[1] {
				t.Fatalf("paste %d differs", i)
			}
		}
	}
	expOldBound = false
	fmt.Printf("old: first p50 %.2f p99 %.2f whole p50 %.2f p99 %.2f | new: first p50 %.2f p99 %.2f whole p50 %.2f p99 %.2f\n",
		pct(first[0], .5), pct(first[0], .99), pct(whole[0], .5), pct(whole[0], .99), pct(first[1], .5), pct(first[1], .99), pct(whole[1], .5), pct(whole[1], .99))
}

// TestExpNear collects, per paste, the neighbour search's time both ways (min of reps) and cost predictors.
func TestExpNear(t *testing.T) {
	lib := os.Getenv("EXP_LIB")
	if lib == "" {
		t.Skip()
	}
	ix := expLoad(t, lib)
	pastes := expPastes(t)
	for i, p := range pastes {
		res := &Result{paste: ix.analyzePaste(p)}
		k, pool := 10, max(10, ix.cfg.ExpandPool)
		first := ix.search(&search{q: res.paste.q, k: pool})
		if len(first) == 0 {
			continue
		}
		best := first[0]
		srcQ := ix.caseQuery(best.Doc, ix.exp, nil)
		sims := make([]float64, len(first))
		for j := 1; j < len(first); j++ {
			sims[j] = ix.exact(srcQ, first[j].Doc, ix.exp)
		}
		e := ix.cfg.expandWeight(first, sims)
		if e <= 0 {
			continue
		}
		res.ExpandWeight = e
		res.ExpandedWeight = []float64{best.Score}
		out := make([]Hit, len(first))
		for j, h := range first {
			if j > 0 {
				h.Score = min(max((1-e)*h.First+e*best.Score*sims[j], 0), 1)
			}
			out[j] = h
		}
		minSim := ix.neighbourBar(res, out, first, k, pool)
		if minSim > 1 {
			continue
		}
		var tm [2]time.Duration
		for rep := range 3 {
			for v := range 2 {
				t0 := time.Now()
				ix.search(&search{q: srcQ, prof: ix.exp, k: pool, minScore: minSim, blocks: (v+rep)%2 == 1})
				d := time.Since(t0)
				vv := (v + rep) % 2
				if tm[vv] == 0 || d < tm[vv] {
					tm[vv] = d
				}
			}
		}
		// predictors
		sc := ix.getScorer()
		s := search{q: srcQ, prof: ix.exp, k: pool, minScore: minSim}
		pp := pass{ix: ix, sc: sc, wt: ix.weightsFor(s.prof), top: topHeap{k: s.k}}
		pp.orderTerms(&s)
		cut, pre, tot := len(pp.order), 0, 0
		for j := range pp.order {
			n := pp.spans[j].hi - pp.spans[j].lo
			tot += n
			if cut == len(pp.order) && pp.unseen(j) < minSim {
				cut = j
			}
			if cut == len(pp.order) {
				pre += n
			}
		}
		ix.putScorer(sc)
		fmt.Printf("NEAR %d %.3f %.3f %.3f %d %d %d %d\n", i, float64(tm[0].Microseconds())/1000, float64(tm[1].Microseconds())/1000, minSim, len(srcQ), cut, pre, tot)
	}
}
