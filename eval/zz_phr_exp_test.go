package eval

// Scratch experiment harness for issue 31 phrases (not committed).

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/caselink/caselink/similarity/caselib"

	"github.com/caselink/caselink/similarity"
)

func TestPhrExp(t *testing.T) {
	spec := os.Getenv("PHR")
	if spec == "" {
		t.Skip("PHR unset")
	}
	out := os.Getenv("OUT")
	only := os.Getenv("SETS")
	for _, s := range judgedSets() {
		if only != "" && !strings.Contains(","+only+",", ","+s.name+",") {
			continue
		}
		cases, qs, rel, ok := s.load(t)
		if !ok {
			t.Fatalf("%s absent", s.name)
		}
		docs := similarity.Documents(cases)
		for _, v := range strings.Split(spec, ",") {
			f := strings.Split(v, ":")
			cfg := similarity.DefaultConfig()
			lam, _ := strconv.ParseFloat(f[1], 64)
			mindf, _ := strconv.Atoi(f[2])
			cfg.Analyzer.FileStems = strings.HasPrefix(f[0], "fs")
			if f[0] == "nourl" {
				cfg.Analyzer.URLWords = false
			}
			if f[0] == "nofiles" {
				cfg.Analyzer.Files = false
			}
			if lam > 0 {
				cfg.Analyzer.Bigrams = true
				cfg.Phrases = lam
				cfg.PhraseMinDF = mindf
				cfg.PhraseNoNorm = len(f) > 3 && f[3] == "n"
				if len(f) > 4 {
					cfg.PhraseCap, _ = strconv.Atoi(f[4])
				}
				if len(f) > 5 {
					cfg.PhraseWordShare, _ = strconv.ParseFloat(f[5], 64)
				}
				if len(f) > 3 && f[3] != "n" && f[3] != "" {
					cfg.PhraseShare, _ = strconv.ParseFloat(f[3], 64)
				}
			}
			ix, err := similarity.Build(docs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			row, _ := Run(ix, qs, rel, s.k)
			row.Name = f[0]
			b, _ := json.Marshal(row)
			os.WriteFile(out+"/"+s.name+"--"+f[0]+".json", b, 0o644)
			var m, r float64
			if row.Match != nil {
				m = row.Match.NDCG
			}
			if row.Relate != nil {
				r = row.Relate.NDCG
				if s.name == "gitbugs-train" {
					r = row.Relate.MRR
				}
			}
			t.Logf("%s %s match %.4f relate %.4f", s.name, f[0], m, r)
		}
	}
}

func TestPhrCost(t *testing.T) {
	spec := os.Getenv("PHRCOST")
	if spec == "" {
		t.Skip("PHRCOST unset")
	}
	lib, err := caselib.Load([]string{"/work/exp/c100k.jsonl"}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs := similarity.Documents(lib.Cases)
	for _, v := range strings.Split(spec, ",") {
		f := strings.Split(v, ":")
		cfg := similarity.DefaultConfig()
		lam, _ := strconv.ParseFloat(f[1], 64)
		mindf, _ := strconv.Atoi(f[2])
		if lam > 0 {
			cfg.Analyzer.Bigrams = true
			cfg.Phrases = lam
			cfg.PhraseMinDF = mindf
		}
		t0 := time.Now()
		ix, err := similarity.Build(docs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tb := time.Since(t0)
		p := "/tmp/phr/cost-" + f[0] + ".idx"
		if err := ix.SaveCache(p, [32]byte{}); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		t1 := time.Now()
		ix.AllRelated(10, 0, nil)
		tr := time.Since(t1)
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
		t.Logf("%s build %v file %d bytes terms %d postings %d relate wall %v cpu %v", f[0], tb, st.Size(), ix.Terms(), ix.Postings(), tr, cpu)
		os.Remove(p)
	}
}

func TestPhrSameEvent(t *testing.T) {
	spec := os.Getenv("PHRSE")
	if spec == "" {
		t.Skip("PHRSE unset")
	}
	for _, s := range sameEventSets() {
		want := readSameEvent(t, s.list)
		lib, err := caselib.Load(s.cases, caselib.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range strings.Split(spec, ",") {
			f := strings.Split(v, ":")
			cfg := similarity.DefaultConfig()
			lam, _ := strconv.ParseFloat(f[1], 64)
			mindf, _ := strconv.Atoi(f[2])
			if lam > 0 {
				cfg.Analyzer.Bigrams = true
				cfg.Phrases = lam
				cfg.PhraseMinDF = mindf
			}
			ix, err := similarity.BuildCases(lib.Cases, cfg)
			if err != nil {
				t.Fatal(err)
			}
			pairs := ix.Duplicates(0.4, 10, nil)
			rank := map[[2]string]int{}
			for i, p := range pairs {
				rank[[2]string{ix.Case(p.A).ID, ix.Case(p.B).ID}] = i + 1
			}
			in := 0
			var rs []string
			for _, p := range want {
				r := rank[p]
				if r > 0 && r <= 500 {
					in++
				}
				rs = append(rs, strconv.Itoa(r))
			}
			t.Logf("%s %s: %d of %d in top 500 (%d pairs) ranks %s", s.name, f[0], in, len(want), len(pairs), strings.Join(rs, " "))
		}
	}
}

func TestPhrMisses(t *testing.T) {
	if os.Getenv("PHRMISS") == "" {
		t.Skip("unset")
	}
	for _, s := range sameEventSets()[:1] {
		want := readSameEvent(t, s.list)
		lib, _ := caselib.Load(s.cases, caselib.LoadOptions{})
		ix, _ := similarity.BuildCases(lib.Cases, similarity.DefaultConfig())
		for _, p := range want {
			a, _ := ix.Lookup(p[0])
			b, _ := ix.Lookup(p[1])
			ca, cb := ix.Case(a), ix.Case(b)
			e := ix.EventEvidence(a, b)
			t.Logf("%s %s [%s|%s] [%s|%s] sim %.3f dupe %.3f ev %+v", p[0], p[1], ca.Org, ca.Date, cb.Org, cb.Date, ix.CaseSimilarity(a, b), ix.DupeScore(a, b), e)
		}
	}
}

func TestPhrShow(t *testing.T) {
	id := os.Getenv("PHRSHOW")
	if id == "" {
		t.Skip("unset")
	}
	lib, _ := caselib.Load([]string{sharedData("bench/gitbugs-hadoop/cases.jsonl")}, caselib.LoadOptions{})
	for _, ph := range []float64{0, 0.75} {
		cfg := similarity.DefaultConfig()
		if ph > 0 {
			cfg.Analyzer.Bigrams, cfg.Phrases, cfg.PhraseMinDF = true, ph, 2
		}
		ix, _ := similarity.BuildCases(lib.Cases, cfg)
		a, _ := ix.Lookup(id)
		for _, h := range ix.Related(a, 3, 0) {
			e := ix.ExplainPair(a, h.Doc)
			var ps []string
			for _, p := range e.Parts[:min(8, len(e.Parts))] {
				ps = append(ps, fmt.Sprintf("%s %.3f", p.Term, p.Score))
			}
			t.Logf("phr %.2f %s -> %s %.3f: %s", ph, id, ix.ID(h.Doc), h.Score, strings.Join(ps, "; "))
		}
	}
}
