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

// Validate reports a date bound that is not YYYY, YYYY-MM or YYYY-MM-DD.
func (f Filter) Validate() error {
	for _, d := range []struct{ name, v string }{{"since", f.Since}, {"until", f.Until}} {
		if d.v != "" && !datePrefix(d.v) {
			return fmt.Errorf("bad %s date %q: want YYYY, YYYY-MM or YYYY-MM-DD", d.name, d.v)
		}
	}
	return nil
}

// datePrefix reports whether s is YYYY, YYYY-MM or YYYY-MM-DD.
func datePrefix(s string) bool {
	for i, r := range s {
		switch i {
		case 4, 7:
			if r != '-' {
				return false
			}
		default:
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return len(s) == 4 || len(s) == 7 || len(s) == 10
}

// IsZero reports whether f keeps every case.
func (f Filter) IsZero() bool {
	return len(f.Orgs) == 0 && len(f.Domains) == 0 && f.Since == "" && f.Until == ""
}

// Keep reports whether case c passes the filter. A case without a date fails
// any date bound.
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
	if f.Since != "" && (c.Date == "" || c.Date < f.Since) {
		return false
	}
	if f.Until != "" && (c.Date == "" || (c.Date > f.Until && !strings.HasPrefix(c.Date, f.Until))) {
		return false
	}
	return true
}
