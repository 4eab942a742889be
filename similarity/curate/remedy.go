package curate

import (
	"strings"

	"github.com/caselink/caselink/similarity/caselib"
)

// RemedyLines is how many remediation steps a match hit shows.
const RemedyLines = 3

// Remedy returns what fixed case c, as an on-call engineer wants it first:
// the first line of each of its first n remediation steps (English, else
// Korean), blank steps left out.
func Remedy(c *caselib.Case, n int) []string {
	var out []string
	for _, r := range c.Remediation {
		if len(out) >= n {
			break
		}
		t := r.EN
		if strings.TrimSpace(t) == "" {
			t = r.KO
		}
		t, _, _ = strings.Cut(strings.TrimSpace(t), "\n")
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
