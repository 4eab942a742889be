package similarity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// twinLibrary is a synthetic library of 120 pairs of twins: the two cases of
// a pair share a few words of their own, and every case has common words
// drawn from a small pool. With coarse, each case also carries a priority
// (drawn independently of its twin's) and a domain every case has; with
// specific, each pair shares a symptom tag of its own.
func twinLibrary(coarse, specific bool) []*caselib.Case {
	const pairs = 120
	word := func(i int) string { // a made-up word per number, stable under analysis
		const letters = "bdfgklmnprstvz"
		var b strings.Builder
		for n := i + 1; n > 0; n /= len(letters) {
			b.WriteByte(letters[n%len(letters)])
			b.WriteByte("aeiou"[n%5])
		}
		return b.String() + "x"
	}
	var cases []*caselib.Case
	for p := range pairs {
		for twin := range 2 {
			i := 2*p + twin
			var common, own []string
			for j := range 8 {
				common = append(common, word((i*7+j*13)%40))
			}
			for j := range 3 {
				own = append(own, word(1000+p*3+j))
			}
			c := &caselib.Case{
				ID:      fmt.Sprintf("C%03d", i),
				Title:   caselib.Text{EN: strings.Join(common[:4], " ") + " " + own[0]},
				Summary: caselib.Text{EN: strings.Join(common[4:], " ") + " " + strings.Join(own[1:], " ")},
			}
			if coarse {
				c.Components = []string{[]string{"priority-major", "priority-minor"}[(i*i/3+i/2)%2]}
				c.Domain = []string{"everything"}
			}
			if specific {
				c.Symptoms = []string{"sign-" + word(5000+p)}
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// twinsFound is the share of cases whose first related case is their twin.
func twinsFound(t *testing.T, cfg Config, cases []*caselib.Case) float64 {
	t.Helper()
	ix, err := BuildCases(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i := range cases {
		if hits := ix.Related(i, 1, 0); len(hits) == 1 && hits[0].Doc == i^1 {
			found++
		}
	}
	return float64(found) / float64(len(cases))
}

// Coarse tags (a priority, a domain every case has) must not pull a case
// away from its twin, while a tag only twins share keeps its weight: the
// lift of each tag, measured on the library, decides what it counts for.
func TestTagLiftCoarseAndSpecific(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	plain := twinsFound(t, cfg, twinLibrary(false, false))
	coarse := twinsFound(t, cfg, twinLibrary(true, false))
	t.Logf("twins found first: plain %.3f, coarse tags %.3f", plain, coarse)
	if coarse < plain-0.02 {
		t.Errorf("with coarse tags %.3f of the cases find their twin first, without them %.3f", coarse, plain)
	}
	off := cfg
	off.TagLift = false
	before := twinsFound(t, off, twinLibrary(true, false))
	t.Logf("without lift, with coarse tags: %.3f", before)
	if before > plain-0.1 {
		t.Errorf("without lift, coarse tags give %.3f (plain %.3f): the library no longer shows the problem", before, plain)
	}

	// A specific tag shared by twins alone still counts in full.
	ix, err := BuildCases(twinLibrary(true, true), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ixOff, err := BuildCases(twinLibrary(true, true), off)
	if err != nil {
		t.Fatal(err)
	}
	ex := ix.ExplainPair(0, 1)
	exOff := ixOff.ExplainPair(0, 1)
	var symptom, symptomOff float64
	for _, p := range ex.Parts {
		if strings.HasPrefix(p.Term, "symptom:") {
			symptom = p.Score
		}
	}
	for _, p := range exOff.Parts {
		if strings.HasPrefix(p.Term, "symptom:") {
			symptomOff = p.Score
		}
	}
	t.Logf("twins' shared symptom tag adds %.3f (%.3f without lift)", symptom, symptomOff)
	if symptom < 0.9*symptomOff || symptom < 0.1 {
		t.Errorf("the twins' own symptom tag adds %.3f, want at least 0.9 × %.3f (without lift) and 0.1", symptom, symptomOff)
	}
}

// Build refuses a configuration out of range with a sentence naming the
// field, and takes the default.
func TestBuildValidatesConfig(t *testing.T) {
	t.Parallel()
	cases := twinLibrary(false, false)[:4]
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Expand = 1.5 }, "Expand is 1.5"},
		{func(c *Config) { c.Pivot = -0.1 }, "Pivot is -0.1"},
		{func(c *Config) { c.Views = [NumViews]float64{} }, "Views are all 0"},
		{func(c *Config) { c.TagKinds[2] = -1 }, "TagKinds[2] is -1"},
		{func(c *Config) { c.DupeDays = 0 }, "DupeDays is 0"},
	} {
		cfg := DefaultConfig()
		tc.edit(&cfg)
		if _, err := BuildCases(cases, cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build: error %v, want one saying %q", err, tc.want)
		}
	}
	if _, err := BuildCases(cases, DefaultConfig()); err != nil {
		t.Errorf("Build with the default config: %v", err)
	}
}
