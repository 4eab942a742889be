package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caselink/caselink/eval/sharedtest"
)

// benchLibrary is the third-party incident library the load check runs on.
// It is read in place and never copied into the repository.
var benchLibrary = sharedtest.Path("data/incidents/cases.jsonl")

// benchPastes are on-call pastes of different lengths, sent in turn.
var benchPastes = []string{
	onCallPaste,
	"p99 latency on the checkout API went from 200ms to 4s; database connection pool exhausted, " +
		"timeouts talking to postgres, error rate 30%",
	"certificate expired",
	"After the DNS change, requests to the internal resolver time out; pods in kube-system restart with " +
		"CrashLoopBackOff, coredns logs show SERVFAIL for upstream lookups and the load balancer health checks fail.",
	"Kafka consumer lag growing on all partitions after the broker upgrade, disk full on two brokers",
	"503 Service Unavailable from the CDN edge in eu-west, origin healthy, cache hit ratio dropped to zero after the config push",
}

var bench struct {
	once sync.Once
	url  string
	err  error
}

// benchServer starts, once per test binary, a server over benchLibrary on a
// real loopback listener. It is left running until the binary exits.
func benchServer(b *testing.B) string {
	sharedtest.Need(b, benchLibrary)
	bench.once.Do(func() {
		s, err := New(Options{Paths: []string{benchLibrary}, MatchMinScore: 0.02, RelateMinScore: 0.2,
			DupesThreshold: 0.5, PollInterval: time.Second})
		if err != nil {
			bench.err = err
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			bench.err = err
			return
		}
		go s.Serve(context.Background(), ln)
		bench.url = "http://" + ln.Addr().String()
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.url
}

// BenchmarkServeMatch sends b.N match requests over loopback from a bounded
// number of concurrent clients and reports requests/s and the p50 and p99
// latency. Run it with
//
//	go test -run '^$' -bench ServeMatch -benchtime 5000x ./cmd/caselink/internal/serve
func BenchmarkServeMatch(b *testing.B) {
	base := benchServer(b)
	const clients = 8
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	bodies := make([]string, len(benchPastes))
	for i, p := range benchPastes {
		bodies[i] = matchBody(p, 5)
	}
	send := func(body string) error {
		resp, err := c.Post(base+"/api/match", "application/json", strings.NewReader(body))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	for _, body := range bodies { // warm up the connections and the engine's pools
		if err := send(body); err != nil {
			b.Fatal(err)
		}
	}

	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var failed atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				t0 := time.Now()
				if err := send(bodies[i%len(bodies)]); err != nil {
					failed.Add(1)
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d requests failed", n, b.N)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
