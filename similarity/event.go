package similarity

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/caselink/caselink/similarity/caselib"
)

// Same-event evidence: what tells that two records describe one incident
// when their wording does not (a long post-mortem and a two-line status
// notice, or a one-line summary in a list): the same organisation, dates
// days apart, the words of the incident they share (weighed by their
// specificity to the organisation: see specificity) and sources they both
// cite. It is only looked for within a case's block — the cases of
// its organisation dated at most eventDays from it (or undated), and the
// cases citing one of its sources — which is small, so every pair in it is
// scored in full and the pruned text search stays exact (see
// [Index.DupesOf]).

// maxCites is how many cases may cite one source for the source to count
// as evidence: a page that many cases cite (a status page's front page) is
// not about one event.
const maxCites = 5

// normalizeURL returns u without its scheme, "www.", fragment and trailing
// slash, its host lowercased, and a web.archive.org snapshot as the address
// it archived (a list of post-mortems often links the archived copy of a
// write-up another record cites at its own address); "" when u is not an
// http(s) URL.
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
	if orig, ok := archived(u); ok {
		if n := normalizeURL(orig); n != "" {
			return n
		}
	}
	path = strings.TrimRight(path, "/")
	if path == "" {
		return host
	}
	return host + "/" + path
}

// archived returns the address a web.archive.org snapshot archived, from
// the snapshot's address without its scheme
// ("web.archive.org/web/20220406095752/https://…": the time, and any "id_"
// or "if_" after it, say when and how it was archived), and false when u is
// no snapshot.
func archived(u string) (string, bool) {
	const prefix = "web.archive.org/web/"
	u = strings.TrimPrefix(u, "www.")
	if len(u) < len(prefix) || !strings.EqualFold(u[:len(prefix)], prefix) {
		return "", false
	}
	_, orig, ok := strings.Cut(u[len(prefix):], "/")
	return orig, ok
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
	// key's cases within searchOptions.maxUndatedPairs.
	weak, undatedOK []bool

	// Each case's cited sources (url and sources[].url, normalized) as ids,
	// ascending, and the cases citing each source.
	srcs  [][]int32
	cites [][]int32
	urls  []string // source id → normalized url

	// site is each case's publisher: the host of its address (url, else
	// its first source), as an id into sites; -1 when it has none.
	site  []int32
	sites []string

	// pub maps an undated case to the last day it may tell an incident of:
	// the earliest publication day its addresses name (addressdate.go), or
	// the last day of its date when that is a year or a month alone.
	pub map[int32]int32
	// since maps an undated case to the first day it may tell an incident
	// of: the day its summary's first sentence says its story begins, less
	// one (textdate.go); the last is storyWindow days later.
	since map[int32]int32
	// cited maps an undated case that cites a source some dated cases also
	// cite (one cited by at most maxCites cases) to the first and last of
	// those cases' days: it is a record of their incident (eventCitedDays).
	cited map[int32][2]int32
	// bounds maps an undated case to the first and last day it may tell
	// an incident of, as pub, since and cited set them together (dayBounds).
	bounds map[int32][2]int32

	// orgDF counts, per organisation key and text term (key<<32 | term),
	// the cases of the key that have the term: what the organisation
	// writes in every notice (see specificity). Weak keys are left out.
	// Only while building: tdf keeps the counts.
	orgDF map[uint64]int32
	// tdf holds orgDF in the order overlap reads it: per case, per
	// organisation key of the case (as in keys), the count of each of its
	// distinct text terms, ascending (nil for a weak key).
	tdf [][][]int32
	// orgTerms is each case's organisation name as canonical text terms,
	// ascending: the name is what every record of it says, no evidence of
	// one incident.
	orgTerms [][]uint32
}

