package eval

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// Variant is one engine configuration of a grid, with a short name saying
// how it differs from the default.
type Variant struct {
	Name   string
	Config similarity.Config
}

// Grid returns the ablation caselink's defaults were chosen with: the
// default configuration, then one change at a time — text only, tags only,
// view and tag weights, tag lift, tag inference and the weight of a paste's tags, the
// second stage of match, length normalization of case vectors, the
// small-library text prior, tag kinds, the date priors of relate and dupes,
// and each tokenizer option.
func Grid() []Variant {
	base := similarity.DefaultConfig()
	v := []Variant{{"default", base}}
	add := func(name string, f func(c *similarity.Config)) {
		c := base
		f(&c)
		v = append(v, Variant{name, c})
	}
	add("text only", func(c *similarity.Config) {
		c.Views[similarity.Tags], c.Query[similarity.Tags], c.InferTags = 0, 0, false
	})
	add("tags only", func(c *similarity.Config) {
		for i := range 3 {
			c.Views[i] = 0
		}
	})
	for _, w := range []float64{0.15, 0.3, 0.5, 0.6} {
		add(fmt.Sprintf("tag view %.2f", w), func(c *similarity.Config) { setTagWeight(&c.Views, w) })
	}
	add("no tag lift", func(c *similarity.Config) { c.TagLift = false })
	add("no tag inference", func(c *similarity.Config) { c.InferTags = false })
	add("no typo tolerance", func(c *similarity.Config) { c.Typos = false })
	for _, w := range []float64{0.2, 0.8} {
		add(fmt.Sprintf("paste tag weight %.1f", w), func(c *similarity.Config) { c.Query[similarity.Tags] = w })
	}
	add("no second stage", func(c *similarity.Config) { c.Expand = 0 })
	for _, e := range []float64{0.15, 0.45} {
		add(fmt.Sprintf("second stage %.2f", e), func(c *similarity.Config) { c.Expand = e })
	}
	add("second stage in re-rank mode", func(c *similarity.Config) { c.RerankExpand = true })
	for _, p := range []float64{0, 0.3} {
		add(fmt.Sprintf("pivot %.1f", p), func(c *similarity.Config) { c.Pivot = p })
	}
	add("no text prior", func(c *similarity.Config) { c.TextPrior = 0 })
	add("domain/contributing tags full weight in relate", func(c *similarity.Config) {
		c.TagKinds = [similarity.NumTagKinds]float64{1, 1, 1, 1, 1}
	})
	add("second stage tag kinds as relate", func(c *similarity.Config) { c.ExpandTagKinds = c.TagKinds })
	add("query symptoms only", func(c *similarity.Config) {
		c.Query = [similarity.NumViews]float64{1, 0, 0, c.Query[similarity.Tags]}
	})
	add("query views 0.45/0.35/0.1", func(c *similarity.Config) {
		c.Query = [similarity.NumViews]float64{0.45, 0.35, 0.1, c.Query[similarity.Tags]}
	})
	add("no relate date prior", func(c *similarity.Config) { c.RelateDate = 0 })
	add("no dupes date prior", func(c *similarity.Config) { c.DupeDate = 0 })
	for _, d := range []float64{30, 730} {
		add(fmt.Sprintf("dupes date scale %.0f days", d), func(c *similarity.Config) { c.DupeDays = d })
	}
	add("no stemming", func(c *similarity.Config) { c.Analyzer.Stem = false })
	add("no compound split", func(c *similarity.Config) { c.Analyzer.SplitCompounds = false })
	add("no synonyms", func(c *similarity.Config) { c.Analyzer.Synonyms = false })
	add("bigrams on", func(c *similarity.Config) { c.Analyzer.Bigrams = !base.Analyzer.Bigrams })
	// Drop variants that equal the default (e.g. "tfidf weighting" when the
	// default is TF-IDF).
	return slices.DeleteFunc(v, func(x Variant) bool { return x.Name != "default" && x.Config == base })
}

// setTagWeight gives the tag view weight w and scales the text views to 1−w.
func setTagWeight(views *[similarity.NumViews]float64, w float64) {
	var text float64
	for i := range 3 {
		text += views[i]
	}
	for i := range 3 {
		if text > 0 {
			views[i] *= (1 - w) / text
		}
	}
	views[similarity.Tags] = w
}

// RunGrid measures every variant on one judged set and returns the rows
// ranked best first by Objective, ties by name.
func RunGrid(cases []*caselib.Case, variants []Variant, qs []Query, related Judgments, k int) ([]Row, error) {
	rows, err := RunVariants(cases, variants, qs, related, k)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := cmp.Compare(Objective(b), Objective(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return rows, nil
}

// runVariant builds the index of one variant and runs it on a judged set.
func runVariant(cases []*caselib.Case, v Variant, qs []Query, related Judgments, k int) (Row, error) {
	ix, err := similarity.BuildCases(cases, v.Config)
	if err != nil {
		return Row{}, err
	}
	row, _ := Run(ix, qs, related, k)
	row.Name = v.Name
	return row, nil
}

// Objective is the single number a grid ranks runs by: the mean of match,
// relate and dupes nDCG@k over the tasks the row has.
func Objective(r Row) float64 {
	var s float64
	n := 0
	if r.Match != nil {
		s += r.Match.NDCG
		n++
	}
	for _, m := range []*Metrics{r.Relate, r.Dupes} {
		if m != nil {
			s += m.NDCG
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return s / float64(n)
}
