package similarity

import (
	"fmt"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

func TestStoryBegins(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // the day the story begins, "" for none; storyBegins gives the day before
	}{
		{"On 4 October 2023, Cloudflare experienced DNS resolution problems starting at 07:00 UTC.", "2023-10-04"},
		{"On Tuesday, 19 July 2022 at 06:33 US/Pacific, a simultaneous failure of multiple cooling systems …", "2022-07-19"},
		{"On January 28th, 2016 GitHub experienced a disruption in the power at their primary datacenter.", "2016-01-28"},
		{"On Wednesday, 2023-01-25 at 09:15 UTC, we deployed changes to the production infrastructure.", "2023-01-25"},
		{"Several Cloudflare services became unavailable for 121 minutes on January 24, 2023 due to an error.", "2023-01-24"},
		{"At 15:05 UTC on June 8, 2023, a database error occurred where a foreign key used a smaller type.", "2023-06-08"},
		{"Reduced capacity from 19:30 US/Pacific on Thursday, 14 July 2022, through 15:02 on Friday, 15 July 2022.", "2022-07-14"},
		{"The feature was degraded for some viewers, starting 25 October 2021 0400 PT and ending 26 October.", "2021-10-25"},
		{"On the 4th of July, 2019 the load balancers dropped every connection.", "2019-07-04"},
		{"on sept 8 2022 the ingest system went down repeatedly", "2022-09-08"},
		// The first date that is introduced as a day counts.
		{"On 2023-07-20 between 12:17 and 12:30 UTC downloads broke; on 2023-07-21 we shipped a fix.", "2023-07-20"},
		// A date the text only mentions, a date without a year, a date past
		// the first sentence, a date that does not exist, and no date.
		{"By January 4, 2023, our internal investigation had determined the scope of the intrusion.", ""},
		{"Most Firefox add-ons stopped working around May 4th 2019 when a certificate expired.", ""},
		{"On January 28th GitHub experienced a disruption in the power at their primary datacenter.", ""},
		{"A flapping service led to a thundering herd. On 2019-03-02 it happened again.", ""},
		{"# Outage report\n\nOn 4 October 2023 the resolver failed.", ""},
		{"On 31 February 2023 nothing happened.", ""},
		{"Discord", ""},
		{"", ""},
	} {
		d, ok := storyBegins(tc.text)
		checkDay(t, fmt.Sprintf("storyBegins(%q)", tc.text), d, ok, tc.want, -1)
	}
}

