package serve

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are what GET /metrics shows, in the Prometheus text format. Each
// Server has its own registry (tests run several servers in one process),
// and every name starts with caselink_, the Go runtime's and the process's
// included (caselink_go_…, caselink_process_…), so that one prefix finds
// them all on a shared Prometheus.
type metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec   // by route and status
	latency    *prometheus.HistogramVec // by route
	reloads    prometheus.Counter
	failed     prometheus.Counter
	lastGood   prometheus.Gauge
	decisions  *prometheus.CounterVec // by verdict
	alerts     prometheus.Counter
	notified   *prometheus.CounterVec // by result
	pasteWaits prometheus.Counter
}

func newMetrics(s *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	r := prometheus.WrapRegistererWithPrefix("caselink_", m.reg)
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "http_requests_total", Help: "HTTP requests answered, by route (the pattern that served it) and status code.",
	}, []string{"route", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "http_request_duration_seconds", Help: "Time to answer an HTTP request, by route.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route"})
	m.reloads = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "reloads_total", Help: "Reloads of the library that succeeded (the first load not counted).",
	})
	m.failed = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "reload_failures_total", Help: "Reloads of the library that failed; the previous library kept serving.",
	})
	m.lastGood = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "last_good_reload_timestamp_seconds", Help: "Unix time of the last load of the library that succeeded.",
	})
	m.decisions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "decisions_recorded_total", Help: "Duplicate decisions recorded through this server, by verdict (undo for an undone one).",
	}, []string{"verdict"})
	m.alerts = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "alerts_received_total", Help: "Alerts received on /api/alerts (each alert of a webhook message).",
	})
	m.notified = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "notifications_total", Help: "Messages posted to --notify, by result (sent, failed, dropped).",
	}, []string{"result"})
	m.pasteWaits = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "large_paste_waits_total", Help: "Large pastes that waited for another to finish (large pastes run a few at a time).",
	})
	cases := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "cases_indexed", Help: "Cases in the index now serving.",
	}, func() float64 { return float64(s.Len()) })
	terms := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "terms_indexed", Help: "Distinct terms in the index now serving.",
	}, func() float64 {
		snap := s.acquire()
		defer snap.release()
		return float64(snap.ix.Terms())
	})
	r.MustRegister(m.requests, m.latency, m.reloads, m.failed, m.lastGood, m.decisions, m.alerts, m.notified, m.pasteWaits,
		cases, terms, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, v := range []string{"not-duplicate", "duplicate", "undo"} {
		m.decisions.WithLabelValues(v) // shown as 0 before the first
	}
	for _, v := range []string{"sent", "failed", "dropped"} {
		m.notified.WithLabelValues(v)
	}
	return m
}

// loaded records a load of the library: at start (first), or a reload that
// succeeded or not.
func (m *metrics) loaded(first bool, err error) {
	switch {
	case err != nil:
		m.failed.Inc()
	case first:
		m.lastGood.SetToCurrentTime()
	default:
		m.reloads.Inc()
		m.lastGood.SetToCurrentTime()
	}
}

// decided records a decision recorded through the API.
func (m *metrics) decided(verdict string) {
	if verdict == "" {
		verdict = "undo"
	}
	m.decisions.WithLabelValues(verdict).Inc()
}

// observe records one answered request.
func (m *metrics) observe(route string, status int, took time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
