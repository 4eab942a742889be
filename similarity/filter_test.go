package similarity

import (
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

func TestFilterValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    Filter
		want string // "" for valid
	}{
		{Filter{Since: "2024", Until: "2024-03"}, ""},
		{Filter{Since: "2024-03", Until: "2024"}, ""},
		{Filter{Since: "2024-02-29"}, ""},
		{Filter{Since: "2024-13"}, "bad since date: no month 13"},
		{Filter{Until: "2023-02-29"}, "bad until date: no day 29"},
		{Filter{Since: "June 2016"}, "bad since date: want YYYY"},
		{Filter{Since: "2024-3"}, "want YYYY"},
		{Filter{Since: "2024", Until: "2020"}, "since 2024 is after until 2020"},
		{Filter{Since: "2024-03-02", Until: "2024-03-01"}, "is after until"},
	} {
		err := tc.f.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.f, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want %q", tc.f, err, tc.want)
		}
	}
}

// A date bound keeps a case only when the whole period of its date lies
// within the bounds, whatever the precision of either.
func TestFilterKeepDates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		date         string
		since, until string
		keep         bool
	}{
		{"2024-05-10", "2024", "", true},
		{"2024-05-10", "2024-06", "", false},
		{"2024", "2024", "2024", true},
		{"2024", "2024-06", "", false}, // may be before June
		{"2024", "", "2024-03", false}, // may be after March
		{"2024-03", "", "2024-03-31", true},
		{"2024-03", "", "2024-03-15", false},
		{"2023-12-31", "", "2023", true},
		{"", "2020", "", false},
		{"June 2016", "2016", "", false}, // cannot be placed: excluded
		{"2016-06-01T10:00", "", "2020", false},
	} {
		c := &caselib.Case{ID: "X", Date: tc.date}
		if got := (Filter{Since: tc.since, Until: tc.until}).Keep(c); got != tc.keep {
			t.Errorf("date %q since %q until %q: Keep = %v, want %v", tc.date, tc.since, tc.until, got, tc.keep)
		}
	}
}
