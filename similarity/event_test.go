package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

func TestOrgKeys(t *testing.T) {
	t.Parallel()
	share := func(a, b string) bool {
		for _, k := range orgKeys(a) {
			if slices.Contains(orgKeys(b), k) {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Amazon Web Services", "AWS", true},
		{"Amazon Web Services", "Amazon", true},
		{"Google Cloud", "Google", true},
		{"GitHub", "Github", true},
		{"Chef Software", "Chef.io", true},
		{"Digital Ocean", "DigitalOcean", true},
		{"Oracle Cloud Infrastructure", "OCI", true},
		{"AT&T", "at&t", true},
		{"The Guardian", "Guardian", true},
		{"The Guardian", "The Register", false},
		{"Élan Vital Systèmes", "ÉVS", true}, // initials by rune, not by byte
		{"Cloudflare", "GitHub", false},
		{"Google Cloud", "Amazon Web Services", false},
		{"", "", false},
		{"AWS", "", false},
	} {
		if got := share(tc.a, tc.b); got != tc.same {
			t.Errorf("%q and %q: same organisation %v, want %v (keys %q, %q)", tc.a, tc.b, got, tc.same, orgKeys(tc.a), orgKeys(tc.b))
		}
	}
}

func TestNormalizeURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://www.githubstatus.com/incidents/vts24q167tc8": "githubstatus.com/incidents/vts24q167tc8",
		"http://WWW.GitHubStatus.com/incidents/vts24q167tc8/": "githubstatus.com/incidents/vts24q167tc8",
		"https://aws.amazon.com/message/680587/#section":      "aws.amazon.com/message/680587",
		"https://status.cloud.google.com/":                    "status.cloud.google.com",
		"https://example.com/a?b=1":                           "example.com/a?b=1",
		"https://web.archive.org/web/20160310033409/https://blog.cloudflare.com/todays-outage-post-mortem-82515/": "blog.cloudflare.com/todays-outage-post-mortem-82515",
		"http://web.archive.org/web/2014id_/http://www.joyent.com/blog/manta-postmortem-7-27-2015":                "joyent.com/blog/manta-postmortem-7-27-2015",
		"https://web.archive.org/web/*/example.com":                                                               "web.archive.org/web/*/example.com",
		"ftp://example.com/x": "",
		"not a url":           "",
		"":                    "",
	} {
		checkString(t, "normalizeURL", normalizeURL, in, want)
	}
}

// checkString reports f(in) when it is not want; name is f's name.
func checkString(t *testing.T, name string, f func(string) string, in, want string) {
	t.Helper()
	if got := f(in); got != want {
		t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
	}
}

// eventLibrary is synthLibrary with organisations (one common, a few rare,
// some cases without), dates close together, short notices copied out of
// long write-ups, sources cited by a few cases, write-ups dated by their
// address or by a year or a month alone, summaries that say on which day
// their story begins, posts on more than one host: every kind of same-event
// evidence, so that the pruned search is checked against brute force where
// the evidence counts.
func eventLibrary(n int, seed uint64) []*caselib.Case {
	cases := synthLibrary(n, seed)
	r := rand.New(rand.NewPCG(seed, 7))
	posts := rand.New(rand.NewPCG(seed, 11)) // its own stream: the other draws stay as they were
	orgs := []string{"Amazon Web Services", "AWS", "Amazon", "Joyent", "Google Cloud", "Google", ""}
	for i, c := range cases {
		switch x := r.IntN(10); {
		case x < 5:
			c.Org = "Cloudflare"
		default:
			c.Org = orgs[r.IntN(len(orgs))]
		}
		if c.Date != "" && r.IntN(2) == 0 {
			c.Date = fmt.Sprintf("2022-03-%02d", 1+r.IntN(10)) // crowded days
		}
		if i > 0 && r.IntN(4) == 0 { // a short notice made of another case's words
			src := cases[r.IntN(i)]
			words := []rune(src.Summary.EN + " " + src.Title.EN)
			c.Summary.EN = string(words[:min(len(words), 20+r.IntN(60))])
			c.Title.EN = src.Title.EN
		}
		if r.IntN(5) == 0 {
			c.URL = fmt.Sprintf("https://status.example.com/incidents/%d", r.IntN(n/4))
		}
		if r.IntN(7) == 0 {
			c.Sources = []caselib.Source{{URL: fmt.Sprintf("http://www.example.com/post/%d/", r.IntN(n/6)), Kind: "blog"}}
		}
		if c.URL == "" && posts.IntN(3) == 0 { // a post on one of its hosts: moved, mirrored, archived
			host := []string{"blog.example.com", "example.medium.com", "web.archive.org/web/2020/https://blog.example.com"}[posts.IntN(3)]
			c.URL = fmt.Sprintf("https://%s/outage-of-the-%d-cluster-postmortem", host, posts.IntN(n/20))
		}
		if c.Date == "" && r.IntN(2) == 0 { // a write-up dated by its address
			c.URL = fmt.Sprintf("https://blog.example.com/2022/03/%02d/post-mortem-%d", 1+r.IntN(10), i)
		} else if c.Date == "" && r.IntN(2) == 0 { // a talk dated by its year or month
			c.Date = []string{"2021", "2022-02", "2022-03"}[r.IntN(3)]
		}
		if len(c.Date) < len("2006-01-02") && r.IntN(2) == 0 { // a summary that says on which day its story begins
			c.Summary.EN = fmt.Sprintf("On 2022-03-%02d, ", 1+r.IntN(10)) + c.Summary.EN
		}
	}
	return cases
}

