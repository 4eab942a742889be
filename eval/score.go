package eval

// UnknownKind is the ScoreQueries breakdown key of queries whose Kind is
// empty (score.py uses the same key).
const UnknownKind = "?"

// ScoreQueries scores the ranking of every query (rankings: query id → case
// ids, best first) with Score at cutoff k and averages them, as score.py
// does for its match task. Every query counts: a query missing from rankings
// scores 0. byKind holds the average for each Kind (UnknownKind for queries
// without one); it is empty, not nil, when qs is empty.
//
// Candidates are not applied here: a query's ranking is scored as given.
func ScoreQueries(qs []Query, rankings map[string][]string, k int) (overall Metrics, byKind map[string]Metrics) {
	rows := make([]Metrics, 0, len(qs))
	kinds := map[string][]Metrics{}
	for _, q := range qs {
		m := Score(rankings[q.ID], q.Relevant, k)
		rows = append(rows, m)
		kind := q.Kind
		if kind == "" {
			kind = UnknownKind
		}
		kinds[kind] = append(kinds[kind], m)
	}
	byKind = make(map[string]Metrics, len(kinds))
	for kind, ms := range kinds {
		byKind[kind] = Mean(ms)
	}
	return Mean(rows), byKind
}

// ScoreRelate scores the neighbour lists of cases (rankings: subject case id
// → case ids, best first) against judged pairs with Score at cutoff k and
// averages them, as score.py does for its relate task: only subjects present
// in both j and rankings count. Subjects are taken in sorted order, so the
// result does not depend on map order.
func ScoreRelate(j Judgments, rankings map[string][]string, k int) Metrics {
	var rows []Metrics
	for _, id := range j.Subjects() {
		ranked, ok := rankings[id]
		if !ok {
			continue
		}
		rows = append(rows, Score(ranked, j[id], k))
	}
	return Mean(rows)
}
