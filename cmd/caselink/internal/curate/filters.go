package curate

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/caselink/caselink/similarity"
)

//go:embed orgs.txt
var orgsTxt string

// orgAliases are the groups of names of orgs.txt, lowercased: each name's
// group.
var orgAliases = func() map[string][]string {
	out := map[string][]string{}
	for _, line := range strings.Split(orgsTxt, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var group []string
		for _, n := range strings.Split(line, "|") {
			group = append(group, strings.ToLower(strings.TrimSpace(n)))
		}
		for _, n := range group {
			out[n] = append(out[n], group...)
		}
	}
	return out
}()

// OrgAliases returns the other names of organisation org in the reviewed
// alias table (orgs.txt), lowercased; nil when it has none.
func OrgAliases(org string) []string {
	key := strings.ToLower(strings.TrimSpace(org))
	var out []string
	for _, n := range orgAliases[key] {
		if n != key && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Flags name a match's options as the front end spells them in what it
// says: the CLI's flags, or the API's fields.
type Flags struct{ Org, Domain, Since, Until, MinScore, Top string }

// CLIFlags and APIFields are how the CLI and the API name a match's
// options.
var (
	CLIFlags  = Flags{"--org", "--domain", "--since", "--until", "--min-score", "--top"}
	APIFields = Flags{"filters.org", "filters.domain", "filters.since", "filters.until", `"min_score"`, `"top"`}
)

// facets are the organisations and domain tags of a library, with their
// case counts, keyed lowercased.
type facets struct {
	orgs, doms     map[string]int
	orgName        map[string]string // lowercased → as the library writes it
	withDomain, of int
}

// facetsOf counts the library's organisations and domain tags. The cases
// are counted by their names as written, and each distinct name is
// normalized once: a library of 100,000 cases has a few hundred.
func facetsOf(ix *similarity.Index) facets {
	f := facets{orgs: map[string]int{}, doms: map[string]int{}, orgName: map[string]string{}, of: ix.Len()}
	rawOrg, rawDom := map[string]int{}, map[string]int{}
	for i := range ix.Len() {
		rawOrg[ix.Org(i)]++
		ds := ix.Domains(i)
		if len(ds) > 0 {
			f.withDomain++
		}
		for _, d := range ds {
			rawDom[d]++
		}
	}
	for o, n := range rawOrg {
		k := strings.ToLower(strings.TrimSpace(o))
		if name, ok := f.orgName[k]; !ok || o < name {
			f.orgName[k] = o
		}
		f.orgs[k] += n
	}
	for d, n := range rawDom {
		f.doms[tagKey(d)] += n
	}
	return f
}

// lastFacets keeps the facets of the last index asked about, without
// keeping the index alive (a server asks about one index until it
// reloads): counting them takes about 10 ms at 100,000 cases.
var lastFacets struct {
	sync.Mutex
	ix weak.Pointer[similarity.Index]
	f  facets
}

// cachedFacets is facetsOf, computed once per index. The facets are only
// read once made, so answers may share them.
func cachedFacets(ix *similarity.Index) facets {
	lastFacets.Lock()
	if lastFacets.ix.Value() == ix {
		f := lastFacets.f
		lastFacets.Unlock()
		return f
	}
	lastFacets.Unlock()
	f := facetsOf(ix)
	lastFacets.Lock()
	lastFacets.ix, lastFacets.f = weak.Make(ix), f
	lastFacets.Unlock()
	return f
}

// tagKey is how the filter compares domain tags (similarity's rule:
// lowercased, spaces as dashes).
func tagKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), "-")
}

// ResolveFilter checks a match filter against the library, so that a filter
// fails loudly rather than answering "no similar cases": an organisation
// the library does not write is read as the names the alias table gives it
// (AWS for Amazon Web Services), and one it cannot read is an error with
// the library's nearest organisation ("did you mean"); a domain tag no case
// has is an error naming the tags the library has. It returns the filter to
// run, and notes to show with the answer: the names an organisation was read
// as, and a domain filter that leaves out the cases without any domain tag
// (EmptyFilterNote says when filters together keep no case).
func ResolveFilter(ix *similarity.Index, f similarity.Filter, flags Flags) (similarity.Filter, []string, error) {
	if f.IsZero() {
		return f, nil, nil
	}
	fc := cachedFacets(ix)
	var notes []string
	if len(f.Orgs) > 0 {
		var orgs []string
		for _, o := range f.Orgs {
			names := fc.namesOf(o)
			if len(names) == 0 {
				return f, nil, fc.unknownOrg(o, flags.Org)
			}
			if len(names) > 1 || !strings.EqualFold(names[0], strings.TrimSpace(o)) {
				notes = append(notes, fmt.Sprintf("%s %s: read as %s, the names the library writes it by", flags.Org, o, quoteAll(names)))
			}
			for _, n := range names {
				if !slices.Contains(orgs, n) {
					orgs = append(orgs, n)
				}
			}
		}
		f.Orgs = orgs
	}
	if len(f.Domains) > 0 {
		for _, d := range f.Domains {
			if fc.doms[tagKey(d)] == 0 {
				return f, nil, fc.unknownDomain(d, flags.Domain)
			}
		}
		if fc.withDomain < fc.of {
			notes = append(notes, fmt.Sprintf("%s keeps only cases with a domain tag: %d of the library's %d cases have one", flags.Domain, fc.withDomain, fc.of))
		}
	}
	return f, notes, nil
}

