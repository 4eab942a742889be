package similarity

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/caselink/caselink/similarity/caselib"
)

// A record without a date often has one in its address: a blog writes the
// day it published a post-mortem into the path (/2018/10/30/…,
// /outage-on-may-27-2014). An incident happens before its write-up is
// published, so such a record cannot tell an incident dated after that
// day: two records of one organisation, one undated and summed up in 2014,
// the other dated 2015, are two incidents. Only the latest day the address
// allows is used: a retrospective can be written years after the incident,
// so the address says nothing about how long before it happened.

// publishedBy returns the day number of the last day the address u names
// in its path (a date, a month or a year), and false when it names none.
// A path that names several (a report of 2019-2020, a post of 2022/01 on
// an outage of 10-31-2021) gives the latest: a bound must never be too
// early. The host is not read (a year in a host name is a brand), and a
// page archived by web.archive.org is read at its original address.
func publishedBy(u string) (int32, bool) {
	low := strings.ToLower(strings.TrimSpace(u))
	for { // some libraries write the scheme twice ("https://https://…")
		rest, ok := strings.CutPrefix(low, "https://")
		if !ok {
			rest, ok = strings.CutPrefix(low, "http://")
		}
		if !ok {
			break
		}
		low = rest
	}
	if orig, ok := archived(low); ok { // the snapshot's time is when it was archived, not published
		return publishedBy(orig)
	}
	_, path, ok := strings.Cut(low, "/")
	if !ok {
		return 0, false
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	// The most precise reading of each part of the path: a date's digits
	// are not read again as its month or year.
	var taken [][2]int
	best, found := int32(0), false
	for _, f := range addressDates {
		for off := 0; off < len(path); {
			m := f.re.FindStringSubmatchIndex(path[off:])
			if m == nil {
				break
			}
			lo, hi := off+m[2], off+m[len(m)-1] // the date's first and last group
			groups := make([]string, len(m)/2)
			for g := range groups {
				if m[2*g] >= 0 {
					groups[g] = path[off+m[2*g] : off+m[2*g+1]]
				}
			}
			off = hi
			if overlaps(taken, lo, hi) {
				continue
			}
			if d, ok := f.last(groups); ok {
				taken = append(taken, [2]int{lo, hi})
				best, found = max(best, d), true
			}
		}
	}
	return best, found
}

// overlaps reports whether [lo, hi) overlaps one of spans.
func overlaps(spans [][2]int, lo, hi int) bool {
	for _, s := range spans {
		if lo < s[1] && s[0] < hi {
			return true
		}
	}
	return false
}

// months names the months as addresses write them, full or cut to three
// letters ("sept" too).
const months = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`

// addressDates are the ways an address writes a date, most precise first;
// each gives the last day of what it names. A number is a year only from
// 1980 to 2099 and stands apart from other digits and letters.
var addressDates = []struct {
	re   *regexp.Regexp
	last func(m []string) (int32, bool)
}{
	// 2018/10/30, 2018-10-30, 2009/1/2
	{regexp.MustCompile(`(?:^|[^0-9a-z])((?:19[89]|20[0-9])[0-9])[/_-]([0-9]{1,2})[/_-]([0-9]{1,2})(?:[^0-9]|$)`),
		func(m []string) (int32, bool) { return dayOf(atoi(m[1]), atoi(m[2]), atoi(m[3])) }},
	// may-27-2014, january-24th-2023, feb-29th-2012
	{regexp.MustCompile(`(?:^|[^a-z])` + months + `[_-]([0-9]{1,2})(?:st|nd|rd|th)?[_-]+((?:19[89]|20[0-9])[0-9])(?:[^0-9]|$)`),
		func(m []string) (int32, bool) { return dayOf(atoi(m[3]), monthOf(m[1]), atoi(m[2])) }},
	// 18-november-2025, 4th-july-2019
	{regexp.MustCompile(`(?:^|[^0-9a-z])([0-9]{1,2})(?:st|nd|rd|th)?[_-]` + months + `[_-]((?:19[89]|20[0-9])[0-9])(?:[^0-9]|$)`),
		func(m []string) (int32, bool) { return dayOf(atoi(m[3]), monthOf(m[2]), atoi(m[1])) }},
	// 2018/08/, 2014/01
	{regexp.MustCompile(`(?:^|[^0-9a-z])((?:19[89]|20[0-9])[0-9])[/_-]([0-9]{1,2})(?:[^0-9]|$)`),
		func(m []string) (int32, bool) { return lastOfMonth(atoi(m[1]), atoi(m[2])) }},
	// april-2022
	{regexp.MustCompile(`(?:^|[^a-z])` + months + `[_-]((?:19[89]|20[0-9])[0-9])(?:[^0-9]|$)`),
		func(m []string) (int32, bool) { return lastOfMonth(atoi(m[2]), monthOf(m[1])) }},
	// blackout_of_2003, /2019/
	{regexp.MustCompile(`(?:^|[^0-9a-z])((?:19[89]|20[0-9])[0-9])(?:[^0-9a-z]|$)`),
		func(m []string) (int32, bool) { return lastDay(m[1]) }},
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// monthOf returns the number of a month name of the months pattern.
func monthOf(s string) int {
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(s, m) {
			return i + 1
		}
	}
	return 0
}

// dayOf returns the day number of a valid date.
func dayOf(y, m, d int) (int32, bool) { return lastDay(fmt.Sprintf("%04d-%02d-%02d", y, m, d)) }

// lastOfMonth returns the day number of the last day of a month.
func lastOfMonth(y, m int) (int32, bool) { return lastDay(fmt.Sprintf("%04d-%02d", y, m)) }

// lastDay returns the day number of the last day a date of caselib's form
// covers (YYYY, YYYY-MM or YYYY-MM-DD), and false when s is none or no
// valid date.
func lastDay(s string) (int32, bool) {
	d, err := caselib.ParseDate(s)
	if err != nil {
		return 0, false
	}
	_, last := d.Days()
	return int32(last), true
}
