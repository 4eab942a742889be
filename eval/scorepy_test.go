package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caselink/caselink/eval/sharedtest"
)

// The reference scorer, in ../shared beside the repository.
var scorePy = sharedtest.Path("bench/score.py")

func python(t *testing.T) string {
	t.Helper()
	sharedtest.Need(t, scorePy)
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	return p
}

// synthetic builds random but reproducible judged queries, judged pairs and
// rankings that cover the corner cases: empty and missing rankings, no
// relevant case, grade-0 judgments, rankings longer and shorter than k,
// repeated ids, oneway and repeated pairs, subjects without rankings and
// rankings without judgments.
func synthetic() (qs []Query, pairs string, match, relate map[string][]string) {
	r := rand.New(rand.NewPCG(2016, 3))
	pool := make([]string, 16)
	for i := range pool {
		pool[i] = fmt.Sprintf("C%02d", i)
	}
	rankOf := func() []string {
		n := r.IntN(14)
		ids := make([]string, 0, n)
		for _, i := range r.Perm(len(pool))[:n] {
			ids = append(ids, pool[i])
		}
		if n > 1 && r.IntN(8) == 0 {
			ids = append(ids, ids[0]) // a repeated id, counted twice by both scorers
		}
		return ids
	}
	match = map[string][]string{}
	kinds := []string{"alert", "chat", ""}
	for i := range 80 {
		q := Query{ID: fmt.Sprintf("q%02d", i), Text: "t", Relevant: map[string]int{}, Kind: kinds[r.IntN(len(kinds))]}
		for range r.IntN(9) {
			q.Relevant[pool[r.IntN(len(pool))]] = r.IntN(3)
		}
		qs = append(qs, q)
		if r.IntN(10) != 0 {
			match[q.ID] = rankOf()
		}
	}

	var b strings.Builder
	b.WriteString("# synthetic pairs\n\n")
	for range 60 {
		x, y := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
		if x == y {
			continue
		}
		fmt.Fprintf(&b, "%s\t%s\t%d", x, y, r.IntN(3))
		if r.IntN(4) == 0 {
			b.WriteString("\toneway")
		}
		b.WriteString("\n")
	}
	pairs = b.String()
	relate = map[string][]string{}
	for _, id := range pool {
		if r.IntN(6) != 0 {
			relate[id] = rankOf()
		}
	}
	relate["NOT-JUDGED"] = []string{"C01", "C02"}
	return qs, pairs, match, relate
}

