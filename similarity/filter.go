package similarity

import (
	"fmt"
	"strings"

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
	if since, until := f.bounds(); f.Since != "" && f.Until != "" && since > until {
		return fmt.Errorf("since %s is after until %s: no case can be in between", f.Since, f.Until)
	}
	return nil
}

// period returns the first and last day numbers a valid date of any
// precision (YYYY, YYYY-MM, YYYY-MM-DD) covers.
func period(s string) (first, last int) {
	d, _ := caselib.ParseDate(s)
	return d.Days()
}

// bounds returns the first day of Since and the last day of Until as day
// numbers (meaningful only for the bounds that are set).
func (f Filter) bounds() (since, until int) {
	if f.Since != "" {
		since, _ = period(f.Since)
	}
	if f.Until != "" {
		_, until = period(f.Until)
	}
	return since, until
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
		d, err := caselib.ParseDate(c.Date)
		if c.Date == "" || err != nil {
			return false
		}
		first, last := d.Days()
		since, until := f.bounds()
		if f.Since != "" && first < since {
			return false
		}
		if f.Until != "" && last > until {
			return false
		}
	}
	return true
}
