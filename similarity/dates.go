package similarity

import (
	"math"

	"github.com/caselink/caselink/similarity/caselib"
)

// noDay marks a case without a usable date.
const noDay = math.MinInt32

// datePrior discounts case-to-case scores by how far apart in time two cases
// are: a case d days from the subject keeps 1 − w + w·exp(−d/τ) of its score.
// It is a per-case factor in [1 − w, 1], so every bound of the pruned search
// stays valid and its top k stays exact.
type datePrior struct {
	tab []float64 // tab[d] = 1 − w + w·exp(−d/τ), d in days; the last entry serves all longer gaps
}

// newDatePrior returns the prior of weight w and time scale tau days, nil
// when it is off.
func newDatePrior(w, tau float64) *datePrior {
	if w <= 0 || tau <= 0 {
		return nil
	}
	w = min(w, 1)
	// Past 30 time scales exp(−d/τ) < 1e-13: the factor is 1 − w.
	n := int(math.Ceil(30*tau)) + 1
	p := &datePrior{tab: make([]float64, n+1)}
	for d := range p.tab {
		p.tab[d] = 1 - w + w*math.Exp(-float64(d)/tau)
	}
	p.tab[n] = 1 - w
	return p
}

// between returns the factor of two day numbers (1 when either is noDay).
func (p *datePrior) between(a, b int32) float64 {
	if a == noDay || b == noDay {
		return 1
	}
	d := int64(a) - int64(b)
	if d < 0 {
		d = -d
	}
	return p.tab[min(d, int64(len(p.tab)-1))]
}

// dated is a date prior fixed to one subject case, as a search applies it.
type dated struct {
	p   *datePrior
	day []int32 // the index's day numbers
	of  int32   // the subject's
}

// factor returns the prior's factor for case d.
func (t *dated) factor(d int) float64 { return t.p.between(t.of, t.day[d]) }

// datedFrom returns the prior p fixed to the case at position doc, nil when p
// is nil or the case has no date (every factor would be 1).
func (ix *Index) datedFrom(p *datePrior, doc int) *dated {
	if p == nil || ix.day[doc] == noDay {
		return nil
	}
	return &dated{p: p, day: ix.day, of: ix.day[doc]}
}

// pairFactor returns the factor of p for the cases at positions a and b.
func (ix *Index) pairFactor(p *datePrior, a, b int) float64 {
	if p == nil {
		return 1
	}
	return p.between(ix.day[a], ix.day[b])
}

// dayNumbers returns every case's day number, noDay where it has none.
func (ix *Index) dayNumbers() []int32 {
	days := make([]int32, len(ix.cases))
	for i, c := range ix.cases {
		days[i] = noDay
		if d, ok := dayNumber(c.Date); ok {
			days[i] = int32(d)
		}
	}
	return days
}

// dayNumber is caselib.DayNumber: the day of a date that starts with
// YYYY-MM-DD, for differences between dates.
func dayNumber(s string) (day int, ok bool) { return caselib.DayNumber(s) }

// Day returns the day number of the date of the case at position i, as
// [caselib.DayNumber] gives it, and false when it has none. It reads no
// case: an index opened without its library answers it too.
func (ix *Index) Day(i int) (day int, ok bool) {
	if ix.day[i] == noDay {
		return 0, false
	}
	return int(ix.day[i]), true
}
