package caselib

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoveTempsMidWrite: a signal arriving while WriteRelated prepares
// its temporary files (RemoveTemps, as caselink relate --write calls on
// Ctrl-C) leaves no temporary file and every original whole.
func TestRemoveTempsMidWrite(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	orig := map[string][]byte{}
	related := map[string][]string{}
	for i := range 20 {
		p := filepath.Join(dir, fmt.Sprintf("c%02d.json", i))
		b := []byte(fmt.Sprintf(`{"id":"C%02d","related":[]}`, i))
		os.WriteFile(p, b, 0o644)
		paths, orig[p] = append(paths, p), b
		related[fmt.Sprintf("C%02d", i)] = []string{"C99"}
	}
	lib, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prepared := 0
	testHook = func(step, file string) error {
		if step == "sync" {
			if prepared++; prepared == 7 {
				if n := RemoveTemps(); n != 7 {
					t.Errorf("RemoveTemps removed %d, want the 7 prepared", n)
				}
			}
		}
		return nil
	}
	defer func() { testHook = nil; reopenTemps() }()
	if _, err := WriteRelated(lib, related); err == nil || !strings.Contains(err.Error(), "stopping") {
		t.Fatalf("WriteRelated after RemoveTemps: %v, want it stopped", err)
	}
	if left := tmpFiles(t, dir); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	for _, p := range paths {
		if !bytes.Equal(mustRead(t, p), orig[p]) {
			t.Errorf("%s changed", p)
		}
	}
}

// TestSweepTemps: a temporary file of a caselink process that is gone is
// removed; one of a live process, or not named as caselink names its own,
// is left alone.
func TestSweepTemps(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	dead := cmd.Process.Pid
	dir := t.TempDir()
	names := map[string]bool{ // name → swept
		fmt.Sprintf(".c1.json.caselink-%d.123456.tmp", dead):        true,
		fmt.Sprintf(".c2.json.caselink-%d.99.tmp", os.Getppid()):    false, // alive
		fmt.Sprintf(".c3.json.caselink-%d.123456.tmp", os.Getpid()): false, // this process's own
		".c4.json.123456.tmp":                                       false, // someone else's
		fmt.Sprintf("c5.json.caselink-%d.123456.tmp", dead):         false, // not a dot file
		fmt.Sprintf(".c6.json.caselink-%d.12x.tmp", dead):           false,
		fmt.Sprintf(".c7.json.caselink-%d.123456.tmp.keep", dead):   false,
		fmt.Sprintf(".notes.caselink-%d.txt", dead):                 false,
		fmt.Sprintf(".c8.jsonl.caselink-%d.3141592653.tmp", dead):   true,
		fmt.Sprintf(".c9 with space.json.caselink-%d.42.tmp", dead): true,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, fmt.Sprintf(".d.caselink-%d.1.tmp", dead)), 0o755) // a folder is not a temp file
	removed := SweepTemps(dir)
	for n, swept := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if gone := os.IsNotExist(err); gone != swept {
			t.Errorf("%s: removed %v, want %v", n, gone, swept)
		}
	}
	if len(removed) != 3 {
		t.Errorf("SweepTemps reported %v", removed)
	}
}