// An undated summary that says on which day its story begins tells an
// incident of that day or of the season after it: beside its organisation's
// write-up of years before, or of a year later, it is no record of that
// incident, nor of another summary's whose story is years before; beside a
// record of its own weeks it may be.
func TestStoryDayBoundsTheIncident(t *testing.T) {
	t.Parallel()
	mk := func(id, date, opening, url string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Honeycomb", Date: date, URL: url}
		c.Title.EN = "Ingest outage"
		c.Summary.EN = opening + " The ingest backends ran out of memory and the shepherd cache stopped serving; queries returned errors."
		return c
	}
	const (
		told    = "On September 8th, 2022, our ingest system went down repeatedly."
		untold  = "Our ingest system went down repeatedly."
		blog    = "https://www.honeycomb.io/blog/incident-review-shepherd-cache-delays/"
		blog22  = "https://www.honeycomb.io/blog/2022/09/20/incident-review/"
		blog18  = "https://www.honeycomb.io/blog/2018/05/10/incident-review/"
		earlier = "On 2018-05-02, our ingest system went down repeatedly."
	)
	for _, tc := range []struct {
		name  string
		a, b  *caselib.Case
		apart int
	}{
		{"write-up four years before", mk("SUM", "", told, blog), mk("PM", "2018-05-02", untold, ""), 1589},
		{"write-up of that day", mk("SUM", "", told, blog), mk("PM", "2022-09-08", untold, ""), -1},
		{"write-up of a later day", mk("SUM", "", told, blog), mk("PM", "2022-10-01", untold, ""), -1},
		{"write-up of the day before (time zones)", mk("SUM", "", told, blog), mk("PM", "2022-09-07", untold, ""), -1},
		{"a summary that tells no day", mk("SUM", "", untold, blog), mk("PM", "2018-05-02", untold, ""), -1},
		// Two undated records: one published by 2018-05-10, the other's
		// story begins on 2022-09-08 (its day before, 09-07, is the bound).
		{"a summary published before the other's story", mk("SUM", "", told, blog22), mk("OLD", "", earlier, blog18), 1581},
		{"two summaries of stories years apart", mk("SUM", "", told, blog), mk("OLD", "", earlier, blog), 1500}, // from 2018-07-31
		{"write-up a year later", mk("SUM", "", told, blog), mk("PM", "2023-09-08", untold, ""), 276},           // from 2022-12-06
		// Published long after the season: the address bounds nothing the
		// story does not.
		{"write-up after the season, summary published later still", mk("SUM", "", told, "https://www.honeycomb.io/blog/2023/05/10/incident-review/"), mk("PM", "2023-03-01", untold, ""), 85},
		// The address says published in 2018, the text a day of 2022: one of
		// them is read wrong, and neither bounds the record (the address
		// alone would keep it from a record of 2020).
		{"a story day after the address's day", mk("SUM", "", told, blog18), mk("PM", "2020-01-01", untold, ""), -1},
	} {
		ix := withOtherOrgs(t, []*caselib.Case{tc.a, tc.b})
		a, _ := ix.Lookup(tc.a.ID)
		b, _ := ix.Lookup(tc.b.ID)
		if got := ix.apart(a, b); got != tc.apart || ix.apart(b, a) != got {
			t.Errorf("%s: apart %d, want %d both ways", tc.name, got, tc.apart)
		}
		e := ix.EventEvidence(a, b)
		if tc.apart > eventDays && e.Score != 0 || tc.apart < 0 && e.Score < 0.3 {
			t.Errorf("%s: evidence %+v, want none when the days cannot meet, some when they may", tc.name, e)
		}
	}
}

// An undated summary that cites a status notice's own page tells that
// notice's incident: beside the organisation's notice of months before it
// is no record of the same incident; beside the cited notice it is, and
// beside a notice of the next day or another undated summary it may be.
func TestCitedDaysBoundTheIncident(t *testing.T) {
	t.Parallel()
	const page = "https://status.example.com/incidents/x8snkk2b"
	mk := func(id, date, url string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: "Google Cloud", Date: date, URL: url}
		c.Title.EN = "Filestore API throttled"
		c.Summary.EN = "An internal service overloaded the Filestore API with requests and global throttling made instance operations fail."
		return c
	}
	summary := mk("SUM", "", page)
	summary.Sources = []caselib.Source{{URL: page, Kind: "status-page"}}
	cases := []*caselib.Case{
		summary,
		mk("NOTICE", "2022-09-13", page), // the page the summary cites
		mk("SAMEDAY", "2022-09-14", "https://status.example.com/incidents/aaaa"),
		mk("EARLIER", "2022-07-13", "https://status.example.com/incidents/bbbb"),
		mk("OTHERSUM", "", "https://status.example.com/incidents/cccc"),
	}
	ix := withOtherOrgs(t, cases)
	sum, _ := ix.Lookup("SUM")
	for _, tc := range []struct {
		id       string
		apart    int
		evidence bool // the pair keeps its same-event evidence
	}{{"NOTICE", -1, true}, {"SAMEDAY", 1, false}, {"EARLIER", 62, false}, {"OTHERSUM", -1, false}} {
		b, _ := ix.Lookup(tc.id)
		if got := ix.apart(sum, b); got != tc.apart || ix.apart(b, sum) != got {
			t.Errorf("summary beside %s: apart %d, want %d both ways", tc.id, got, tc.apart)
		}
		e := ix.EventEvidence(sum, b)
		if tc.apart > eventDays && e.Score != 0 || tc.evidence && e.Score < 0.3 {
			t.Errorf("summary beside %s: evidence %+v, want none when the days cannot meet, the cited page's when it is cited", tc.id, e)
		}
	}
}
