package tuned

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/par"
)

// Signal is what a library's curators taught: the related links they wrote
// (links relate --write added are left out) and their duplicate decisions.
type Signal struct {
	// Related grades, for each case with curated links, the cases it is
	// linked to, both ways: 1 for a related link, 2 for a confirmed
	// duplicate.
	Related eval.Judgments
	// Dupes grades the confirmed duplicates (2), both ways: the lists the
	// dupes score is measured on.
	Dupes eval.Judgments
	// Dismissed lists, for each case, the cases curators decided are not
	// its duplicates.
	Dismissed map[string][]string
	// Links counts the curated pairs (a link written on both sides counts
	// once); Machine the related entries left out because relate wrote
	// them; Unknown the entries naming no case of the library.
	Links, Machine, Unknown int
	// Duplicates and NotDuplicates count the decisions used.
	Duplicates, NotDuplicates int
	// group is each judged case's connected group of links (confirmed
	// duplicates included, dismissed pairs not), "case:" and its id for a
	// case with dismissed pairs only.
	group map[string]string
	// Groups is the number of groups of judged cases (and of pastes with a
	// helpful verdict): the units cross-validation keeps on one side.
	Groups int

	// Match grades, for each paste with feedback ("paste N"), the cases
	// on-call engineers gave a verdict on: 2 helpful, 0 not helpful (see
	// AddFeedback); Pastes are their texts. Both are empty without feedback.
	Match  eval.Judgments
	Pastes map[string]string
	// Verdicts counts the feedback verdicts used, Helpful those of them that
	// said helpful, Judged the distinct pastes; FeedbackUnknown the verdicts
	// naming no case of the library.
	Verdicts, Helpful, Judged, FeedbackUnknown int
}

// Curated collects the signal of a library: its cases' related lists, less
// the links in machine (written by relate), and the curators' decisions.
func Curated(cases []*caselib.Case, machine map[Link]bool, decisions []caselib.Decision) Signal {
	s := Signal{Related: eval.Judgments{}, Dupes: eval.Judgments{}, Dismissed: map[string][]string{}}
	known := make(map[string]bool, len(cases))
	for _, c := range cases {
		known[c.ID] = true
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra != rb {
			if rb < ra {
				ra, rb = rb, ra
			}
			parent[rb] = ra // the smallest id names the group
		}
	}
	pairs := map[[2]string]bool{}
	for _, c := range cases {
		for _, to := range c.Related {
			switch {
			case machine[Link{c.ID, to}]:
				s.Machine++
				continue
			case !known[to] || to == c.ID:
				s.Unknown++
				continue
			}
			s.Related.Add(c.ID, to, 1, false)
			pairs[caselib.PairKey(c.ID, to)] = true
			union(c.ID, to)
		}
	}
	for _, d := range decisions {
		if !known[d.A] || !known[d.B] || d.A == d.B {
			continue
		}
		switch d.Verdict {
		case caselib.Duplicate:
			s.Duplicates++
			s.Related.Add(d.A, d.B, 2, false)
			s.Dupes.Add(d.A, d.B, 2, false)
			pairs[caselib.PairKey(d.A, d.B)] = true
			union(d.A, d.B)
		case caselib.NotDuplicate:
			// A dismissed pair is two different incidents: it does not join
			// their groups.
			s.NotDuplicates++
			s.Dismissed[d.A] = append(s.Dismissed[d.A], d.B)
			s.Dismissed[d.B] = append(s.Dismissed[d.B], d.A)
		}
	}
	s.Links = len(pairs)
	s.group = map[string]string{}
	roots := map[string]bool{}
	subjects := slices.Concat(s.Related.Subjects(), slices.Sorted(maps.Keys(s.Dismissed)))
	for _, id := range subjects {
		g := "case:" + id
		if _, ok := parent[id]; ok {
			g = "group:" + find(id)
		}
		s.group[id] = g
		roots[g] = true
	}
	s.Groups = len(roots)
	return s
}

// MinLinks is the fewest curated links tune learns from: below it, the
// held-out gain of any choice is noise.
const MinLinks = 20

