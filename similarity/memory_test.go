package similarity

import (
	"math"
	"testing"
)

// The second stage of match keeps no weights of its own: it reads rw's text
// weights and mw's tag weights. They must be, bit for bit, the weights its
// own normalization gives (what earlier versions stored), for every case
// entry and every posting, so that no score moves.
func TestSharedWeightsAreExact(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]Config{
		"default": DefaultConfig(),
		"no lift": func() Config { c := DefaultConfig(); c.TagLift = false; return c }(),
	} {
		t.Run(name, func(t *testing.T) {
			ix, err := BuildCases(synthLibrary(500, 3), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if ix.exp == ix.rel || ix.exp.w.text != ix.rw || ix.exp.w.tags != ix.mw {
				t.Fatal("the second stage's weights are not shared")
			}
			want := ownExpansion(ix)
			for i := range ix.Len() {
				for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
					if k := ix.vkey[j]; math.Float32bits(ix.exp.w.at(k, j)) != math.Float32bits(want.vval[j]) {
						t.Fatalf("case %d entry %d (view %d): %v, want %v", i, j, keyView(k), ix.exp.w.at(k, j), want.vval[j])
					}
				}
				if ix.exp.w.vnorm[i] != want.vnorm[i] {
					t.Fatalf("case %d norm %v, want %v", i, ix.exp.w.vnorm[i], want.vnorm[i])
				}
			}
			for k := range len(ix.pstart) - 1 {
				vals := ix.exp.w.postings(uint32(k))
				for p := ix.pstart[k]; p < ix.pstart[k+1]; p++ {
					if want := want.vval[entryOf(ix, ix.pdoc[p], uint32(k))]; vals[p] != want {
						t.Fatalf("key %d posting %d: %v, want %v", k, p, vals[p], want)
					}
				}
			}
		})
	}
}

// ownExpansion computes the second stage's weights as a set of their own:
// the tags weighed by Config.ExpandTagKinds (and the lift), normalized.
func ownExpansion(ix *Index) *weights {
	wt := ix.caseVectors() // the same layout again: deterministic
	var lift []float32
	if ix.cfg.TagLift {
		lift, _ = ix.tagLift(&wt, ix.shrinkText(ix.cfg.Views))
	}
	exp := ix.tagged(&wt, ix.cfg.ExpandTagKinds, lift)
	return ix.normalize(&exp, ix.cfg.Pivot, nil)
}

// entryOf returns the position in vkey of case doc's entry for key k.
func entryOf(ix *Index, doc, k uint32) int {
	for j := ix.vstart[doc]; j < ix.vstart[doc+1]; j++ {
		if ix.vkey[j] == k {
			return j
		}
	}
	panic("no such entry")
}