// bruteDupes ranks every other case by DupeScore, as DupesOf must.
func bruteDupes(ix *Index, d, k int, minScore float64) []Hit {
	var want []Hit
	for x := range ix.Len() {
		if s := ix.DupeScore(d, x); x != d && s > 0 && s >= minScore {
			want = append(want, Hit{Doc: x, ID: ix.Case(x).ID, Score: s})
		}
	}
	sortHits(want)
	return want[:min(k, len(want))]
}

// DupesOf and Duplicates must equal brute force with the same-event
// evidence in play: it is added outside the pruned text search.
func TestDupesWithEventsAreExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(eventLibrary(500, 3), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	evidenced, paired, storied, cited, posted := 0, 0, 0, 0, 0
	for a := range ix.Len() {
		for b := a + 1; b < ix.Len(); b++ {
			if ix.apart(a, b) > 0 && ix.sharedOrg(a, b) >= 0 {
				if _, ok := ix.events().since[int32(a)]; ok {
					storied++ // kept apart by the day a summary's story begins
				}
				if _, ok := ix.events().cited[int32(a)]; ok {
					cited++ // kept apart by the days of the records citing its source
				}
			}
			if e := ix.EventEvidence(a, b); e.Score > 0 {
				evidenced++
				if strings.HasPrefix(e.Source, "…/") {
					posted++ // one post on two hosts
				}
				if e.Pairings > 0 {
					paired++
				}
				if e.Score > 1 || ix.DupeScore(a, b) < ix.dupeText(a, b, ix.CaseSimilarity(a, b))-1e-12 {
					t.Fatalf("%s~%s: event score %v, dupes score %v below its text part", ix.Case(a).ID, ix.Case(b).ID, e.Score, ix.DupeScore(a, b))
				}
				if x, y := ix.DupeScore(a, b), ix.DupeScore(b, a); math.Abs(x-y) > 1e-6 {
					t.Fatalf("%s~%s: DupeScore %v one way, %v the other", ix.Case(a).ID, ix.Case(b).ID, x, y)
				}
			}
		}
	}
	if evidenced < 200 || paired < 20 || storied < 20 || cited < 20 || posted < 5 {
		t.Fatalf("only %d pairs with same-event evidence, %d of one day on two sites, %d and %d of one organisation kept apart by a summary's story day and by the days of the records citing its source, %d citing one post on two hosts: the library does not test it", evidenced, paired, storied, cited, posted)
	}
	for _, minScore := range []float64{0, 0.3} {
		for d := range ix.Len() {
			all := bruteDupes(ix, d, ix.Len(), minScore) // once per case, cut for each k
			for _, k := range []int{1, 5, 20} {
				want := all[:min(k, len(all))]
				if got := ix.DupesOf(d, k, minScore); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
					t.Fatalf("k=%d min=%v case %s: DupesOf %v, brute force %v", k, minScore, ix.Case(d).ID, hitIDs(got), hitIDs(want))
				}
			}
		}
	}
	// Duplicates lists each pair that is among either case's k best.
	const k, threshold = 3, 0.3
	want := map[[2]string]bool{}
	for d := range ix.Len() {
		for _, h := range bruteDupes(ix, d, k, threshold) {
			a, b := ix.Case(d).ID, h.ID
			want[[2]string{min(a, b), max(a, b)}] = true
		}
	}
	pairs := ix.Duplicates(threshold, k, nil)
	if len(pairs) != len(want) {
		t.Fatalf("Duplicates: %d pairs, brute force %d", len(pairs), len(want))
	}
	for _, p := range pairs {
		if !want[[2]string{ix.Case(p.A).ID, ix.Case(p.B).ID}] || math.Abs(p.Score-ix.DupeScore(p.A, p.B)) > 1e-12 {
			t.Fatalf("Duplicates: pair %s~%s (%v) not in the brute-force list or scored otherwise", ix.Case(p.A).ID, ix.Case(p.B).ID, p.Score)
		}
	}
}

