package curate

import (
	"cmp"
	"slices"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// DupeCluster is the records of one event, as the listed pairs of probable
// duplicates join them: what a curator decides about at once.
type DupeCluster struct {
	// N is the cluster's place in the whole list, from 1.
	N int
	// Cases are the cluster's records (positions in the index), the best
	// first: the one most strongly linked to the others (the sum of its
	// pairs' scores), usually the fullest write-up; ties by case id.
	Cases []int
	// Pairs are the listed pairs among them, most probable first.
	Pairs []DupePair
	// Links are the listed pairs from its records to another cluster's,
	// weaker than the cluster's own (see Clusters): shown, not decided with
	// the cluster.
	Links []DupePair
	// Score is the score of its best pair.
	Score float64
}

// clusterDays is the widest span of dates, in days, of one cluster's dated
// records: one event's reports are written within days of each other
// (similarity's same-event evidence looks 3 days either side), and an
// undated summary linked to two events must not make them one.
const clusterDays = 7

// clusterJoin is the share of the possible pairs between two groups of
// records that must be listed for one listed pair to join them: a single
// link between two events (a notice of each, same org, same day) would
// otherwise chain them into one cluster.
const clusterJoin = 0.5

// Clusters groups listed pairs into the records of one event: connected
// components over the pairs, strongest pair first, except that two groups
// of two records or more join only when at least clusterJoin of the pairs
// between them are listed (a weak link does not chain two events). A
// record alone joins a group through any listed pair. No cluster of more
// than two records has dated records more than clusterDays apart. A listed
// pair left between two clusters is one of each cluster's Links. Clusters come most
// probable first (by their best pair), ties by their best record's id.
func Clusters(ix *similarity.Index, pairs []DupePair) []DupeCluster {
	byScore := func(x, y DupePair) int { return cmp.Compare(y.Score, x.Score) }
	order := pairs // a listing comes sorted: at a million cases a copy is hundreds of MB
	if !slices.IsSortedFunc(pairs, byScore) {
		order = slices.Clone(pairs)
		slices.SortStableFunc(order, byScore)
	}
	g := newGrouping(ix, pairs)
	for _, p := range order {
		g.join(p)
	}
	out, strength := g.clusters(order)
	return sortClusters(ix, out, strength)
}

// grouping is the state of Clusters: which group each case is in, each
// group's cases and the days its dated cases span, and the pairs left
// between two groups.
type grouping struct {
	ix      *similarity.Index
	listed  []uint64       // the listed pairs, as pairKey, sorted
	group   map[int]int    // case → group id
	members map[int][]int  // group id → cases
	span    map[int][2]int // group id → first and last day of its dated cases
	held    []DupePair     // pairs whose two cases stayed in different groups
	next    int
}

func newGrouping(ix *similarity.Index, pairs []DupePair) *grouping {
	g := &grouping{ix: ix, listed: make([]uint64, len(pairs)),
		group: map[int]int{}, members: map[int][]int{}, span: map[int][2]int{}}
	for i, p := range pairs {
		g.listed[i] = pairKey(p.A, p.B)
	}
	slices.Sort(g.listed)
	return g
}

// pairKey is the key of the pair of cases at positions x and y, either
// order, in grouping.listed: a sorted slice of them takes 8 bytes a pair
// where a map took about fifty, with millions of pairs at a million cases.
func pairKey(x, y int) uint64 {
	return uint64(min(x, y))<<32 | uint64(max(x, y))
}

// place returns the group of case c, a new group of its own the first time.
func (g *grouping) place(c int) int {
	if id, ok := g.group[c]; ok {
		return id
	}
	g.group[c], g.members[g.next] = g.next, []int{c}
	if d, ok := g.ix.Day(c); ok {
		g.span[g.next] = [2]int{d, d}
	}
	g.next++
	return g.next - 1
}

// join merges the groups of p's two cases, unless the merged group would
// span more than clusterDays or the two groups are linked by too few
// listed pairs: then p is held as a link between them.
func (g *grouping) join(p DupePair) {
	ga, gb := g.place(p.A), g.place(p.B)
	if ga == gb {
		return
	}
	ma, mb := g.members[ga], g.members[gb]
	sa, okA := g.span[ga]
	sb, okB := g.span[gb]
	joined := sa
	switch {
	case okA && okB:
		joined = [2]int{min(sa[0], sb[0]), max(sa[1], sb[1])}
		if joined[1]-joined[0] > clusterDays && len(ma)+len(mb) > 2 {
			g.held = append(g.held, p)
			return
		}
	case okB:
		joined = sb
	}
	if len(ma) > 1 && len(mb) > 1 && float64(g.links(ma, mb)) < clusterJoin*float64(len(ma)*len(mb)) {
		g.held = append(g.held, p)
		return
	}
	if len(ma) < len(mb) {
		ga, gb, ma, mb = gb, ga, mb, ma
	}
	for _, c := range mb {
		g.group[c] = ga
	}
	g.members[ga] = append(ma, mb...)
	delete(g.members, gb)
	delete(g.span, gb)
	if okA || okB {
		g.span[ga] = joined
	}
}

// links counts the listed pairs between the cases of ma and those of mb.
func (g *grouping) links(ma, mb []int) int {
	n := 0
	for _, x := range ma {
		for _, y := range mb {
			if _, ok := slices.BinarySearch(g.listed, pairKey(x, y)); ok {
				n++
			}
		}
	}
	return n
}

// clusters returns the groups as clusters, in the order of their best
// pair, with their pairs and links, and each case's summed pair scores.
func (g *grouping) clusters(order []DupePair) ([]*DupeCluster, map[int]float64) {
	byGroup := map[int]*DupeCluster{}
	var out []*DupeCluster
	strength := map[int]float64{}
	for _, p := range order {
		id := g.group[p.A]
		if id != g.group[p.B] {
			continue
		}
		c := byGroup[id]
		if c == nil {
			c = &DupeCluster{Cases: g.members[id], Score: p.Score}
			byGroup[id] = c
			out = append(out, c)
		}
		c.Pairs = append(c.Pairs, p)
		strength[p.A] += p.Score
		strength[p.B] += p.Score
	}
	for _, p := range g.held {
		if g.group[p.A] == g.group[p.B] {
			continue // joined later by stronger links: one of the cluster's pairs
		}
		for _, id := range []int{g.group[p.A], g.group[p.B]} {
			if c := byGroup[id]; c != nil {
				c.Links = append(c.Links, p)
			}
		}
	}
	return out, strength
}

// sortClusters orders each cluster's cases by strength (ties by id) and the
// clusters by their best pair (ties by their best case's id), and numbers
// them.
func sortClusters(ix *similarity.Index, out []*DupeCluster, strength map[int]float64) []DupeCluster {
	for _, c := range out {
		slices.SortFunc(c.Cases, func(x, y int) int {
			if s := cmp.Compare(strength[y], strength[x]); s != 0 {
				return s
			}
			return cmp.Compare(ix.ID(x), ix.ID(y))
		})
	}
	slices.SortStableFunc(out, func(x, y *DupeCluster) int {
		if s := cmp.Compare(y.Score, x.Score); s != 0 {
			return s
		}
		return cmp.Compare(ix.ID(x.Cases[0]), ix.ID(y.Cases[0]))
	})
	res := make([]DupeCluster, len(out))
	for i, c := range out {
		c.N = i + 1
		res[i] = *c
	}
	return res
}

// ClustersPage is one page of the clusters of probable duplicates.
type ClustersPage struct {
	Clusters []DupeCluster
	// Total is how many clusters the whole list has, Pairs how many pairs,
	// before Offset and Limit.
	Total, Pairs int
}

// ListClusters lists the probable duplicates of ix as clusters, q.Offset
// and q.Limit counting clusters; the rest of q is as for [ListDupes].
func ListClusters(ix *similarity.Index, decisions []caselib.Decision, q DupesQuery, progress func(done int)) ClustersPage {
	return PageClusters(ix, ix.Duplicates(q.Threshold, DupesPerCase, progress), decisions, q)
}

// PageClusters cuts the page of clusters q asks for from pairs, as [Page]
// cuts a page of pairs.
func PageClusters(ix *similarity.Index, pairs []similarity.Pair, decisions []caselib.Decision, q DupesQuery) ClustersPage {
	all := Page(ix, pairs, decisions, DupesQuery{Threshold: q.Threshold, Pending: q.Pending})
	cs := Clusters(ix, all.Pairs)
	out := ClustersPage{Clusters: []DupeCluster{}, Total: len(cs), Pairs: all.Total}
	lo := min(q.Offset, len(cs))
	hi := len(cs)
	if q.Limit > 0 {
		hi = min(hi, lo+q.Limit)
	}
	out.Clusters = append(out.Clusters, cs[lo:hi]...)
	return out
}

// ClusterDecisions returns the decisions that record verdict v for every
// pair of cluster c: a decision on a cluster applies to its pairs.
func ClusterDecisions(ix *similarity.Index, c DupeCluster, v caselib.Verdict, date string) []caselib.Decision {
	var ds []caselib.Decision
	for _, p := range c.Pairs {
		ds = append(ds, caselib.Decision{A: ix.ID(p.A), B: ix.ID(p.B), Verdict: v, Date: date})
	}
	return ds
}

// ClusterOf returns the cluster of clusters that has the case with id, and
// whether there is one.
func ClusterOf(ix *similarity.Index, clusters []DupeCluster, id string) (DupeCluster, bool) {
	for _, c := range clusters {
		for _, x := range c.Cases {
			if ix.ID(x) == id {
				return c, true
			}
		}
	}
	return DupeCluster{}, false
}
