package similarity

import (
	"regexp"
	"strings"
)

// A record without a date often says in its first sentence on which day
// its story began: "On 4 October 2023, Cloudflare experienced …", "On
// Tuesday, 19 July 2022 at 06:33 US/Pacific, …", "… unavailable for 121
// minutes on January 24, 2023". An incident does not happen before the day
// its story begins, nor long after it: a summary that begins "On September
// 8th, 2022" is not the write-up of an outage of 2018, nor of one of 2023.
// The story may begin with the change that caused the incident weeks later
// ("On 12 May 2021 Fastly began deploying a software release …" is the
// write-up of an outage of 8 June), so the day bounds the incident's day
// by a season (storyWindow), not by eventDays
// (eval/notes/dupes-address-dates.md).

// storyWindow is how many days after the day its story begins a record's
// incident may be: a season, longer than any gap between that day and the
// record's date measured on dated records (eval/notes/dupes-address-dates.md).
const storyWindow = 90

// storyBegins returns the day number of the date a text's first sentence
// gives as the day it begins with, one day early for time zones, and false
// when it gives none. The date must name its year and be introduced as a
// day ("on", "starting", "beginning", "from", optionally with a weekday),
// so that a date the text only mentions ("by January 4, 2023, our
// investigation had …", "around May 4th 2019") is not taken for it. When
// the sentence gives several, the first counts.
func storyBegins(text string) (int32, bool) {
	first := firstSentence(text)
	if !hasYear(first) { // most texts: spare them the patterns
		return 0, false
	}
	best, at := int32(0), -1
	for _, f := range storyDates {
		m := f.re.FindStringSubmatchIndex(first)
		if m == nil || (at >= 0 && m[0] >= at) {
			continue
		}
		groups := make([]string, len(m)/2)
		for g := range groups {
			if m[2*g] >= 0 {
				groups[g] = strings.ToLower(first[m[2*g]:m[2*g+1]])
			}
		}
		if d, ok := f.day(groups); ok {
			best, at = d-1, m[0]
		}
	}
	return best, at >= 0
}

// hasYear reports whether s has four digits in a row that begin with 19
// or 20, as every date storyDates reads does.
func hasYear(s string) bool {
	for i := 0; i+4 <= len(s); i++ {
		if (s[i] == '1' && s[i+1] == '9' || s[i] == '2' && s[i+1] == '0') && isDigit(s[i+2]) && isDigit(s[i+3]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// storyHead is how much of a text storyBegins reads at most: a first
// sentence longer than that is a list or a log, not a sentence.
const storyHead = 400

// firstSentence returns text up to the end of its first sentence (a full
// stop, question or exclamation mark followed by white space, or a blank
// line), at most storyHead bytes of it. A heading line ("# Outage of …")
// is a sentence of its own.
func firstSentence(text string) string {
	text = strings.TrimSpace(text)
	if len(text) > storyHead {
		text = text[:storyHead]
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', '?', '!':
			if i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\n' || text[i+1] == '\t') {
				return text[:i+1]
			}
		case '\n':
			if text[0] == '#' || (i+1 < len(text) && text[i+1] == '\n') {
				return text[:i]
			}
		}
	}
	return text
}

// storyIntro is what must come before a date for it to be the day the
// story begins: a preposition of time and an optional weekday.
const storyIntro = `(?i)\b(?:on|starting|beginning|from)\s+(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)\.?,?\s+)?(?:the\s+)?`

// storyDates are the ways a sentence writes a full date: each gives its day
// number from the submatches (lower-cased).
var storyDates = []struct {
	re  *regexp.Regexp
	day func(m []string) (int32, bool)
}{
	// on 2023-07-20
	{regexp.MustCompile(storyIntro + `((?:19[89]|20[0-9])[0-9])-([0-9]{1,2})-([0-9]{1,2})\b`),
		func(m []string) (int32, bool) { return dayOf(atoi(m[1]), atoi(m[2]), atoi(m[3])) }},
	// on January 28th, 2016; on Sept 8 2022
	{regexp.MustCompile(storyIntro + months + `\s+([0-9]{1,2})(?:st|nd|rd|th)?,?\s+((?:19[89]|20[0-9])[0-9])\b`),
		func(m []string) (int32, bool) { return dayOf(atoi(m[3]), monthOf(m[1]), atoi(m[2])) }},
	// on 4 October 2023, on the 4th of October, 2023
	{regexp.MustCompile(storyIntro + `([0-9]{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + months + `,?\s+((?:19[89]|20[0-9])[0-9])\b`),
		func(m []string) (int32, bool) { return dayOf(atoi(m[3]), monthOf(m[2]), atoi(m[1])) }},
}
