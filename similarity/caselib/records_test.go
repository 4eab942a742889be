package caselib

import (
	"errors"
	"iter"
	"strings"
	"testing"
)

func records(rs ...Record) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		buf := make([]byte, 0, 64)
		for _, r := range rs {
			// reuse one buffer, as a database driver does
			buf = append(buf[:0], r.Data...)
			if !yield(Record{Row: r.Row, Data: buf}, nil) {
				return
			}
		}
	}
}

func TestLoadRecords(t *testing.T) {
	lib, err := LoadRecords("table cases", records(
		Record{"1", []byte(`{"id":"B","title":"second","related":["A"]}`)},
		Record{"2", []byte(`{"id": "A", "domain": ["db"]}`)},
	), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lib.Len() != 2 || lib.Cases[0].ID != "B" || lib.Cases[1].ID != "A" {
		t.Fatalf("cases not in record order: %v", lib.Cases)
	}
	if got := lib.ByID("B").Title.EN; got != "second" {
		t.Errorf("title %q", got)
	}
	if got := lib.ByID("A").Loc.String(); got != "table cases row 2" {
		t.Errorf("location %q", got)
	}
	if _, err := WriteRelated(lib, map[string][]string{"A": {"B"}}); err == nil {
		t.Error("WriteRelated wrote a case read from records")
	}
}

func TestLoadRecordsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		recs []Record
		want string
	}{
		{"no id", []Record{{"(0,1)", []byte(`{"title":"x"}`)}}, `table cases row (0,1): field "id": missing`},
		{"bad field", []Record{{"(0,1)", []byte(`{"id":"A","domain":"db"}`)}},
			`table cases row (0,1): case "A": field "domain": expected a list of strings, found a string`},
		{"duplicate", []Record{{"(0,1)", []byte(`{"id":"A"}`)}, {"(0,2)", []byte(`{"id":"A"}`)}},
			`table cases row (0,2): case "A": duplicate id (first at table cases row (0,1))`},
		{"not an object", []Record{{"7", []byte(`[1]`)}}, `table cases row 7: at byte 1: expected a JSON object (one case), found a list`},
		{"not UTF-8", []Record{{"7", []byte("{\"id\":\"\xff\"}")}}, `table cases row 7: file is not UTF-8 (byte 0xFF)`},
	} {
		_, err := LoadRecords("table cases", records(tc.recs...), LoadOptions{})
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}

func TestLoadRecordsTooLarge(t *testing.T) {
	_, err := LoadRecords("t", records(Record{"(0,1)", []byte(`{"id":"A","x":"` + strings.Repeat("y", 100) + `"}`)}), LoadOptions{MaxCaseBytes: 64})
	if !IsTooLarge(err) || err.Error() != "t row (0,1): case is 117 bytes, over the limit of 64 bytes per case" {
		t.Errorf("got %v", err)
	}
}

func TestLoadRecordsLenientAndFailure(t *testing.T) {
	var warned []string
	lib, err := LoadRecords("t", records(
		Record{"1", []byte(`{"id":"A"}`)}, Record{"2", []byte(`{}`)}, Record{"3", []byte(`{"id":"A"}`)}, Record{"4", []byte(`{"id":"B"}`)},
	), LoadOptions{Lenient: true, Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil || lib.Len() != 2 || lib.Skipped != 2 || len(warned) != 2 {
		t.Fatalf("lenient: %v, %d cases, %d skipped, warnings %q", err, lib.Len(), lib.Skipped, warned)
	}
	boom := errors.New("connection lost")
	_, err = LoadRecords("t", func(yield func(Record, error) bool) {
		if yield(Record{"1", []byte(`{"id":"A"}`)}, nil) {
			yield(Record{}, boom)
		}
	}, LoadOptions{Lenient: true})
	if err != boom {
		t.Errorf("a failing producer gave %v, want its own error", err)
	}
}
