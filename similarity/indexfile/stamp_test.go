package indexfile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
)

// sampleStamp has every field of a stamp set.
func sampleStamp() *indexfile.Stamp {
	return &indexfile.Stamp{
		Salt: "caselink dev abc123 1234 5678", Paths: []string{"lib", "more.jsonl"}, Lenient: true,
		MaxCase: 1 << 20, Taken: 1_700_000_000_000_000_000,
		Files: []caselib.FileStamp{
			{Name: "lib/a.json", Size: 812, MTime: 1_690_000_000_000_000_001, CTime: 1_690_000_000_000_000_002, Ino: 77, Dev: 2049, Mode: 0o644},
			{Name: "lib/gone.json", Err: "stat lib/gone.json: no such file or directory"},
		},
		Sum:     [32]byte{1, 2, 3, 31: 9},
		Sources: []string{"lib/a.json", "more.jsonl"},
		Notes:   "warning: skipped: more.jsonl:3: bad date\n",
		Spans:   []caselib.Span{{Off: 0, Len: 800, File: 0, Line: 1, Sum: 0xdeadbeef}, {Off: 1 << 33, Len: 12, File: 1, Line: 3, Sum: 7}},
	}
}

// A stamp reads back as written, field by field, from its file.
func TestStampRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.lib")
	for _, st := range []*indexfile.Stamp{sampleStamp(), {}} {
		if err := indexfile.WriteStamp(path, st); err != nil {
			t.Fatal(err)
		}
		got, err := indexfile.ReadStamp(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, st) {
			t.Errorf("read %+v, wrote %+v", got, st)
		}
	}
}

// A stamp cut short, with a byte more, of the old format, or damaged is
// refused with ErrBadStamp, so the library is read.
func TestStampRefusesBadFiles(t *testing.T) {
	t.Parallel()
	good := indexfile.AppendStamp(nil, sampleStamp())
	bad := map[string][]byte{
		"empty":        nil,
		"cut":          good[:len(good)-1],
		"a byte more":  append(bytes.Clone(good), 0),
		"byte flipped": func() []byte { b := bytes.Clone(good); b[40] ^= 1; return b }(),
		"format 1":     func() []byte { b := bytes.Clone(good); b[12] = 1; return b }(),
	}
	for name, b := range bad {
		if _, err := indexfile.ParseStamp(b); !errors.Is(err, indexfile.ErrBadStamp) {
			t.Errorf("%s: %v, want ErrBadStamp", name, err)
		}
	}
}

// FuzzReadStamp: whatever the bytes, ParseStamp returns a stamp or
// ErrBadStamp without panicking, and a stamp it accepts is one AppendStamp
// writes byte for byte (the encoding is canonical: nothing read is
// ignored). The seed corpus is a full stamp, an empty one and damaged
// copies; checksums are set right on a copy of each input, so that the
// fuzzer reaches the fields' decoding.
func FuzzReadStamp(f *testing.F) {
	good := indexfile.AppendStamp(nil, sampleStamp())
	f.Add(good)
	f.Add(indexfile.AppendStamp(nil, &indexfile.Stamp{}))
	f.Add(good[:len(good)/2])
	f.Add([]byte("CLSTAMP\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, resealStamp(data)} {
			st, err := indexfile.ParseStamp(b)
			if err != nil {
				if !errors.Is(err, indexfile.ErrBadStamp) {
					t.Fatalf("error %v is not ErrBadStamp", err)
				}
				continue
			}
			if again := indexfile.AppendStamp(nil, st); !bytes.Equal(again, b) {
				t.Fatalf("stamp read from %d bytes writes %d others", len(b), len(again))
			}
		}
	})
}

// resealStamp returns a copy of data with its checksum set right.
func resealStamp(data []byte) []byte {
	b := bytes.Clone(data)
	if len(b) >= 12 {
		crc := caselib.CRC(b[12:])
		b[8], b[9], b[10], b[11] = byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24)
	}
	return b
}

// FORMAT.md's table of the stamp's fields lists Stamp's fields in their
// order, and a span takes the bytes it says.
func TestStampFormatDocument(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "| field | encoding |"):
			in = true
		case in && strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "|---"):
			fields = append(fields, strings.TrimSpace(strings.Split(line, "|")[1]))
		case in && !strings.HasPrefix(line, "|"):
			in = false
		}
	}
	typ := reflect.TypeOf(indexfile.Stamp{})
	var want []string
	for i := range typ.NumField() {
		want = append(want, typ.Field(i).Name)
	}
	if strings.Join(fields, " ") != strings.Join(want, " ") {
		t.Errorf("FORMAT.md lists the stamp's fields %v, Stamp has %v", fields, want)
	}
	m := regexp.MustCompile(`per case \((\d+) bytes\)`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("FORMAT.md does not say a span's size")
	}
	st := sampleStamp()
	before := len(indexfile.AppendStamp(nil, st))
	st.Spans = append(st.Spans, caselib.Span{File: 1})
	if got := len(indexfile.AppendStamp(nil, st)) - before; strconv.Itoa(got) != string(m[1]) {
		t.Errorf("a span takes %d bytes, FORMAT.md says %s", got, m[1])
	}
}
