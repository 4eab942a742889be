package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/curate"
)

// A decision recorded by the CLI keeps the decisions file's mode: the file
// is committed with the library, so it must stay readable by all.
func TestDupesDecisionKeepsFileMode(t *testing.T) {
	dir := t.TempDir()
	for id, title := range map[string]string{"A": "Load balancer certificate expired", "B": "Certificate on the load balancer expired"} {
		c := `{"id":"` + id + `","org":"Acme","date":"2024-01-10","title":{"en":"` + title + `"}}`
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, curate.DecisionsName)
	if err := os.WriteFile(path, []byte("# kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, verdict := range []string{"--dismiss", "--confirm", "--undo"} {
		var out, errb bytes.Buffer
		if code := run([]string{"caselink", "dupes", "--cases", dir, verdict, "A", verdict, "B"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", verdict, code, errb.String())
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Fatalf("after %s the decisions file has mode %v, want 0644", verdict, st.Mode().Perm())
		}
	}
	if data, _ := os.ReadFile(path); string(data) != "# kept\n" {
		t.Fatalf("after dismiss, confirm and undo the file holds %q, want only its comment", data)
	}
}
