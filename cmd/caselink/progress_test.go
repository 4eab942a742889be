//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the controller, which reads what is
// written to the terminal, and the terminal itself.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var unlock int32
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, ctl.Fd(), unix.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock pty: %v", e)
	}
	n, err := unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	return ctl, tty
}

// library writes n short cases, one JSON object a line, and returns the file.
func library(t *testing.T, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"P-%04d","title":{"en":"Service %d degraded"},"summary":{"en":"Requests to service %d failed."},"related":[]}`+"\n", i, i, i%50)
	}
	f := filepath.Join(t.TempDir(), "lib.jsonl")
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// onTerminal runs caselink with stderr on a pseudo-terminal and returns
// what the terminal received.
func onTerminal(t *testing.T, args ...string) string {
	t.Helper()
	ctl, tty := openPTY(t)
	defer ctl.Close()
	got := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, ctl) // ends with EIO once the terminal is closed
		got <- b.String()
	}()
	if code := run(append([]string{"caselink"}, args...), strings.NewReader(""), io.Discard, tty); code != 0 {
		t.Fatalf("caselink %v: exit %d", args, code)
	}
	tty.Close()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("terminal output never ended")
		return ""
	}
}

// TestProgressOnTerminal: on a real terminal (a pseudo-terminal here) relate
// and dupes show their progress lines, and --quiet hides them;
// load_progress.txtar checks that piped stderr gets none. The delay of a
// second is lifted, so the seed library's short work shows.
func TestProgressOnTerminal(t *testing.T) {
	t.Setenv(progressEnv, "")
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0

	lib := library(t, 600) // over 512 cases: indexing reports too
	out := onTerminal(t, "relate", "--cases", lib, "--top", "1")
	for _, want := range []string{"\rindexing: 600 cases in ", "\rrelate: "} {
		if !strings.Contains(out, want) {
			t.Errorf("relate on a terminal: no %q line in %q", want, out)
		}
	}
	if !strings.Contains(out, " cases in ") {
		t.Errorf("relate on a terminal: progress line never finished: %q", out)
	}
	if out := onTerminal(t, "dupes", "--cases", lib); !strings.Contains(out, "\rindexing: 600 cases in ") || !strings.Contains(out, "\rdupes: ") {
		t.Errorf("dupes on a terminal: no progress in %q", out)
	}
	if out := onTerminal(t, "relate", "--cases", lib, "--top", "1", "--quiet"); out != "" {
		t.Errorf("relate --quiet on a terminal printed %q", out)
	}

	// The delay holds: work shorter than it shows nothing.
	progressDelay = time.Hour
	if out := onTerminal(t, "relate", "--cases", lib, "--top", "1"); out != "" {
		t.Errorf("relate under the delay printed %q", out)
	}
}
