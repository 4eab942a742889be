package similarity

import (
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"slices"
)

// Reindex returns an index over docs, in their order, with the receiver's
// Config: the same index, giving the same scores byte for byte, as
// Build(docs, ix.Config()), but only the documents that are new, or whose
// text or tags differ from the receiver's document with the same case id,
// are tokenized. A server reloading a library after one file changed (or
// after relate --write, which changes no text) tokenizes a few cases
// instead of all. The receiver is not changed and may go on serving.
//
// Everything that depends on the whole library is recomputed: document
// frequencies and so idf, the pivot of length normalization, every case
// vector and the postings; and each term's spelling in explanations, that
// of the first case that has it (surfaces.go).
func (ix *Index) Reindex(docs []Document) (*Index, error) {
	if len(ix.voc.terms) > 2*len(ix.craw)+staleTerms || ix.lazy != nil {
		// An index opened without its documents has none to compare.
		// Terms that no case uses any more stay in the vocabulary; once
		// they outnumber the live ones, start afresh.
		return Build(docs, ix.cfg)
	}
	nx := &Index{cfg: ix.cfg, pasteViews: ix.pasteViews, an: ix.an, voc: reuseVocabulary(ix.voc)}
	if err := nx.setDocuments(docs); err != nil {
		return nil, err
	}
	var fresh []Document
	var slots []int // position in nx of each fresh document
	reused := make([]bool, len(docs))
	for i, d := range docs {
		if j, ok := ix.byID[d.Case.ID]; ok && sameContent(ix.document(j), &d) {
			nx.docs[i] = ix.docs[j] // read-only from here on, so shared
			reused[i] = true
			continue
		}
		fresh = append(fresh, d)
		slots = append(slots, i)
	}
	for i, a := range analyzeDocs(nx.an, nx.voc, len(fresh), func(i int) *Document { return &fresh[i] }, slots, nil) {
		nx.docs[slots[i]] = a
	}
	moved := movedFrom(ix.ids, nx.byID, reused)
	nx.keepOwn(docs)
	nx.reweigh()
	if err := nx.fixSurfaces(ix.voc, moved, func(i int) (*Document, error) { return &docs[i], nil }); err != nil {
		return nil, err
	}
	nx.hold(ix)
	return nx, nil
}

// staleTerms is how many unused terms the vocabulary may hold beyond the
// live ones before Reindex builds from scratch.
const staleTerms = 1 << 16

// sameContent reports whether two documents have the same text and tags.
func sameContent(a, b *Document) bool {
	for v := range a.Text {
		if !slices.Equal(a.Text[v], b.Text[v]) {
			return false
		}
	}
	return slices.Equal(a.Tags, b.Tags)
}

// contentPrint fingerprints what the analysis reads of d, its text views and
// its tags: the first 8 bytes of their SHA-256, each string preceded by its
// length so that no two documents run together the same. Two documents with
// the same print are taken to analyze the same (the chance that an edit
// keeps the print is 2^-64); a cryptographic hash costs little beside the
// analysis and no crafted case can make one.
func contentPrint(d *Document) uint64 {
	w := contentHash{h: sha256.New()}
	w.content(d)
	var sum [sha256.Size]byte
	return binary.LittleEndian.Uint64(w.h.Sum(sum[:0]))
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
