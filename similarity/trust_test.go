package similarity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// The second stage leans on the best hit only as far as the first pass is
// sure of it: a best hit tied with a different case lends nothing, one that
// stands ExpandGap times above its rival, or whose close second is a case
// like itself, lends the whole Config.Expand.
func TestExpandWeightFollowsTheFirstPass(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Expand, cfg.ExpandGap = 0.8, 1.5
	hits := func(s1, s2 float64) []Hit { return []Hit{{Score: s1}, {Score: s2}} }
	for _, tc := range []struct {
		name   string
		first  []Hit
		sims   []float64
		want   float64
		gapOff bool
	}{
		{name: "tied with a different case", first: hits(0.1, 0.1), sims: []float64{1, 0}, want: 0},
		{name: "tied with a case just like it", first: hits(0.1, 0.1), sims: []float64{1, 1}, want: 0.8},
		{name: "well above its rival", first: hits(0.3, 0.1), sims: []float64{1, 0}, want: 0.8},
		{name: "half way to the gap", first: hits(0.125, 0.1), sims: []float64{1, 0}, want: 0.4},
		{name: "rival half like the best", first: hits(0.1, 0.1), sims: []float64{1, 0.5}, want: 0.8},
		{name: "one hit", first: hits(0.1, 0)[:1], sims: []float64{1}, want: 0.8},
		{name: "gap off", first: hits(0.1, 0.1), sims: []float64{1, 0}, want: 0.8, gapOff: true},
	} {
		c := cfg
		if tc.gapOff {
			c.ExpandGap = 0
		}
		if got := c.expandWeight(tc.first, tc.sims); got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("%s: weight %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

// tiedLibrary has two unrelated cases that a paste matches equally, each
// with close relatives sharing its other words, among unrelated filler.
func tiedLibrary(t *testing.T, cfg Config) *Index {
	t.Helper()
	mk := func(id, org, title, summary string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: org}
		c.Title.EN, c.Summary.EN = title, summary
		return c
	}
	cases := []*caselib.Case{
		mk("A", "Acme", "Checkout latency alarm after a Redis sentinel failover stalled payment writes in Frankfurt", "Redis cluster failover stalled payment writes; sentinel quorum flapped, replicas resynced slowly, clients retried against the demoted primary, connection pools filled and the cache warmed from cold snapshots."),
		mk("A1", "Acme", "Redis cluster failover", "Redis cluster failover stalled payment writes; sentinel quorum flapped, replicas resynced again, clients retried against the demoted primary, connection pools filled and the cache warmed from cold snapshots."),
		mk("A2", "Acme", "Redis sentinel quorum", "Redis cluster failover stalled writes; sentinel quorum flapped, replicas resynced slowly, clients retried against the demoted primary, connection pools filled and the cache warmed from cold snapshots."),
		mk("B", "Initech", "Checkout latency alarm during Kafka consumer lag on the orders topic in Virginia", "Kafka consumer lag grew behind the orders topic; rebalances looped, offsets committed late, brokers throttled fetch requests, partitions moved during the deploy and invoices waited in dead letter queues."),
		mk("B1", "Initech", "Kafka consumer lag", "Kafka consumer lag grew behind the invoices topic; rebalances looped, offsets committed late, brokers throttled fetch requests, partitions moved during the deploy and invoices waited in dead letter queues."),
	}
	for i := range 60 {
		cases = append(cases, mk(fmt.Sprintf("F%02d", i), fmt.Sprintf("Org %d", i%7), fmt.Sprintf("Filler notice %d", i),
			fmt.Sprintf("Service %d answered slowly for some customers in region %d.", i, i%5)))
	}
	ix, err := BuildCases(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// A paste that matches two different cases alike ("checkout latency
// alarm") must not get a list made of the first one's relatives: with the
// gap on, the other case, as good a match, stays second; with it off, a
// relative of the first takes its place.
func TestTiedPasteIsNotHijacked(t *testing.T) {
	rank := func(cfg Config) []string {
		res := tiedLibrary(t, cfg).Match(Query{Text: "checkout latency alarm", K: 3})
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		return ids
	}
	tied := func(ids []string) bool {
		return len(ids) >= 2 && (ids[0] == "A" && ids[1] == "B" || ids[0] == "B" && ids[1] == "A")
	}
	on := DefaultConfig()
	if got := rank(on); !tied(got) {
		t.Errorf("with the gap, top 3 = %v: want A and B, tied on the paste, first", got)
	}
	off := on
	off.ExpandGap = 0
	if got := rank(off); tied(got) {
		t.Errorf("without the gap, top 3 = %v: the test's library no longer shows the hijack it guards against", got)
	}
}

// At most OrgCap of the first five hits are one organisation's records,
// unless the paste names it; the records moved down are kept, just below.
func TestOrgCapVariesTheTop(t *testing.T) {
	mk := func(id, org, title string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: org}
		c.Title.EN = title
		c.Summary.EN = title + "."
		return c
	}
	var cases []*caselib.Case
	for i := range 6 {
		cases = append(cases, mk(fmt.Sprintf("CF%d", i), "Cloudflare", fmt.Sprintf("Increased 522 errors at the edge in colo %d", i)))
	}
	cases = append(cases, mk("GH1", "GitHub", "Pages return 522 errors from the edge"), mk("PM1", "Acme", "Origin timeouts gave 522 errors"))
	for i := range 40 {
		cases = append(cases, mk(fmt.Sprintf("F%02d", i), fmt.Sprintf("Org %d", i), fmt.Sprintf("Filler notice about service %d", i)))
	}
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	count := func(text string) (cf int, ids []string) {
		res := ix.Match(Query{Text: text, K: 8})
		for i, h := range res.Hits {
			ids = append(ids, h.ID)
			if i < OrgCapTop && strings.HasPrefix(h.ID, "CF") {
				cf++
			}
		}
		return cf, ids
	}
	if cf, ids := count("increased 522 errors at the edge"); cf > 3 || len(ids) < 8 {
		t.Errorf("paste not naming Cloudflare: %d of its records in the top %d, list %v; want at most 3 and all 8 hits kept", cf, OrgCapTop, ids)
	}
	if cf, ids := count("cloudflare: increased 522 errors at the edge"); cf < 4 {
		t.Errorf("paste naming Cloudflare: %d of its records in the top %d (%v); want the cap lifted", cf, OrgCapTop, ids)
	}
}