// Packed entries read back as they were written, whatever the ids, views
// and counts, and a cache file's bytes that are not exactly n packed
// entries are refused before anything reads them.
func TestPackedEntries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ents []entry
	}{
		{"empty", nil},
		{"one tag", []entry{newEntry(0, Tags, 1)}},
		{"every view of one term", []entry{newEntry(7, Symptoms, 1), newEntry(7, Cause, 2), newEntry(7, Response, 3), newEntry(7, Tags, 1)}},
		{"largest count", []entry{newEntry(1, Cause, 0xffff), newEntry(2, Cause, 1<<20)}}, // newEntry caps at 0xffff
		{"largest ids", []entry{newEntry(0, Symptoms, 1), newEntry(math.MaxUint32-1, Response, 5), newEntry(math.MaxUint32, Tags, 1)}},
		{"long gaps", []entry{newEntry(127, Symptoms, 127), newEntry(128, Symptoms, 128), newEntry(16511, Cause, 16384), newEntry(1<<28, Symptoms, 2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p packer
			as := make([]analyzed, 3)
			p.add(&as[0], []entry{newEntry(1, Tags, 1)}) // neighbours in the chunk's array
			p.add(&as[1], tc.ents)
			p.add(&as[2], []entry{newEntry(2, Cause, 3)})
			p.finish(as)
			a := as[1]
			if len(as[0].unpack(nil)) != 1 || len(as[2].unpack(nil)) != 1 || cap(a.packed) != len(a.packed) {
				t.Fatal("a case's packed entries run into its neighbours'")
			}
			got := a.unpack(nil)
			if len(got) != len(tc.ents) || int(a.n) != len(tc.ents) {
				t.Fatalf("%d entries back (n = %d), want %d", len(got), a.n, len(tc.ents))
			}
			for i := range got {
				if got[i] != tc.ents[i] {
					t.Fatalf("entry %d: %x, want %x", i, got[i], tc.ents[i])
				}
			}
			if !validPacked(a.packed, len(tc.ents), math.MaxUint32) && len(tc.ents) > 0 && tc.ents[len(tc.ents)-1].raw() < math.MaxUint32 {
				t.Error("valid entries refused")
			}
		})
	}
	good := packEntries(nil, []entry{newEntry(3, Symptoms, 2), newEntry(3, Tags, 1), newEntry(9, Cause, 300)})
	if !validPacked(good, 3, 10) {
		t.Fatal("valid entries refused")
	}
	for name, bad := range map[string]struct {
		b      []byte
		n      int
		nterms uint32
	}{
		"too few":       {good, 4, 10},
		"too many":      {good, 2, 10},
		"truncated":     {good[:len(good)-1], 3, 10},
		"id too large":  {good, 3, 9},
		"no count":      {packEntries(nil, []entry{newEntry(1, Cause, 0)}), 1, 10},
		"endless":       {[]byte{0x80, 0x80, 0x80}, 1, 10},
		"unsorted view": {[]byte{1, 1<<2 | byte(Cause), 0, 1<<2 | byte(Symptoms)}, 2, 10},
	} {
		if validPacked(bad.b, bad.n, bad.nterms) {
			t.Errorf("%s: accepted", name)
		}
	}
}

// An index keeps only the documents that are not their case's
// NewDocument; the others are made again from the case. Either way Reindex
// tells unchanged documents from changed ones, and explanations quote the
// text that was indexed.
func TestOwnDocuments(t *testing.T) {
	t.Parallel()
	cases := synthLibrary(300, 5)
	docs := Documents(cases)
	docs[7].Text[Symptoms] = []string{"zzyzx quorum lost"} // an experiment's document
	ix, err := Build(docs, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.own) != 1 || ix.own[7] == nil || ix.document(7).Text[Symptoms][0] != "zzyzx quorum lost" {
		t.Fatalf("kept %d documents of their own, want just the changed one", len(ix.own))
	}
	docs[7].Text[Symptoms][0] = "changed by the caller afterwards"
	if ix.document(7).Text[Symptoms][0] != "zzyzx quorum lost" {
		t.Fatal("the index's document changed with the caller's")
	}
	if forms := ix.caseSurfaces(7, map[uint32]bool{ix.canonOf("zzyzx") - 1: true}); forms[ix.canonOf("zzyzx")-1].token != "zzyzx" {
		t.Fatalf("explanations do not quote the indexed text: %v", forms)
	}
	docs[7].Text[Symptoms][0] = "zzyzx quorum lost"
	built, opened, _ := saveAndOpen(t, docs, DefaultConfig()) // the cache file keeps which were own
	if len(opened.own) != 1 {
		t.Fatalf("the opened index kept %d documents of their own, want 1", len(opened.own))
	}
	sameIndex(t, built, opened)
	fromCases, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if fromCases.own != nil {
		t.Fatal("an index built from cases kept documents")
	}
	re, err := fromCases.Reindex(Documents(cases)) // nothing changed
	if err != nil {
		t.Fatal(err)
	}
	for i := range re.docs {
		if &re.docs[i].packed[0] != &fromCases.docs[i].packed[0] {
			t.Fatalf("case %d analyzed again though unchanged", i)
		}
	}
	re, err = fromCases.Reindex(docs) // case 7 changed
	if err != nil {
		t.Fatal(err)
	}
	if &re.docs[7].packed[0] == &fromCases.docs[7].packed[0] || &re.docs[8].packed[0] != &fromCases.docs[8].packed[0] {
		t.Fatal("Reindex did not tell the changed document from the others")
	}
	sameAnswers(t, re, ix)
}
