package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
)

// alertTop is how many cases each alert gets, and a notification shows.
const (
	alertTop  = 5
	notifyTop = 3
	maxAlerts = 200 // alerts of one message; Alertmanager's max_alerts is usually far lower
)

// alertPaste turns an alert into the paste an on-call engineer would have
// written: its name, summary and description, then its other labels and
// annotations as "name: value" lines (links left out: their words are
// hosts and paths, not symptoms).
func alertPaste(a api.Alert) string {
	var b strings.Builder
	for _, k := range []string{"alertname"} {
		if v := a.Labels[k]; v != "" {
			b.WriteString(v + "\n")
		}
	}
	for _, k := range []string{"summary", "description", "message"} {
		if v := a.Annotations[k]; v != "" {
			b.WriteString(v + "\n")
		}
	}
	rest := func(m map[string]string, skip ...string) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := m[k]
			if slices.Contains(skip, k) || v == "" || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
				continue
			}
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	rest(a.Labels, "alertname")
	rest(a.Annotations, "summary", "description", "message", "runbook_url", "dashboard")
	return b.String()
}

// apiAlerts is POST /api/alerts: Alertmanager's webhook. Each alert
// becomes a paste and is matched; with ServiceOptions.Notify a firing group
// is posted there with its similar cases.
func (s *Server) apiAlerts(w http.ResponseWriter, r *http.Request) {
	var msg api.AlertmanagerMessage
	if status, err := decodeAlerts(w, r, s.bodyLimit(), &msg); err != nil {
		writeError(w, status, "%v", err)
		return
	}
	if msg.Version != "" && msg.Version != "4" {
		writeError(w, http.StatusBadRequest, `"version" %q: want Alertmanager's webhook payload version 4`, msg.Version)
		return
	}
	if len(msg.Alerts) > maxAlerts {
		writeError(w, http.StatusRequestEntityTooLarge, "%d alerts in one message, more than %d", len(msg.Alerts), maxAlerts)
		return
	}
	s.metrics.alerts.Add(float64(len(msg.Alerts)))
	ix := s.snap(r).ix
	out := api.AlertsAnswer{Alerts: make([]api.AlertHits, 0, len(msg.Alerts))}
	for i, a := range msg.Alerts {
		paste := alertPaste(a)
		if len(paste) > s.opts.Service.MaxPaste {
			paste = paste[:s.opts.Service.MaxPaste] // an alert is not refused for a long description: its start is what counts
		}
		release, ok := s.admitPaste(w, r, paste)
		if !ok {
			return
		}
		hits := []api.Hit{}
		if strings.TrimSpace(paste) != "" {
			hits = s.matchHits(ix, similarity.Query{Text: paste, K: alertTop, MinScore: s.opts.MatchMinScore}, "en", false)
		}
		release()
		labels := a.Labels
		if labels == nil {
			labels = map[string]string{}
		}
		if a.Fingerprint == "" {
			a.Fingerprint = fmt.Sprintf("%d", i)
		}
		out.Alerts = append(out.Alerts, api.AlertHits{Fingerprint: a.Fingerprint, Status: a.Status, Labels: labels, Hits: hits})
	}
	if s.notifier != nil && msg.Status == "firing" {
		s.notifier.post(s.slackMessage(msg, out, s.publicURL(r)))
	}
	writeJSON(w, http.StatusOK, out)
}

// decodeAlerts reads Alertmanager's message, which carries fields caselink
// does not use (and later versions may add more): unknown fields are
// allowed, unlike the rest of the API.
func decodeAlerts(w http.ResponseWriter, r *http.Request, limit int64, v *api.AlertmanagerMessage) (int, error) {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return http.StatusRequestEntityTooLarge, fmt.Errorf("request body is larger than %d bytes", tooBig.Limit)
		}
		return http.StatusBadRequest, fmt.Errorf("bad Alertmanager message: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return 0, nil
}

// matchHits matches q on ix and turns the engine's hits into the API's,
// titles in lang, with their score parts when explain; hits under
// q.MinScore are left out, as in /api/match.
func (s *Server) matchHits(ix *similarity.Index, q similarity.Query, lang string, explain bool) []api.Hit {
	res, _ := curate.Match(ix, q)
	return api.MatchHits(ix, res, lang, explain)
}

