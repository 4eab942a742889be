package eval

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"

	"github.com/caselink/caselink/similarity/caselib"
)

// Themes groups a judged set's cases by the incident pattern they share:
// theme name → theme. A judged set's themes.json has this form:
//
//	{"dns-outage": {"description": "...", "cases": ["DV-0001", "DV-0002"]}, ...}
//
// Cross-validation keeps every theme in one fold, so that no variant is
// chosen on queries whose answers resemble the ones it is scored on.
type Themes map[string]Theme

// Theme is one group of cases of a Themes file.
type Theme struct {
	Description string   `json:"description"`
	Cases       []string `json:"cases"`
}

// ReadThemes reads a themes.json file (see Themes). Errors name the file and
// the theme.
func ReadThemes(path string) (Themes, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Themes
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: want a JSON object of theme name → {\"description\", \"cases\"}: %v", path, err)
	}
	for _, name := range slices.Sorted(maps.Keys(t)) {
		if name == "" {
			return nil, fmt.Errorf("%s: a theme has an empty name", path)
		}
		for _, id := range t[name].Cases {
			if id == "" {
				return nil, fmt.Errorf("%s: theme %q: empty case id in \"cases\"", path, name)
			}
		}
	}
	return t, nil
}

// caseTheme maps each case id to its theme; a case listed in several themes
// gets the first by name.
func (t Themes) caseTheme() map[string]string {
	out := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(t)) {
		for _, id := range t[name].Cases {
			if _, ok := out[id]; !ok {
				out[id] = name
			}
		}
	}
	return out
}

// QueryGroup returns the cross-validation group of a match query: the
// theme of its grade-2 case; else the theme of its highest-graded case that
// has one (ties by case id); else "query:" and its own id.
func (t Themes) QueryGroup(q Query) string {
	return queryGroup(t.caseTheme(), q)
}

func queryGroup(theme map[string]string, q Query) string {
	best, bestGrade, bestID := "", 0, ""
	for id, g := range q.Relevant {
		th, ok := theme[id]
		if !ok || g <= 0 {
			continue
		}
		if g == 2 {
			g = 1 << 30 // the case to find decides, whatever other grades exist
		}
		if g > bestGrade || g == bestGrade && id < bestID {
			best, bestGrade, bestID = th, g, id
		}
	}
	if best != "" {
		return "theme:" + best
	}
	return "query:" + q.ID
}

// SubjectGroup returns the cross-validation group of a relate or dupes
// subject: its theme, else "case:" and its id.
func (t Themes) SubjectGroup(id string) string {
	return subjectGroup(t.caseTheme(), id)
}

func subjectGroup(theme map[string]string, id string) string {
	if th, ok := theme[id]; ok {
		return "theme:" + th
	}
	return "case:" + id
}

// Matrix holds per-list scores of several engine configurations on the same
// judged lists, the input of cross-validation and of ranking a grid.
type Matrix struct {
	// Variants names the configurations; Variants[0] is the default the
	// others are measured against.
	Variants []string
	// Items names the lists: "match:" + query id, "relate:" or "dupes:" +
	// subject id.
	Items []string
	// Scores[v][i] is the nDCG@k of variant v on item i.
	Scores [][]float64
	// Weights[i] is item i's weight: each task (match, relate, dupes) weighs
	// the same in total, so the weighted mean of a variant's scores is
	// Objective of its row.
	Weights []float64
	// Groups[i] is item i's cross-validation group (see Themes; without
	// themes every item is its own group, a relate and a dupes subject of
	// the same case share one).
	Groups []string
}

