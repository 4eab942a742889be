package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/caselink/caselink/similarity"
)

// Verdicts of a judged pair of the dupes list, read from a judged-pairs
// file (see [ReadJudgedPairs]): judged by reading both records, never by
// their score.
const (
	VerdictSame      = "same"      // one real-world incident (a notice and its post-mortem, two updates of one incident)
	VerdictRelated   = "related"   // the same mechanism or a knock-on failure, not one incident
	VerdictDifferent = "different" // different incidents (a templated repeat on another day is different)
	VerdictUnclear   = "unclear"   // the records do not tell
)

// JudgedPairs maps a pair of case ids, the smaller first, to its verdict.
type JudgedPairs map[[2]string]string

// ReadJudgedPairs reads judged-pairs files, JSON Lines of
// {"a","b","verdict"} (other fields, such as "rank", "score" and "why",
// are ignored); a pair judged in a later file takes that verdict. An
// unknown verdict or a missing id is an error naming the file and line.
func ReadJudgedPairs(paths ...string) (JudgedPairs, error) {
	out := JudgedPairs{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			var p struct{ A, B, Verdict string }
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
			switch {
			case p.A == "" || p.B == "":
				f.Close()
				return nil, fmt.Errorf("%s:%d: \"a\" and \"b\" must be case ids", path, n)
			case p.Verdict != VerdictSame && p.Verdict != VerdictRelated && p.Verdict != VerdictDifferent && p.Verdict != VerdictUnclear:
				f.Close()
				return nil, fmt.Errorf("%s:%d: pair %s %s: \"verdict\" %q: want same, related, different or unclear", path, n, p.A, p.B, p.Verdict)
			}
			out[[2]string{min(p.A, p.B), max(p.A, p.B)}] = p.Verdict
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	return out, nil
}

// RankedPair is a pair of the dupes list with its rank (from 1) and score.
type RankedPair struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
}

// BandPrecision is the precision of one band of ranks of the dupes list,
// counted on its judged pairs: Precision = Same / (Same + Related +
// Different), unclear pairs left out; Lo and Hi are its 95% Wilson score
// interval. Unjudged lists the band's pairs the judged files lack: judge
// them by reading both records before trusting the figure.
type BandPrecision struct {
	From      int     `json:"from"`
	To        int     `json:"to"`
	Listed    int     `json:"listed"`
	Same      int     `json:"same"`
	Related   int     `json:"related"`
	Different int     `json:"different"`
	Unclear   int     `json:"unclear"`
	Precision float64 `json:"precision"`
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	// Unjudged are the pairs of the band without a verdict.
	Unjudged []RankedPair `json:"unjudged"`
}

// DupesBands are the bands of ranks precision is reported by.
var DupesBands = [][2]int{{1, 100}, {101, 500}, {501, 2000}}

// DupesPrecision measures the precision of the dupes list pairs (most
// probable first, as [similarity.Index.Duplicates] returns them) by band
// of ranks, on the judged pairs.
func DupesPrecision(ix *similarity.Index, pairs []similarity.Pair, judged JudgedPairs, bands [][2]int) []BandPrecision {
	out := make([]BandPrecision, 0, len(bands))
	for _, bd := range bands {
		b := BandPrecision{From: bd[0], To: bd[1], Unjudged: []RankedPair{}}
		for r := bd[0]; r <= bd[1] && r <= len(pairs); r++ {
			p := pairs[r-1]
			a, c := ix.Case(p.A).ID, ix.Case(p.B).ID
			b.Listed++
			switch judged[[2]string{min(a, c), max(a, c)}] {
			case VerdictSame:
				b.Same++
			case VerdictRelated:
				b.Related++
			case VerdictDifferent:
				b.Different++
			case VerdictUnclear:
				b.Unclear++
			default:
				b.Unjudged = append(b.Unjudged, RankedPair{A: a, B: c, Rank: r, Score: similarity.RoundScore(p.Score)})
			}
		}
		n := b.Same + b.Related + b.Different
		b.Precision, b.Lo, b.Hi = wilson(b.Same, n)
		out = append(out, b)
	}
	return out
}

// wilson returns k/n and its 95% Wilson score interval (0, 0, 1 when n is
// 0): unlike the normal approximation it stays inside [0, 1] and holds for
// the small counts of a judged sample.
func wilson(k, n int) (p, lo, hi float64) {
	if n == 0 {
		return 0, 0, 1
	}
	const z = 1.959964
	p = float64(k) / float64(n)
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return p, max(0, c-h), min(1, c+h)
}

// WriteDupesPrecision writes the precision of the dupes list by band as an
// aligned table.
func WriteDupesPrecision(w io.Writer, bands []BandPrecision) error {
	fmt.Fprintln(w, "dupes precision by rank (same / (same + related + different); unclear left out; 95% Wilson interval)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "ranks\tlisted\tsame\trelated\tdifferent\tunclear\tunjudged\tprecision\t95% interval\t")
	for _, b := range bands {
		p, iv := "–", "–"
		if b.Same+b.Related+b.Different > 0 {
			p, iv = fmt.Sprintf("%.2f", b.Precision), fmt.Sprintf("%.2f–%.2f", b.Lo, b.Hi)
		}
		fmt.Fprintf(tw, "%d–%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", b.From, b.To, b.Listed, b.Same, b.Related, b.Different, b.Unclear, len(b.Unjudged), p, iv)
	}
	return tw.Flush()
}