// Enough returns nil when the signal can be cross-validated over folds
// folds, else an error saying what is missing.
// Pastes with a helpful verdict count too: MinPastes of them are enough
// without links.
func (s Signal) Enough(folds int) error {
	pastes := len(s.MatchLists())
	if (s.Links >= MinLinks || pastes >= MinPastes) && s.Groups >= folds {
		return nil
	}
	if s.Verdicts == 0 {
		return fmt.Errorf("too few curated links to learn from: %d link(s) in %d group(s) of linked cases "+
			"(%d written by relate left out); tune needs at least %d links in at least %d groups",
			s.Links, s.Groups, s.Machine, MinLinks, folds)
	}
	return fmt.Errorf("too few curated links and feedback to learn from: %d link(s) and %d paste(s) with a helpful "+
		"verdict in %d group(s) (%d written by relate left out); tune needs at least %d links or %d such pastes, "+
		"in at least %d groups", s.Links, pastes, s.Groups, s.Machine, MinLinks, MinPastes, folds)
}

// Candidate is one weighting tune tries.
type Candidate struct {
	Name    string
	Weights Weights
}

// Tuned are the keys tune chooses from curated links: the four views, the
// tag kinds, the date prior of relate and the weight of a title meeting a
// body. The date prior of dupes is read from caselink.toml but not learned;
// the second stage of match is learned only from feedback on match hits
// (TunedWithFeedback), since curated links judge case-to-case lists, not
// pastes.
var Tuned = []string{"symptoms", "cause", "response", "tags",
	"tag_domain", "tag_symptom", "tag_component", "tag_root_cause", "tag_contributing", "relate_date", "cross_views"}

// TunedWithFeedback are the keys tune chooses when pastes carry feedback:
// Tuned and the weight of the second stage of match.
var TunedWithFeedback = append(slices.Clone(Tuned), "second_stage")

// secondStages are the weights of the second stage of match tune tries
// with feedback, besides the current one: off and half.
var secondStages = []float64{0, 0.5}

// coarseShare is the chance that two cases drawn at random share a tag of
// a kind above which the kind is coarse (a product every report has, a
// priority): the "coarse kinds low" candidates weigh such kinds down.
const coarseShare = 0.05

// Candidates returns the weightings tune tries, the current one first: the
// product of a share of the tag view (0 to 0.45), a mix of the text views
// (as now, symptoms first, cause first), a profile of tag kinds (as now,
// all equal, coarse kinds low), a date prior of relate (off, as now, 0.5)
// and, in a library with records written as a title and a body, the weight
// of a title meeting a body (as now, off, the engine's default). Candidates
// that score the same as another (the tag kinds when the tag view weighs 0)
// are left out.
func Candidates(cases []*caselib.Case, base similarity.Config) []Candidate {
	return candidates(cases, base, false, nil)
}

// candidates returns Candidates, and with match (feedback on pastes) each
// of them also with the second stage of match at every secondStages weight;
// the weight of a title meeting a body is tried only when one of the
// subjects of scored is written as a title and a body (crossViewsTried).
func candidates(cases []*caselib.Case, base similarity.Config, match bool, scored eval.Judgments) []Candidate {
	keys, expands := Tuned, []float64{base.Expand}
	if match {
		keys = TunedWithFeedback
		for _, e := range secondStages {
			if !slices.Contains(expands, e) {
				expands = append(expands, e)
			}
		}
	}
	cur := Capture(base, keys...)
	out := []Candidate{{"current", cur}}
	seen := []similarity.Config{base}
	coarse := coarseKinds(cases)
	var text float64
	for v := range 3 {
		text += base.Views[v]
	}
	mixes := []struct {
		name string
		w    [3]float64
	}{{"text as now", [3]float64{base.Views[0], base.Views[1], base.Views[2]}},
		{"symptoms first", [3]float64{0.45, 0.4, 0.15}}, {"cause first", [3]float64{0.2, 0.65, 0.15}}}
	kinds := []struct {
		name string
		k    [similarity.NumTagKinds]float64
	}{{"kinds as now", base.TagKinds}, {"kinds equal", [similarity.NumTagKinds]float64{1, 1, 1, 1, 1}}}
	if len(coarse) > 0 {
		k := base.TagKinds
		for _, i := range coarse {
			k[i] = min(k[i], 0.05)
		}
		kinds = append(kinds, struct {
			name string
			k    [similarity.NumTagKinds]float64
		}{"coarse kinds low (" + strings.Join(kindNames(coarse), ", ") + ")", k})
	}
	crosses := crossViewsTried(cases, base, scored)
	for _, t := range []float64{0, 0.1, 0.2, 0.3, 0.45} {
		for _, m := range mixes {
			for _, kp := range kinds {
				for _, rd := range []float64{0, base.RelateDate, 0.5} {
					for _, cv := range crosses {
						out, seen = addCandidates(out, seen, base, keys, expands, func(cfg *similarity.Config) string {
							var s float64
							for _, x := range m.w {
								s += x
							}
							for v := range 3 {
								cfg.Views[v] = round3(m.w[v] / s * (1 - t))
							}
							cfg.Views[similarity.Tags] = t
							cfg.TagKinds = kp.k
							cfg.RelateDate = rd
							cfg.CrossViews = cv
							var name string
							if t == 0 {
								cfg.TagKinds = base.TagKinds
								name = fmt.Sprintf("tags 0, %s, relate date %.2f", m.name, rd)
							} else {
								name = fmt.Sprintf("tags %.2f, %s, %s, relate date %.2f", t, m.name, kp.name, rd)
							}
							if len(crosses) > 1 {
								name += fmt.Sprintf(", title meets body %.2f", cv)
							}
							return name
						})
					}
				}
			}
		}
	}
	return out
}

