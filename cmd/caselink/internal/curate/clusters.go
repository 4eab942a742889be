package curate

import (
	"cmp"
	"slices"
	"time"

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
	order := slices.Clone(pairs)
	slices.SortStableFunc(order, func(x, y DupePair) int { return cmp.Compare(y.Score, x.Score) })
	listed := make(map[[2]int]bool, len(pairs))
	for _, p := range pairs {
		listed[[2]int{min(p.A, p.B), max(p.A, p.B)}] = true
	}
	span := map[int][2]int{} // group id → first and last day of its dated cases
	dayOf := func(c int) (int, bool) {
		d := ix.Case(c).Date
		t, err := time.Parse(time.DateOnly, d[:min(len(d), 10)])
		if err != nil {
			return 0, false
		}
		return int(t.Unix() / 86400), true
	}
	group := map[int]int{}     // case → group id
	members := map[int][]int{} // group id → cases
	var held []DupePair        // pairs whose two cases stayed in different groups
	next := 0
	place := func(c int) int {
		if g, ok := group[c]; ok {
			return g
		}
		group[c], members[next] = next, []int{c}
		if d, ok := dayOf(c); ok {
			span[next] = [2]int{d, d}
		}
		next++
		return next - 1
	}
	for _, p := range order {
		ga, gb := place(p.A), place(p.B)
		if ga == gb {
			continue
		}
		ma, mb := members[ga], members[gb]
		sa, okA := span[ga]
		sb, okB := span[gb]
		joined := sa
		switch {
		case okA && okB:
			joined = [2]int{min(sa[0], sb[0]), max(sa[1], sb[1])}
			if joined[1]-joined[0] > clusterDays && len(ma)+len(mb) > 2 {
				held = append(held, p)
				continue
			}
		case okB:
			joined = sb
		}
		if len(ma) > 1 && len(mb) > 1 {
			links := 0
			for _, x := range ma {
				for _, y := range mb {
					if listed[[2]int{min(x, y), max(x, y)}] {
						links++
					}
				}
			}
			if float64(links) < clusterJoin*float64(len(ma)*len(mb)) {
				held = append(held, p)
				continue
			}
		}
		if len(ma) < len(mb) {
			ga, gb, ma, mb = gb, ga, mb, ma
		}
		for _, c := range mb {
			group[c] = ga
		}
		members[ga] = append(ma, mb...)
		delete(members, gb)
		delete(span, gb)
		if okA || okB {
			span[ga] = joined
		}
	}
	byGroup := map[int]*DupeCluster{}
	var out []*DupeCluster
	strength := map[int]float64{}
	for _, p := range order {
		g := group[p.A]
		if g != group[p.B] {
			continue
		}
		c := byGroup[g]
		if c == nil {
			c = &DupeCluster{Cases: members[g], Score: p.Score}
			byGroup[g] = c
			out = append(out, c)
		}
		c.Pairs = append(c.Pairs, p)
		strength[p.A] += p.Score
		strength[p.B] += p.Score
	}
	for _, p := range held {
		if group[p.A] == group[p.B] {
			continue // joined later by stronger links: one of the cluster's pairs
		}
		for _, g := range []int{group[p.A], group[p.B]} {
			if c := byGroup[g]; c != nil {
				c.Links = append(c.Links, p)
			}
		}
	}
	for _, c := range out {
		slices.SortFunc(c.Cases, func(x, y int) int {
			if s := cmp.Compare(strength[y], strength[x]); s != 0 {
				return s
			}
			return cmp.Compare(ix.Case(x).ID, ix.Case(y).ID)
		})
	}
	slices.SortStableFunc(out, func(x, y *DupeCluster) int {
		if s := cmp.Compare(y.Score, x.Score); s != 0 {
			return s
		}
		return cmp.Compare(ix.Case(x.Cases[0]).ID, ix.Case(y.Cases[0]).ID)
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
		ds = append(ds, caselib.Decision{A: ix.Case(p.A).ID, B: ix.Case(p.B).ID, Verdict: v, Date: date})
	}
	return ds
}

// ClusterOf returns the cluster of clusters that has the case with id, and
// whether there is one.
func ClusterOf(ix *similarity.Index, clusters []DupeCluster, id string) (DupeCluster, bool) {
	for _, c := range clusters {
		for _, x := range c.Cases {
			if ix.Case(x).ID == id {
				return c, true
			}
		}
	}
	return DupeCluster{}, false
}
