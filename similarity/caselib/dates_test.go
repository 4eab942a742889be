package caselib

import "testing"

// TestDates: what a case date may be, which days it covers, and the day a
// date-time falls on, in one model.
func TestDates(t *testing.T) {
	base := dayOf(2024, 1, 10)
	for _, tc := range []struct {
		in          string
		err         string // "" when valid
		first, last int    // days after 2024-01-10
		day         bool   // DayNumber accepts it
	}{
		{in: "2024-01-10", first: 0, last: 0, day: true},
		{in: "2024-03-01", first: 51, last: 51, day: true}, // leap year: 21 + 29 + 1
		{in: "2024-02-29", first: 50, last: 50, day: true},
		{in: "2024-02", first: 22, last: 50},
		{in: "2024", first: -9, last: 356},
		{in: "2023-02-29", err: "no day 29 in 2023-02"},
		{in: "2024-13", err: `no month 13 in "2024-13"`},
		{in: "2024-01-00", err: "no day 00 in 2024-01"},
		{in: "June 2016", err: `want YYYY, YYYY-MM or YYYY-MM-DD, found "June 2016"`},
		{in: "2024/01/10", err: `want YYYY, YYYY-MM or YYYY-MM-DD, found "2024/01/10"`},
		{in: "", err: `want YYYY, YYYY-MM or YYYY-MM-DD, found ""`},
	} {
		d, err := ParseDate(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseDate(%q): error %v, want %q", tc.in, err, tc.err)
			}
			if CheckDate(tc.in) == nil {
				t.Errorf("CheckDate(%q) accepted it", tc.in)
			}
		} else if err != nil {
			t.Errorf("ParseDate(%q): %v", tc.in, err)
		} else if first, last := d.Days(); first-base != tc.first || last-base != tc.last {
			t.Errorf("%q covers days %+d..%+d, want %+d..%+d", tc.in, first-base, last-base, tc.first, tc.last)
		}
		n, ok := DayNumber(tc.in)
		if ok != tc.day || (ok && n-base != tc.first) {
			t.Errorf("DayNumber(%q) = %+d, %v; want %+d, %v", tc.in, n-base, ok, tc.first, tc.day)
		}
	}
	// DayNumber reads the day of a date-time too, and nothing else glued on.
	for in, want := range map[string]bool{"2024-01-10T23:59:00Z": true, "2024-01-10 08:00": true, "2024-01-10x": false, "2024-02-30T00:00:00Z": false} {
		if n, ok := DayNumber(in); ok != want || (ok && n != base) {
			t.Errorf("DayNumber(%q) = %+d, %v; want %v", in, n-base, ok, want)
		}
	}
}