// crossViewsTried returns the weights of a title meeting a body
// (Config.CrossViews) tune tries: the current one and, when a case whose
// relate list is scored (a subject of scored; any case when scored is nil)
// is written as a title and a body (titleAndBody), off and the engine's
// default too. The weight changes only such a case's list,
// so a library whose curated links all start from curated cases gets no
// more candidates than before.
func crossViewsTried(cases []*caselib.Case, base similarity.Config, scored eval.Judgments) []float64 {
	out := []float64{base.CrossViews}
	if !slices.ContainsFunc(cases, func(c *caselib.Case) bool {
		_, ok := scored[c.ID]
		return (scored == nil || ok) && titleAndBody(c)
	}) {
		return out
	}
	for _, cv := range []float64{0, similarity.DefaultConfig().CrossViews} {
		if !slices.Contains(out, cv) {
			out = append(out, cv)
		}
	}
	return out
}

// titleAndBody reports whether c is written as a title and a body: its
// document has no text in the response view, which the engine reads across
// views (Config.CrossViews).
func titleAndBody(c *caselib.Case) bool {
	return len(similarity.NewDocument(c).Text[similarity.Response]) == 0
}

// addCandidates adds to out the weighting that set makes of base, once per
// weight of the second stage in expands (its name gives the second stage
// when there are several), leaving out those that score the same as one in seen.
func addCandidates(out []Candidate, seen []similarity.Config, base similarity.Config, keys []string,
	expands []float64, set func(*similarity.Config) string) ([]Candidate, []similarity.Config) {
	for _, e := range expands {
		cfg := base
		name := set(&cfg)
		cfg.Expand = e
		if len(expands) > 1 {
			name += fmt.Sprintf(", second stage %.2f", e)
		}
		if slices.ContainsFunc(seen, func(c similarity.Config) bool { return sameScores(c, cfg) }) {
			continue
		}
		seen = append(seen, cfg)
		out = append(out, Candidate{name, Capture(cfg, keys...)})
	}
	return out, seen
}

// sameScores reports whether two configurations rank alike: equal, or
// equal but for the tag kinds when neither weighs the tag view.
func sameScores(a, b similarity.Config) bool {
	if a.Views[similarity.Tags] == 0 && b.Views[similarity.Tags] == 0 {
		a.TagKinds = b.TagKinds
	}
	na, nb := a, b
	for v := range similarity.NumViews { // the engine normalizes the views
		na.Views[v], nb.Views[v] = round3(a.Views[v]/sum(a.Views)), round3(b.Views[v]/sum(b.Views))
	}
	return na == nb
}

