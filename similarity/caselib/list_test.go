package caselib

import (
	"os"
	"path/filepath"
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
