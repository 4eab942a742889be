package caselib

import "fmt"

// CheckDate reports whether s is a date caselink can place in time: YYYY,
// YYYY-MM or YYYY-MM-DD, with a month from 01 to 12 and a day that the
// month has. A case's "date" must be one of these (or null or missing), and
// so must the bounds of a date filter.
func CheckDate(s string) error {
	bad := func() error { return fmt.Errorf("want YYYY, YYYY-MM or YYYY-MM-DD, found %q", s) }
	if len(s) != 4 && len(s) != 7 && len(s) != 10 {
		return bad()
	}
	num := func(t string) int {
		n := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return -1
			}
			n = n*10 + int(t[i]-'0')
		}
		return n
	}
	y := num(s[:4])
	if y < 0 {
		return bad()
	}
	if len(s) == 4 {
		return nil
	}
	m := num(s[5:7])
	if s[4] != '-' || m < 0 {
		return bad()
	}
	if m < 1 || m > 12 {
		return fmt.Errorf("no month %s in %q", s[5:7], s)
	}
	if len(s) == 7 {
		return nil
	}
	d := num(s[8:10])
	if s[7] != '-' || d < 0 {
		return bad()
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		days = 29
	}
	if d < 1 || d > days {
		return fmt.Errorf("no day %s in %s", s[8:10], s[:7])
	}
	return nil
}
