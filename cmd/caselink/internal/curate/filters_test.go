package curate_test

import (
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

func orgLibrary(t *testing.T) *similarity.Index {
	t.Helper()
	var cs []*caselib.Case
	for _, c := range []struct{ id, org, dom string }{
		{"A1", "AWS", ""}, {"A2", "AWS", ""}, {"A3", "Amazon", ""}, {"G1", "Google Cloud", ""},
		{"O1", "Oracle Cloud Infrastructure", ""}, {"K1", "Acme", "kubernetes"},
	} {
		c2 := &caselib.Case{ID: c.id, Org: c.org, Date: "2024-01-01", Title: caselib.Text{EN: "instances unreachable " + c.id}}
		if c.dom != "" {
			c2.Domain = []string{c.dom}
		}
		cs = append(cs, c2)
	}
	ix, err := similarity.BuildCases(cs, similarity.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestResolveFilter checks what a user typing a filter sees: another name
// of an organisation is read as the library's, a typo gets the nearest, a
// domain tag no case has is refused, and filters no case passes say so.
func TestResolveFilter(t *testing.T) {
	ix := orgLibrary(t)
	for _, c := range []struct {
		orgs, doms []string
		since      string
		wantOrgs   string
		wantNote   string
		wantErr    string
	}{
		{orgs: []string{"AWS"}, wantOrgs: "AWS,Amazon", wantNote: `read as "AWS", "Amazon"`},
		{orgs: []string{"amazon web services"}, wantOrgs: "AWS,Amazon", wantNote: `--org amazon web services: read as "AWS", "Amazon"`},
		{orgs: []string{"GCP"}, wantOrgs: "Google Cloud", wantNote: `read as "Google Cloud"`},
		{orgs: []string{"acme"}, wantOrgs: "Acme"},
		{orgs: []string{"Amzon"}, wantErr: `--org "Amzon": no case of the library is of this organisation; did you mean "AWS"?`},
		{orgs: []string{"Oracle"}, wantErr: `did you mean "Oracle Cloud Infrastructure"?`},
		{orgs: []string{"Initech"}, wantErr: `its organisations with the most cases: AWS, Acme, Amazon, Google Cloud, Oracle Cloud Infrastructure (5 in all)`},
		{doms: []string{"kubernets"}, wantErr: `--domain "kubernets": no case of the library has this domain tag; its domain tags: kubernetes`},
		{doms: []string{"Kubernetes"}, wantNote: "--domain keeps only cases with a domain tag: 1 of the library's 6 cases have one"},
		{orgs: []string{"Acme"}, since: "2030", wantOrgs: "Acme"},
	} {
		f, notes, err := curate.ResolveFilter(ix, similarity.Filter{Orgs: c.orgs, Domains: c.doms, Since: c.since}, curate.CLIFlags)
		name := strings.Join(append(c.orgs, c.doms...), ",")
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := strings.Join(f.Orgs, ","); got != c.wantOrgs {
			t.Errorf("%s: orgs %q, want %q", name, got, c.wantOrgs)
		}
		if all := strings.Join(notes, "\n"); (c.wantNote == "") != (all == "") || !strings.Contains(all, c.wantNote) {
			t.Errorf("%s: notes %q, want %q", name, all, c.wantNote)
		}
	}
}

// TestEmptyFilterNote checks that filters no case passes together say how
// many each keeps, and that others say nothing.
func TestEmptyFilterNote(t *testing.T) {
	ix := orgLibrary(t)
	f := similarity.Filter{Orgs: []string{"AWS", "Amazon"}, Since: "2030"}
	if n := curate.EmptyFilterNote(ix, f, curate.CLIFlags); n != "no case of the library passes these filters together (--org keeps 3, --since 2030 keeps 0)" {
		t.Errorf("note %q", n)
	}
	f.Since = "2020"
	if n := curate.EmptyFilterNote(ix, f, curate.APIFields); n != "" {
		t.Errorf("note %q for filters that keep 3 cases", n)
	}
}

// TestOrgAliases checks the alias table's shape: each name's group holds
// it, both ways.
func TestOrgAliases(t *testing.T) {
	if a := curate.OrgAliases("Amazon Web Services"); strings.Join(a, ",") != "aws,amazon" {
		t.Errorf("aliases of Amazon Web Services: %v", a)
	}
	if a := curate.OrgAliases("gcp"); strings.Join(a, ",") != "google cloud,google cloud platform" {
		t.Errorf("aliases of gcp: %v", a)
	}
	if a := curate.OrgAliases("Acme"); a != nil {
		t.Errorf("aliases of Acme: %v", a)
	}
}

// TestBandsAndNotes checks the band words as shown (a score banded at 2
// decimals), the novel rule, and the "N more" line.
func TestBandsAndNotes(t *testing.T) {
	th := curate.Thresholds{Strong: 0.05, Possible: 0.03}
	for s, want := range map[float64]string{0.2: "strong", 0.05: "strong", 0.0496: "strong", 0.0449: "possible", 0.03: "possible", 0.0249: "weak", 0: "weak"} {
		if got := th.Band(s); got != want {
			t.Errorf("Band(%v) = %s, want %s", s, got, want)
		}
	}
	weak := curate.MatchBands.Possible - 0.01
	if !curate.Novel(weak, weak/2) || curate.Novel(weak, curate.MatchBands.Possible) || !curate.Novel() {
		t.Errorf("Novel: want true only when no score reaches possible")
	}
	for _, c := range []struct {
		more, hidden int
		want         string
	}{
		{0, 0, ""},
		{3, 3, "3 more cases scored below --min-score 0.02: --min-score 0 shows them"},
		{1, 0, "1 more case scored above 0, past the top 5: --top 20 shows more"},
		{40, 2, "40 more cases scored above 0: 2 below --min-score 0.02 (--min-score 0 shows them), the rest past the top 5 (--top 20 shows more)"},
	} {
		if got := curate.HiddenNote(c.more, c.hidden, 0.02, 5, "--min-score", "--top"); got != c.want {
			t.Errorf("HiddenNote(%d, %d) = %q, want %q", c.more, c.hidden, got, c.want)
		}
	}
}