// A two-line notice of a rare organisation, filed the same day as the long
// post-mortem it is part of, is a probable duplicate though their cosine is
// low; the same notice a year later, or from another organisation, is not.
func TestEventEvidenceFindsTheNotice(t *testing.T) {
	t.Parallel()
	mk := func(id, org, date, title, summary string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: org, Date: date}
		c.Title.EN, c.Summary.EN = title, summary
		return c
	}
	long := "The Manta object store stopped serving writes. An anti-wraparound autovacuum on the metadata Postgres " +
		"took a lock that queued every transaction behind it; connection pools filled, the API returned 503 to all " +
		"clients, and the on-call team tried failing over to a replica, which inherited the same vacuum. We added " +
		"monitoring of transaction ids, tuned the vacuum thresholds and rehearsed the failover runbook with the storage team."
	short := "Manta writes failed: an anti-wraparound vacuum lock on Postgres."
	var cases []*caselib.Case
	cases = append(cases,
		mk("PM", "Joyent Inc", "2015-07-27", "Manta outage", long),
		mk("NOTE", "Joyent", "2015-07-27", "Manta degraded", short),
		mk("LATER", "Joyent", "2016-07-27", "Manta degraded", short),
		mk("OTHER", "Fastly", "2015-07-27", "Manta degraded", short))
	// The library around them: large enough that a word of four records is
	// rare (in a library of forty no word is).
	for i := range 400 {
		cases = append(cases, mk(fmt.Sprintf("N%02d", i), "Cloudflare", fmt.Sprintf("2015-%02d-%02d", 1+i%12, 1+i%28),
			"Elevated errors in one data center", fmt.Sprintf("We are investigating elevated errors at location %d; writes may fail.", i)))
	}
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	at := func(id string) int { d, _ := ix.Lookup(id); return d }
	pm := at("PM")
	e := ix.EventEvidence(pm, at("NOTE"))
	if e.Org != "joyent" || e.Days != 0 || e.Containment < 0.8 || e.Score < 0.5 {
		t.Errorf("PM~NOTE evidence %+v: want org joyent, same day, the notice contained, a high score", e)
	}
	for _, id := range []string{"LATER", "OTHER"} {
		if e := ix.EventEvidence(pm, at(id)); e.Score != 0 {
			t.Errorf("PM~%s evidence %+v, want none", id, e)
		}
	}
	if got := ix.DupesOf(pm, 1, 0); len(got) == 0 || got[0].ID != "NOTE" {
		t.Errorf("DupesOf(PM) = %v, want NOTE first", hitIDs(got))
	}
	if s := ix.DupeScore(pm, at("NOTE")); s < 0.5 || s <= ix.CaseSimilarity(pm, at("NOTE")) {
		t.Errorf("DupeScore(PM, NOTE) = %v, similarity %v: want the evidence to lift it", s, ix.CaseSimilarity(pm, at("NOTE")))
	}
}

