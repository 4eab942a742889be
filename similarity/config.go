package similarity

import (
	"fmt"
	"math"

	"github.com/caselink/caselink/tokenize"
)

// View is one of the four parts a case vector is built from.
type View uint8

// The views of a case, in the order they are stored.
const (
	Symptoms View = iota // title, symptoms_text, detection, impact
	Cause                // summary, trigger, lessons
	Response             // remediation, action_items
	Tags                 // namespaced tags
	numViews
)

// NumViews is the number of views a case vector has.
const NumViews = int(numViews)

// textViews is the number of views made of analyzed text (all but Tags).
const textViews = 3

var viewNames = [NumViews]string{"symptoms", "cause", "response", "tags"}

// String returns the view's name as it appears in explanations.
func (v View) String() string {
	if int(v) < NumViews {
		return viewNames[v]
	}
	return "view?"
}

// Config holds every weight and switch of the engine. The zero value is not
// useful; start from [DefaultConfig]. The defaults were chosen by measurement
// with the eval grid over all judged sets (see eval/README.md); `caselink eval
// --grid` runs the same grid on a user's own judgments.
type Config struct {
	// Group: Text: how case text and pastes are tokenized.

	// Analyzer configures tokenization of case text and pastes alike.
	Analyzer tokenize.Options

	// Group: Case vectors: relate, dupes and the second stage of match score cases
	// against each other with these.

	// Pivot is the strength of pivoted length normalization of case
	// vectors (relate, dupes, the second stage of match), in [0, 1]. A view
	// vector is divided by max(‖x‖, Pivot·p + (1−Pivot)·‖x‖), where p is
	// the mean norm of that view over the library: with Pivot 0 it is plain
	// L2 normalization; with Pivot > 0 a text shorter than usual is trusted
	// less, so a one-line notice no longer wins on one or two shared words.
	// Long texts are never boosted, so scores stay in [0, 1].
	Pivot float64

	// Views are the weights of the four views in a case-to-case score for
	// relate, dupes and the second stage of match. They are normalized to
	// sum to 1.
	Views [NumViews]float64

	// CrossViews is how much, in relate, a word of one record's title
	// counts where it meets a word of another record's body, in [0, 1],
	// for a record written as a title and a body: nothing in its response
	// view (a bug report, a status notice, a forum question). Such a
	// record's duplicate often repeats its title's words only in its body,
	// in the words of another reporter; a curated case's views hold
	// different things (what was seen, why, what was done) and are
	// compared view by view. Relate scores such a record against another
	// case as (s + CrossViews·x) / (1 + CrossViews), s being the cosine of
	// their case vectors and x the same sum taken across the symptoms and
	// cause views (see Index.relQuery). 0 compares views only. Dupes and
	// match do not use it.
	CrossViews float64

	// TextPrior is the number of cases below which text counts for less
	// than its view weights in case-to-case scores: the text views are
	// scaled by N/(N+TextPrior) for a library of N cases (see Index docs).
	TextPrior float64

	// TagKinds weighs each kind of tag within the tag view, in the order of
	// [TagKindNames]: domain, symptom, component, root_cause, contributing.
	// A domain tag (kubernetes, database) says what technology was involved,
	// not what happened, so it may count less than the others.
	TagKinds [NumTagKinds]float64

	// TagLift weighs each tag by what it tells in this library, measured on
	// the library itself: a tag counts in case-to-case scores (and in a
	// paste's inferred tags) by min(1, ln lift / ln 20)², where its lift is
	// how much more often two cases sharing it are each other's nearest
	// neighbours by text than two cases at random (shrunk towards its
	// kind's lift when the tag is rare; see taglift.go). A tag
	// every case has, or one as broad as a priority or a product, counts
	// for almost nothing; a curated tag keeps most of its weight. A case
	// whose tags tell little keeps a short tag part, so the tag view takes
	// no weight from its text.
	TagLift bool

	// Group: Pastes: how a pasted text is scored against the cases (the first pass
	// of match).

	// K1 and B shape how a paste is scored (see analyzePaste in match.go):
	// a case term counts by its saturated frequency
	// tf/(tf + K1·(1 − B + B·len/avglen)), as in BM25, so that a term
	// repeated in a long post-mortem does not outweigh the paste's other
	// words, and a long text counts each occurrence for less.
	K1, B float64

	// Query are the paste's view weights: how much a pasted text's vector
	// counts against the symptoms, cause and response views of a case, and
	// its inferred tags against the tag view. They are normalized to sum to
	// 1. (They weigh the paste, not a query in general: a case searched with
	// weighs its views by Views. The exported name is kept so that code
	// setting it, such as eval's grid, keeps compiling.)
	Query [NumViews]float64

	// InferTags turns on tag inference for pasted text: a library tag whose
	// words all occur in the paste (symptom:oom-killed for "pods OOMKilled")
	// joins the paste's tag vector, weighted by the share of the paste its
	// words carry: one common word of a long paste infers little.
	InferTags bool

	// Typos turns on typo tolerance for pasted text: a paste word the
	// library never uses is read as the library word one edit from it (two
	// for long words), weighing less than the word written right (see
	// fuzzy.go).
	Typos bool
	// TypoWords leaves alone a paste word that is a common English word
	// (tokenize.EnglishWord) though the library never uses it: it is no
	// typo, and reading it as a library word adds a word the paste did not
	// say. Off by default: with the analyzer's on-call steps it changes no
	// real paste, and it keeps a misspelling that is itself a word
	// uncorrected (eval/notes/oncall-pastes.md).
	TypoWords bool

	// Group: Second stage of match.

	// Expand is the weight e, in [0, 1], of the second stage of match: hits
	// are re-ranked by (1−e)·s(hit) + e·s(best)·sim(hit, best), where s is the
	// first-pass score and sim the case-to-case similarity to the best hit's
	// full case vector, tags included. The best hit keeps its score; a weak
	// best hit lends little. 0 turns the second stage off.
	Expand float64

	// ExpandGap scales the second stage by how sure the first pass is of
	// its best hit: the stage's weight is Expand·min(1, (s1/r − 1)/(ExpandGap
	// − 1)), where s1 is the best hit's first-pass score and r = s2·(1 −
	// sim) its rival's, the second hit's score times how unlike the best it
	// is. A best hit ExpandGap times above its rival gets the whole weight;
	// one tied with a different case gets none. 0 (or 1) gives every first
	// pass the whole weight.
	ExpandGap float64

	// ExpandPool is how many first-pass hits, and how many neighbours of
	// the best hit, are re-ranked by the second stage.
	ExpandPool int

	// ExpandTagKinds are TagKinds for the second stage of match (and for a
	// paste's inferred tags): the
	// relatives of a paste's best hit share its technology (domain) and
	// contributing factors more often than curated links need to. A kind
	// weighted 0 in TagKinds is absent from the index and stays absent here.
	ExpandTagKinds [NumTagKinds]float64

	// RerankExpand runs the second stage in re-rank mode too (a query with
	// Candidates). It is off by default: there the candidates come from a
	// search that already saw the query, and pulling them towards the best
	// one costs MAP on both SemEval sets (dev 0.7331 → 0.7254, train part 2
	// 0.7431 → 0.7258), where the tags are broad forum categories.
	RerankExpand bool

	// OrgCap is how many of the first OrgCapTop hits of a match may be
	// records of one organisation that the paste does not name (orgcap.go);
	// the others move down just below them. 0 leaves the order alone.
	OrgCap int

	// Group: Date priors of relate and dupes.

	// RelateDate is DupeDate for relate, with its own time scale RelateDays:
	// cases of the same weeks are more often related (records of one event,
	// knock-on failures) than text alone says. It is mild, so that a
	// similar case from years ago still makes the list.
	RelateDate float64

	// RelateDays is the time scale, in days, of the date prior of relate.
	RelateDays float64

	// DupeDate is the weight w, in [0, 1], of the date prior of dupes: two
	// reports of one incident (or one bug) are written close together in
	// time, so a pair's dupes score is its case-to-case similarity times
	// 1 − w + w·exp(−Δ/DupeDays), Δ being the days between their dates.
	// Same-day cases keep their similarity; cases years apart keep 1 − w of
	// it. A pair with a case that has no date (YYYY-MM-DD) keeps it all.
	// 0 turns the prior off. Match ignores dates.
	DupeDate float64

	// DupeDays is the time scale, in days, of the date prior of dupes.
	DupeDays float64
}