func sum(w [similarity.NumViews]float64) float64 {
	var s float64
	for _, x := range w {
		s += x
	}
	return s
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// coarseKinds returns the tag kinds of which two cases drawn at random share
// a tag with a chance of coarseShare or more.
func coarseKinds(cases []*caselib.Case) []int {
	if len(cases) == 0 {
		return nil
	}
	counts := make([]map[string]int, similarity.NumTagKinds)
	for i := range counts {
		counts[i] = map[string]int{}
	}
	for _, c := range cases {
		for _, t := range similarity.CaseTags(c) {
			for k, ns := range similarity.TagKindNames {
				if strings.HasPrefix(t, ns+":") {
					counts[k][t]++
				}
			}
		}
	}
	var out []int
	n := float64(len(cases))
	for k, m := range counts {
		var p float64
		for _, c := range m {
			p += (float64(c) / n) * (float64(c) / n)
		}
		if p >= coarseShare {
			out = append(out, k)
		}
	}
	return out
}

func kindNames(ks []int) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = similarity.TagKindNames[k]
	}
	return out
}

// Options are the settings of a tune run.
type Options struct {
	// Folds is the number of folds of the cross-validation.
	Folds int
	// K is the depth of the lists scored (nDCG@K).
	K int
	// Bootstrap gives the intervals.
	Bootstrap eval.Bootstrap
	// Progress, when not nil, is called after each candidate is scored.
	Progress func(done, total int)
}

// Result is the outcome of a tune run.
type Result struct {
	// Current and Chosen are the weights in force and the weights chosen on
	// every curated list; ChosenName describes the chosen candidate.
	Current, Chosen Weights
	ChosenName      string
	// Candidates is how many weightings were scored.
	Candidates int
	// CV is the grouped cross-validation of the choice (variant 0 is the
	// current weights): CV.Delta is the held-out gain with its interval.
	CV eval.CV
	// Train is the chosen weights' gain on every list, with its interval.
	Train eval.Interval
	// Items is how many lists were scored, per task ("relate", "dupes",
	// "dismissed", "match").
	Items map[string]int
}

// Tune scores every candidate weighting of base on the curated lists of s
// (relate nDCG@K of each case's curated links; with confirmed duplicates,
// dupes nDCG@K; with dismissed pairs, the share of them kept out of a case's
// top K of dupes; with feedback, match nDCG@K of each paste with a helpful
// verdict, the second stage of match then among the weights tried; each
// task weighing the same), cross-validates the choice
// over folds by group of links (eval.CrossValidate) and chooses on every
// list (eval.Matrix.Rank: the candidate whose paired gain over the current
// weights has the highest lower bound; the current weights win ties).
func Tune(cases []*caselib.Case, base similarity.Config, s Signal, opt Options) (Result, error) {
	if err := s.Enough(opt.Folds); err != nil {
		return Result{}, err
	}
	if opt.K < 1 {
		return Result{}, errors.New("tune: K must be at least 1")
	}
	cands := candidates(cases, base, len(s.MatchLists()) > 0, s.Related)
	res := Result{Current: cands[0].Weights, Candidates: len(cands), Items: map[string]int{}}
	l := newLists(s)
	m := l.matrix(s, res.Items)
	for ci, c := range cands {
		cfg := base
		Apply(&cfg, c.Weights)
		ix, err := similarity.BuildCases(cases, cfg)
		if err != nil {
			return Result{}, err
		}
		m.Variants = append(m.Variants, c.Name)
		m.Scores = append(m.Scores, l.score(ix, s, opt.K))
		if opt.Progress != nil {
			opt.Progress(ci+1, len(cands))
		}
	}
	m, cands = simplest(m, cands)
	cv, err := eval.CrossValidate(m, opt.Folds, opt.Bootstrap)
	if err != nil {
		return Result{}, err
	}
	ranked, err := m.Rank(opt.Bootstrap)
	if err != nil {
		return Result{}, err
	}
	best := ranked[0]
	res.CV, res.Train = cv, best.Delta
	res.Chosen, res.ChosenName = cands[best.Variant].Weights, best.Name
	return res, nil
}

// lists are the curated lists Tune scores each weighting on: the subjects
// of related links, of confirmed duplicates and of dismissed pairs, and the
// pastes with a helpful verdict.
type lists struct {
	relate, dupes, dismissed, match []string
	needDupes                       []string // the cases whose dupes list is scored
}

