package indexfile

import "fmt"

// Format is the version of the index file's layout, written in its header
// and part of every cache key (similarity.CacheKeyOf): a file of another
// format is stale, never read, and is rebuilt. Bump it on any change to the
// header, the section table's entries, or IndexSections (see FORMAT.md,
// "Versioning").
//
// History: 7 was the last format whose sections were untyped and defined by
// the order of the code's calls; 8 gives every section an id, an element type
// and a count in the file's table, and drops the float64 flag of "view
// weights" (the second stage's own weights are told by their sections'
// presence); 9 adds the level norms of each profile (sections 47 and 48);
// 10 adds each case's content print (section 49); 11 the word bounds of
// pastes (sections 50–52).
const Format = 11

// Elem is the type of a section's elements, stored little-endian.
type Elem uint8

// The element types a section may hold. Int is Go's int: 8 bytes on a
// 64-bit machine, 4 on a 32-bit one (a file records the size in its key,
// so a file is never read by a machine of the other size).
const (
	Byte Elem = iota + 1
	Uint32
	Int32
	Float32
	Float64
	Int
)

var elemNames = [...]string{Byte: "byte", Uint32: "uint32", Int32: "int32", Float32: "float32", Float64: "float64", Int: "int"}

// String names the element type as FORMAT.md does ("float32").
func (e Elem) String() string {
	if int(e) < len(elemNames) && elemNames[e] != "" {
		return elemNames[e]
	}
	return fmt.Sprintf("elem(%d)", uint8(e))
}

// ID identifies a section of the index file. Ids are never reused: a
// section dropped leaves its number unused.
type ID uint32

// Dim is a dimension section counts are stated in, fixed by the section
// that defines it (Count.Defines) and read before any section that uses it.
type Dim uint8

// The dimensions of an index file.
const (
	Fixed    Dim = iota // no dimension: the count is Count.Add
	Cases               // cases of the library, defined by CaseEnds
	Terms               // terms of the vocabulary, defined by TermEnds
	Canon               // terms in use (the canonical vocabulary), defined by CanonRaw
	Postings            // entries of all case vectors (= postings), defined by VecKeys
	Any                 // any count: the owner checks it against values
)

var dimNames = [...]string{Fixed: "fixed", Cases: "cases", Terms: "terms", Canon: "canon", Postings: "postings", Any: "any"}

// String names the dimension as FORMAT.md's counts do ("cases").
func (d Dim) String() string {
	if int(d) < len(dimNames) {
		return dimNames[d]
	}
	return fmt.Sprintf("dim(%d)", uint8(d))
}

// Count says how many elements a section holds: Mul × Dim + Add. When
// Defines is set, the section is the one that fixes Dim: Dim is then
// (count − Add) / Mul.
type Count struct {
	Dim     Dim
	Mul     int
	Add     int
	Defines bool
}

// String writes the count as FORMAT.md does: "cases+1", "4×canon+1", "12",
// "any"; a defining section's count is marked "=".
func (c Count) String() string {
	switch c.Dim {
	case Fixed:
		return fmt.Sprint(c.Add)
	case Any:
		return "any"
	}
	s := c.Dim.String()
	if c.Mul != 1 {
		s = fmt.Sprintf("%d×%s", c.Mul, s)
	}
	if c.Add != 0 {
		s += fmt.Sprintf("%+d", c.Add)
	}
	if c.Defines {
		s = "=" + s
	}
	return s
}

// want returns the count a section must have, given the dimensions.
func (c Count) want(dims *[Any]int) int { return c.Mul*dims[c.Dim] + c.Add }

// Section is one row of the index file's table.
type Section struct {
	ID    ID
	Name  string // as FORMAT.md and errors name it
	Elem  Elem
	Count Count
	// Owner is the code that puts and gets the section, in package
	// similarity: "analysis" (cachefile.go, putAnalysis/restore),
	// "weights" (cachefile.go, putWeighted/restoreWeighted) or "cases"
	// (lazy.go, putCaseFields/restoreCaseFields).
	Owner string
	// Group, when not "", makes the section optional: the sections of a
	// group are all present or all absent.
	Group string
}

// The ids of the index file's sections (see IndexSections and FORMAT.md).
const (
	Packed ID = iota + 1
	CaseEnds
	CaseEntries
	CaseLengths
	OwnDocs
	TermBlob
	TermEnds
	SurfaceBlob
	SurfaceEnds
	FirstCase
	ViewWeights
	CanonOfRaw
	CanonRaw
	DocFreq
	IDF
	VecStarts
	VecKeys
	PostStarts
	PostCases
	BlockStarts
	PasteVecWeights
	PastePostWeights
	PasteNorms
	PasteKeyMax
	PasteBlockMax
	RelVecWeights
	RelPostWeights
	RelNorms
	RelKeyMax
	RelScale
	RelScaledMax
	RelProfileNorms
	ExpNorms
	ExpScale
	ExpScaledMax
	ExpProfileNorms
	IDBlob
	IDEnds
	OrgBlob
	OrgEnds
	DateBlob
	DateEnds
	DomainBlob
	DomainEnds
	DomainStarts
	Days
	RelLevels
	ExpLevels
	CasePrints
	WordStarts
	WordWindows
	WordMaxima
)

// Views is the number of views a case is read through (similarity.NumViews),
// of which TextViews are text: the counts of the table are stated in them.
const (
	Views     = 4
	TextViews = 3
)

// Levels is the number of level norms a case keeps per profile
// (similarity's numLevels).
const Levels = 8

func n(d Dim, mul, add int) Count { return Count{Dim: d, Mul: mul, Add: add} }

var (
	any_   = Count{Dim: Any}
	cases  = n(Cases, 1, 0)
	cases1 = n(Cases, 1, 1)
	terms  = n(Terms, 1, 0)
	canon  = n(Canon, 1, 0)
	keys   = n(Canon, Views, 0)
	keys1  = n(Canon, Views, 1)
	posts  = n(Postings, 1, 0)
)

// IndexSections is the index file's table: every section a file may hold,
// in the order a file holds them. The writer and the reader both check a
// file against it; FORMAT.md lists it, and a test checks that the two say
// the same.
var IndexSections = []Section{
	{Packed, "packed", Byte, any_, "analysis", ""},
	{CaseEnds, "case ends", Int, Count{Cases, 1, 1, true}, "analysis", ""},
	{CaseEntries, "case entries", Int32, cases, "analysis", ""},
	{CaseLengths, "case lengths", Int32, n(Cases, TextViews, 0), "analysis", ""},
	{CasePrints, "case prints", Byte, n(Cases, 8, 0), "analysis", ""},
	{OwnDocs, "own documents", Int32, any_, "analysis", ""},
	{TermBlob, "terms", Byte, any_, "analysis", ""},
	{TermEnds, "term ends", Uint32, Count{Terms, 1, 0, true}, "analysis", ""},
	{SurfaceBlob, "surfaces", Byte, any_, "analysis", ""},
	{SurfaceEnds, "surface ends", Uint32, terms, "analysis", ""},
	{FirstCase, "first cases", Int32, terms, "analysis", ""},

	{ViewWeights, "view weights", Float64, n(Fixed, 0, 3*Views), "weights", ""},
	{CanonOfRaw, "canonical ids", Uint32, terms, "weights", ""},
	{CanonRaw, "raw ids", Uint32, Count{Canon, 1, 0, true}, "weights", ""},
	{DocFreq, "document frequencies", Int32, canon, "weights", ""},
	{IDF, "idf", Float32, canon, "weights", ""},
	{VecStarts, "vector starts", Int, cases1, "weights", ""},
	{VecKeys, "vector keys", Uint32, Count{Postings, 1, 0, true}, "weights", ""},
	{PostStarts, "posting starts", Int, keys1, "weights", ""},
	{PostCases, "postings", Uint32, posts, "weights", ""},
	{BlockStarts, "block starts", Uint32, keys1, "weights", ""},
	{PasteVecWeights, "paste vector weights", Float32, posts, "weights", ""},
	{PastePostWeights, "paste posting weights", Float32, posts, "weights", ""},
	{PasteNorms, "paste norms", Float32, cases, "weights", ""},
	{PasteKeyMax, "paste key maxima", Float32, keys, "weights", ""},
	{PasteBlockMax, "paste block maxima", Float32, any_, "weights", ""}, // relate has none,
	{RelVecWeights, "relate vector weights", Float32, posts, "weights", ""},
	{RelPostWeights, "relate posting weights", Float32, posts, "weights", ""},
	{RelNorms, "relate norms", Float32, cases, "weights", ""},
	{RelKeyMax, "relate key maxima", Float32, keys, "weights", ""},
	{RelScale, "relate scales", Float32, cases, "weights", ""},
	{RelScaledMax, "relate scaled maxima", Float32, keys, "weights", ""},
	{RelProfileNorms, "relate profile norms", Float32, cases, "weights", ""},
	{RelLevels, "relate level norms", Byte, n(Cases, Levels, 0), "weights", ""},
	{ExpNorms, "expand norms", Float32, cases, "weights", "expand"},
	{ExpScale, "expand scales", Float32, cases, "weights", "expand"},
	{ExpScaledMax, "expand scaled maxima", Float32, keys, "weights", "expand"},
	{ExpProfileNorms, "expand profile norms", Float32, cases, "weights", "expand"},
	{ExpLevels, "expand level norms", Byte, n(Cases, Levels, 0), "weights", "expand"},
	{WordStarts, "word bound starts", Uint32, n(Canon, 1, 1), "weights", ""},
	{WordWindows, "word bound windows", Uint32, any_, "weights", ""},
	{WordMaxima, "word bound maxima", Float32, any_, "weights", ""},

	{IDBlob, "ids", Byte, any_, "cases", ""},
	{IDEnds, "id ends", Uint32, cases, "cases", ""},
	{OrgBlob, "organisations", Byte, any_, "cases", ""},
	{OrgEnds, "organisation ends", Uint32, cases, "cases", ""},
	{DateBlob, "dates", Byte, any_, "cases", ""},
	{DateEnds, "date ends", Uint32, cases, "cases", ""},
	{DomainBlob, "domains", Byte, any_, "cases", ""},
	{DomainEnds, "domain ends", Uint32, any_, "cases", ""},
	{DomainStarts, "domain starts", Uint32, cases1, "cases", ""},
	{Days, "day numbers", Int32, cases, "cases", ""},
}

// sectionAt maps an id to its row in IndexSections.
var sectionAt = func() map[ID]int {
	m := make(map[ID]int, len(IndexSections))
	for i, s := range IndexSections {
		m[s.ID] = i
	}
	return m
}()

// Lookup returns the row of IndexSections with id.
func Lookup(id ID) (Section, bool) {
	i, ok := sectionAt[id]
	if !ok {
		return Section{}, false
	}
	return IndexSections[i], true
}
