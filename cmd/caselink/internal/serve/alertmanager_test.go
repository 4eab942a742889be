package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
)

// needBinary returns the path of the first of names on PATH; without one
// it skips the test, or fails it under CI=true (.ci/run installs them).
func needBinary(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("none of %v on PATH (required under CI=true: .ci/install-alertmanager installs it)", names)
	}
	t.Skipf("none of %v on PATH: install Debian's prometheus-alertmanager (.ci/install-alertmanager)", names)
	return ""
}

// freeAddr returns a free loopback address.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestAlertmanagerEndToEnd: a real Alertmanager, started here on loopback
// with caselink as its webhook receiver (with a read token), gets an alert
// from amtool, delivers it to POST /api/alerts, and caselink posts the
// similar past cases to the Slack-style receiver this test runs.
func TestAlertmanagerEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Alertmanager")
	}
	am := needBinary(t, "prometheus-alertmanager", "alertmanager")
	amtool := needBinary(t, "amtool")

	got := make(chan api.SlackMessage, 8)
	slack := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m api.SlackMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err == nil {
			got <- m
		}
	}))
	defer slack.Close()

	opts := testOptions()
	opts.Service.Tokens = testTokens(t)
	opts.Service.Notify = slack.URL + "/services/T0/B0/secret"
	s, ln := serveLoopback(t, opts)

	dir := t.TempDir()
	amAddr := freeAddr(t)
	conf := fmt.Sprintf(`route:
  receiver: caselink
  group_by: [alertname]
  group_wait: 0s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: caselink
    webhook_configs:
      - url: http://%s/api/alerts
        send_resolved: false
        http_config:
          authorization:
            type: Bearer
            credentials: %s
`, ln.Addr(), readToken)
	if err := os.WriteFile(filepath.Join(dir, "alertmanager.yml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	amCtx, amStop := context.WithCancel(context.Background())
	cmd := exec.CommandContext(amCtx, am, "--config.file="+filepath.Join(dir, "alertmanager.yml"),
		"--storage.path="+filepath.Join(dir, "data"), "--web.listen-address="+amAddr, "--cluster.listen-address=")
	var amLog syncBuffer
	cmd.Stdout, cmd.Stderr = &amLog, &amLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { amStop(); cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + amAddr + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Alertmanager not ready after 30s:\n%s", amLog.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	out, err := exec.Command(amtool, "alert", "add", "--alertmanager.url=http://"+amAddr,
		"alertname=DistributorOOM", "namespace=mimir", "severity=critical",
		"--annotation=summary=distributor pods OOMKilled right after the rollout",
		"--annotation=description=only the new pods get write traffic, readiness probes failing").CombinedOutput()
	if err != nil {
		t.Fatalf("amtool alert add: %v\n%s", err, out)
	}
	select {
	case m := <-got:
		if !strings.Contains(m.Text, "DistributorOOM") || !strings.Contains(m.Text, "/cases/IL-0191|IL-0191>") {
			t.Errorf("the notification lacks the alert or its similar case IL-0191:\n%s", m.Text)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("no notification 60s after amtool fired the alert; Alertmanager said:\n%s", amLog.String())
	}
	// The alert went through the token check and the alerts route (the
	// sent count is taken once the receiver has answered, the request's
	// once its handler has returned, which may come after: wait for both).
	text := s.metricsText(t)
	delivered := func(text string) bool {
		return strings.Contains(text, `caselink_http_requests_total{code="200",route="POST /api/alerts"}`) &&
			strings.Contains(text, `caselink_notifications_total{result="sent"} 1`)
	}
	for end := time.Now().Add(5 * time.Second); !delivered(text) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		text = s.metricsText(t)
	}
	if !delivered(text) {
		t.Errorf("metrics do not show the delivery:\n%s", grepLines(text, "caselink_http_requests_total", "caselink_notifications_total"))
	}
}

// metricsText returns what /metrics shows now.
func (s *Server) metricsText(t *testing.T) string {
	t.Helper()
	rec := httptest.NewRecorder()
	s.metrics.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func grepLines(text string, prefixes ...string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}