// DefaultConfig returns the configuration caselink uses unless told
// otherwise. Each value was chosen with the eval grid over the seeds set,
// SemEval-2016 dev, GitBugs train and the judged incidents (see README.md,
// "How good is it").
func DefaultConfig() Config {
	return Config{
		Analyzer:       tokenize.DefaultOptions(),
		K1:             1.2,
		B:              0.75,
		Pivot:          0.1,
		TextPrior:      50,
		Views:          [NumViews]float64{0.175, 0.41, 0.115, 0.3},
		CrossViews:     0.35,
		Query:          [NumViews]float64{0.3, 0.3, 0.3, 0.5},
		TagKinds:       [NumTagKinds]float64{0.3, 1, 1, 1, 0.5},
		ExpandTagKinds: [NumTagKinds]float64{1, 1, 1, 1, 1},
		InferTags:      true,
		TagLift:        true,
		Typos:          true,
		Expand:         0.85,
		ExpandGap:      1.3,
		OrgCap:         3,
		ExpandPool:     15,
		RelateDate:     0.25,
		RelateDays:     30,
		DupeDate:       0.6,
		DupeDays:       180,
	}
}

// normalized returns w scaled to sum to 1 (all zero stays all zero).
func normalized(w [NumViews]float64) [NumViews]float64 {
	var s float64
	for _, x := range w {
		if x > 0 {
			s += x
		}
	}
	var out [NumViews]float64
	if s == 0 {
		return out
	}
	for i, x := range w {
		if x > 0 {
			out[i] = x / s
		}
	}
	return out
}

