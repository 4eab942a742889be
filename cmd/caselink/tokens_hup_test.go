//go:build unix

package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
)

// TestTokensReloadOnSIGHUP: SIGHUP makes serve read its tokens file again:
// a revoked token is refused and a new one let in, without a restart; a bad
// file keeps the tokens in force, and the log says which happened.
func TestTokensReloadOnSIGHUP(t *testing.T) {
	const oldTok, newTok = "read-old-0123456789abcdef", "read-new-0123456789abcdef"
	path := filepath.Join(t.TempDir(), "tokens")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("read " + oldTok + "\n")
	tokens, err := serve.LoadTokens(path)
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	srv, err := serve.New(serve.Options{PollInterval: -1, Log: &log, Service: serve.ServiceOptions{Tokens: tokens}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	status := func(tok string) int {
		req, _ := http.NewRequest("GET", ts.URL+"/api/cases", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	hup := func(wantLog string) {
		t.Helper()
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(log.String(), wantLog); {
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the log after SIGHUP:\n%s", wantLog, log.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	defer reloadTokensOnHUP(srv, path)()
	if status(oldTok) != 200 || status(newTok) != 401 {
		t.Fatal("before the reload: want the old token in, the new one out")
	}
	write("read " + newTok + "\n")
	hup("tokens reloaded from " + path + ": 1 token(s)")
	if got := status(oldTok); got != 401 {
		t.Errorf("revoked token: status %d, want 401", got)
	}
	if got := status(newTok); got != 200 {
		t.Errorf("new token: status %d, want 200", got)
	}
	write("reed " + oldTok + "\n")
	hup("tokens not reloaded, the old ones stay in force: " + path + ":1: role \"reed\"")
	if got := status(newTok); got != 200 {
		t.Errorf("after a bad file: status %d, want the tokens in force kept", got)
	}
}