// NewMatrix collects the per-list nDCG of rows (rows[0] the default) into a
// Matrix, grouping the lists by themes (nil: no themes). A list one row
// lacks scores 0 in it. qs are the judged queries the rows were run on.
func NewMatrix(rows []Row, qs []Query, themes Themes) (Matrix, error) {
	if len(rows) == 0 {
		return Matrix{}, errors.New("no runs to compare")
	}
	theme := themes.caseTheme()
	byID := make(map[string]Query, len(qs))
	for _, q := range qs {
		byID[q.ID] = q
	}
	var m Matrix
	for _, r := range rows {
		m.Variants = append(m.Variants, r.Name)
		m.Scores = append(m.Scores, nil)
	}
	tasks := []struct {
		prefix string
		per    func(Row) map[string]Metrics
		group  func(id string) string
	}{
		{"match:", func(r Row) map[string]Metrics { return r.PerQuery }, func(id string) string { return queryGroup(theme, byID[id]) }},
		{"relate:", func(r Row) map[string]Metrics { return r.PerSubject }, func(id string) string { return subjectGroup(theme, id) }},
		{"dupes:", func(r Row) map[string]Metrics { return r.DupesPerSubject }, func(id string) string { return subjectGroup(theme, id) }},
	}
	ids := make([][]string, len(tasks)) // each task's list ids, sorted
	ntasks := 0
	for ti, t := range tasks {
		seen := map[string]bool{}
		for _, r := range rows {
			for id := range t.per(r) {
				seen[id] = true
			}
		}
		ids[ti] = slices.Sorted(maps.Keys(seen))
		if len(seen) > 0 {
			ntasks++
		}
	}
	for ti, t := range tasks {
		for _, id := range ids[ti] {
			if t.prefix == "match:" {
				if _, ok := byID[id]; !ok {
					return Matrix{}, fmt.Errorf("run scores query %q, which is not among the judged queries", id)
				}
			}
			m.Items = append(m.Items, t.prefix+id)
			m.Weights = append(m.Weights, 1/float64(len(ids[ti])*ntasks))
			m.Groups = append(m.Groups, t.group(id))
			for v, r := range rows {
				m.Scores[v] = append(m.Scores[v], t.per(r)[id].NDCG)
			}
		}
	}
	return m, m.check()
}

// Only returns the matrix of the lists of the given tasks ("match",
// "relate", "dupes"), re-weighted so that each of them weighs the same. An
// unknown task or one the matrix has no lists of is an error.
func (m Matrix) Only(tasks ...string) (Matrix, error) {
	count := map[string]int{}
	for _, item := range m.Items {
		task, _, _ := strings.Cut(item, ":")
		count[task]++
	}
	keep := map[string]bool{}
	for _, t := range tasks {
		if count[t] == 0 {
			return Matrix{}, fmt.Errorf("no %q lists to score (the run has %s)", t, strings.Join(slices.Sorted(maps.Keys(count)), ", "))
		}
		keep[t] = true
	}
	out := Matrix{Variants: m.Variants, Scores: make([][]float64, len(m.Scores))}
	for i, item := range m.Items {
		task, _, _ := strings.Cut(item, ":")
		if !keep[task] {
			continue
		}
		out.Items = append(out.Items, item)
		out.Groups = append(out.Groups, m.Groups[i])
		out.Weights = append(out.Weights, 1/float64(count[task]*len(keep)))
		for v := range m.Scores {
			out.Scores[v] = append(out.Scores[v], m.Scores[v][i])
		}
	}
	return out, out.check()
}

// check reports a matrix whose slices do not fit together.
func (m Matrix) check() error {
	switch {
	case len(m.Variants) == 0 || len(m.Scores) != len(m.Variants):
		return fmt.Errorf("matrix: %d variant names, %d score rows", len(m.Variants), len(m.Scores))
	case len(m.Items) == 0:
		return errors.New("matrix: no judged lists")
	case len(m.Groups) != len(m.Items) || (m.Weights != nil && len(m.Weights) != len(m.Items)):
		return fmt.Errorf("matrix: %d items, %d groups, %d weights", len(m.Items), len(m.Groups), len(m.Weights))
	}
	for v, s := range m.Scores {
		if len(s) != len(m.Items) {
			return fmt.Errorf("matrix: variant %q has %d scores for %d items", m.Variants[v], len(s), len(m.Items))
		}
	}
	return nil
}

// subset returns the scores of variant v and the weights of the items idx.
func (m Matrix) subset(v int, idx []int) (xs, ws []float64) {
	xs = make([]float64, len(idx))
	for j, i := range idx {
		xs[j] = m.Scores[v][i]
	}
	if m.Weights != nil {
		ws = make([]float64, len(idx))
		for j, i := range idx {
			ws[j] = m.Weights[i]
		}
	}
	return xs, ws
}

// Ranked is one variant of a grid measured against the default.
type Ranked struct {
	// Variant is the index of the variant in the Matrix.
	Variant int
	// Name is its name.
	Name string
	// Score is its weighted mean score over the items, with interval.
	Score Interval
	// Delta is its paired difference to the default (variant − default)
	// with interval; the default's is [0, 0].
	Delta Interval
}

