package caselib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file that holds a JSON list of cases loads as those cases, and the
// writer splices each changed element in place, every other byte kept.
func TestListFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cases.json")
	in := "[\n  {\n    \"id\": \"L-1\",\n    \"title\": \"one\"\n  },\n  {\"id\": \"L-2\", \"title\": \"two\", \"related\": []},\n  {\"id\": \"L-3\"}\n]\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range lib.Cases {
		got = append(got, c.ID+"@"+c.Loc.String()+":"+c.Title.EN)
	}
	want := []string{"L-1@" + path + ":2:one", "L-2@" + path + ":6:two", "L-3@" + path + ":7:"}
	if len(got) != len(want) {
		t.Fatalf("loaded %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("loaded %q, want %q", got, want)
		}
	}
	if _, err := WriteRelated(lib, map[string][]string{"L-1": {"L-2"}, "L-3": {"L-1"}}); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(path)
	wantOut := "[\n  {\n    \"id\": \"L-1\",\n    \"title\": \"one\",\n    \"related\": [\n      \"L-2\"\n    ]\n  },\n  {\"id\": \"L-2\", \"title\": \"two\", \"related\": []},\n  {\"id\": \"L-3\", \"related\": [\"L-1\"]}\n]\n"
	if string(out) != wantOut {
		t.Fatalf("wrote\n%s\nwant\n%s", out, wantOut)
	}
	// Written again from the updated library: nothing changes.
	if files, err := WriteRelated(lib, map[string][]string{"L-1": {"L-2"}}); err != nil || len(files) != 0 {
		t.Fatalf("second write: %v %v", files, err)
	}
}

// A list with a bad element names the element's case; an empty list is an
// empty file.
func TestListFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ in, want string }{
		"bad.json":   {"[\n{\"id\": \"L-1\"},\n{\"id\": \"L-2\", \"domain\": 3}\n]", "bad.json:3: case \"L-2\": field \"domain\": expected a list of strings, found a number"},
		"empty.json": {"[ ]", "empty.json:1: empty list: no case in it"},
		"list.json":  {"[{\"id\": \"L-1\"}, 5]", "list.json:1:17: expected a JSON object (one case), found a number"},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load([]string{path}, LoadOptions{})
		if err == nil || err.Error() != filepath.Join(dir, tc.want) {
			t.Errorf("%s: error %v, want %s", name, err, filepath.Join(dir, tc.want))
		}
	}
}

// A case over MaxCaseBytes is an error naming its place, whatever the
// layout; a list is limited per element, not as a whole.
func TestMaxCaseBytes(t *testing.T) {
	dir := t.TempDir()
	long := `{"id": "BIG", "summary": "` + strings.Repeat("x", 300) + `"}`
	files := map[string]string{
		"a.jsonl": `{"id": "S-1"}` + "\n" + long + "\n",
		"b.json":  long,
		"c.json":  "[\n" + long + "\n]",
		"d.json":  `[{"id": "L-1"}, {"id": "L-2"}, {"id": "L-3"}, {"id": "L-4"}, {"id": "L-5"}, {"id": "L-6"}, {"id": "L-7"}, {"id": "L-8"}, {"id": "L-9"}, {"id": "L-10"}, {"id": "L-11"}, {"id": "L-12"}, {"id": "L-13"}, {"id": "L-14"}, {"id": "L-15"}, {"id": "L-16"}, {"id": "L-17"}, {"id": "L-18"}, {"id": "L-19"}, {"id": "L-20"}]`, // 320 bytes
	}
	want := map[string]string{
		"a.jsonl": "a.jsonl:2: case is 328 bytes, over the limit of 200 bytes per case",
		"b.json":  "b.json:1: case is 328 bytes, over the limit of 200 bytes per case", // one line: read as JSON Lines
		"c.json":  "c.json:2: case is 328 bytes, over the limit of 200 bytes per case",
		"d.json":  "",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load([]string{path}, LoadOptions{MaxCaseBytes: 200})
		switch {
		case want[name] == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case want[name] != "" && (err == nil || err.Error() != filepath.Join(dir, want[name]) || !IsTooLarge(err)):
			t.Errorf("%s: error %v, want %s", name, err, want[name])
		}
		if _, err := Load([]string{path}, LoadOptions{MaxCaseBytes: -1}); err != nil {
			t.Errorf("%s without a limit: %v", name, err)
		}
	}
}