func newLists(s Signal) lists {
	l := lists{relate: s.Related.Subjects(), dupes: s.Dupes.Subjects(),
		dismissed: slices.Sorted(maps.Keys(s.Dismissed)), match: s.MatchLists()}
	need := map[string]bool{}
	for _, id := range append(slices.Clone(l.dupes), l.dismissed...) {
		need[id] = true
	}
	l.needDupes = slices.Sorted(maps.Keys(need))
	return l
}

// matrix returns the matrix of lists, without scores: each list's item,
// group and weight (each task weighing the same), and counts the lists of
// each task in items.
func (l lists) matrix(s Signal, items map[string]int) eval.Matrix {
	m := eval.Matrix{}
	tasks := []struct {
		name string
		ids  []string
	}{{"relate", l.relate}, {"dupes", l.dupes}, {"dismissed", l.dismissed}, {"match", l.match}}
	ntasks := 0
	for _, t := range tasks {
		if len(t.ids) > 0 {
			ntasks++
		}
	}
	for _, t := range tasks {
		for _, id := range t.ids {
			m.Items = append(m.Items, t.name+":"+id)
			m.Groups = append(m.Groups, s.group[id])
			m.Weights = append(m.Weights, 1/float64(len(t.ids)*ntasks))
		}
		if len(t.ids) > 0 {
			items[t.name] = len(t.ids)
		}
	}
	return m
}

// score returns the score of every list on ix, in the matrix's order:
// relate nDCG@k of the curated links, dupes nDCG@k of the confirmed
// duplicates, the share of dismissed pairs kept out of the top k, and match
// nDCG@k of the pastes' verdicts.
func (l lists) score(ix *similarity.Index, s Signal, k int) []float64 {
	match := make([][]string, len(l.match))
	par.Each(len(l.match), func(i int) {
		for _, h := range ix.Match(similarity.Query{Text: s.Pastes[l.match[i]], K: k}).Hits {
			match[i] = append(match[i], h.ID)
		}
	})
	relate := make([][]string, len(l.relate))
	par.Each(len(l.relate), func(i int) {
		d, _ := ix.Lookup(l.relate[i])
		for _, h := range ix.Related(d, k, 0) {
			relate[i] = append(relate[i], h.ID)
		}
	})
	found := make([][]string, len(l.needDupes))
	par.Each(len(l.needDupes), func(i int) {
		d, _ := ix.Lookup(l.needDupes[i])
		for _, h := range ix.DupesOf(d, k, 0) {
			found[i] = append(found[i], h.ID)
		}
	})
	dupes := map[string][]string{}
	for i, id := range l.needDupes {
		dupes[id] = found[i]
	}
	row := make([]float64, 0, len(l.relate)+len(l.dupes)+len(l.dismissed))
	for i, id := range l.relate {
		row = append(row, eval.Score(relate[i], s.Related[id], k).NDCG)
	}
	for _, id := range l.dupes {
		row = append(row, eval.Score(dupes[id], s.Dupes[id], k).NDCG)
	}
	for _, id := range l.dismissed {
		kept := 0
		for _, other := range s.Dismissed[id] {
			if !slices.Contains(dupes[id], other) {
				kept++
			}
		}
		row = append(row, float64(kept)/float64(len(s.Dismissed[id])))
	}
	for i, id := range l.match {
		row = append(row, eval.Score(match[i], s.Match[id], k).NDCG)
	}
	return row
}

// simplest keeps, of candidates that score the same on every list (a date
// prior in a library without dates, say), the one that changes the fewest
// weights from the current ones (the first of those), so that tune never
// reports a change that made no difference.
func simplest(m eval.Matrix, cands []Candidate) (eval.Matrix, []Candidate) {
	cur := cands[0].Weights
	keep := map[string]int{} // score row → index into out
	out := eval.Matrix{Items: m.Items, Groups: m.Groups, Weights: m.Weights}
	var kept []Candidate
	for v, row := range m.Scores {
		key := fmt.Sprint(row)
		if i, ok := keep[key]; ok {
			if len(Changes(cur, cands[v].Weights)) < len(Changes(cur, kept[i].Weights)) {
				out.Variants[i], out.Scores[i], kept[i] = m.Variants[v], row, cands[v]
			}
			continue
		}
		keep[key] = len(kept)
		out.Variants = append(out.Variants, m.Variants[v])
		out.Scores = append(out.Scores, row)
		kept = append(kept, cands[v])
	}
	return out, kept
}
