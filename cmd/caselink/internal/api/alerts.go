package api

// The bodies of POST /api/alerts: what Alertmanager posts, what the server
// answers, and the Slack message it sends for a firing group.

// AlertmanagerMessage is the body Alertmanager's webhook receiver posts
// (payload version 4): a group of alerts that fire or resolve together.
type AlertmanagerMessage struct {
	Version           string            `json:"version"`
	GroupKey          string            `json:"groupKey"`
	TruncatedAlerts   int               `json:"truncatedAlerts"`
	Status            string            `json:"status"` // "firing" or "resolved"
	Receiver          string            `json:"receiver"`
	GroupLabels       map[string]string `json:"groupLabels"`
	CommonLabels      map[string]string `json:"commonLabels"`
	CommonAnnotations map[string]string `json:"commonAnnotations"`
	ExternalURL       string            `json:"externalURL"`
	Alerts            []Alert           `json:"alerts"`
}

// Alert is one alert of an [AlertmanagerMessage].
type Alert struct {
	Status       string            `json:"status"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     string            `json:"startsAt"`
	EndsAt       string            `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL"`
	Fingerprint  string            `json:"fingerprint"`
}

// AlertHits is one alert of the answer of POST /api/alerts: its
// fingerprint and labels, as Alertmanager sent them, and the past cases
// most like it.
type AlertHits struct {
	Fingerprint string            `json:"fingerprint"`
	Status      string            `json:"status"`
	Labels      map[string]string `json:"labels"`
	Hits        []Hit             `json:"hits"`
}

// AlertsAnswer is the answer of POST /api/alerts.
type AlertsAnswer struct {
	Alerts []AlertHits `json:"alerts"`
}

// SlackMessage is the body of a Slack incoming-webhook post.
type SlackMessage struct {
	Text string `json:"text"`
}
