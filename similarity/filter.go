package similarity

import (
	"fmt"
	"strings"
	"time"

	"github.com/caselink/caselink/similarity/caselib"
)

// Filter narrows a search to some cases. Empty fields do not filter.
type Filter struct {
	Orgs    []string // keep cases whose org is one of these (case-insensitive)
	Domains []string // keep cases with one of these domain tags ("kubernetes")
	Since   string   // keep cases dated on or after this date (YYYY-MM-DD or a prefix: "2024", "2024-03")
	Until   string   // keep cases dated on or before this date (a prefix includes the whole period)
}

// Validate reports a date bound that is not YYYY, YYYY-MM or YYYY-MM-DD (a
// real month and day), and a since bound after the until bound.
func (f Filter) Validate() error {
	for _, d := range []struct{ name, v string }{{"since", f.Since}, {"until", f.Until}} {
		if d.v == "" {
			continue
		}
		if err := caselib.CheckDate(d.v); err != nil {
			return fmt.Errorf("bad %s date: %v", d.name, err)
		}
	}
	if f.Since != "" && f.Until != "" && periodStart(f.Since) > periodEnd(f.Until) {
		return fmt.Errorf("since %s is after until %s: no case can be in between", f.Since, f.Until)
	}
	return nil
}

// periodStart and periodEnd return the first and last day a valid date of
// any precision (YYYY, YYYY-MM, YYYY-MM-DD) covers, as YYYY-MM-DD strings,
// which compare in time order.
func periodStart(s string) string { return s + "-01-01"[len(s)-4:] }

func periodEnd(s string) string {
	switch len(s) {
	case 4:
		return s + "-12-31"
	case 7:
		t, _ := time.Parse("2006-01", s)
		return t.AddDate(0, 1, -1).Format("2006-01-02")
	}
	return s
}

// IsZero reports whether f keeps every case.
func (f Filter) IsZero() bool {
	return len(f.Orgs) == 0 && len(f.Domains) == 0 && f.Since == "" && f.Until == ""
}

// Keep reports whether case c passes the filter. With a date bound, a case
// passes only when the whole period of its date (a year, a month or a day)
// lies within the bounds; a case without a date, or with one that is not
// YYYY, YYYY-MM or YYYY-MM-DD, fails any date bound.
func (f Filter) Keep(c *caselib.Case) bool {
	if len(f.Orgs) > 0 {
		ok := false
		for _, o := range f.Orgs {
			if strings.EqualFold(strings.TrimSpace(o), c.Org) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(f.Domains) > 0 {
		ok := false
		for _, want := range f.Domains {
			for _, d := range c.Domain {
				if normalizeTag(want) == normalizeTag(d) {
					ok = true
				}
			}
		}
		if !ok {
			return false
		}
	}
	if f.Since != "" || f.Until != "" {
		// A case must lie within the bounds as a whole: one dated 2024 is
		// neither since 2024-06 nor until 2024-03, and one whose date
		// cannot be placed is in no period at all.
		if c.Date == "" || caselib.CheckDate(c.Date) != nil {
			return false
		}
		if f.Since != "" && periodStart(c.Date) < periodStart(f.Since) {
			return false
		}
		if f.Until != "" && periodEnd(c.Date) > periodEnd(f.Until) {
			return false
		}
	}
	return true
}