// MarshalText writes a view by name, so explanations read well as JSON.
func (v View) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// NumTagKinds is the number of kinds of tag a case has.
const NumTagKinds = 5

// TagKindNames are the namespaces of tags, in the order of Config.TagKinds.
var TagKindNames = [NumTagKinds]string{"domain", "symptom", "component", "root_cause", "contributing"}

// tagKind returns the index in TagKindNames of a namespaced tag, -1 if none.
func tagKind(tag string) int {
	for i, ns := range TagKindNames {
		if len(tag) > len(ns) && tag[len(ns)] == ':' && tag[:len(ns)] == ns {
			return i
		}
	}
	return -1
}

// Validate reports the first field of c that is out of its range, in a
// sentence naming the field: weights and strengths documented in [0, 1]
// (B, Pivot, CrossViews, Expand, RelateDate, DupeDate), weights that must
// not be negative (K1, TextPrior, the view and tag-kind weights,
// ExpandPool), view weights that are all zero, and a date prior with no
// time scale. [Build] calls it, so a bad configuration fails before any
// work is done.
func (c Config) Validate() error {
	unit := []struct {
		name string
		x    float64
	}{{"B", c.B}, {"Pivot", c.Pivot}, {"CrossViews", c.CrossViews}, {"Expand", c.Expand}, {"RelateDate", c.RelateDate}, {"DupeDate", c.DupeDate}}
	for _, f := range unit {
		if !(f.x >= 0 && f.x <= 1) {
			return fmt.Errorf("config: %s is %v, want a number in [0, 1]", f.name, f.x)
		}
	}
	if !(c.ExpandGap == 0 || c.ExpandGap >= 1) || math.IsInf(c.ExpandGap, 0) {
		return fmt.Errorf("config: ExpandGap is %v, want 0 (off) or a ratio of at least 1", c.ExpandGap)
	}
	if !(c.K1 >= 0) || !(c.TextPrior >= 0) || c.ExpandPool < 0 || c.OrgCap < 0 {
		return fmt.Errorf("config: K1 (%v), TextPrior (%v), ExpandPool (%d) and OrgCap (%d) must not be negative", c.K1, c.TextPrior, c.ExpandPool, c.OrgCap)
	}
	for _, ws := range []struct {
		name string
		w    [NumViews]float64
	}{{"Views", c.Views}, {"Query", c.Query}} {
		if err := nonNegative(ws.name, ws.w[:], true); err != nil {
			return err
		}
	}
	if err := nonNegative("TagKinds", c.TagKinds[:], false); err != nil {
		return err
	}
	if err := nonNegative("ExpandTagKinds", c.ExpandTagKinds[:], false); err != nil {
		return err
	}
	if c.RelateDate > 0 && !(c.RelateDays > 0) {
		return fmt.Errorf("config: RelateDays is %v, want a positive number of days when RelateDate is %v", c.RelateDays, c.RelateDate)
	}
	if c.DupeDate > 0 && !(c.DupeDays > 0) {
		return fmt.Errorf("config: DupeDays is %v, want a positive number of days when DupeDate is %v", c.DupeDays, c.DupeDate)
	}
	return nil
}

// nonNegative checks that no weight of w is negative (or NaN) and, with
// some, that one is positive.
func nonNegative(name string, w []float64, some bool) error {
	var sum float64
	for i, x := range w {
		if !(x >= 0) || math.IsInf(x, 1) {
			return fmt.Errorf("config: %s[%d] is %v, want a finite number >= 0", name, i, x)
		}
		sum += x
	}
	if some && sum == 0 {
		return fmt.Errorf("config: %s are all 0, want at least one positive weight", name)
	}
	return nil
}
