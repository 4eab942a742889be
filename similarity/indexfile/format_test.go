package indexfile_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
)

// specRow is a row of FORMAT.md's table of sections.
type specRow struct {
	id                       int
	name, elem, count, owner string
}

// readSpec parses FORMAT.md: its table of sections and its table of
// element types (code -> name, size on this machine).
func readSpec(t *testing.T) (rows []specRow, elems map[int]string) {
	t.Helper()
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	elems = map[int]string{}
	elemRow := regexp.MustCompile(`^\| (\d) \| (\w+) +\|`)
	inSections := false
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| id | name |") {
			inSections = true
			continue
		}
		if inSections && !strings.HasPrefix(line, "|") {
			inSections = false
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if inSections {
			id, err := strconv.Atoi(cells[0])
			if err != nil {
				continue // the line under the head
			}
			rows = append(rows, specRow{id, cells[1], cells[2], cells[3], cells[4]})
		} else if m := elemRow.FindStringSubmatch(line); m != nil {
			code, _ := strconv.Atoi(m[1])
			elems[code] = m[2]
		}
	}
	if len(rows) == 0 || len(elems) == 0 {
		t.Fatal("FORMAT.md: no table of sections or of element types")
	}
	return rows, elems
}

// FORMAT.md lists the sections the code's table has, with the same ids,
// names, element types, counts and owners.
func TestFormatDocumentMatchesTable(t *testing.T) {
	t.Parallel()
	rows, elems := readSpec(t)
	if len(rows) != len(indexfile.IndexSections) {
		t.Fatalf("FORMAT.md lists %d sections, the code %d", len(rows), len(indexfile.IndexSections))
	}
	for i, s := range indexfile.IndexSections {
		owner := s.Owner
		if s.Group != "" {
			owner += ", " + s.Group
		}
		want := specRow{int(s.ID), s.Name, s.Elem.String(), s.Count.String(), owner}
		if got := rows[i]; got != want {
			t.Errorf("FORMAT.md row %d: %+v, the code has %+v", i+1, got, want)
		}
	}
	for code := indexfile.Byte; code <= indexfile.Int; code++ {
		if elems[int(code)] != code.String() {
			t.Errorf("FORMAT.md: element type %d is %q, the code says %q", code, elems[int(code)], code)
		}
	}
}

// seedFile saves the index of the embedded seeds and returns the file, its
// key and the seeds' ids.
func seedFile(t testing.TB) (data []byte, key [32]byte, ids []string) {
	t.Helper()
	lib, err := caselib.LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	cfg := similarity.DefaultConfig()
	ix, err := similarity.BuildCases(lib.Cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	key = similarity.CacheKey(similarity.Documents(lib.Cases), cfg, "test")
	path := filepath.Join(t.TempDir(), "seeds.idx")
	if err := ix.SaveCache(path, key); err != nil {
		t.Fatal(err)
	}
	if data, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	for _, c := range lib.Cases {
		ids = append(ids, c.ID)
	}
	return data, key, ids
}

// A file the code wrote decodes by FORMAT.md alone (offsets, element
// sizes, the table of sections and its counts), without the package's
// reader, and holds the library's case ids in order.
func TestDecodeBySpec(t *testing.T) {
	t.Parallel()
	rows, elems := readSpec(t)
	data, key, ids := seedFile(t)
	le := binary.LittleEndian
	crc := func(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }
	if string(data[:8]) != "CLINDEX\n" || le.Uint32(data[8:]) != indexfile.Format || !bytes.Equal(data[16:48], key[:]) {
		t.Fatalf("header: % x", data[:48])
	}
	if le.Uint64(data[48:]) != uint64(len(data)-64) || le.Uint32(data[56:]) != crc(data[64:]) || le.Uint32(data[60:]) != crc(data[:60]) {
		t.Fatal("header: body length or checksums are not as FORMAT.md says")
	}
	size := map[string]int{"byte": 1, "uint32": 4, "int32": 4, "float32": 4, "float64": 8, "int": strconv.IntSize / 8}
	n := int(le.Uint32(data[12:]))
	at := 64 + (n*24+7)/8*8
	dims := map[string]int{}
	countOf := regexp.MustCompile(`^(=)?(?:(\d+)×)?([a-z]+)([+-]\d+)?$`)
	sections := map[string][]byte{}
	e := 0
	for _, r := range rows {
		ent := data[64+e*24:]
		if e >= n || int(le.Uint32(ent)) != r.id {
			if strings.Contains(r.owner, ", ") { // a group's section may be absent
				continue
			}
			t.Fatalf("section %q (id %d) missing at table entry %d", r.name, r.id, e)
		}
		if elems[int(ent[4])] != r.elem {
			t.Fatalf("section %q: element type %d, FORMAT.md says %s", r.name, ent[4], r.elem)
		}
		off, count := int(le.Uint64(ent[8:])), int(le.Uint64(ent[16:]))
		if ent[5]&1 != 0 { // nil
			if off != 0 || count != 0 {
				t.Fatalf("section %q: nil with offset %d, count %d", r.name, off, count)
			}
		} else {
			if off != at {
				t.Fatalf("section %q at %d, want %d (right after the one before, padded)", r.name, off, at)
			}
			nb := count * size[r.elem]
			sections[r.name] = data[off : off+nb]
			at = off + (nb+7)/8*8
			if pad := data[off+nb : at]; bytes.Count(pad, []byte{0}) != len(pad) {
				t.Fatalf("section %q: padding % x", r.name, pad)
			}
		}
		if fixed, err := strconv.Atoi(r.count); err == nil {
			if count != fixed {
				t.Errorf("section %q: %d values, FORMAT.md says %d", r.name, count, fixed)
			}
		} else if r.count != "any" {
			m := countOf.FindStringSubmatch(r.count)
			if m == nil {
				t.Fatalf("section %q: count %q is not in FORMAT.md's notation", r.name, r.count)
			}
			mul, add := 1, 0
			if m[2] != "" {
				mul, _ = strconv.Atoi(m[2])
			}
			if m[4] != "" {
				add, _ = strconv.Atoi(m[4])
			}
			switch {
			case m[1] == "=":
				dims[m[3]] = (count - add) / mul
			default:
				d, ok := dims[m[3]]
				if !ok {
					t.Fatalf("section %q counts in %s before a section fixes it", r.name, m[3])
				}
				if count != mul*d+add {
					t.Errorf("section %q: %d values, FORMAT.md says %s = %d", r.name, count, r.count, mul*d+add)
				}
			}
		}
		e++
	}
	if e != n || at != len(data) {
		t.Fatalf("%d of %d table entries read, sections end at %d of %d bytes", e, n, at, len(data))
	}
	if dims["cases"] != len(ids) {
		t.Errorf("the file has %d cases, the library %d", dims["cases"], len(ids))
	}
	blob, ends := sections["ids"], sections["id ends"]
	var got []string
	for i, from := 0, uint32(0); i+4 <= len(ends); i += 4 {
		to := le.Uint32(ends[i:])
		got = append(got, string(blob[from:to]))
		from = to
	}
	if strings.Join(got, " ") != strings.Join(ids, " ") {
		t.Errorf("ids decoded by FORMAT.md: %q, want %q", got, ids)
	}
}

// entryAt returns the table entry of the section with id in data.
func entryAt(t *testing.T, data []byte, id indexfile.ID) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[12:]))
	for i := range n {
		if ent := data[64+i*24 : 64+i*24+24]; indexfile.ID(binary.LittleEndian.Uint32(ent)) == id {
			return ent
		}
	}
	t.Fatalf("no section %d", id)
	return nil
}