// rankOn measures every variant against the default on the items idx and
// returns them best first: by the lower bound of the paired interval, then
// the mean difference, then the name. The default wins every tie of lower
// bounds, so a variant ranks above it only when its whole interval does.
// With withScore, each variant's own score gets its interval too (for
// display; choosing needs only the differences). All variants are
// resampled with the same draws.
func (m Matrix) rankOn(idx []int, b Bootstrap, withScore bool) []Ranked {
	base, ws := m.subset(0, idx)
	draws := b.draws(len(idx))
	out := make([]Ranked, len(m.Variants))
	for v := range m.Variants {
		xs, _ := m.subset(v, idx)
		out[v] = Ranked{Variant: v, Name: m.Variants[v], Score: Interval{Mean: stat.Mean(xs, ws), N: len(idx)}}
		if withScore {
			out[v].Score = b.interval(xs, ws, draws)
		}
		if v == 0 {
			out[v].Delta = Interval{N: len(idx)}
		} else {
			out[v].Delta = b.paired(base, xs, ws, draws)
		}
	}
	slices.SortStableFunc(out, func(x, y Ranked) int {
		if c := cmp.Compare(y.Delta.Lo, x.Delta.Lo); c != 0 {
			return c
		}
		if (x.Variant == 0) != (y.Variant == 0) {
			if x.Variant == 0 {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(y.Delta.Mean, x.Delta.Mean); c != 0 {
			return c
		}
		return cmp.Compare(x.Name, y.Name)
	})
	return out
}

// Rank measures every variant against the default over all items and
// returns them ranked by the lower bound of the paired interval of their
// difference to the default (not by the mean): see rankOn.
func (m Matrix) Rank(b Bootstrap) ([]Ranked, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	idx := make([]int, len(m.Items))
	for i := range idx {
		idx[i] = i
	}
	return m.rankOn(idx, b, true), nil
}

// Fold is one fold of a cross-validation.
type Fold struct {
	// Groups are the groups held out in this fold, sorted.
	Groups []string `json:"groups"`
	// Items is how many items the fold holds out.
	Items int `json:"items"`
	// Chosen is the variant that ranked first on the other folds (Rank),
	// and Train its paired difference to the default there.
	Chosen int      `json:"chosen"`
	Name   string   `json:"name"`
	Train  Interval `json:"train_delta"`
	// HeldOut and Default are the chosen variant's and the default's
	// weighted mean scores on the fold's own items.
	HeldOut float64 `json:"held_out"`
	Default float64 `json:"default"`
}

// CV is the outcome of a grouped cross-validation.
type CV struct {
	Folds []Fold `json:"folds"`
	// HeldOut is the weighted mean over all items of each item's held-out
	// score (the score of the variant chosen without its fold), with
	// interval.
	HeldOut Interval `json:"held_out"`
	// Default is the default's mean over the same items, with interval.
	Default Interval `json:"default"`
	// Delta is the paired difference held-out − default, with interval.
	Delta Interval `json:"delta"`
	// Tasks splits the same figures by task (match, relate, dupes), each
	// task's lists weighing the same.
	Tasks []TaskCV `json:"tasks"`
	// ItemScores[i] is item i's held-out score.
	ItemScores []float64 `json:"-"`
}

// TaskCV is the held-out score of one task's lists beside the default's.
type TaskCV struct {
	Task    string   `json:"task"`
	HeldOut Interval `json:"held_out"`
	Default Interval `json:"default"`
	Delta   Interval `json:"delta"`
}

// AssignFolds puts groups into n folds: largest group first (ties by name),
// each into the fold with the fewest items so far (ties to the lower fold).
// It returns the fold of each item. It is deterministic and keeps the folds
// about the same size.
func AssignFolds(groups []string, n int) ([]int, error) {
	size := map[string]int{}
	for _, g := range groups {
		size[g]++
	}
	if n < 2 {
		return nil, fmt.Errorf("need at least 2 folds, got %d", n)
	}
	if len(size) < n {
		return nil, fmt.Errorf("%d folds but only %d groups of lists; use at most %d folds", n, len(size), len(size))
	}
	names := slices.Sorted(maps.Keys(size))
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(size[b], size[a]) })
	load := make([]int, n)
	foldOf := map[string]int{}
	for _, g := range names {
		f := 0
		for i := range load {
			if load[i] < load[f] {
				f = i
			}
		}
		foldOf[g] = f
		load[f] += size[g]
	}
	out := make([]int, len(groups))
	for i, g := range groups {
		out[i] = foldOf[g]
	}
	return out, nil
}