// An undated one-line summary whose address says it was published in 2014
// sums up an incident of 2014 or before: it is no record of the
// organisation's incident of 2015, however alike their words, and it still
// is one of the incident of 2014 (or of an earlier one: a retrospective
// comes any time after).
func TestUndatedWriteUpDatedByItsAddress(t *testing.T) {
	t.Parallel()
	mk := func(id, date, url, summary string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Joyent", Date: date, URL: url}
		c.Title.EN, c.Summary.EN = "Manta outage", summary
		return c
	}
	text := "An operator rebooted every server in the us-east-1 datacenter with a tool that lacked input validation; " +
		"DHCP and PXE boot load stretched the recovery of the Manta metadata tier to hours."
	summary := "An operator rebooted all servers in the us-east-1 datacenter; Manta metadata took hours to recover."
	// The summary beside one record of the incident, dated or not, in a
	// library of other records (so that the incident's words are rare).
	library := func(date, org string) (*Index, int, int) {
		pm := mk("PM", date, "https://status.example.com/pm", text)
		pm.Org = org
		cases := []*caselib.Case{
			mk("SUMMARY", "", "https://web.archive.org/web/20220406095752/https://www.joyent.com/blog/postmortem-for-outage-of-us-east-1-may-27-2014", summary),
			pm,
		}
		for i := range 400 {
			c := mk(fmt.Sprintf("N%03d", i), fmt.Sprintf("2014-%02d-%02d", 1+i%12, 1+i%28), "", fmt.Sprintf("We are investigating elevated errors at location %d.", i))
			c.Org, c.Title.EN = "Cloudflare", "Elevated errors"
			cases = append(cases, c)
		}
		ix, err := BuildCases(cases, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		a, _ := ix.Lookup("SUMMARY")
		b, _ := ix.Lookup("PM")
		return ix, a, b
	}
	score := map[string]float64{}
	for _, tc := range []struct {
		date  string
		apart int
	}{{"2014-05-27", -1}, {"2012-01-10", -1}, {"", -1}, {"2015-07-27", 426}} {
		ix, s, pm := library(tc.date, "Joyent")
		if got := ix.apart(s, pm); got != tc.apart || ix.apart(pm, s) != got {
			t.Errorf("PM of %q: apart = %d, want %d both ways", tc.date, got, tc.apart)
		}
		e := ix.EventEvidence(s, pm)
		switch {
		case tc.apart < 0 && e.Score < 0.3:
			t.Errorf("PM of %q: evidence %+v; the write-up may tell it, want the evidence to count", tc.date, e)
		case tc.apart > 0 && (e.Score != 0 || e.Days != tc.apart):
			t.Errorf("PM of %q: evidence %+v; written before it, want none, %d days apart", tc.date, e, tc.apart)
		}
		score[tc.date] = ix.DupeScore(s, pm)
		if got := ix.DupesOf(s, 1, 0); len(got) == 0 || got[0].ID != "PM" || got[0].Score != score[tc.date] {
			t.Errorf("PM of %q: DupesOf(SUMMARY) = %v, want PM at %v", tc.date, got, score[tc.date])
		}
	}
	if later, same := score["2015-07-27"], score["2014-05-27"]; later > same/2 {
		t.Errorf("DupeScore of the summary and the 2015 incident %v, of the 2014 one %v: want at most half", later, same)
	}
	// Another organisation's record of 2015: no evidence either way, and the
	// date prior of dupes counts the year between them, as for two dated
	// records.
	ix, s, pm := library("2015-07-27", "Fastly")
	ix2, s2, pm2 := library("2014-05-27", "Fastly")
	cfg := DefaultConfig()
	want := ix2.DupeScore(s2, pm2) * (1 - cfg.DupeDate + cfg.DupeDate*math.Exp(-426/cfg.DupeDays))
	if got := ix.DupeScore(s, pm); math.Abs(got-want) > 1e-9 {
		t.Errorf("another organisation: DupeScore of the summary and the 2015 record %v, want %v (the 2014 record's %v times the date prior)", got, want, ix2.DupeScore(s2, pm2))
	}
}

// An organisation that fills the library (a project's bug tracker) is no
// evidence, and an organisation whose undated cases would pair with too
// many cases gives them none: dupes is then the text score alone there.
func TestEventEvidenceLimits(t *testing.T) {
	t.Parallel()
	cases := eventLibrary(300, 9)
	for _, c := range cases {
		c.Org, c.URL, c.Sources = "Apache Hadoop", "", nil
	}
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for a := range ix.Len() {
		if blk := ix.block(a, nil); len(blk) != 0 {
			t.Fatalf("one-organisation library: case %s has a block of %d", ix.Case(a).ID, len(blk))
		}
	}

	cases = eventLibrary(300, 9)
	for i, c := range cases {
		c.Org, c.URL, c.Sources = []string{"Joyent", "Fastly", "Slack", "Reddit"}[i%4], "", nil
		if i%3 == 0 {
			c.Date = ""
		}
	}
	if ix, err = BuildCases(cases, DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	ix.opts.maxUndatedPairs = 10 // before the evidence is first built
	for a := range ix.Len() {
		for b := range ix.Len() {
			e := ix.EventEvidence(a, b)
			undated := ix.Case(a).Date == "" || ix.Case(b).Date == ""
			if a != b && undated && e.Org != "" {
				t.Fatalf("%s~%s: undated pair given organisation evidence %+v past the pair budget", ix.Case(a).ID, ix.Case(b).ID, e)
			}
		}
		for _, x := range ix.block(a, nil) {
			if ix.Case(a).Date == "" || ix.Case(int(x)).Date == "" {
				t.Fatalf("case %s: block holds %s though one is undated", ix.Case(a).ID, ix.Case(int(x)).ID)
			}
		}
	}
	for d := range ix.Len() {
		if got, want := ix.DupesOf(d, 5, 0), bruteDupes(ix, d, 5, 0); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Fatalf("case %s: DupesOf %v, brute force %v", ix.Case(d).ID, hitIDs(got), hitIDs(want))
		}
	}
}

// What misled dupes on the status pages: an organisation's template lines,
// its name, stubs and the same notice on another day. Acme writes every
// notice from one template; only words of one incident are evidence.
func TestEventEvidenceDiscountsTheTemplate(t *testing.T) {
	t.Parallel()
	mk := func(id, date, title, summary string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Acme Cloud", Date: date}
		c.Title.EN, c.Summary.EN = title, summary
		return c
	}
	const tmpl = " Summary of impact: customers may see errors. Our engineering team is investigating. All times US/Pacific. Workaround: none."
	products := []string{"Widgets", "Gizmos", "Sprockets", "Doohickeys", "Thingamajigs", "Whatsits", "Gadgets", "Contraptions"}
	var cases []*caselib.Case
	for i := range 200 {
		p := products[i%len(products)]
		cases = append(cases, mk(fmt.Sprintf("N%03d", i), fmt.Sprintf("2020-%02d-%02d", 1+i%12, 1+i%28),
			p+" degraded", fmt.Sprintf("%s in region %d is degraded.", p, i%17)+tmpl))
	}
	for i := range 400 { // other organisations, so that Acme is not the whole library
		c := mk(fmt.Sprintf("O%03d", i), fmt.Sprintf("2021-%02d-%02d", 1+i%12, 1+i%28), "Slow pages", fmt.Sprintf("Pages of site %d loaded slowly.", i))
		c.Org = fmt.Sprintf("Org %d", i%50)
		cases = append(cases, c)
	}
	cases = append(cases,
		mk("PM", "2024-05-02", "Quuxbase shard rebalancer deadlock", "The Quuxbase shard rebalancer deadlocked on a stale lease in zone q7-west; "+
			"writes to Quuxbase failed with ERR_LEASE_STALE for 95 minutes until operators cleared the lease table by hand."+tmpl),
		mk("NOTE", "2024-05-02", "Quuxbase writes failing", "Quuxbase writes fail with ERR_LEASE_STALE in q7-west."+tmpl),
		mk("OTHER", "2024-05-02", "Widgets degraded", "Widgets in region 3 is degraded."+tmpl),
		mk("STUB", "2024-05-02", "Investigating", "We are investigating reports of degraded performance for Gizmos."),
		mk("AGAIN", "2024-05-07", "Quuxbase writes failing", "Quuxbase writes fail with ERR_LEASE_STALE in q7-west."+tmpl))
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	at := func(id string) int { d, _ := ix.Lookup(id); return d }
	pm := at("PM")
	note := ix.EventEvidence(pm, at("NOTE"))
	if note.Score < 0.6 || !slices.Contains(note.Rare, "ERR_LEASE_STALE") || !slices.Contains(note.Rare, "Quuxbase") {
		t.Errorf("PM~NOTE evidence %+v: want a high score and the incident's words (ERR_LEASE_STALE, Quuxbase, as PM writes them)", note)
	}
	for _, w := range append(slices.Clone(note.Rare), note.Why()...) {
		for _, bad := range []string{"Acme", "acme", "US/Pacific", "investigating", "Workaround"} {
			if w == bad || w == "specific: "+bad {
				t.Errorf("PM~NOTE evidence names %q, a word of every Acme notice", bad)
			}
		}
	}
	for _, id := range []string{"OTHER", "STUB"} {
		if e := ix.EventEvidence(pm, at(id)); e.Score > 0.2 {
			t.Errorf("PM~%s: same org, same day, only template words shared, evidence %+v: want a score ≤ 0.2", id, e)
		}
	}
	// The same notice five days later: a repeat. Its text part is halved,
	// and it has no same-event evidence (too far apart).
	n, again := at("NOTE"), at("AGAIN")
	sim := ix.CaseSimilarity(n, again)
	if s := ix.DupeScore(n, again); s > eventRepeat*sim+1e-9 {
		t.Errorf("NOTE~AGAIN (same words, five days apart): dupes score %v, want at most %v of similarity %v", s, eventRepeat, sim)
	}
}

// withOtherOrgs indexes cases with 400 notices of 30 other organisations,
// so that the cases' organisation is not the library's only one (a bug
// tracker's, which is no evidence).
func withOtherOrgs(t *testing.T, cases []*caselib.Case) *Index {
	t.Helper()
	for i := range 400 {
		c := &caselib.Case{ID: fmt.Sprintf("X%03d", i), Org: fmt.Sprintf("Org %d", i%30), Date: "2020-01-02"}
		c.Title.EN, c.Summary.EN = "Elevated errors", fmt.Sprintf("Elevated errors at location %d.", i)
		cases = append(cases, c)
	}
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// A write-up on an organisation's blog and the one notice its status page
// posted that day are one incident, though the notice names only products
// that every notice names: as sure as a source both cite. A second notice
// that day halves the chance, and two notices of one page, or a notice of
// another day, get nothing from it.
func TestSameDayOnlyRecordOfEachSite(t *testing.T) {
	t.Parallel()
	notice := func(id, date, products string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Octo", Date: date, URL: "https://www.octostatus.example/incidents/" + id}
		c.Title.EN = "Incident with " + products
		c.Summary.EN = "We are investigating reports of degraded performance for " + products + ". We will provide an update when we have one."
		return c
	}
	writeUp := &caselib.Case{ID: "REPORT", Org: "Octo", Date: "2021-05-16", URL: "https://octo.blog.example/2021-06-02-availability-report/"}
	writeUp.Title.EN = "A foreign key for scoped tokens exceeded the INT32 maximum"
	writeUp.Summary.EN = "Token inserts failed for ten hours, breaking Actions, Pages and API requests until a migration to INT64 finished."
	products := []string{"Actions", "Pages", "API Requests", "Git Operations", "Issues", "Webhooks", "Packages"}
	library := func(extra ...*caselib.Case) *Index {
		cases := []*caselib.Case{writeUp}
		for i := range 200 { // the page's other days
			cases = append(cases, notice(fmt.Sprintf("N%03d", i), fmt.Sprintf("2021-%02d-%02d", 1+i%12, 1+i%28),
				products[i%len(products)]+" and "+products[(i+3)%len(products)]))
		}
		return withOtherOrgs(t, append(cases, extra...))
	}
	pos := func(ix *Index, id string) int {
		i, ok := ix.Lookup(id)
		if !ok {
			t.Fatalf("no case %s", id)
		}
		return i
	}
	day := notice("DAY", "2021-05-16", "Actions, API Requests, and Pages")
	ix := library(day)
	r, d := pos(ix, "REPORT"), pos(ix, "DAY")
	only := ix.EventEvidence(r, d)
	if only.Pairings != 1 || only.Score != 1 || ix.DupeScore(r, d) != 1 || ix.EventEvidence(d, r).Score != only.Score {
		t.Errorf("write-up and the page's only notice of its day: dupes score %v, evidence %+v; want Pairings 1 and 1, as for a source both cite, both ways", ix.DupeScore(r, d), only)
	}
	if why := only.Why(); !slices.Contains(why, "same day, the only record of each of octo.blog.example and octostatus.example") {
		t.Errorf("Why() = %q, want it to say each is its site's only record of the day", why)
	}
	if got := ix.DupesOf(r, 1, 0); len(got) == 0 || got[0].ID != "DAY" {
		t.Errorf("DupesOf(REPORT) = %v, want DAY first", got)
	}

	second := notice("DAY2", "2021-05-16", "Issues and Webhooks")
	ix = library(day, second)
	r, d = pos(ix, "REPORT"), pos(ix, "DAY")
	two := ix.EventEvidence(r, d)
	if two.Pairings != 2 || two.Score >= only.Score || two.Score < 0.5 {
		t.Errorf("two notices that day: evidence %+v, want Pairings 2 and a score below %v (one notice), at least a half", two, only.Score)
	}
	if e := ix.EventEvidence(d, pos(ix, "DAY2")); e.Pairings != 0 || e.Score > 0.3 {
		t.Errorf("two notices of one page, one day: evidence %+v, want no pairing and a score of at most 0.3", e)
	}

	ix = library(notice("NEXT", "2021-05-17", "Actions, API Requests, and Pages"))
	if e := ix.EventEvidence(pos(ix, "REPORT"), pos(ix, "NEXT")); e.Pairings != 0 || e.Score > 0.3 {
		t.Errorf("the page's notice of the next day: evidence %+v, want no pairing and a score of at most 0.3", e)
	}
}

// Two notices of one status page on different days are two incidents,
// however many specific words they share (the page posts a notice per
// incident and updates it): the words' part of the evidence keeps
// eventRepeat of itself. A write-up on another site the day after keeps it
// whole, and a source both notices cite still counts in full.
func TestSamePageOtherDayIsARepeat(t *testing.T) {
	t.Parallel()
	mk := func(id, date, url string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Octo", Date: date, URL: url}
		c.Title.EN = "Cloud Build failing in europe-west9"
		c.Summary.EN = "Builds in europe-west9 fail with error BLD-4471 while fetching the worker image from the regional mirror."
		return c
	}
	library := func(extra ...*caselib.Case) *Index {
		var cases []*caselib.Case
		for i := range 200 {
			c := &caselib.Case{ID: fmt.Sprintf("N%03d", i), Org: "Octo", Date: fmt.Sprintf("2022-%02d-%02d", 1+i%12, 1+i%28),
				URL: fmt.Sprintf("https://status.octo.example/incidents/n%d", i)}
			c.Title.EN, c.Summary.EN = "Elevated errors", fmt.Sprintf("We are investigating elevated errors at location %d.", i)
			cases = append(cases, c)
		}
		return withOtherOrgs(t, append(cases, extra...))
	}
	evidence := func(ix *Index, a, b string) EventEvidence {
		x, _ := ix.Lookup(a)
		y, _ := ix.Lookup(b)
		return ix.EventEvidence(x, y)
	}
	first := mk("A", "2023-04-25", "https://status.octo.example/incidents/a")
	ix := library(first, mk("PAGE", "2023-04-26", "https://status.octo.example/incidents/b"),
		mk("BLOG", "2023-04-26", "https://blog.octo.example/2023/04/26/cloud-build"))
	page, blog := evidence(ix, "A", "PAGE"), evidence(ix, "A", "BLOG")
	if blog.Score <= 0 || blog.Sites[0] == blog.Sites[1] {
		t.Fatalf("a notice and a write-up the day after: evidence %+v, want some, of two sites", blog)
	}
	if page.Sites != [2]string{"status.octo.example", "status.octo.example"} || math.Abs(page.Score-eventRepeat*blog.Score) > 1e-9 {
		t.Errorf("two notices of one page a day apart: evidence %v, want %v (eventRepeat of the write-up's %v)", page.Score, eventRepeat*blog.Score, blog.Score)
	}
	ix = library(first, mk("SAMEDAY", "2023-04-25", "https://status.octo.example/incidents/c"))
	if same := evidence(ix, "A", "SAMEDAY"); same.Score <= page.Score {
		t.Errorf("two notices of one page the same day: evidence %v, want more than a day apart (%v)", same.Score, page.Score)
	}
	cited := mk("PAGE", "2023-04-26", "https://status.octo.example/incidents/b")
	cited.Sources = []caselib.Source{{URL: "https://status.octo.example/incidents/a"}}
	ix = library(first, cited)
	if e := evidence(ix, "A", "PAGE"); e.Source == "" || math.Abs(e.Score-0.9) > 1e-9 {
		t.Errorf("a later notice citing the first: evidence %+v, want the source's 1 × the day's 0.9", e)
	}
}

// A record dated by a year or a month alone (a conference talk of "2019")
// tells nothing that happened after that year or month: beside a later
// post-mortem of its organisation it is no record of that incident, as an
// undated write-up whose address carries a date is not.
func TestPartialDateBoundsTheIncident(t *testing.T) {
	t.Parallel()
	mk := func(id, date string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Datadog", Date: date}
		c.Title.EN = "Kubernetes nodes lost networking"
		c.Summary.EN = "An unattended upgrade restarted systemd-networkd on every node; Cilium routes were removed and the nodes dropped off the network."
		return c
	}
	for _, tc := range []struct {
		talk, incident string
		apart          int
	}{
		{"2019", "2023-03-08", 1163}, // from 2019-12-31
		{"2019-06", "2019-07-02", 2}, // from 2019-06-30
		{"2019", "2019-05-20", -1},
		{"2019-06", "2019-06-12", -1},
	} {
		ix := withOtherOrgs(t, []*caselib.Case{mk("TALK", tc.talk), mk("PM", tc.incident)})
		a, _ := ix.Lookup("TALK")
		b, _ := ix.Lookup("PM")
		if got := ix.apart(a, b); got != tc.apart || ix.apart(b, a) != got {
			t.Errorf("talk of %s, incident of %s: apart %d, want %d both ways", tc.talk, tc.incident, got, tc.apart)
		}
		e := ix.EventEvidence(a, b)
		if tc.apart > eventDays && e.Score != 0 || tc.apart < 0 && e.Score < 0.3 {
			t.Errorf("talk of %s, incident of %s: evidence %+v, want none when the incident is later, some when it may be the talk's", tc.talk, tc.incident, e)
		}
	}
}

// A post-mortem's address names its post whatever the host: the same slug
// on a blog that moved, on a mirror, on blogspot cut short, or in an
// archived copy, is one source for two records of one organisation, so a
// one-line summary and the write-up it sums up are listed together though
// they share few words; another organisation's post of that slug is not.
func TestOnePostOnTwoHosts(t *testing.T) {
	t.Parallel()
	// The write-up is dated and long, the summary undated and short.
	pm := func(org, url string) *caselib.Case {
		c := &caselib.Case{ID: "PM", Org: org, URL: url, Date: "2014-01-24"}
		c.Title.EN = org
		c.Summary.EN = "A bug in the system that generates configuration for other services produced a wrong configuration, which reached live services within fifteen minutes."
		return c
	}
	sum := func(org, url string) *caselib.Case {
		c := &caselib.Case{ID: "SUM", Org: org, URL: url}
		c.Title.EN, c.Summary.EN = org, "A bad config took down most services."
		return c
	}
	const archive = "https://web.archive.org/web/20220406095752/"
	for _, tc := range []struct {
		name, orgA, urlA, orgB, urlB string
		source                       string // the source both cite, "" for none
	}{
		{"mirror and blogspot cut short", "Google", "https://googledata.org/google-blog/todays-outage-for-several-google-services",
			"Google", "https://googleblog.blogspot.com/2014/01/todays-outage-for-several-google.html", "…/todays-outage-for-several-google"},
		{"archived copy", "Joyent", "https://www.joyent.com/blog/manta-postmortem-7-27-2015",
			"Joyent", archive + "https://www.joyent.com/blog/manta-postmortem-7-27-2015", "joyent.com/blog/manta-postmortem-7-27-2015"},
		{"a blog that moved", "Joyent", "https://www.tritondatacenter.com/blog/postmortem-for-outage-of-us-east-1-may-27-2014",
			"Joyent", archive + "https://www.joyent.com/blog/postmortem-for-outage-of-us-east-1-may-27-2014", "…/postmortem-for-outage-of-us-east-1-may-27-2014"},
		{"two organisations' posts of one slug", "Google", "https://googledata.org/google-blog/todays-outage-for-several-services",
			"Fastly", "https://www.fastly.com/blog/todays-outage-for-several-services", ""},
		{"two posts of one organisation", "Google", "https://googledata.org/google-blog/todays-outage-for-several-google-services",
			"Google", "https://googledata.org/google-blog/todays-outage-for-gmail-users", ""},
	} {
		ix := withOtherOrgs(t, []*caselib.Case{pm(tc.orgA, tc.urlA), sum(tc.orgB, tc.urlB)})
		a, _ := ix.Lookup("PM")
		b, _ := ix.Lookup("SUM")
		e := ix.EventEvidence(a, b)
		if e.Source != tc.source {
			t.Errorf("%s: shared source %q, want %q (evidence %+v)", tc.name, e.Source, tc.source, e)
		}
		if tc.source != "" && ix.DupeScore(a, b) < 0.7 {
			t.Errorf("%s: dupes score %.3f, want a probable pair (0.7 or more)", tc.name, ix.DupeScore(a, b))
		}
	}
}
