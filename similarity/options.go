package similarity

// searchOptions are the switches of the searches that tests turn, per
// index, to check that a shortcut changes no answer (block-max against
// term-at-a-time, split against whole, with and without each bar) or to
// cross many windows on a small library. The zero value is what the engine
// runs; nothing outside the tests sets them.
type searchOptions struct {
	// windowSize is the number of cases a block-max window spans, a
	// multiple of 64 (0: defaultWindow).
	windowSize int
	// blocks says whether a search takes the block-max traversal (nil:
	// pasteBlocks).
	blocks func(s *search) bool
	// sweepCost is how many postings of a non-essential term, read in order,
	// the block-max traversal counts as one seek when it chooses between
	// sweeping the term over a window's cases and seeking it case by case
	// (0: defaultSweepCost; negative: never sweep).
	sweepCost int
	// parallelMin is the library size from which one search is split over
	// the cores by ranges of cases (0: defaultParallelMin).
	parallelMin int
	// noProbeBar turns probeBar off for pastes.
	noProbeBar bool
	// noPairBars makes AllRelated start each search without a bar from the
	// pairs already found (pairBars).
	noPairBars bool
	// noNeighbourBar turns neighbourBar off in the second stage of match.
	noNeighbourBar bool
	// noExactBar turns off the bars a case-to-case search takes from the
	// exact scores of its most promising cases (touchedBar, candsBar).
	noExactBar bool
	// noLevels turns off the level norms' bound (levels.go) in
	// case-to-case searches.
	noLevels bool
	// orderMin is the library size from which a term-at-a-time search
	// screens its touched cases in case order (0: defaultOrderMin;
	// negative: never; see pass.inOrder).
	orderMin int
	// raiseTouched is how many cases a term-at-a-time search touches
	// before it raises its bar for that alone (0: defaultRaiseTouched;
	// see pass.accumulate).
	raiseTouched int
	// maxUndatedPairs bounds the pairs an organisation's undated cases make
	// with all its cases, for the same-event evidence (0:
	// defaultMaxUndatedPairs).
	maxUndatedPairs int
}

const (
	// defaultWindow is the number of cases a block-max window spans. Each
	// window costs every query term a seek and a look at its block maxima,
	// and a long paste has a hundred terms or more; wider windows loosen
	// the bounds but, since sweep, cost less in all
	// (eval/notes/long-pastes.md, "Window size").
	defaultWindow = 4096
	// defaultSweepCost is searchOptions.sweepCost's default (measured in
	// eval/notes/long-pastes.md; 4 until the word bounds made more of a
	// long paste's terms non-essential, where completing case by case
	// costs more than sweeping: "Word bounds").
	defaultSweepCost = 16
	// defaultParallelMin is the library size from which one search is split
	// over the cores: below it, starting goroutines costs more than it
	// saves.
	defaultParallelMin = 20000
	// defaultMaxUndatedPairs: past it, undated cases get no organisation
	// evidence, so that a large undated library does not cost a search over
	// every pair.
	defaultMaxUndatedPairs = 4 << 20
	// defaultRaiseTouched is searchOptions.raiseTouched's default: a bar
	// raised from fewer cases seldom rises far, and costs a few exact
	// scores (eval/notes/relate-million.md).
	defaultRaiseTouched = 2048
	// defaultOrderMin is searchOptions.orderMin's default. At 100,000
	// cases the arrays a screen reads at random (20 bytes a case) stay in
	// the caches and sorting is pure cost; at 1,000,000 it pays. Nothing
	// between was measured: this is a point between the two, not a
	// break-even (eval/notes/relate-million.md, "Touched cases in case
	// order").
	defaultOrderMin = 1 << 18
)

func (o *searchOptions) window() int { return cmpOr(o.windowSize, defaultWindow) }

func (o *searchOptions) sweep() int { return cmpOr(o.sweepCost, defaultSweepCost) }

func (o *searchOptions) splitMin() int { return cmpOr(o.parallelMin, defaultParallelMin) }

func (o *searchOptions) raiseAt() int { return cmpOr(o.raiseTouched, defaultRaiseTouched) }

// ordered says whether searches of a library of n cases sort their touched
// cases (pass.inOrder).
func (o *searchOptions) ordered(n int) bool {
	m := cmpOr(o.orderMin, defaultOrderMin)
	return m >= 0 && n >= m
}

func (o *searchOptions) undatedPairs() int { return cmpOr(o.maxUndatedPairs, defaultMaxUndatedPairs) }

func (o *searchOptions) useBlocks(s *search) bool {
	if o.blocks != nil {
		return o.blocks(s)
	}
	return pasteBlocks(s)
}

// cmpOr returns v, or def when v is 0.
func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