// CrossValidate runs a grouped cross-validation over m with n folds: groups
// are assigned to folds (AssignFolds); for each fold the variant that ranks
// first on the other folds (by the lower bound of its paired interval
// against the default, see Rank) is chosen and scored on the fold. The
// held-out score is the weighted mean of every item's score under the
// variant chosen without it. It is a pure function of m, n and b.
func CrossValidate(m Matrix, n int, b Bootstrap) (CV, error) {
	if err := m.check(); err != nil {
		return CV{}, err
	}
	fold, err := AssignFolds(m.Groups, n)
	if err != nil {
		return CV{}, err
	}
	var cv CV
	cv.ItemScores = make([]float64, len(m.Items))
	for f := range n {
		var in, out []int
		groups := map[string]bool{}
		for i := range m.Items {
			if fold[i] == f {
				out = append(out, i)
				groups[m.Groups[i]] = true
			} else {
				in = append(in, i)
			}
		}
		best := m.rankOn(in, b, false)[0]
		for _, i := range out {
			cv.ItemScores[i] = m.Scores[best.Variant][i]
		}
		held, ws := m.subset(best.Variant, out)
		def, _ := m.subset(0, out)
		cv.Folds = append(cv.Folds, Fold{Groups: slices.Sorted(maps.Keys(groups)), Items: len(out),
			Chosen: best.Variant, Name: best.Name, Train: best.Delta,
			HeldOut: stat.Mean(held, ws), Default: stat.Mean(def, ws)})
	}
	cv.HeldOut = b.Mean(cv.ItemScores, m.Weights)
	cv.Default = b.Mean(m.Scores[0], m.Weights)
	cv.Delta = b.Paired(m.Scores[0], cv.ItemScores, m.Weights)
	var tasks []string
	byTask := map[string][]int{}
	for i, item := range m.Items {
		task, _, _ := strings.Cut(item, ":")
		if byTask[task] == nil {
			tasks = append(tasks, task)
		}
		byTask[task] = append(byTask[task], i)
	}
	for _, task := range tasks {
		idx := byTask[task]
		held, def := make([]float64, len(idx)), make([]float64, len(idx))
		for j, i := range idx {
			held[j], def[j] = cv.ItemScores[i], m.Scores[0][i]
		}
		cv.Tasks = append(cv.Tasks, TaskCV{Task: task, HeldOut: b.Mean(held, nil), Default: b.Mean(def, nil),
			Delta: b.Paired(def, held, nil)})
	}
	return cv, nil
}

// RunVariants measures every variant on one judged set (as RunGrid does)
// and returns the rows in the order of variants, each with its per-list
// scores.
func RunVariants(cases []*caselib.Case, variants []Variant, qs []Query, related Judgments, k int) ([]Row, error) {
	rows := make([]Row, 0, len(variants))
	for _, v := range variants {
		row, err := runVariant(cases, v, qs, related, k)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// WriteRanked writes a ranked grid as an aligned table: variant, weighted
// mean score (the objective: match, relate and dupes nDCG weighing the same)
// with its interval, and the difference to the default with its interval.
func WriteRanked(w io.Writer, rs []Ranked, b Bootstrap) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "variant\tobjective\t%.0f%% interval\tdelta\t%.0f%% interval\n", b.Level*100, b.Level*100)
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t[%s, %s]\t%s\t[%s, %s]\n", r.Name, f4(r.Score.Mean, false), f4(r.Score.Lo, false),
			f4(r.Score.Hi, false), f4(r.Delta.Mean, true), f4(r.Delta.Lo, true), f4(r.Delta.Hi, true))
	}
	return tw.Flush()
}

// WriteCV writes a cross-validation: per fold the groups held out, the
// variant chosen on the other folds and its scores, then the held-out
// objective beside the default's on the same lists, with intervals.
func WriteCV(w io.Writer, cv CV, b Bootstrap) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "fold\tlists\tgroups\tchosen on the other folds\ttrain delta\theld out\tdefault\n")
	for f, fd := range cv.Folds {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s [%s, %s]\t%s\t%s\n", f+1, fd.Items, len(fd.Groups), fd.Name,
			f4(fd.Train.Mean, true), f4(fd.Train.Lo, true), f4(fd.Train.Hi, true), f4(fd.HeldOut, false), f4(fd.Default, false))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pct := b.Level * 100
	fmt.Fprintf(tw, "\ntask\tlists\theld out\t%.0f%% interval\tdefault\t%.0f%% interval\tdifference\t%.0f%% interval\n", pct, pct, pct)
	row := func(name string, h, d, x Interval) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t[%s, %s]\t%s\t[%s, %s]\t%s\t[%s, %s]\n", name, h.N,
			f4(h.Mean, false), f4(h.Lo, false), f4(h.Hi, false), f4(d.Mean, false), f4(d.Lo, false), f4(d.Hi, false),
			f4(x.Mean, true), f4(x.Lo, true), f4(x.Hi, true))
	}
	for _, t := range cv.Tasks {
		row(t.Task+" ndcg", t.HeldOut, t.Default, t.Delta)
	}
	row("objective", cv.HeldOut, cv.Default, cv.Delta)
	return tw.Flush()
}
