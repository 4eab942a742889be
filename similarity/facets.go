package similarity

// What the filters and the "more cases" count of a match read, without
// reading the cases of an index opened by OpenCacheLazy. Nothing here
// changes a score.

// Org returns the organisation of the case at position i.
func (ix *Index) Org(i int) string {
	if ix.lazy == nil {
		return ix.cases[i].Org
	}
	return ix.lazy.org.at(i)
}

// Domains returns the domain tags of the case at position i, as written.
func (ix *Index) Domains(i int) []string {
	if ix.lazy == nil {
		return ix.cases[i].Domain
	}
	return ix.lazy.domains(i)
}

// Scored counts the cases that the paste of r scores above 0 and that q's
// filter and exclusions keep: those sharing a term or an inferred tag with
// the paste, and r's hits (the second stage may add a case that shares
// none). It reads only the postings of the paste's keys, so that an answer
// can say how many cases it did not show; r must be the result of
// ix.Match(q). A query of candidates counts its candidates scoring above 0.
func (ix *Index) Scored(r *Result, q Query) int {
	accept := ix.accept(q.Exclude, q.Filter)
	if q.Candidates != nil {
		n := 0
		for _, h := range ix.rerank(r.paste.q, q.Candidates, accept) {
			if h.Score > 0 {
				n++
			}
		}
		return n
	}
	seen := make([]uint64, (len(ix.ids)+63)/64)
	n := 0
	for _, h := range r.Hits {
		if seen[h.Doc>>6]&(1<<(h.Doc&63)) == 0 {
			seen[h.Doc>>6] |= 1 << (h.Doc & 63)
			n++
		}
	}
	for _, t := range r.paste.q {
		if t.w <= 0 {
			continue
		}
		for _, d := range ix.pdoc[ix.pstart[t.key]:ix.pstart[t.key+1]] {
			if seen[d>>6]&(1<<(d&63)) != 0 {
				continue
			}
			seen[d>>6] |= 1 << (d & 63)
			if accept == nil || accept(int(d)) {
				n++
			}
		}
	}
	return n
}