// publicURL is the address the notification links cases by.
func (s *Server) publicURL(r *http.Request) string {
	if u := s.opts.Service.PublicURL; u != "" {
		return strings.TrimSuffix(u, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// slackMessage writes one message for a firing group: its name and alert
// count, then the few past cases most like its alerts (each case once, at
// its best score), with band, score, why and links to the case page and
// the case's own source; when none is better than weak, that the incident
// looks new (curate.NothingLike).
func (s *Server) slackMessage(msg api.AlertmanagerMessage, ans api.AlertsAnswer, base string) api.SlackMessage {
	best := map[string]api.Hit{}
	for _, a := range ans.Alerts {
		if a.Status != "" && a.Status != "firing" {
			continue
		}
		for _, h := range a.Hits {
			if old, ok := best[h.ID]; !ok || h.Score > old.Score {
				best[h.ID] = h
			}
		}
	}
	hits := make([]api.Hit, 0, len(best))
	for _, h := range best {
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b api.Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	hits = hits[:min(len(hits), notifyTop)]
	name := msg.GroupLabels["alertname"]
	if name == "" {
		name = msg.CommonLabels["alertname"]
	}
	if name == "" {
		name = "alert group"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "*[FIRING:%d] %s*: ", len(msg.Alerts), slackEscape(name))
	if len(hits) == 0 {
		b.WriteString("no similar past incident in the library.")
		return api.SlackMessage{Text: b.String()}
	}
	if hits[0].Band == curate.Weak {
		// Weak hits share words, seldom more: the channel is told the
		// incident looks new, and where the weak hits are.
		h := hits[0]
		fmt.Fprintf(&b, "%s The closest, <%s/cases/%s|%s>, is weak (score %.2f).", curate.NothingLike, base, url.PathEscape(h.ID), slackEscape(h.ID), h.Score)
		return api.SlackMessage{Text: b.String()}
	}
	b.WriteString("similar past incidents")
	for _, h := range hits {
		fmt.Fprintf(&b, "\n• <%s/cases/%s|%s> %s (%s, score %.2f)", base, url.PathEscape(h.ID), slackEscape(h.ID), slackEscape(h.Title), h.Band, h.Score)
		if len(h.Why) > 0 {
			fmt.Fprintf(&b, ": %s", slackEscape(strings.Join(h.Why[:min(len(h.Why), 5)], ", ")))
		}
		if WebURL(h.URL) {
			fmt.Fprintf(&b, " · <%s|source>", slackEscape(h.URL))
		}
		if len(h.Remediation) > 0 {
			fmt.Fprintf(&b, "\n    fixed by: %s", slackEscape(h.Remediation[0]))
		}
	}
	return api.SlackMessage{Text: b.String()}
}

// slackEscape escapes the three characters Slack's message text treats
// as markup.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// notifier posts messages to a webhook in the background, a few at a
// time: a slow or failing webhook never holds Alertmanager's request, and
// when too many are waiting new ones are dropped (and counted).
type notifier struct {
	url    string
	client *http.Client
	slots  chan struct{}
	s      *Server
}

func newNotifier(u string, s *Server) *notifier {
	return &notifier{url: u, client: &http.Client{Timeout: 10 * time.Second}, slots: make(chan struct{}, 8), s: s}
}

func (n *notifier) post(m api.SlackMessage) {
	select {
	case n.slots <- struct{}{}:
	default:
		n.s.metrics.notified.WithLabelValues("dropped").Inc()
		n.s.log.Printf("notify: too many messages waiting; dropped one")
		return
	}
	go func() {
		defer func() { <-n.slots }()
		body, _ := json.Marshal(m)
		var err error
		for try := 0; try < 3; try++ {
			if try > 0 {
				time.Sleep(time.Duration(try) * time.Second)
			}
			if err = n.send(body); err == nil {
				n.s.metrics.notified.WithLabelValues("sent").Inc()
				return
			}
		}
		n.s.metrics.notified.WithLabelValues("failed").Inc()
		n.s.log.Printf("notify: %v", err)
	}()
}

func (n *notifier) send(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", redact(n.url), resp.Status)
	}
	return nil
}

// redact keeps a webhook URL's secret path out of the log.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "the webhook"
	}
	return p.Scheme + "://" + p.Host + "/…"
}