// events returns what the same-event evidence of dupes needs, built on
// first use: match never needs it, and a command that opens its index from
// the cache would spend most of the opening on it. An index opened without
// its cases reads each case once for it, and keeps none (eachCase); when a
// case cannot be read the build panics with its *CaseError, keeps nothing,
// and the next call tries again.
func (ix *Index) events() *events {
	if ev := ix.ev.Load(); ev != nil {
		return ev
	}
	ix.evMu.Lock()
	defer ix.evMu.Unlock()
	if ev := ix.ev.Load(); ev != nil {
		return ev
	}
	ev := ix.buildEvents()
	ix.ev.Store(ev)
	return ev
}

// buildEvents indexes the cases' organisations and text terms (the vectors
// and day numbers must be built).
func (ix *Index) buildEvents() *events {
	n := len(ix.cases)
	ev := &events{keys: make([][]int32, n)}
	ix.eventOrgs(ev)
	ix.eventSources(ev)
	for k, c := range ev.count {
		ev.weak = append(ev.weak, float64(c) > eventMaxOrgShare*float64(n) && c >= eventMinWeak)
		ev.undatedOK = append(ev.undatedOK, len(ev.undate[k])*int(c) <= ix.opts.undatedPairs()) // an undated case's block is its whole organisation
	}
	for _, d := range ev.dated {
		slices.SortStableFunc(d, func(a, b int32) int { return int(ix.day[a]) - int(ix.day[b]) })
	}
	ix.eventOrgTerms(ev)
	return ev
}

