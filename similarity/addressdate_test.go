package similarity

import (
	"fmt"
	"testing"
)

func TestPublishedBy(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want string // the last day the address allows, "" for none
	}{
		{"https://blog.github.com/2018-10-30-oct21-post-incident-analysis/", "2018-10-30"},
		{"https://engineering.fb.com/2021/10/05/networking-traffic/outage-details/", "2021-10-05"},
		{"https://lkml.org/lkml/2009/1/2/373", "2009-01-02"},
		{"https://blog.npmjs.org/post/74949623024/2014-01-28-outage-postmortem.html", "2014-01-28"},
		{"https://https://blog.cloudflare.com/cloudflare-outage-on-july-17-2020/", "2020-07-17"},
		{"https://blog.cloudflare.com/cloudflare-incident-on-january-24th-2023/", "2023-01-24"},
		{"https://azure.microsoft.com/en-us/blog/summary-of-windows-azure-service-disruption-on-feb-29th-2012/", "2012-02-29"},
		{"https://blog.cloudflare.com/18-november-2025-outage/", "2025-11-18"},
		{"https://web.archive.org/web/20220406095752/https://www.joyent.com/blog/postmortem-for-outage-of-us-east-1-may-27-2014", "2014-05-27"},
		{"https://allegro.tech/2018/08/postmortem-why-allegro-went-down.html", "2018-08-31"},
		{"https://www.atlassian.com/engineering/post-incident-review-april-2022-outage", "2022-04-30"},
		{"https://en.wikipedia.org/wiki/Northeast_blackout_of_2003", "2003-12-31"},
		{"https://www.elastic.co/blog/elastic-cloud-incident-report-feburary-4-2019", "2019-12-31"}, // misspelt month: the year only
		// Several dates: the latest, each read at its most precise.
		{"https://example.com/reports/2019-2020-availability", "2020-12-31"},
		{"https://blog.roblox.com/2022/01/roblox-return-to-service-10-28-10-31-2021/", "2022-01-31"},
		{"https://example.com/2014/01/28/update-2014-02-03", "2014-02-03"},
		// No date: none in the path, one in the host or the snapshot's time
		// only, a month or day without a year, numbers that are not years.
		{"https://www.fastly.com/blog/summary-of-june-8-outage", ""},
		{"https://gocardless.com/blog/incident-review-api-and-dashboard-outage-on-10th-october/", ""},
		{"https://status.discordapp.com/incidents/dj3l6lw926kl", ""},
		{"https://web.archive.org/web/20220406095752/https://example.com/postmortem", ""},
		{"https://blog2019.example.com/outage", ""},
		{"https://example.com/post/74949623024/outage", ""},
		{"https://example.com/marketing-2019", "2019-12-31"}, // the year, not March
		{"https://example.com/2019/02/30/", "2019-02-28"},    // no 30 February: the month
		{"", ""},
		{"not a url", ""},
	} {
		d, ok := publishedBy(tc.url)
		checkDay(t, fmt.Sprintf("publishedBy(%q)", tc.url), d, ok, tc.want, 0)
	}
}

// checkDay reports a day reader's answer d, ok to the call named call
// when it is not the day of date want shifted by shift days (no day when
// want is "").
func checkDay(t *testing.T, call string, d int32, ok bool, want string, shift int) {
	t.Helper()
	if want == "" {
		if ok {
			t.Errorf("%s = day %d, want none", call, d)
		}
		return
	}
	w, _ := dayNumber(want)
	if !ok || d != int32(w+shift) {
		t.Errorf("%s = day %d, %v; want %s%+d days (day %d)", call, d, ok, want, shift, w+shift)
	}
}

func TestPostSlug(t *testing.T) {
	for u, want := range map[string]string{
		"googleblog.blogspot.com/2014/01/todays-outage-for-several-google.html":      "todays-outage-for-several-google",
		"medium.com/making-instapaper/instapaper-outage-cause-recovery-3c32a7e9cc5f": "instapaper-outage-cause-recovery-3c32a7e9cc5f",
		"github.blog/2018-10-30-oct21-post-incident-analysis":                        "2018-10-30-oct21-post-incident-analysis",
		"example.com/blog/Manta-Postmortem-7-27-2015?utm=x":                          "manta-postmortem-7-27-2015",
		// Not a post's slug: an incident id, a number, too few words or
		// characters, no letter, no path.
		"status.cloud.google.com/incidents/x8snkk2bpycrc1sveeiu": "",
		"aws.amazon.com/message/680587":                          "",
		"example.com/blog/incident-report":                       "",
		"example.com/a-b-c-d":                                    "",
		"example.com/2014-01-28-00-00-00-00":                     "",
		"example.com":                                            "",
	} {
		checkString(t, "postSlug", postSlug, u, want)
	}
}