// EmptyFilterNote says, when no case of the library passes f, how many each
// of its filters keeps on its own; "" when some case passes. It reads every
// case's organisation, date and domains: call it only for an answer with no
// hit.
func EmptyFilterNote(ix *similarity.Index, f similarity.Filter, flags Flags) string {
	if f.IsZero() {
		return ""
	}
	for i := range ix.Len() {
		if ix.Keeps(f, i) {
			return ""
		}
	}
	return fmt.Sprintf("no case of the library passes these filters together (%s)", each(ix, f, flags))
}

// namesOf returns the library's spellings of organisation o and of its
// aliases; nil when the library has none of them.
func (fc facets) namesOf(o string) []string {
	var out []string
	for _, k := range append([]string{strings.ToLower(strings.TrimSpace(o))}, OrgAliases(o)...) {
		if fc.orgs[k] > 0 && !slices.Contains(out, fc.orgName[k]) {
			out = append(out, fc.orgName[k])
		}
	}
	return out
}

// unknownOrg is the error for an organisation the library has no case of.
func (fc facets) unknownOrg(o, flag string) error {
	key := strings.ToLower(strings.TrimSpace(o))
	// The nearest of the library's organisations, or of their other names,
	// within two edits (one for a short name); ties to the one with more
	// cases, then by name.
	limit := 3
	if len([]rune(key)) <= 4 {
		limit = 2
	}
	best, bestD := "", limit
	for k, n := range fc.orgs {
		if k == "" {
			continue
		}
		d := editDistance(key, k)
		// A name the library writes at length ("Oracle" for "Oracle Cloud
		// Infrastructure") is as good as a typo away.
		if len(key) >= 3 && (strings.HasPrefix(k, key+" ") || strings.HasPrefix(key, k+" ")) {
			d = min(d, 1)
		}
		for _, a := range OrgAliases(k) {
			d = min(d, editDistance(key, a))
		}
		bk := strings.ToLower(best)
		if d < bestD || (d == bestD && best != "" && (n > fc.orgs[bk] || n == fc.orgs[bk] && k < bk)) {
			best, bestD = fc.orgName[k], d
		}
	}
	msg := fmt.Sprintf("%s %q: no case of the library is of this organisation", flag, o)
	if best != "" {
		return fmt.Errorf("%s; did you mean %q?", msg, best)
	}
	return fmt.Errorf("%s; its organisations with the most cases: %s (%d in all)", msg, fc.top(fc.orgs, fc.orgName, 5), len(fc.orgs))
}

// unknownDomain is the error for a domain tag no case has.
func (fc facets) unknownDomain(d, flag string) error {
	msg := fmt.Sprintf("%s %q: no case of the library has this domain tag", flag, d)
	if len(fc.doms) == 0 {
		return fmt.Errorf("%s; none of its %d cases has a domain tag", msg, fc.of)
	}
	return fmt.Errorf("%s; its domain tags: %s", msg, fc.top(fc.doms, nil, 10))
}

// top names the n keys of counts with the most cases, most first.
func (fc facets) top(counts map[string]int, names map[string]string, n int) string {
	var ks []string
	for k := range counts {
		if k != "" {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	var out []string
	for _, k := range ks[:min(n, len(ks))] {
		if names != nil {
			k = names[k]
		}
		out = append(out, k)
	}
	return strings.Join(out, ", ")
}

// each says how many cases each filter keeps on its own.
func each(ix *similarity.Index, f similarity.Filter, flags Flags) string {
	var parts []string
	count := func(name string, g similarity.Filter) {
		n := 0
		for i := range ix.Len() {
			if ix.Keeps(g, i) {
				n++
			}
		}
		parts = append(parts, fmt.Sprintf("%s keeps %d", name, n))
	}
	if len(f.Orgs) > 0 {
		count(flags.Org, similarity.Filter{Orgs: f.Orgs})
	}
	if len(f.Domains) > 0 {
		count(flags.Domain, similarity.Filter{Domains: f.Domains})
	}
	if f.Since != "" {
		count(flags.Since+" "+f.Since, similarity.Filter{Since: f.Since})
	}
	if f.Until != "" {
		count(flags.Until+" "+f.Until, similarity.Filter{Until: f.Until})
	}
	return strings.Join(parts, ", ")
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur := make([]int, len(y)+1)
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			c := 1
			if x[i-1] == y[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(y)]
}
