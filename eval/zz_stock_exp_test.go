package eval

// Scratch probe for issue 31: drop stock lines (not committed).

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
)

var stockSplit = regexp.MustCompile(`\n+|[.!?](\s+|$)`)
var stockDigits = regexp.MustCompile(`[0-9]+`)
var stockSpace = regexp.MustCompile(`\s+`)

func stockNorm(s string) string {
	s = strings.ToLower(s)
	s = stockDigits.ReplaceAllString(s, "0")
	return strings.TrimSpace(stockSpace.ReplaceAllString(s, " "))
}

// dropStock removes from docs the sentences that at least t cases have.
func dropStock(docs []similarity.Document, t int) (dropped, total int) {
	df := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, frags := range d.Text {
			for _, f := range frags {
				for _, l := range stockSplit.Split(f, -1) {
					if n := stockNorm(l); len(n) >= 15 && !seen[n] {
						seen[n] = true
						df[n]++
					}
				}
			}
		}
	}
	for i := range docs {
		for v := range docs[i].Text {
			var out []string
			for _, f := range docs[i].Text[v] {
				var keep []string
				for _, l := range stockSplit.Split(f, -1) {
					total++
					if n := stockNorm(l); len(n) >= 15 && df[n] >= t {
						dropped++
						continue
					}
					keep = append(keep, l)
				}
				out = append(out, strings.Join(keep, ". "))
			}
			docs[i].Text[v] = out
		}
	}
	return
}

func TestStockExp(t *testing.T) {
	spec := os.Getenv("STOCK")
	if spec == "" {
		t.Skip("STOCK unset")
	}
	out := os.Getenv("OUT")
	for _, s := range judgedSets() {
		if !strings.Contains(",incidents-noisy,gitbugs-train,", ","+s.name+",") && !strings.Contains(","+os.Getenv("SETS")+",", ","+s.name+",") {
			continue
		}
		cases, qs, rel, ok := s.load(t)
		if !ok {
			t.Fatal(s.name)
		}
		for _, v := range strings.Split(spec, ",") {
			th, _ := strconv.Atoi(v)
			docs := similarity.Documents(cases)
			var dr, tot int
			if th > 0 {
				dr, tot = dropStock(docs, th)
			}
			ix, err := similarity.Build(docs, similarity.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			row, _ := Run(ix, qs, rel, s.k)
			name := "stock" + v
			if th == 0 {
				name = "base"
			}
			b, _ := json.Marshal(row)
			os.WriteFile(out+"/"+s.name+"--"+name+".json", b, 0o644)
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
			t.Logf("%s %s dropped %d/%d match %.4f relate %.4f", s.name, name, dr, tot, m, r)
		}
	}
}
