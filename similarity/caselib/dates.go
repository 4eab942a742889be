package caselib

import (
	"fmt"
	"time"
)

// This file is caselink's one date model: what a case date may be (CheckDate,
// ParseDate), which days it covers (Date.Days, for the date filters) and the
// day a date-time falls on (DayNumber, for the date priors and the same-event
// evidence).

// Date is a case date as caselink places it in time: a year, a month of a
// year or a day (YYYY, YYYY-MM, YYYY-MM-DD). Month and Day are 0 when the
// date does not give them.
type Date struct {
	Year, Month, Day int
}

// dateProblem says why a string is not a Date; parseDate returns it rather
// than an error so that DayNumber does not allocate.
type dateProblem int

const (
	dateOK dateProblem = iota
	dateShape
	dateMonth
	dateDay
)

// ParseDate reads a date that is YYYY, YYYY-MM or YYYY-MM-DD, with a month
// from 01 to 12 and a day that the month has.
func ParseDate(s string) (Date, error) {
	d, p := parseDate(s)
	switch p {
	case dateShape:
		return Date{}, fmt.Errorf("want YYYY, YYYY-MM or YYYY-MM-DD, found %q", s)
	case dateMonth:
		return Date{}, fmt.Errorf("no month %s in %q", s[5:7], s)
	case dateDay:
		return Date{}, fmt.Errorf("no day %s in %s", s[8:10], s[:7])
	}
	return d, nil
}

// CheckDate reports whether s is a date caselink can place in time (see
// ParseDate). A case's "date" must be one of these (or null or missing), and
// so must the bounds of a date filter.
func CheckDate(s string) error {
	_, err := ParseDate(s)
	return err
}

func parseDate(s string) (Date, dateProblem) {
	if len(s) != 4 && len(s) != 7 && len(s) != 10 {
		return Date{}, dateShape
	}
	y := digits(s[:4])
	if y < 0 {
		return Date{}, dateShape
	}
	if len(s) == 4 {
		return Date{Year: y}, dateOK
	}
	m := digits(s[5:7])
	if s[4] != '-' || m < 0 {
		return Date{}, dateShape
	}
	if m < 1 || m > 12 {
		return Date{}, dateMonth
	}
	if len(s) == 7 {
		return Date{Year: y, Month: m}, dateOK
	}
	d := digits(s[8:10])
	if s[7] != '-' || d < 0 {
		return Date{}, dateShape
	}
	if d < 1 || d > daysIn(y, m) {
		return Date{}, dateDay
	}
	return Date{Year: y, Month: m, Day: d}, dateOK
}

// digits returns the number t spells in decimal digits, -1 when t holds
// anything else.
func digits(t string) int {
	n := 0
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return -1
		}
		n = n*10 + int(t[i]-'0')
	}
	return n
}

// daysIn returns the number of days of month m of year y.
func daysIn(y, m int) int {
	if m == 2 && (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		return 29
	}
	return [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
}

// Days returns the first and last day the date covers (a whole year, a whole
// month or one day) as day numbers: days since 1970-01-01, which compare in
// time order and subtract to a count of days.
func (d Date) Days() (first, last int) {
	switch {
	case d.Month == 0:
		return dayOf(d.Year, 1, 1), dayOf(d.Year, 12, 31)
	case d.Day == 0:
		return dayOf(d.Year, d.Month, 1), dayOf(d.Year, d.Month, daysIn(d.Year, d.Month))
	}
	n := dayOf(d.Year, d.Month, d.Day)
	return n, n
}

func dayOf(y, m, d int) int {
	return int(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// DayNumber returns the day number (see Date.Days) of a date that starts
// with a valid YYYY-MM-DD, which a time may follow ("2024-01-10T08:00:00Z",
// "2024-01-10 08:00"); ok is false for anything else, a year or a month
// alone included, as two such dates have no count of days between them. It
// does not allocate.
func DayNumber(s string) (day int, ok bool) {
	if len(s) < 10 || (len(s) > 10 && s[10] != 'T' && s[10] != ' ') {
		return 0, false
	}
	d, p := parseDate(s[:10])
	if p != dateOK {
		return 0, false
	}
	return dayOf(d.Year, d.Month, d.Day), true
}
