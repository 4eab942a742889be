package similarity

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Same-event evidence: what tells that two records describe one incident
// when their wording does not (a long post-mortem and a two-line status
// notice, or a one-line summary in a list): the same organisation, dates
// days apart, the short text inside the long one, rare terms and sources
// they share. It is only looked for within a case's block — the cases of
// its organisation dated at most eventDays from it (or undated), and the
// cases citing one of its sources — which is small, so every pair in it is
// scored in full and the pruned text search stays exact (see
// [Index.DupesOf]).

// maxCites is how many cases may cite one source for the source to count
// as evidence: a page that many cases cite (a status page's front page) is
// not about one event.
const maxCites = 5

// normalizeURL returns u without its scheme, "www.", fragment and trailing
// slash, its host lowercased; "" when u is not an http(s) URL.
func normalizeURL(u string) string {
	u = strings.TrimSpace(u)
	low := strings.ToLower(u)
	switch {
	case strings.HasPrefix(low, "https://"):
		u = u[len("https://"):]
	case strings.HasPrefix(low, "http://"):
		u = u[len("http://"):]
	default:
		return ""
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	host, path, _ := strings.Cut(u, "/")
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	if host == "" {
		return ""
	}
	path = strings.TrimRight(path, "/")
	if path == "" {
		return host
	}
	return host + "/" + path
}

// eventDays is how many days apart two dated records of one event may be.
const eventDays = 3

// eventMaxOrgShare is the largest share of the library an organisation may
// have for sharing it to be evidence: in a library of one organisation (a
// project's bug tracker) it says nothing, and its block would be the whole
// library.
const eventMaxOrgShare = 0.5

// eventMinWeak is how many cases an organisation must have for
// eventMaxOrgShare to apply: in a small library an organisation with most
// of the cases still tells records apart (its share weakens it anyway).
const eventMinWeak = 100

// maxUndatedPairs bounds the pairs an organisation's undated cases make
// with all its cases (an undated case's block is its whole organisation):
// past it, undated cases get no organisation evidence, so that a large
// undated library does not cost a search over every pair.
var maxUndatedPairs = 4 << 20 // a variable for the tests

// orgKeys returns the keys an organisation is known by, lowercased: its
// first word ("google" for "Google Cloud"), its words run together
// ("digitalocean" for "Digital Ocean"), and for a name of three words or
// more their initials ("aws" for "Amazon Web Services"). A trailing ".io",
// ".com" and the like is dropped ("Chef.io" is "chef"), and a leading
// "The". Two cases share an organisation when their keys meet.
func orgKeys(org string) []string {
	org = strings.ToLower(strings.TrimSpace(org))
	for _, tld := range []string{".io", ".com", ".ai", ".net", ".org", ".dev", ".co"} {
		org = strings.TrimSuffix(org, tld)
	}
	words := strings.FieldsFunc(org, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&' })
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	if len(words) == 0 {
		return nil
	}
	keys := []string{words[0], strings.Join(words, "")}
	if len(words) >= 3 {
		var b strings.Builder
		for _, w := range words {
			b.WriteRune([]rune(w)[0])
		}
		keys = append(keys, b.String())
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// events is what the same-event evidence needs, built with the index.
type events struct {
	keys   [][]int32 // per case, ids of its organisation keys, ascending
	names  []string  // key id → key
	dated  [][]int32 // key id → its dated cases, by day then position
	undate [][]int32 // key id → its undated cases, by position
	count  []int32   // key id → number of cases with the key
	// weak marks the keys more than eventMaxOrgShare of the library (and
	// at least eventMinWeak cases) has: they are no evidence (a library of
	// one organisation). undatedOK
	// marks the keys whose undated cases may be paired with all of the
	// key's cases within maxUndatedPairs.
	weak, undatedOK []bool

	// Each case's cited sources (url and sources[].url, normalized) as ids,
	// ascending, and the cases citing each source.
	srcs  [][]int32
	cites [][]int32
	urls  []string // source id → normalized url

	// entity marks the terms made of letters and digits (regions such as
	// ap-northeast-1, error codes, product versions), by canonical id.
	entity []bool

	// mass is each case's sum of the idf of its distinct text terms, the
	// denominator of containment.
	mass []float32
}

// buildEvents indexes the cases' organisations and text terms; reweigh
// calls it once the vectors are built.
func (ix *Index) buildEvents() {
	n := len(ix.cases)
	ev := &events{keys: make([][]int32, n), mass: make([]float32, n)}
	ids := map[string]int32{}
	for i, c := range ix.cases {
		for _, k := range orgKeys(c.Org) {
			id, ok := ids[k]
			if !ok {
				id = int32(len(ev.names))
				ids[k] = id
				ev.names = append(ev.names, k)
				ev.dated, ev.undate, ev.count = append(ev.dated, nil), append(ev.undate, nil), append(ev.count, 0)
			}
			ev.keys[i] = append(ev.keys[i], id)
			ev.count[id]++
			if ix.day[i] == noDay {
				ev.undate[id] = append(ev.undate[id], int32(i))
			} else {
				ev.dated[id] = append(ev.dated[id], int32(i))
			}
		}
		slices.Sort(ev.keys[i])
	}
	ev.srcs = make([][]int32, n)
	urlIDs := map[string]int32{}
	for i, c := range ix.cases {
		us := []string{c.URL}
		for _, s := range c.Sources {
			us = append(us, s.URL)
		}
		for _, u := range us {
			u = normalizeURL(u)
			if u == "" {
				continue
			}
			id, ok := urlIDs[u]
			if !ok {
				id = int32(len(ev.urls))
				urlIDs[u] = id
				ev.urls = append(ev.urls, u)
				ev.cites = append(ev.cites, nil)
			}
			if !slices.Contains(ev.srcs[i], id) {
				ev.srcs[i] = append(ev.srcs[i], id)
				ev.cites[id] = append(ev.cites[id], int32(i))
			}
		}
		slices.Sort(ev.srcs[i])
	}
	for k, c := range ev.count {
		ev.weak = append(ev.weak, float64(c) > eventMaxOrgShare*float64(n) && c >= eventMinWeak)
		ev.undatedOK = append(ev.undatedOK, len(ev.undate[k])*int(c) <= maxUndatedPairs)
	}
	for _, d := range ev.dated {
		slices.SortStableFunc(d, func(a, b int32) int { return int(ix.day[a]) - int(ix.day[b]) })
	}
	ev.entity = make([]bool, len(ix.craw))
	for t, r := range ix.craw {
		ev.entity[t] = isEntity(ix.voc.terms[r])
	}
	for i := range n {
		var m float64
		ix.textTerms(i, func(t uint32) { m += float64(ix.idf[t]) })
		ev.mass[i] = float32(m)
	}
	ix.ev = ev
}

// block appends to dst the positions of the other cases that share an
// organisation with the case at position d and are dated at most eventDays
// from it (all of them when either is undated), ascending, and returns it.
func (ix *Index) block(d int, dst []int32) []int32 {
	ev := ix.ev
	start := len(dst)
	for _, k := range ev.keys[d] {
		if ev.weak[k] || (ix.day[d] == noDay && !ev.undatedOK[k]) {
			continue
		}
		if ev.undatedOK[k] {
			dst = append(dst, ev.undate[k]...)
		}
		dated := ev.dated[k]
		lo, hi := 0, len(dated)
		if day := ix.day[d]; day != noDay {
			at := func(x int32, t int32) int { return int(ix.day[x]) - int(t) }
			lo, _ = slices.BinarySearchFunc(dated, day-eventDays, at)
			hi, _ = slices.BinarySearchFunc(dated, day+eventDays+1, at)
		}
		dst = append(dst, dated[lo:hi]...)
	}
	for _, u := range ev.srcs[d] {
		if len(ev.cites[u]) <= maxCites {
			dst = append(dst, ev.cites[u]...)
		}
	}
	b := dst[start:]
	slices.Sort(b)
	b = slices.Compact(b)
	if i, ok := slices.BinarySearch(b, int32(d)); ok {
		b = slices.Delete(b, i, i+1)
	}
	return dst[:start+len(b)]
}

// EventEvidence is why two cases may be one event told twice, beside their
// text similarity.
type EventEvidence struct {
	// Org is the organisation key the two cases share ("" when none), and
	// OrgShare the share of the library's cases that have it: the smaller,
	// the stronger the evidence.
	Org      string
	OrgShare float64
	// NearShare is the share of the library's cases that have the
	// organisation and, when both cases are dated, a date around theirs
	// (eventDays either side): how crowded their days are.
	NearShare float64
	// Source is a source both cases cite (url or sources[].url, without
	// scheme), and Cited how many cases of the library cite it; "" when
	// they cite none in common (sources cited by more than a few cases do
	// not count).
	Source string
	Cited  int
	// Days is how many days apart the two cases are dated, -1 when either
	// has no date.
	Days int
	// Containment is the share of the shorter case's text terms, weighted
	// by idf, that the longer case also has: 1 when the short notice is
	// wholly inside the long post-mortem.
	Containment float64
	// Rare lists rare text terms the two share (product names, regions,
	// error codes; see RareShared), rarest first, at most six, as written
	// in the first case that has them.
	Rare []string
	// RareShared is how many rare text terms the two share: terms at most
	// one case in a thousand has, or one in a hundred for terms of letters
	// and digits.
	RareShared int
	// Score is the evidence as a score in [0, 1]; 0 when the cases do not
	// share an organisation or their dates are too far apart.
	Score float64
}

// textTerms calls f with each distinct text term of the case at position
// i (canonical ids, ascending).
func (ix *Index) textTerms(i int, f func(t uint32)) {
	last := uint32(math.MaxUint32)
	for _, k := range ix.vkey[ix.vstart[i]:ix.vstart[i+1]] {
		if t := keyTerm(k); t != last && int(keyView(k)) < textViews {
			f(t)
			last = t
		}
	}
}

// sharedSource returns the source the cases at a and b both cite that the
// fewest cases cite, and how many do; "" when there is none.
func (ix *Index) sharedSource(a, b int) (string, int) {
	best, n := "", 0
	for _, u := range ix.ev.srcs[a] {
		c := len(ix.ev.cites[u])
		if _, ok := slices.BinarySearch(ix.ev.srcs[b], u); ok && c <= maxCites && (best == "" || c < n) {
			best, n = ix.ev.urls[u], c
		}
	}
	return best, n
}

// sharedOrg returns the rarest organisation key the cases at a and b share,
// as a key id, or -1.
func (ix *Index) sharedOrg(a, b int) int32 {
	ev := ix.ev
	undated := ix.day[a] == noDay || ix.day[b] == noDay
	best := int32(-1)
	for _, k := range ev.keys[a] {
		if ev.weak[k] || (undated && !ev.undatedOK[k]) {
			continue
		}
		if _, ok := slices.BinarySearch(ev.keys[b], k); ok && (best < 0 || ev.count[k] < ev.count[best]) {
			best = k
		}
	}
	return best
}

// near returns how many cases have organisation key k and, when a and b
// are both dated, a date from eventDays before the earlier of the two to
// eventDays after the later: how many cases the pair could have been
// confused with. It is at least 2.
func (ix *Index) near(k int32, a, b int) int {
	da, db := ix.day[a], ix.day[b]
	if da == noDay || db == noDay {
		return int(ix.ev.count[k])
	}
	dated := ix.ev.dated[k]
	at := func(x int32, t int32) int { return int(ix.day[x]) - int(t) }
	lo, _ := slices.BinarySearchFunc(dated, min(da, db)-eventDays, at)
	hi, _ := slices.BinarySearchFunc(dated, max(da, db)+eventDays+1, at)
	return max(2, hi-lo)
}

// containment returns the idf-weighted share of the shorter case's text
// terms that the other case has, and calls shared, when not nil, with each
// term the two share.
func (ix *Index) containment(a, b int, shared func(t uint32)) float64 {
	ev := ix.ev
	ka, kb := ix.vkey[ix.vstart[a]:ix.vstart[a+1]], ix.vkey[ix.vstart[b]:ix.vstart[b+1]]
	var s float64
	// Keys are sorted by term, then view: a term's keys are adjacent, and a
	// tag term has only keys of the tag view.
	i, j := 0, 0
	for i < len(ka) && j < len(kb) {
		ta, tb := keyTerm(ka[i]), keyTerm(kb[j])
		switch {
		case ta < tb:
			i++
		case ta > tb:
			j++
		default:
			if int(keyView(ka[i])) < textViews {
				s += float64(ix.idf[ta])
				if shared != nil {
					shared(ta)
				}
			}
			for i < len(ka) && keyTerm(ka[i]) == ta {
				i++
			}
			for j < len(kb) && keyTerm(kb[j]) == ta {
				j++
			}
		}
	}
	m := float64(min(ev.mass[a], ev.mass[b]))
	if m <= 0 {
		return 0
	}
	return min(s/m, 1)
}

// evidence returns the same-event evidence of the cases at positions a and
// b; explain, when true, fills EventEvidence.Rare.
func (ix *Index) evidence(a, b int, explain bool) EventEvidence {
	e := EventEvidence{Days: -1}
	if ix.day[a] != noDay && ix.day[b] != noDay {
		e.Days = int(math.Abs(float64(ix.day[a]) - float64(ix.day[b])))
		if e.Days > eventDays {
			return e
		}
	}
	e.Source, e.Cited = ix.sharedSource(a, b)
	k := ix.sharedOrg(a, b)
	if k < 0 {
		if e.Source != "" {
			e.Score = eventScore(e, 1)
		}
		return e
	}
	e.Org = ix.ev.names[k]
	e.OrgShare = float64(ix.ev.count[k]) / float64(len(ix.cases))
	e.NearShare = float64(ix.near(k, a, b)) / float64(len(ix.cases))
	var sh []uint32
	var add func(uint32)
	if explain {
		add = func(t uint32) { sh = append(sh, t) }
	}
	e.Containment = ix.containment(a, b, func(t uint32) {
		if ix.rare(t) {
			e.RareShared++
		}
		if add != nil {
			add(t)
		}
	})
	if explain {
		slices.SortFunc(sh, func(x, y uint32) int { return int(ix.df[x]) - int(ix.df[y]) })
		for _, t := range sh {
			if s := ix.surfaceOf(t); ix.rare(t) && len(e.Rare) < 6 && !slices.Contains(e.Rare, s) {
				e.Rare = append(e.Rare, s)
			}
		}
	}
	ma, mb := ix.ev.mass[a], ix.ev.mass[b]
	ratio := 1.0
	if mx := max(ma, mb); mx > 0 {
		ratio = float64(min(ma, mb) / mx)
	}
	e.Score = eventScore(e, ratio)
	return e
}

// Weights of the same-event score (see eventScore), chosen on the
// same-event records of incidents-judged (README, "dupes").
const (
	eventOrgPower  = 0.5  // an organisation key's strength is 1 − share^eventOrgPower
	eventOrgWeight = 0.25 // the weight of the organisation's share of the library against its share of the pair's days
	eventRare      = 2.0  // each shared rare term leaves e^(−1/eventRare) of the organisation evidence's weakness
	eventUndated   = 1.0  // the date factor of a pair with an undated case
	eventDayCost   = 0.1  // the date factor loses this much per day apart
	eventContained = 0.3  // containment from which the text factor is 1
	eventRatioLo   = 0.3  // length ratio (short/long) up to which the length factor is 1
	eventRatioHi   = 0.7  // length ratio from which it is 0
)

// eventScore turns the evidence into a score in [0, 1], the product of four
// factors:
//   - the organisation's strength o: 1 − share^½ of its share of the
//     library (weight ¼) and of its share of the pair's days (weight ¾),
//     geometric mean — 0 in a library of one organisation (a project's bug
//     tracker), near 1 for an organisation with a handful of cases or a
//     quiet week; each shared rare term and a shared source make it
//     stronger;
//   - the dates: 1 the same day or undated, 0.1 less per day apart;
//   - containment: the share of the shorter text inside the longer one, 1
//     from eventContained up;
//   - length: 1 when the shorter text is under eventRatioLo of the longer,
//     0 from eventRatioHi (two texts of one length are compared by their
//     cosine, the text part of the dupes score).
//
// A source both cases cite is evidence on its own: src·dates, src being 1
// for a source two cases cite, down to ½ for one maxCites cite.
func eventScore(e EventEvidence, ratio float64) float64 {
	src := 0.0
	if e.Source != "" {
		src = 1 - 0.5*float64(e.Cited-2)/float64(maxCites-2)
	}
	d := dateFactor(e)
	if e.Org == "" {
		return src * d
	}
	oo, ow := 1-math.Pow(e.OrgShare, eventOrgPower), 1-math.Pow(e.NearShare, eventOrgPower)
	weak := 1 - math.Pow(oo, eventOrgWeight)*math.Pow(ow, 1-eventOrgWeight)
	o := 1 - weak*math.Exp(-float64(e.RareShared)/eventRare)*(1-src)
	c := min(1, e.Containment/eventContained)
	g := min(1, max(0, (eventRatioHi-ratio)/(eventRatioHi-eventRatioLo)))
	return min(max(o*d*c*g, src*d, 0), 1)
}

// dateFactor is how much of the same-event evidence the dates keep.
func dateFactor(e EventEvidence) float64 {
	if e.Days < 0 {
		return eventUndated
	}
	return 1 - eventDayCost*float64(e.Days)
}

// Why lists the evidence for a dupes explanation, strongest first: the
// source both cite, the organisation, the dates, how much of the shorter
// text the longer one holds, and the rare terms they share. It is empty
// when there is no evidence (Score 0).
func (e EventEvidence) Why() []string {
	if e.Score <= 0 {
		return nil
	}
	var out []string
	if e.Source != "" {
		out = append(out, "same source: "+e.Source)
	}
	if e.Org != "" {
		out = append(out, "same org: "+e.Org)
	}
	switch {
	case e.Days == 0:
		out = append(out, "same day")
	case e.Days > 0:
		out = append(out, fmt.Sprintf("%d day(s) apart", e.Days))
	}
	if e.Org != "" {
		out = append(out, fmt.Sprintf("contained: %.0f%%", 100*e.Containment))
	}
	for _, r := range e.Rare {
		out = append(out, "rare: "+r)
	}
	return out
}

// rare reports whether term t counts as a rare term two cases share: at
// most one case in a thousand has it, or one in a hundred for a term of
// letters and digits (a region, an error code).
func (ix *Index) rare(t uint32) bool {
	n := int32(len(ix.cases))
	return ix.df[t] <= max(2, n/1000) || (ix.ev.entity[t] && ix.df[t] <= max(2, n/100))
}

// isEntity reports whether a term mixes letters and digits, as names of
// regions, error codes and versions do (ap-northeast-1, x509, 5xx).
func isEntity(term string) bool {
	if strings.HasPrefix(term, tagPrefix) {
		return false
	}
	var letter, digit bool
	for _, r := range term {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	return letter && digit
}
