package caselib

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadFolder(t *testing.T) {
	lib, err := Load([]string{"testdata/ok"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range lib.Cases {
		got = append(got, c.ID+"@"+c.Loc.String())
	}
	want := []string{
		"T-0008@testdata/ok/bom.json:1",
		"T-0001@testdata/ok/compact.json:1",
		"T-0003@testdata/ok/crlf.jsonl:1",
		"T-0004@testdata/ok/crlf.jsonl:3",
		"T-0005@testdata/ok/crlf.jsonl:4",
		"T-0009@testdata/ok/escaped.json:1",
		"T-0006@testdata/ok/lines.txt:1",
		"T-0007@testdata/ok/lines.txt:2",
		"T-0002@testdata/ok/pretty.json:1",
		"T-0013@testdata/ok/sub/bom-pretty.json:1",
		"T-0012@testdata/ok/sub/crlf-pretty.json:1",
		"T-0011@testdata/ok/sub/empty-lists.json:1",
		"T-0010@testdata/ok/sub/tabs.json:1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cases:\n got %q\nwant %q", got, want)
	}
	if lib.Len() != len(want) || lib.Skipped != 0 {
		t.Fatalf("Len %d Skipped %d", lib.Len(), lib.Skipped)
	}
	if c := lib.ByID("T-0005"); c == nil || c.Loc.Line != 4 {
		t.Fatalf("ByID(T-0005) = %+v", c)
	}
	if lib.ByID("nope") != nil || (*Library)(nil).ByID("x") != nil {
		t.Fatal("ByID of a missing id is not nil")
	}
}

func TestLoadPolymorphic(t *testing.T) {
	lib, err := Load([]string{"testdata/ok/pretty.json"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := lib.Cases[0]
	want := &Case{
		ID: "T-0002", Org: "Example Co", Date: "2024-03-05",
		Title:        Text{EN: "Plain string title"},
		Summary:      Text{EN: "A deploy doubled the cache's key size.\nEvictions spiked and the API slowed.", KO: "배포 뒤 키 크기가 두 배가 됐다.\n응답이 느려졌다."},
		SymptomsText: Text{EN: "p99 went to 4s"},
		Trigger:      Text{EN: "deploy 42"},
		Detection:    Text{KO: "경보"},
		Remediation: []Text{{EN: "restarted the cache"}, {EN: "raised the memory limit", KO: "메모리 한도를 올렸다"},
			{EN: "rolled back"}},
		Impact:       Impact{Scope: "All EU customers"},
		Domain:       []string{"caching", "kubernetes"},
		Symptoms:     []string{"high-latency", "oom-killed"},
		Components:   []string{"cache"},
		Contributing: []string{"no-staged-rollout"},
		RootCause:    []string{"capacity", "config-change"},
		RecurrenceOf: "T-0001",
		URL:          "https://example.com/pm/T-0002",
		Sources:      []Source{{URL: "https://example.com/a", Kind: "blog"}, {URL: "https://example.com/b"}},
		Severity:     "major",
	}
	if !sameModel(c, want) {
		t.Fatalf("got  %+v\nwant %+v", *c, *want)
	}
}

// TestDecodeMatchesReference checks the decoder against encoding/json on
// every seed, fixture and (when present) shared library.
func TestDecodeMatchesReference(t *testing.T) {
	paths := []string{"../../seeds", "testdata/ok"}
	for _, rel := range []string{"incidents/cases.jsonl", "bench/gitbugs-hadoop/cases.jsonl",
		"bench/semeval2016-b/cases.jsonl", "incidents-judged/cases"} {
		if p := sharedData(t, rel); p != "" {
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			lib, err := Load([]string{p}, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			byFile := map[*fileState]map[int][]byte{}
			for _, c := range lib.Cases {
				objs := byFile[c.src]
				if objs == nil {
					objs = objects(t, mustRead(t, c.src.path), c.src.lines)
					byFile[c.src] = objs
				}
				want := refCase(t, objs[c.Loc.Line])
				if !sameModel(c, want) {
					t.Fatalf("%s: decoded\n%+v\nreference\n%+v", c.Loc, *c, *want)
				}
			}
		})
	}
}

func TestLoadSeeds(t *testing.T) {
	lib, err := LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range lib.Cases {
		ids = append(ids, c.ID)
		if c.Loc.File != "seeds/"+c.ID+".json" || c.Loc.Line != 1 {
			t.Errorf("%s: Loc %v", c.ID, c.Loc)
		}
		if c.Title.EN == "" || c.Title.KO == "" || c.Summary.EN == "" || len(c.RootCause) != 1 || len(c.Remediation) == 0 {
			t.Errorf("%s: fields missing: %+v", c.ID, *c)
		}
	}
	if want := []string{"IL-0100", "IL-0191", "IL-0194", "IL-0371"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	// The embedded seeds are the files on disk.
	disk, err := Load([]string{"../../seeds"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range disk.Cases {
		if !sameModel(c, lib.Cases[i]) {
			t.Errorf("%s differs between disk and embedded seeds", c.ID)
		}
	}
}

func TestLoadOrderAndStdin(t *testing.T) {
	in := strings.NewReader("\n{\"id\":\"S-1\"}\r\n\r\n{\"id\": \"S-2\", \"related\": [\"S-1\"]}\n")
	lib, err := Load([]string{"testdata/ok/lines.txt", "-", "testdata/ok/compact.json"}, LoadOptions{Stdin: in})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range lib.Cases {
		got = append(got, c.ID+"@"+c.Loc.String())
	}
	want := []string{"T-0006@testdata/ok/lines.txt:1", "T-0007@testdata/ok/lines.txt:2",
		"S-1@<stdin>:2", "S-2@<stdin>:4", "T-0001@testdata/ok/compact.json:1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// A pretty-printed object on stdin is one case.
	lib, err = Load([]string{"-"}, LoadOptions{Stdin: bytes.NewReader(mustRead(t, "testdata/ok/pretty.json"))})
	if err != nil || len(lib.Cases) != 1 || lib.Cases[0].ID != "T-0002" {
		t.Fatalf("pretty stdin: %v %v", lib, err)
	}
}

// TestLoadChunks feeds JSON Lines larger than a chunk, with a line longer
// than a chunk, and checks order and line numbers.
func TestLoadChunks(t *testing.T) {
	var b bytes.Buffer
	n := 0
	for b.Len() < 3*chunkSize {
		n++
		if n%7 == 0 {
			b.WriteString("\n") // blank line
		}
		summary := "short"
		if n == 500 {
			summary = strings.Repeat("long ", chunkSize/4) // ~1.25 chunks
		}
		fmt.Fprintf(&b, `{"id": "C-%d", "summary": {"en": %q, "ko": null}, "related": []}`+"\n", n, summary)
	}
	p := filepath.Join(t.TempDir(), "many.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := Load([]string{p}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Cases) != n {
		t.Fatalf("%d cases, want %d", len(lib.Cases), n)
	}
	lines := bytes.Split(b.Bytes(), nl)
	for i, c := range lib.Cases {
		if c.ID != fmt.Sprintf("C-%d", i+1) {
			t.Fatalf("case %d is %s", i, c.ID)
		}
		if !bytes.Contains(lines[c.Loc.Line-1], []byte(`"`+c.ID+`"`)) {
			t.Fatalf("%s: line %d does not hold it", c.ID, c.Loc.Line)
		}
	}
	if len(lib.ByID("C-500").Summary.EN) < chunkSize {
		t.Fatal("long line truncated")
	}
}

// TestLoadErrors: one fixture per error class; the message names the file
// and the line, field or both locations.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		path string
		want string // exact message
	}{
		{"syntax.jsonl", `testdata/bad/syntax.jsonl:2:31: case "B-0002": invalid character '"' after object member (expected ',' or '}')`},
		{"syntax-pretty.json", `testdata/bad/syntax-pretty.json:4:25: case "B-0003": control character U+000A in string (write it as an escape)`},
		{"trailing.json", `testdata/bad/trailing.json:29:1: case "B-0010": unexpected data after the case object (a .json file holds one JSON object, or one object per line)`},
		{"notobject.json", `testdata/bad/notobject.json: not a case file (a case file holds a JSON object, a list of them, or one object per line)`},
		{"wrongtype.jsonl", `testdata/bad/wrongtype.jsonl:2: case "B-0004": field "domain": expected a list of strings, found a string`},
		{"wrongtype-tag.json", `testdata/bad/wrongtype-tag.json:22: case "B-0005": field "symptoms[1]": expected a string, found a number`},
		{"wrongtype-title.json", `testdata/bad/wrongtype-title.json:1: case "B-0006": field "title": expected a string or an object with "en" and "ko", found a number`},
		{"dupfield.json", `testdata/bad/dupfield.json:1: case "B-0013": field "title": appears twice in the object`},
		{"missing-id.json", `testdata/bad/missing-id.json:1: field "id": missing`},
		{"empty-id.jsonl", `testdata/bad/empty-id.jsonl:2: field "id": empty`},
		{"dup.jsonl", `testdata/bad/dup.jsonl:3: case "B-0001": duplicate id (first at testdata/bad/dup.jsonl:1)`},
		{"dupdir", `testdata/bad/dupdir/b.json:1: case "B-0008": duplicate id (first at testdata/bad/dupdir/a.json:1)`},
		{"notutf8.json", `testdata/bad/notutf8.json:1:31: file is not UTF-8 (byte 0xE9)`},
		{"empty.json", `testdata/bad/empty.json: empty file: no case in it`},
		{"blank.jsonl", `testdata/bad/blank.jsonl: blank file: no case in it`},
		{"nocases", `testdata/bad/nocases: folder holds no case files (.json, .jsonl, .txt)`},
		{"missing.json", `testdata/bad/missing.json: cannot read: no such file or directory`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			lib, err := Load([]string{filepath.Join("testdata/bad", tt.path)}, LoadOptions{})
			if err == nil {
				t.Fatalf("loaded %d cases, want an error", len(lib.Cases))
			}
			if err.Error() != tt.want {
				t.Fatalf("error\n got %s\nwant %s", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not *Error", err)
			}
			if strings.Contains(err.Error(), "duplicate") && e.Other == nil {
				t.Fatal("duplicate without Other")
			}
		})
	}
	_, err := Load([]string{"testdata/bad/missing.json"}, LoadOptions{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v does not unwrap to fs.ErrNotExist", err)
	}
}

// TestLoadLenient loads every bad fixture next to good ones and checks what
// is kept, skipped and warned about.
func TestLoadLenient(t *testing.T) {
	var warns []string
	opts := LoadOptions{Lenient: true, Warn: func(err error) { warns = append(warns, err.Error()) }}
	lib, err := Load([]string{"testdata/bad", "testdata/bad/nocases", "testdata/ok/compact.json"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range lib.Cases {
		ids = append(ids, c.ID+"@"+c.Loc.String())
	}
	want := []string{
		"B-0001@testdata/bad/dup.jsonl:1",
		"B-0007@testdata/bad/dup.jsonl:2",
		"B-0008@testdata/bad/dupdir/a.json:1",
		// B-0001 of empty-id.jsonl:1 and syntax.jsonl:1 and wrongtype.jsonl:1 are duplicates
		"T-0001@testdata/ok/compact.json:1",
	}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("kept\n%q\nwant\n%q", ids, want)
	}
	if lib.Skipped != len(warns) || len(warns) != 19 {
		t.Fatalf("Skipped %d, %d warnings:\n%s", lib.Skipped, len(warns), strings.Join(warns, "\n"))
	}
	for _, w := range []string{"bad/blank.jsonl: blank file", "bad/empty.json: empty file", "bad/notutf8.json:1:31: file is not UTF-8",
		"bad/dupdir/b.json:1: case \"B-0008\": duplicate id", "bad/nocases: folder holds no case files", `bad/wrongtype.jsonl:2: case "B-0004"`} {
		found := false
		for _, got := range warns {
			found = found || strings.Contains(got, w)
		}
		if !found {
			t.Errorf("no warning like %q in\n%s", w, strings.Join(warns, "\n"))
		}
	}
	// A missing path stops even a lenient load.
	if _, err := Load([]string{"testdata/ok", "testdata/nope"}, opts); err == nil {
		t.Fatal("missing path accepted")
	}
}

// TestLenientFileSkippedWhole: a JSON Lines file with an invalid UTF-8 line
// after good ones is dropped whole, and its ids are free again.
func TestLenientFileSkippedWhole(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte("{\"id\":\"X-1\"}\n{\"id\":\"X-2\"}\n{\"id\":\"X-3\",\"org\":\"\xff\"}\n"), 0o644)
	os.WriteFile(b, []byte("{\"id\":\"X-1\"}\n"), 0o644)
	var warns []error
	lib, err := Load([]string{a, b}, LoadOptions{Lenient: true, Warn: func(err error) { warns = append(warns, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Cases) != 1 || lib.Cases[0].Loc.File != b || lib.Skipped != 1 || len(warns) != 1 {
		t.Fatalf("cases %v skipped %d warns %v", lib.Cases, lib.Skipped, warns)
	}
	if !strings.Contains(warns[0].Error(), "a.jsonl:3:20: file is not UTF-8") {
		t.Fatalf("warning %v", warns[0])
	}
	if _, err := Load([]string{a, b}, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "a.jsonl:3:20") {
		t.Fatalf("strict: %v", err)
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{File: "f.jsonl", Line: 3, Col: 9, ID: "A", Field: "title.en", Msg: "bad"}
	if got := e.Error(); got != `f.jsonl:3:9: case "A": field "title.en": bad` {
		t.Fatal(got)
	}
	e = &Error{File: "f", Msg: "m", Err: errors.New("cause")}
	if got := e.Error(); got != "f: m: cause" || e.Unwrap() == nil {
		t.Fatal(got)
	}
}

// TestLoadRefusesWrongTypes: every field caselink reads, given a value of
// the wrong type (a null inside a list included: relate --write would drop
// it), is refused with the one-line error naming file, line, case id and
// field; so is an id that cannot serve as an address.
func TestLoadRefusesWrongTypes(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	tests := []struct {
		name, line, want string
	}{
		{"timeline list of numbers", `{"id":"A","timeline":[1]}`, `case "A": field "timeline[0]": expected an event (an object or a string), found a number`},
		{"timeline number", `{"id":"A","timeline":5}`, `case "A": field "timeline": expected an object with "detected_after" and "resolved_after", or a list of events, found a number`},
		{"resolved_after number", `{"id":"A","timeline":{"resolved_after":5}}`, `case "A": field "timeline.resolved_after": expected a string, found a number`},
		{"detected_after list", `{"id":"A","timeline":{"detected_after":["2m"]}}`, `case "A": field "timeline.detected_after": expected a string, found a list`},
		{"null in related", `{"id":"A","related":["B",null]}`, `case "A": field "related[1]": expected a string, found null`},
		{"null in symptoms", `{"id":"A","symptoms":[null]}`, `case "A": field "symptoms[0]": expected a string, found null`},
		{"null in domain", `{"id":"A","domain":["db",null]}`, `case "A": field "domain[1]": expected a string, found null`},
		{"null in components", `{"id":"A","components":[null]}`, `case "A": field "components[0]": expected a string, found null`},
		{"null in contributing", `{"id":"A","contributing":[null]}`, `case "A": field "contributing[0]": expected a string, found null`},
		{"null in root_cause", `{"id":"A","root_cause":[null]}`, `case "A": field "root_cause[0]": expected a string, found null`},
		{"null in remediation", `{"id":"A","remediation":["rolled back",null]}`, `case "A": field "remediation[1]": expected a string, a {"text": …} object or an {"en", "ko"} object, found null`},
		{"null in action_items", `{"id":"A","action_items":[null]}`, `case "A": field "action_items[0]": expected a string, a {"text": …} object or an {"en", "ko"} object, found null`},
		{"null in sources", `{"id":"A","sources":[null]}`, `case "A": field "sources[0]": expected an object with "url" and "kind", found null`},
		{"related number", `{"id":"A","related":[1,2]}`, `case "A": field "related[0]": expected a string, found a number`},
		{"impact users number", `{"id":"A","impact":{"users":3}}`, `case "A": field "impact.users": expected a string, found a number`},
		{"severity number", `{"id":"A","severity":2}`, `case "A": field "severity": expected a string, found a number`},
		{"id with a slash", `{"id":"IL/0191"}`, `case "IL/0191": field "id": has a '/': an id is part of the case's address (/cases/ID), so it cannot hold one`},
		{"id with a leading space", `{"id":" IL-0191"}`, `case " IL-0191": field "id": begins or ends with a space: remove it (ids are compared exactly)`},
		{"id with a trailing space", `{"id":"IL-0191 "}`, `case "IL-0191 ": field "id": begins or ends with a space: remove it (ids are compared exactly)`},
		{"id too long", `{"id":"` + long + `"}`, `case "` + long[:60] + `…": field "id": is 100000 bytes long, over the limit of 200`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.jsonl")
			if err := os.WriteFile(p, []byte(`{"id":"OK"}`+"\n"+tt.line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			lib, err := Load([]string{p}, LoadOptions{})
			if err == nil {
				t.Fatalf("loaded %d cases, want an error", len(lib.Cases))
			}
			if want := p + ":2: " + tt.want; err.Error() != want {
				t.Fatalf("error\n got %s\nwant %s", err, want)
			}
		})
	}
	// The shapes that stay accepted: null for a whole field, a timeline of
	// events, an id of 200 bytes.
	ok := `{"id":"` + strings.Repeat("y", MaxIDLen) + `","related":null,"timeline":[{"at":"10:00"},"paged"],"remediation":null}` + "\n" +
		`{"id":"B","timeline":{"detected_after":null,"resolved_after":"3h","events":[1]}}` + "\n"
	p := filepath.Join(dir, "ok.jsonl")
	os.WriteFile(p, []byte(ok), 0o644)
	lib, err := Load([]string{p}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := lib.ByID("B").ResolvedAfter; got != "3h" {
		t.Fatalf("resolved_after %q, want 3h", got)
	}
}

// TestLoadOddSpaceLine: a JSON Lines file with a line of only space that JSON
// does not allow (a form feed between pages, a vertical tab, a no-break
// space pasted from a document) gets a one-line error naming the file, the
// line, the column and the character; a lenient load skips the line and keeps
// the cases. Such a line used to crash the loader (an index out of range in
// a decoding goroutine, found by FuzzLoad).
func TestLoadOddSpaceLine(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{"\v", "lib.jsonl:2:1: line of blank space holds U+000B, which JSON does not read as space: remove it"},
		{"\f", "lib.jsonl:2:1: line of blank space holds U+000C, which JSON does not read as space: remove it"},
		{" \t\u00a0 ", "lib.jsonl:2:3: line of blank space holds U+00A0, which JSON does not read as space: remove it"},
		{"\u0085\r", "lib.jsonl:2:1: line of blank space holds U+0085, which JSON does not read as space: remove it"},
		{"\u2028", "lib.jsonl:2:1: line of blank space holds U+2028, which JSON does not read as space: remove it"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.line), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "lib.jsonl")
			data := "{\"id\":\"A-1\"}\n" + tt.line + "\n{\"id\":\"A-2\"}\n"
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load([]string{path}, LoadOptions{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v (%T), want an *Error", err, err)
			}
			if got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)); got != tt.want {
				t.Fatalf("error\n got %s\nwant %s", got, tt.want)
			}
			var warns []string
			lib, err := Load([]string{path}, LoadOptions{Lenient: true, Warn: func(err error) { warns = append(warns, err.Error()) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(lib.Cases) != 2 || lib.Skipped != 1 || len(warns) != 1 {
				t.Fatalf("lenient load kept %d cases, skipped %d, warned %q; want 2, 1 and one warning", len(lib.Cases), lib.Skipped, warns)
			}
		})
	}
}
