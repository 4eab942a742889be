package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathBesideModuleRoot(t *testing.T) {
	wd, _ := os.Getwd()
	want := filepath.Join(wd, "..", "..", "..", "shared", "data", "x.jsonl")
	if got := Path("data/x.jsonl"); got != want {
		t.Fatalf("Path = %q, want %q", got, want)
	}
}

// TestAbsentData: absent data makes Present false (the caller skips), and
// fails the test when shared data is required.
func TestAbsentData(t *testing.T) {
	missing := Path("no/such/file")
	t.Setenv(RequireEnv, "")
	if Present(t, missing) {
		t.Fatal("Present reported an absent file")
	}
	if !Present(t, "sharedtest.go") {
		t.Fatal("Present missed an existing file")
	}
	t.Setenv(RequireEnv, "1")
	var fake fakeTB
	fake.TB = t
	Present(&fake, missing)
	if !fake.failed {
		t.Fatal("required mode: absent data did not fail the test")
	}
}

// fakeTB records a Fatalf instead of stopping the test.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }
