//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/caselink/caselink/similarity/caselib"
)

// tempsIn lists the writer's temporary files in dir.
func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.caselink-*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRelateWriteInterrupted: Ctrl-C (SIGINT) while relate --write
// prepares its temporary files leaves none behind and every case file
// whole; the status is 130.
func TestRelateWriteInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 3,000 files")
	}
	bin, err := exec.LookPath("caselink") // the test binary as caselink (testscript.Main)
	if err != nil {
		t.Skip("no caselink command on PATH:", err)
	}
	dir := t.TempDir()
	const n = 3000
	orig := map[string][]byte{}
	words := []string{"pool", "exhausted", "latency", "dns", "timeout", "oom", "disk", "full", "kafka", "lag"}
	for i := range n {
		b := []byte(fmt.Sprintf(`{"id":"R-%04d","title":{"en":"%s %s %s on service %d"}}`, i, words[i%10], words[(i/10)%10], words[(i/100)%10], i%7))
		p := filepath.Join(dir, fmt.Sprintf("R-%04d.json", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		orig[p] = b
	}
	cmd := exec.Command(bin, "relate", "--cases", dir, "--min-score", "0.01", "--write")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err2 error
	deadline := time.Now().Add(60 * time.Second)
wait:
	for {
		select {
		case err2 = <-exited:
			t.Skipf("relate --write finished before any temporary file was seen (%v)", err2)
		default:
		}
		if len(tempsIn(t, dir)) > 0 {
			break wait
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no temporary file within 60s")
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err2 = <-exited
	var ee *exec.ExitError
	if !errors.As(err2, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want status 130; stderr:\n%s", err2, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted: removed") {
		t.Errorf("stderr does not say what was cleaned up:\n%s", stderr.String())
	}
	if left := tempsIn(t, dir); len(left) != 0 {
		t.Fatalf("%d temporary files left, e.g. %s", len(left), left[0])
	}
	// Every file is whole: as it was, or rewritten (it loads).
	changed := 0
	for p, b := range orig {
		now, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(now, b) {
			changed++
		}
	}
	if _, err := caselib.Load([]string{dir}, caselib.LoadOptions{}); err != nil {
		t.Fatalf("the library does not load after the interruption (%d files rewritten): %v", changed, err)
	}
}