// A section swapped with another of the same length and type, missing, of
// another type or another count is refused at open, by name, even under
// right checksums.
func TestMisplacedSectionIsNamed(t *testing.T) {
	t.Parallel()
	good, key, _ := seedFile(t)
	if _, err := indexfile.Parse(good, key); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, section string
		damage        func(t *testing.T, b []byte)
	}{
		{"paste and relate norms swapped", "paste norms", func(t *testing.T, b []byte) {
			p, r := entryAt(t, b, indexfile.PasteNorms), entryAt(t, b, indexfile.RelNorms)
			var tmp [24]byte
			copy(tmp[:], p)
			copy(p, r)
			copy(r, tmp[:])
		}},
		{"idf missing", "idf", func(t *testing.T, b []byte) {
			binary.LittleEndian.PutUint32(entryAt(t, b, indexfile.IDF), 999)
		}},
		{"idf read as int32", "idf", func(t *testing.T, b []byte) {
			entryAt(t, b, indexfile.IDF)[4] = byte(indexfile.Int32)
		}},
		{"one idf too few", "idf", func(t *testing.T, b []byte) {
			ent := entryAt(t, b, indexfile.IDF)
			binary.LittleEndian.PutUint64(ent[16:], binary.LittleEndian.Uint64(ent[16:])-1)
		}},
		{"a case too many", "case entries", func(t *testing.T, b []byte) {
			ent := entryAt(t, b, indexfile.CaseEnds)
			binary.LittleEndian.PutUint64(ent[16:], binary.LittleEndian.Uint64(ent[16:])+1)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := bytes.Clone(good)
			c.damage(t, bad)
			indexfile.Reseal(bad)
			_, err := indexfile.Parse(bad, key)
			var se *indexfile.SectionError
			if !errors.As(err, &se) || se.Section != c.section || !errors.Is(err, indexfile.ErrCorrupt) {
				t.Fatalf("Parse gives %v, want a SectionError naming %q", err, c.section)
			}
			t.Log(err)
		})
	}
}

// The writer refuses a section of the wrong element type, one put twice,
// and a file missing a section, rather than write what no reader takes.
func TestWriterChecksTheTable(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var w indexfile.Writer
	indexfile.Put(&w, indexfile.IDF, []float64{1})
	if err := w.WriteTo(&buf, [32]byte{}); err == nil || !strings.Contains(err.Error(), `"idf" holds float32, not float64`) {
		t.Errorf("wrong type: %v", err)
	}
	var w2 indexfile.Writer
	indexfile.Put(&w2, indexfile.Packed, []byte{})
	if err := w2.WriteTo(&buf, [32]byte{}); err == nil || !strings.Contains(err.Error(), `"case ends": missing`) {
		t.Errorf("missing sections: %v", err)
	}
}
