package caselib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestObjects(t *testing.T) {
	dir := t.TempDir()
	lines := "\xef\xbb\xbf{\"id\":\"A\"}\r\n\n  {\"id\":\"B\", \"x\": [1, 2]}  \n" + `{"id":"C"}`
	doc := "{\n  \"id\": \"D\"\n}\n"
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(lines), 0o644)
	os.WriteFile(filepath.Join(dir, "d.json"), []byte(doc), 0o644)
	os.WriteFile(filepath.Join(dir, "e.json"), []byte(`[{"id":"E1"}, {"id":"E2","x":{"y":[]}}]`), 0o644)
	lib, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = Objects(lib, func(c *Case, obj []byte) error {
		got = append(got, c.ID+"="+string(obj))
		return nil
	})
	want := []string{`A={"id":"A"}`, `B={"id":"B", "x": [1, 2]}`, `C={"id":"C"}`, "D={\n  \"id\": \"D\"\n}", `E1={"id":"E1"}`, `E2={"id":"E2","x":{"y":[]}}`}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Objects = %q, %v\nwant %q", got, err, want)
	}

	// a file changed since the load is refused
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(`{"id":"A"}`+"\n"), 0o644)
	err = Objects(lib, func(*Case, []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Errorf("a changed file gave %v", err)
	}

	// standard input cannot be read again
	in, err := Load([]string{"-"}, LoadOptions{Stdin: strings.NewReader(`{"id":"S"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := Objects(in, func(*Case, []byte) error { return nil }); err == nil {
		t.Error("Objects read standard input again")
	}
}
