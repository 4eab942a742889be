package similarity

import (
	"fmt"
	"maps"
	"slices"
)

// Update returns a new index with the documents in upsert added (or
// replacing the case with the same id, in place) and the cases with the ids
// in remove taken out. The receiver is not changed and may go on serving.
//
// Only the new and changed documents are tokenized. Everything that depends
// on the whole library is then recomputed: document frequencies and so idf,
// the pivot of length normalization, every case vector and the postings.
// So adding one case slightly changes the weights of all others, exactly as
// a rebuild would: the updated index gives the same scores, byte for byte,
// as [Build] on the same documents in the same order (new ones last). Only
// the spelling chosen to show a term in explanations may differ after
// removals.
func (ix *Index) Update(upsert []Document, remove []string) (*Index, error) {
	nx := &Index{cfg: ix.cfg, query: ix.query, an: ix.an, voc: ix.voc.copy()}
	gone := make(map[string]bool, len(remove))
	for _, id := range remove {
		if _, ok := ix.byID[id]; !ok {
			return nil, fmt.Errorf("remove: no case with id %q", id)
		}
		gone[id] = true
	}
	repl := make(map[string]int, len(upsert))
	for i, d := range upsert {
		if d.Case == nil {
			return nil, fmt.Errorf("update: document %d has no case", i)
		}
		id := d.Case.ID
		if _, dup := repl[id]; dup {
			return nil, fmt.Errorf("update: case id %q given twice", id)
		}
		if gone[id] {
			return nil, fmt.Errorf("update: case id %q is both removed and added", id)
		}
		repl[id] = i
	}
	var fresh []Document
	var slots []int // index into nx.docs for each fresh document
	add := func(d Document) {
		fresh = append(fresh, d)
		slots = append(slots, len(nx.cases))
		nx.docs = append(nx.docs, analyzed{})
		nx.cases = append(nx.cases, d.Case)
	}
	for i, c := range ix.cases {
		switch j, ok := repl[c.ID]; {
		case gone[c.ID]:
		case ok:
			delete(repl, c.ID)
			add(upsert[j])
		default:
			nx.docs = append(nx.docs, ix.docs[i])
			nx.cases = append(nx.cases, c)
		}
	}
	for _, d := range upsert {
		if _, ok := repl[d.Case.ID]; ok {
			add(d)
		}
	}
	for i, a := range analyzeDocs(nx.an, nx.voc, fresh, len(ix.cases), nil) {
		nx.docs[slots[i]] = a
	}
	nx.byID = make(map[string]int, len(nx.cases))
	for i, c := range nx.cases {
		nx.byID[c.ID] = i
	}
	nx.reweigh()
	return nx, nil
}

// clone returns a copy of the vocabulary that can grow without disturbing
// readers of the original.
func (v *vocabulary) copy() *vocabulary {
	return &vocabulary{
		ids:      maps.Clone(v.ids),
		terms:    slices.Clone(v.terms),
		surface:  slices.Clone(v.surface),
		firstDoc: slices.Clone(v.firstDoc),
		clone:    v.clone,
	}
}