// eventOrgs fills each case's organisation keys and each organisation's
// dated and undated cases.
func (ix *Index) eventOrgs(ev *events) {
	ids := map[string]int32{}
	for i := range ix.cases {
		for _, k := range orgKeys(ix.Org(i)) {
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
}

// eventSources fills the sources each case cites and the cases citing each.
func (ix *Index) eventSources(ev *events) {
	ev.srcs = make([][]int32, len(ix.cases))
	ev.site = make([]int32, len(ix.cases))
	ev.pub = make(map[int32]int32)
	ev.since = make(map[int32]int32)
	urlIDs, siteIDs := map[string]int32{}, map[string]int32{}
	slugs := make([][]string, len(ix.cases)) // each case's post slugs (postSlug)
	ix.eachCase(func(i int, c *caselib.Case) {
		us := []string{c.URL}
		for _, s := range c.Sources {
			us = append(us, s.URL)
		}
		if ix.day[i] == noDay {
			bound := func(d int32) {
				if p, seen := ev.pub[int32(i)]; !seen || d < p {
					ev.pub[int32(i)] = d
				}
			}
			// A date of a year or a month alone ("2018": a talk, a post
			// of that year) has no day, but nothing it tells is later
			// than its last day.
			if d, ok := lastDay(c.Date); ok {
				bound(d)
			}
			for _, u := range us {
				if d, ok := publishedBy(u); ok {
					bound(d)
				}
			}
			if d, ok := storyBegins(c.Summary.EN); ok {
				ev.since[int32(i)] = d
			}
		}
		ev.site[i] = -1
		for _, u := range us {
			u = normalizeURL(u)
			if u == "" {
				continue
			}
			if ev.site[i] < 0 { // the first address's host
				host, _, _ := strings.Cut(u, "/")
				id, ok := siteIDs[host]
				if !ok {
					id = int32(len(ev.sites))
					siteIDs[host] = id
					ev.sites = append(ev.sites, host)
				}
				ev.site[i] = id
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
			if slug := postSlug(u); slug != "" && !slices.Contains(slugs[i], slug) {
				slugs[i] = append(slugs[i], slug)
			}
		}
	})
	ix.eventPosts(ev, slugs, urlIDs)
	for i := range ev.srcs {
		slices.Sort(ev.srcs[i])
	}
	ix.eventCitedDays(ev)
	ix.eventBounds(ev)
}

// eventPosts adds to the sources each case cites the posts its addresses
// name: a post-mortem's slug on another host is the same post (a blog that
// moved, blog.github.com to github.blog; a mirror; a copy on medium.com with
// its id appended; blogspot's slug cut short), so two records of one
// organisation whose addresses end in one slug, or in slugs one of which
// begins the other, cite one source. The organisation is part of the key:
// two organisations' "postmortem-of-the-outage-of-…" are two posts.
func (ix *Index) eventPosts(ev *events, slugs [][]string, urlIDs map[string]int32) {
	var all []string
	for _, ss := range slugs {
		all = append(all, ss...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	// Sorted, a slug comes right after the slugs that begin it: each takes
	// the shortest of them as its post.
	post := make(map[string]string, len(all))
	var chain []string
	for _, s := range all {
		for len(chain) > 0 && !isSlugPrefix(chain[len(chain)-1], s) {
			chain = chain[:len(chain)-1]
		}
		if len(chain) > 0 {
			post[s] = post[chain[0]]
		} else {
			post[s] = s
		}
		chain = append(chain, s)
	}
	for i, ss := range slugs {
		for _, s := range ss {
			for _, k := range ev.keys[i] {
				key := ev.names[k] + " …/" + post[s]
				id, ok := urlIDs[key]
				if !ok {
					id = int32(len(ev.urls))
					urlIDs[key] = id
					ev.urls = append(ev.urls, "…/"+post[s])
					ev.cites = append(ev.cites, nil)
				}
				if !slices.Contains(ev.srcs[i], id) {
					ev.srcs[i] = append(ev.srcs[i], id)
					ev.cites[id] = append(ev.cites[id], int32(i))
				}
			}
		}
	}
}

// isSlugPrefix reports whether slug p begins slug s at a word boundary (p
// is s, or s goes on with "-").
func isSlugPrefix(p, s string) bool {
	return strings.HasPrefix(s, p) && (len(s) == len(p) || s[len(p)] == '-')
}

// postSlug returns the last part of the path of a normalized address when
// it names a post: four words or more joined by hyphens, twenty characters
// or more, a letter among them ("todays-outage-for-several-google"), less
// a file type (".html"). An incident's id on a status page, an AWS
// message's number, a path of one or two words name no post this way.
func postSlug(u string) string {
	_, path, ok := strings.Cut(u, "/")
	if !ok {
		return ""
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	slug := strings.ToLower(path[strings.LastIndexByte(path, '/')+1:])
	for _, ext := range []string{".html", ".htm", ".php", ".aspx"} {
		slug = strings.TrimSuffix(slug, ext)
	}
	if len(slug) < 20 || strings.Count(slug, "-") < 3 || !strings.ContainsFunc(slug, unicode.IsLetter) {
		return ""
	}
	return slug
}

// eventCitedDays fills events.cited. A source few records cite is one
// incident's page (its status notice, its post-mortem), so an undated
// record that cites it, a one-line summary in a list of post-mortems, tells
// the incident of the dated records that cite it too, and not one of
// another day.
func (ix *Index) eventCitedDays(ev *events) {
	ev.cited = make(map[int32][2]int32)
	for i, srcs := range ev.srcs {
		if ix.day[i] != noDay {
			continue
		}
		for _, u := range srcs {
			if len(ev.cites[u]) > maxCites {
				continue
			}
			for _, j := range ev.cites[u] {
				d := ix.day[j]
				if d == noDay {
					continue
				}
				b, ok := ev.cited[int32(i)]
				if !ok {
					b = [2]int32{d, d}
				}
				ev.cited[int32(i)] = [2]int32{min(b[0], d), max(b[1], d)}
			}
		}
	}
}

// eventOrgTerms fills, per case and organisation, the document frequency of
// each of the case's text terms within the organisation's records (tdf),
// and each case's terms of its organisation's name.
func (ix *Index) eventOrgTerms(ev *events) {
	n := len(ix.cases)
	ev.tdf = make([][][]int32, n)
	ev.orgDF = make(map[uint64]int32)
	ev.orgTerms = make([][]uint32, n)
	for i := range n {
		ix.textTerms(i, func(t uint32) {
			for _, k := range ev.keys[i] {
				if !ev.weak[k] {
					ev.orgDF[uint64(k)<<32|uint64(t)]++
				}
			}
		})
		if org := ix.Org(i); org != "" {
			ev.tdf[i] = make([][]int32, len(ev.keys[i]))
			for _, t := range ix.an.Analyze(org) {
				if c := ix.canonOf(t.Text); c != 0 {
					ev.orgTerms[i] = append(ev.orgTerms[i], c-1)
				}
			}
			slices.Sort(ev.orgTerms[i])
			ev.orgTerms[i] = slices.Compact(ev.orgTerms[i])
		}
	}
	for i := range n {
		for j, k := range ev.keys[i] {
			if ev.weak[k] {
				continue
			}
			ix.textTerms(i, func(t uint32) { ev.tdf[i][j] = append(ev.tdf[i][j], ev.orgDF[uint64(k)<<32|uint64(t)]) })
		}
	}
	ev.orgDF = nil // tdf holds what is needed
}

// block appends to dst the positions of the other cases that share an
// organisation with the case at position d and are dated at most eventDays
// from it (all of them when either is undated), ascending, and returns it.
func (ix *Index) block(d int, dst []int32) []int32 {
	ev := ix.events()
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
	// Pairings is, for two cases dated the same day by different sites (a
	// write-up on a blog and a notice on a status page), how many pairs
	// the organisation's records of that day on those two sites make: 1
	// when each is its site's only record of the day, so that the notice is
	// the one the status page posted for the incident the write-up tells.
	// 0 when the two are not dated the same day by different sites.
	Pairings int
	// Sites are the two cases' sites, the hosts of their addresses (url,
	// else the first source), when both have one and they share an
	// organisation. Two records of one site dated on different days are
	// two of its notices, and so two incidents: their words count as in
	// a repeat (eventRepeat).
	Sites [2]string
	// Days is how many days apart the two cases are dated, -1 when either
	// has no date; Undated is how many of the two have none (0, 1 or 2).
	// An undated case whose address says it was published before the other
	// case's date, whose summary's story begins after it or a season before
	// it, or that cites an incident's page dated records of other days
	// cite, is at least that many days from it (apart).
	Days, Undated int
	// Containment is the share of the shorter case's specific text (its
	// terms weighed by their specificity, see Specific) that the longer
	// case also has: 1 when the short notice is wholly inside the long
	// post-mortem. Reported, not scored; [Index.EventEvidence] fills it
	// (the evidence of a listed [Pair] leaves it 0).
	Containment float64
	// Specific is how much specific text the two share: the sum over their
	// shared text terms of each term's specificity, in nats, the surprise
	// of the term in a record of the organisation (its share of the
	// organisation's other records, smoothed toward its share of the
	// library) past that of a common word. The organisation's name, and
	// what it writes in every notice ("We are investigating", its time
	// zone, its template's headings), weigh nothing; an error code, a
	// region, a product name or a figure of this one incident weigh most.
	Specific float64
	// Rare lists the specific terms the two share (of specificity above
	// 0), most specific first, at most six, as the first case writes them.
	Rare []string
	// RareShared is how many shared terms are rare for the organisation:
	// of specificity at least eventRareSpec.
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
	best, n, ev := "", 0, ix.events()
	for _, u := range ev.srcs[a] {
		c := len(ev.cites[u])
		if _, ok := slices.BinarySearch(ev.srcs[b], u); ok && c <= maxCites && (best == "" || c < n) {
			best, n = ev.urls[u], c
		}
	}
	return best, n
}

// sharedOrg returns the rarest organisation key the cases at a and b share,
// as a key id, or -1.
func (ix *Index) sharedOrg(a, b int) int32 {
	ev := ix.events()
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
		return int(ix.events().count[k])
	}
	dated := ix.events().dated[k]
	at := func(x int32, t int32) int { return int(ix.day[x]) - int(t) }
	lo, _ := slices.BinarySearchFunc(dated, min(da, db)-eventDays, at)
	hi, _ := slices.BinarySearchFunc(dated, max(da, db)+eventDays+1, at)
	return max(2, hi-lo)
}

// dayPairings returns, for the cases at a and b of organisation key k
// dated the same day by different sites, how many pairs the key's records
// of that day on those two sites make (at least 1); else 0.
func (ix *Index) dayPairings(k int32, a, b int) int {
	ev := ix.events()
	sa, sb, day := ev.site[a], ev.site[b], ix.day[a]
	if sa < 0 || sb < 0 || sa == sb || day == noDay || day != ix.day[b] {
		return 0
	}
	dated := ev.dated[k]
	at := func(x int32, t int32) int { return int(ix.day[x]) - int(t) }
	lo, _ := slices.BinarySearchFunc(dated, day, at)
	hi, _ := slices.BinarySearchFunc(dated, day+1, at)
	na, nb := 0, 0
	for _, x := range dated[lo:hi] {
		switch ev.site[x] {
		case sa:
			na++
		case sb:
			nb++
		}
	}
	return max(1, na*nb)
}

// specificity returns the specificity of text term t for a pair of cases
// sharing organisation key k, own of which (1 or 2) have the term, orgDF
// of the key's cases having it (events.orgDF): the
// surprise −ln p of the term in a record of the organisation, p being its
// share of the key's other cases (the pair left out), smoothed toward its
// share of the library with the weight of eventOrgPrior cases, less the
// surprise of a word in eventCommon of the records; 0 when that is less.
// An organisation with few other records is judged by the library's
// shares; one with many, by its own: what it writes in every notice is
// not specific to one of them.
func (ix *Index) specificity(k int32, t uint32, orgDF, own int32) float64 {
	ev := ix.events()
	n := float64(len(ix.cases))
	others := float64(max(0, ev.count[k]-2))
	df := float64(max(0, orgDF-own))
	pg := (float64(ix.df[t]) + 1) / (n + 1)
	p := (df + eventOrgPrior*pg) / (others + eventOrgPrior)
	c := eventCommonShare(n)
	if p >= c {
		return 0 // a common word: no logarithm to take (most shared words are)
	}
	return math.Log(c / p)
}

// eventCommonShare is the share of records from which a word is common, no
// evidence of one incident: 5%, or five records of a small library (in a
// library of forty, a word of two records is not rare).
func eventCommonShare(n float64) float64 { return min(1, max(eventCommon, 5/max(n, 1))) }

// overlap is how much specific text two cases of one organisation share.
type overlap struct {
	shared, a, b float64 // the specific text they share, and each one's own
	rare         int     // shared terms of specificity ≥ eventRareSpec
}

// keyDF returns the counts of tdf of the case at position i for its
// organisation key k.
func (ix *Index) keyDF(i int, k int32) []int32 {
	j, _ := slices.BinarySearch(ix.events().keys[i], k)
	return ix.events().tdf[i][j]
}

// overlap measures the specific text the cases at a and b (sharing
// organisation key k) have and share, and calls shared, when not nil, with
// each shared term and its specificity. Terms of either's organisation name
// are left out. Each case's own specific text (overlap.a, .b, what
// Containment is a share of) is summed only when masses is true: scoring
// needs only the shared terms.
func (ix *Index) overlap(k int32, a, b int, masses bool, shared func(t uint32, s float64)) overlap {
	ka, kb := ix.vkey[ix.vstart[a]:ix.vstart[a+1]], ix.vkey[ix.vstart[b]:ix.vstart[b+1]]
	na, nb := ix.events().orgTerms[a], ix.events().orgTerms[b]
	name := func(t uint32) bool {
		_, x := slices.BinarySearch(na, t)
		_, y := slices.BinarySearch(nb, t)
		return x || y
	}
	var o overlap
	da, db := ix.keyDF(a, k), ix.keyDF(b, k)
	xa, xb := 0, 0 // positions in da and db: the distinct text terms read so far
	// Keys are sorted by term, then view: a term's keys are adjacent, and a
	// tag term has only keys of the tag view.
	i, j := 0, 0
	for i < len(ka) || j < len(kb) {
		ta, tb := uint32(math.MaxUint32), uint32(math.MaxUint32)
		if i < len(ka) {
			ta = keyTerm(ka[i])
		}
		if j < len(kb) {
			tb = keyTerm(kb[j])
		}
		t := min(ta, tb)
		inA, inB := ta == t && int(keyView(ka[i])) < textViews, tb == t && int(keyView(kb[j])) < textViews
		for i < len(ka) && keyTerm(ka[i]) == t {
			i++
		}
		for j < len(kb) && keyTerm(kb[j]) == t {
			j++
		}
		var df int32
		if inA {
			df = da[xa]
			xa++
		}
		if inB {
			df = db[xb]
			xb++
		}
		if (!inA && !inB) || (!masses && !(inA && inB)) || name(t) {
			continue
		}
		own := int32(1)
		if inA && inB {
			own = 2
		}
		s := ix.specificity(k, t, df, own)
		if inA {
			o.a += s
		}
		if inB {
			o.b += s
		}
		if inA && inB {
			o.shared += s
			if s >= eventRareSpec {
				o.rare++
			}
			if shared != nil {
				shared(t, s)
			}
		}
	}
	return o
}

// evidence returns the same-event evidence of the cases at positions a and
// b; explain, when true, fills EventEvidence.Rare.
func (ix *Index) evidence(a, b int, explain bool) EventEvidence {
	e := EventEvidence{Days: -1}
	for _, x := range []int{a, b} {
		if ix.day[x] == noDay {
			e.Undated++
		}
	}
	if d := ix.apart(a, b); d >= 0 {
		e.Days = d
		if e.Days > eventDays {
			return e
		}
	}
	e.Source, e.Cited = ix.sharedSource(a, b)
	k := ix.sharedOrg(a, b)
	if k < 0 {
		if e.Source != "" {
			e.Score = eventScore(e)
		}
		return e
	}
	e.Org = ix.events().names[k]
	e.OrgShare = float64(ix.events().count[k]) / float64(len(ix.cases))
	e.NearShare = float64(ix.near(k, a, b)) / float64(len(ix.cases))
	if sa, sb := ix.events().site[a], ix.events().site[b]; sa >= 0 && sb >= 0 {
		e.Sites = [2]string{ix.events().sites[sa], ix.events().sites[sb]}
	}
	e.Pairings = ix.dayPairings(k, a, b)
	type term struct {
		t uint32
		s float64
	}
	var sh []term
	var add func(uint32, float64)
	if explain {
		add = func(t uint32, s float64) {
			if s > 0 {
				sh = append(sh, term{t, s})
			}
		}
	}
	o := ix.overlap(k, a, b, explain, add)
	e.Specific, e.RareShared = o.shared, o.rare
	if m := min(o.a, o.b); m > 0 {
		e.Containment = min(1, o.shared/m)
	}
	if explain {
		slices.SortFunc(sh, func(x, y term) int {
			if c := cmp.Compare(y.s, x.s); c != 0 {
				return c
			}
			return cmp.Compare(x.t, y.t)
		})
		words := ix.caseWords(a)
		for _, x := range sh {
			if w := words[x.t]; w != "" && len(e.Rare) < 6 && !slices.Contains(e.Rare, w) {
				e.Rare = append(e.Rare, w)
			}
		}
	}
	e.Score = eventScore(e)
	return e
}

// Weights of the same-event score (see eventScore), chosen on the
// same-event records of incidents-judged (eval/README.md, "How the evidence is weighed").
const (
	eventOrgPower  = 0.5  // an organisation key's strength is 1 − share^eventOrgPower
	eventOrgWeight = 0.25 // the weight of the organisation's share of the library against its share of the pair's days
	eventRare      = 2.0  // each shared rare term leaves e^(−1/eventRare) of the organisation evidence's weakness
	eventUndated   = 1.0  // the date factor of a pair with an undated case (a summary and the dated write-up it sums up)
	// eventBothUndated is the date factor of two undated cases: nothing
	// says they were written around one time (two one-line summaries of
	// one organisation in a list of post-mortems are of two incidents).
	eventBothUndated = 0.5
	eventDayCost     = 0.1 // the date factor loses this much per day apart
)

// What makes shared words specific to one incident (see specificity).
const (
	// eventCommon is the share of an organisation's records from which a
	// word is what it writes anyway: a word in one notice of twenty is no
	// sign that two of them tell one incident.
	eventCommon = 0.05
	// eventOrgPrior is how many records of an organisation its own shares
	// weigh as much as the library's against: with a handful of records
	// an organisation's words are judged by the library (one other record
	// with the word says little), with hundreds (a status page) by what
	// it writes itself.
	eventOrgPrior = 50.0
	// eventRareSpec is the specificity (nats past a common word) of a rare
	// shared term: ten times rarer in the organisation's records than a
	// common word.
	eventRareSpec = 2.3
	// eventSpecific is the specific text (nats) two records must share
	// for the text factor to reach two thirds (1 − e^−1): a stub that is
	// inside anything ("We are investigating reports of degraded
	// performance") shares too little of it to score high, whatever share
	// of it the other record contains. Chosen on incidents-judged's
	// same-event records (2, 4, 8 tried; eval/README.md, "How the evidence is weighed").
	eventSpecific = 2.0
	// eventRepeat is what is left of the text part of the dupes score for
	// two records of one organisation dated on different days: same
	// wording on another day is a templated repeat, not the same incident.
	// The evidence, which needs specific words, still counts, but for two
	// records of one site (a status page posts a notice per incident, and
	// updates it) the words' part of it keeps eventRepeat too; a source
	// both cite counts in full.
	eventRepeat = 0.5
)

// eventScore turns the evidence into a score in [0, 1], the product of three
// factors:
//   - the organisation's strength o: 1 − share^½ of its share of the
//     library (weight ¼) and of its share of the pair's days (weight ¾),
//     geometric mean — 0 in a library of one organisation (a project's bug
//     tracker), near 1 for an organisation with a handful of cases or a
//     quiet week; each shared rare term and a shared source make it
//     stronger;
//   - the dates: 1 the same day or undated, 0.1 less per day apart;
//   - the text: 1 − e^(−S/eventSpecific), S the specific text the two
//     share (EventEvidence.Specific). Same organisation and same day
//     count only with words of the incident: the organisation's name and
//     template lines weigh nothing in S, and a stub has too few words to
//     share much. (The share of the shorter text inside the longer,
//     Containment, is reported but not scored: it favoured stubs and
//     missed two long records of one event.) Two records of one site
//     dated on different days keep eventRepeat of the text factor: a
//     status page posts a notice per incident, so two of its notices
//     are two incidents.
//
// A source both cases cite is evidence on its own: src·dates, src being 1
// for a source two cases cite, down to ½ for one maxCites cite. Two
// records dated the same day by different sites (a write-up and a status
// notice) count as such a source with src = 1/Pairings, the chance of
// picking the right pair of that day's records of the two sites, whatever
// words they share: the notice that is its page's only one of the day is
// the incident's, though it may name nothing but products.
func eventScore(e EventEvidence) float64 {
	src := 0.0
	if e.Source != "" {
		src = 1 - 0.5*float64(e.Cited-2)/float64(maxCites-2)
	}
	d := dateFactor(e)
	if e.Org == "" {
		return src * d
	}
	if e.Pairings > 0 {
		src = max(src, 1/float64(e.Pairings)) // the day's only notice is as good as a source both cite
	}
	oo, ow := 1-math.Pow(e.OrgShare, eventOrgPower), 1-math.Pow(e.NearShare, eventOrgPower)
	weak := 1 - math.Pow(oo, eventOrgWeight)*math.Pow(ow, 1-eventOrgWeight)
	o := 1 - weak*math.Exp(-float64(e.RareShared)/eventRare)*(1-src)
	c := 1 - math.Exp(-e.Specific/eventSpecific)
	if e.Days > 0 && e.Sites[0] != "" && e.Sites[0] == e.Sites[1] {
		c *= eventRepeat // one page's notices of different days: two incidents, as for the text part
	}
	return min(max(o*d*c, src*d, 0), 1)
}

// dateFactor is how much of the same-event evidence the dates keep.
func dateFactor(e EventEvidence) float64 {
	if e.Undated == 2 {
		return eventBothUndated
	}
	if e.Days < 0 {
		return eventUndated
	}
	return 1 - eventDayCost*float64(e.Days)
}

// Why lists the evidence for a dupes explanation, strongest first: the
// source both cite, the organisation, the dates, and the words of the
// incident they share. It is empty
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
	case e.Pairings == 1:
		out = append(out, "same day, the only record of each of "+e.Sites[0]+" and "+e.Sites[1])
	case e.Days == 0:
		out = append(out, "same day")
	case e.Days > 0:
		out = append(out, fmt.Sprintf("%d day(s) apart", e.Days))
	}
	for _, r := range e.Rare {
		out = append(out, "specific: "+r)
	}
	return out
}

// caseWords returns how the case at position i writes each of its text
// terms (canonical id → the first spelling in its own text), so that
// evidence is given in the record's words, not in a spelling the library
// first saw elsewhere.
func (ix *Index) caseWords(i int) map[uint32]string {
	words := make(map[uint32]string)
	for _, frags := range ix.document(i).Text {
		for _, f := range frags {
			for _, t := range ix.an.Analyze(f) {
				if c := ix.canonOf(t.Text); c != 0 {
					if _, ok := words[c-1]; !ok {
						words[c-1] = t.Surface
					}
				}
			}
		}
	}
	return words
}

// apart returns how many days apart the cases at positions a and b are at
// least, and -1 when their dates do not tell. Two dated cases are as far
// apart as their dates. An undated case may still bound the day of its
// incident: one that an address dates (a blog's /2014/05/27/ or
// "outage-on-may-27-2014"), or dated by a year or a month alone, was
// written by that day, so it tells no later incident; one whose summary
// says on which day its story begins ("On 4 October 2023, …") tells one
// of that day or the storyWindow days after it; one that cites the page of
// an incident that dated records cite too tells no incident of another day
// than theirs. Two cases whose days cannot meet are as far apart as the gap
// between them; otherwise their distance is unknown.
func (ix *Index) apart(a, b int) int {
	da, db := ix.day[a], ix.day[b]
	if da != noDay && db != noDay {
		return int(math.Abs(float64(da) - float64(db)))
	}
	loA, hiA := ix.dayBounds(a)
	loB, hiB := ix.dayBounds(b)
	switch {
	case hiA < loB:
		return int(loB - hiA)
	case hiB < loA:
		return int(loA - hiB)
	}
	return -1
}

// dayBounds returns the first and last day the case at position i may tell
// an incident of: its date for a dated case; for an undated one, the
// bounds its summary and its addresses set (apart), the widest day numbers
// where they set none or disagree.
func (ix *Index) dayBounds(i int) (lo, hi int32) {
	if d := ix.day[i]; d != noDay {
		return d, d
	}
	if b, ok := ix.events().bounds[int32(i)]; ok {
		return b[0], b[1]
	}
	return math.MinInt32 + 1, math.MaxInt32
}

// eventBounds fills events.bounds from the bounds each undated case's
// date, addresses, summary and cited sources set (pub, since, cited).
func (ix *Index) eventBounds(ev *events) {
	ev.bounds = make(map[int32][2]int32)
	for i := range ix.cases {
		if ix.day[i] != noDay {
			continue
		}
		lo, hi := int32(math.MinInt32+1), int32(math.MaxInt32)
		d, told := ev.since[int32(i)]
		if told {
			lo, hi = d, d+storyWindow
		}
		p, published := ev.pub[int32(i)]
		if published {
			hi = min(hi, p)
		}
		b, cited := ev.cited[int32(i)]
		if cited {
			lo, hi = max(lo, b[0]), min(hi, b[1])
		}
		if (told || published || cited) && lo <= hi { // when they disagree, none is read right
			ev.bounds[int32(i)] = [2]int32{lo, hi}
		}
	}
}