// TestScoreMatchesScorePy runs the reference scorer on synthetic data and
// checks that ScoreQueries and ScoreRelate give the same averages (score.py
// prints them rounded to 4 decimals).
func TestScoreMatchesScorePy(t *testing.T) {
	py := python(t)
	qs, pairs, match, relate := synthetic()
	dir := t.TempDir()

	var qf bytes.Buffer
	for _, q := range qs {
		line := map[string]any{"id": q.ID, "text": q.Text, "relevant": q.Relevant}
		if q.Kind != "" { // absent kind: score.py files it under "?"
			line["kind"] = q.Kind
		}
		b, _ := json.Marshal(line)
		qf.Write(append(b, '\n'))
	}
	withScores := func(rs map[string][]string) map[string][][2]any {
		out := map[string][][2]any{}
		for id, ranked := range rs {
			out[id] = [][2]any{}
			for i, c := range ranked {
				out[id] = append(out[id], [2]any{c, 1 / float64(i+1)})
			}
		}
		return out
	}
	rk, _ := json.Marshal(map[string]any{"anchor": "go-test", "match": withScores(match), "relate": withScores(relate)})
	files := map[string][]byte{"q.jsonl": qf.Bytes(), "r.tsv": []byte(pairs), "rankings.json": rk}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The Go side reads the same files through its own readers.
	gqs, err := ReadQueries(filepath.Join(dir, "q.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := ReadPairs(filepath.Join(dir, "r.tsv"))
	if err != nil {
		t.Fatal(err)
	}

	type pyMetrics struct {
		NDCG, MRR, P1, P1Best, R5, MAP float64
		N                              *int
	}
	toGo := func(p pyMetrics) Metrics {
		m := Metrics{NDCG: p.NDCG, MRR: p.MRR, P1: p.P1, P1Best: p.P1Best, R5: p.R5, MAP: p.MAP, N: -1}
		if p.N != nil {
			m.N = *p.N
		}
		return m
	}
	check := func(what string, got Metrics, want pyMetrics) {
		t.Helper()
		w := toGo(want)
		// score.py rounds to 4 decimals: the difference is at most 5e-5.
		const tol = 5e-5 + 1e-9
		for _, c := range []struct {
			name string
			g, w float64
		}{{"ndcg", got.NDCG, w.NDCG}, {"mrr", got.MRR, w.MRR}, {"p1", got.P1, w.P1},
			{"p1best", got.P1Best, w.P1Best}, {"r5", got.R5, w.R5}, {"map", got.MAP, w.MAP}} {
			if math.Abs(c.g-c.w) > tol {
				t.Errorf("%s %s: Go %.6f, score.py %.4f", what, c.name, c.g, c.w)
			}
		}
		if w.N >= 0 && got.N != w.N {
			t.Errorf("%s n: Go %d, score.py %d", what, got.N, w.N)
		}
	}

	for _, k := range []int{1, 3, 5, 10, 20} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, py, scorePy, filepath.Join(dir, "rankings.json"),
			"--queries", filepath.Join(dir, "q.jsonl"), "--related", filepath.Join(dir, "r.tsv"),
			"--k", fmt.Sprint(k), "--by-kind")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("score.py: %v\n%s", err, stderr.String())
		}
		var res struct {
			Match       pyMetrics            `json:"match"`
			MatchByKind map[string]pyMetrics `json:"match_by_kind"`
			Relate      pyMetrics            `json:"relate"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("score.py output %q: %v", out, err)
		}

		overall, byKind := ScoreQueries(gqs, match, k)
		check(fmt.Sprintf("k=%d match", k), overall, res.Match)
		if len(byKind) != len(res.MatchByKind) {
			t.Errorf("k=%d: %d kinds, score.py %d", k, len(byKind), len(res.MatchByKind))
		}
		for kind, want := range res.MatchByKind {
			got, ok := byKind[kind]
			if !ok {
				t.Errorf("k=%d: kind %q missing", k, kind)
			}
			check(fmt.Sprintf("k=%d match kind %q", k, kind), got, want)
		}
		check(fmt.Sprintf("k=%d relate", k), ScoreRelate(j, relate, k), res.Relate)
		if k == 10 {
			t.Logf("k=10: Go match %v; relate %v", overall.Round(4), ScoreRelate(j, relate, k).Round(4))
			t.Logf("k=10: score.py %s", bytes.TrimSpace(out))
		}
	}
}

// TestSeedSetMatchesScorePy checks that score.py reads the shipped seed judged
// set the same way: a fixed ranking (the seeds in id order) scores the same.
func TestSeedSetMatchesScorePy(t *testing.T) {
	py := python(t)
	qs, err := ReadQueries(seedQueries)
	if err != nil {
		t.Fatal(err)
	}
	j, err := ReadPairs(seedRelated)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"IL-0100", "IL-0191", "IL-0194", "IL-0371"}
	match, relate := map[string][]string{}, map[string][]string{}
	for _, q := range qs {
		match[q.ID] = ids
	}
	for _, id := range ids {
		for _, o := range ids {
			if o != id {
				relate[id] = append(relate[id], o)
			}
		}
	}
	rk, _ := json.Marshal(map[string]any{"match": match, "relate": relate})
	path := filepath.Join(t.TempDir(), "rankings.json")
	if err := os.WriteFile(path, rk, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, scorePy, path, "--queries", seedQueries, "--related", seedRelated, "--k", "10").Output()
	if err != nil {
		t.Fatalf("score.py: %v", err)
	}
	var res struct{ Match, Relate Metrics }
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("score.py output %q: %v", out, err)
	}
	gm, _ := ScoreQueries(qs, match, 10)
	gr := ScoreRelate(j, relate, 10)
	if gm.Round(4) != res.Match || gr.Round(4) != res.Relate {
		t.Errorf("Go match %v relate %v\nscore.py %s", gm.Round(4), gr.Round(4), bytes.TrimSpace(out))
	}
}
