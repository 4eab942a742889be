package tokenize

import (
	"slices"
	"testing"
)

// The on-call steps of oncall.go, one table each, asserting the terms an
// engineer would look for in `caselink analyze`.

// onCallOff is the default options with every on-call step off.
func onCallOff() Options {
	o := DefaultOptions()
	o.LabelPairs, o.LabelKeys, o.PodNames, o.Addresses, o.IPLiterals = false, false, false, false, false
	o.Files, o.URLWords, o.AlertCodes, o.ClassNames, o.LogNoise, o.DropNoiseClasses = false, false, false, false, false, false
	return o
}

// termsOf returns the term texts of in under opts, and whether each of want
// is among them and none of notWant is.
func checkTerms(t *testing.T, step string, opts Options, in string, want, notWant []string) {
	t.Helper()
	got := analyzeTexts(opts, in)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s: Analyze(%q) = %q: no %q", step, in, got, w)
		}
	}
	for _, w := range notWant {
		if slices.Contains(got, w) {
			t.Errorf("%s: Analyze(%q) = %q: has %q", step, in, got, w)
		}
	}
}

// Label pairs: the value is a token of its own (a status code keeps its
// literal and class), the key a word; a severity label is dropped whole.
func TestStepLabelPairs(t *testing.T) {
	for _, tc := range []struct {
		in            string
		want, notWant []string
	}{
		{"status=429", []string{"status", "429", "4xx"}, []string{"status=429"}},
		{"severity=warning status=500", []string{"status", "500"}, []string{"sever", "warn", "severity=warning"}}, // "sever" would meet "several"
		{`reason="OOMKilled" container=hub`, []string{"reason", "oomkil", "oom", "kill", "contain", "hub"}, []string{"container=hub"}},
		{`code=~"500|502"`, []string{"code", "502", "5xx"}, nil},
		{"deployment=distributor max_connections=2000", []string{"deploy", "distributor", "max_connections", "2000"}, nil},
		{"ns:pod", []string{"ns:pod", "pod"}, nil}, // not a label pair: ':' is no '='
	} {
		checkTerms(t, "LabelPairs", DefaultOptions(), tc.in, tc.want, tc.notWant)
	}
	o := DefaultOptions()
	o.LabelKeys = false
	checkTerms(t, "LabelKeys off", o, "deployment=distributor status=429", []string{"distributor", "429"}, []string{"deploy", "status"})
	checkTerms(t, "LabelPairs off", onCallOff(), "status=429", []string{"status=429", "status"}, []string{"429"})
}

func TestLabelKeyLen(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"status=429", 6}, {"aws_region=us-east-1", 10}, {"app.kubernetes.io/name=web", 22},
		{"=x", 0}, {"x=", 0}, {"1a=b", 0}, {"write:errno=104", 0},
	} {
		if got := labelKeyLen(tc.in); got != tc.want {
			t.Errorf("labelKeyLen(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// Kubernetes object names lose their generated suffixes; words, regions
// and versions keep theirs.
func TestStepPodNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"coredns-5d78c9869d-abcde", "coredns"},
		{"hub-7f9c6d8b54-tq2lx", "hub"},
		{"home-quota-enforcer-6c7d9b8f5-h2vkz", "home-quota-enforcer"},
		{"fluentd-x2k4j", "fluentd"},
		{"ingester-7", "ingester"},
		{"etl-worker-07", "etl-worker"},
		{"authn-cache-prod-0012", "authn-cache-prod"},
		{"us-east-1", "us-east-1"},
		{"ap-southeast-2", "ap-southeast-2"},
		{"europe-west2", "europe-west2"},
		{"CVE-2021", "CVE-2021"},
		{"log4j-2", "log4j-2"},
		{"kube-proxy", "kube-proxy"},
		{"node-exporter-abcde", "node-exporter-abcde"}, // a word-like suffix without a hash stays
	} {
		if got := tc.in[:podBase(tc.in)]; got != tc.want {
			t.Errorf("podBase(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	checkTerms(t, "PodNames", DefaultOptions(), "pod=coredns-5d78c9869d-abcde restarted", []string{"coredn", "restart"}, []string{"abcd", "<hex>"})
	checkTerms(t, "PodNames off", onCallOff(), "coredns-5d78c9869d-abcde", []string{"coredn", "abcd"}, nil)
}

// Addresses: a port is cut off a host or IP address and kept as a term of
// its own, ":53", that meets ports only (not "Route 53"); dig's
// 198.41.222.173#53 is an address and its port too. With IPLiterals the
// address is kept beside its class.
func TestStepAddresses(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"fra1.digitaloceanspaces.com:443", 27}, {"169.254.169.253:53", 15},
		{"10:15", 0}, {"range_response_count:7130", 0}, {"FIRING:3", 0}, {"example.com:https", 0},
	} {
		if got := portAt(tc.in); got != tc.want {
			t.Errorf("portAt(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	checkTerms(t, "Addresses", DefaultOptions(), "openssl s_client -connect fra1.digitaloceanspaces.com:443",
		[]string{"fra1.digitaloceanspaces.com", "digitaloceanspac", ":443"}, []string{"fra1.digitaloceanspaces.com:443", "443"})
	checkTerms(t, "Addresses", DefaultOptions(), "upstream=169.254.169.253:53 port 503", []string{"<ip>", ":53", "503", "5xx"}, []string{"169.254.169.253", "53"})
	checkTerms(t, "Addresses", DefaultOptions(), ";; communications error to 198.41.222.173#53: timed out", []string{"<ip>", ":53"}, []string{"53"})
	checkTerms(t, "Addresses", DefaultOptions(), "Route 53 errors, issue #53, room#12", []string{"53", "12"}, []string{":53", ":12"})
	o := DefaultOptions()
	o.IPLiterals = true
	checkTerms(t, "IPLiterals", o, "dig @8.8.8.8 and 169.254.169.253:53", []string{"8.8.8.8", "169.254.169.253", "<ip>", ":53"}, nil)
	checkTerms(t, "Addresses", DefaultOptions(), "10.0.0.1:443", nil, []string{"4xx"}) // a port is never a status code
	off := DefaultOptions()
	off.Addresses = false
	checkTerms(t, "Addresses off", off, "198.41.222.173#53", []string{"53"}, []string{":53"})
}

// Files: a file name is kept whole beside its parts, a line number after
// it is dropped; host:port is not a file:line.
func TestStepFiles(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"handler.py:58", 3}, {"main.go:45:12", 6}, {"Bar.java:123", 4}, {"example.com:443", 0}, {"handler.py", 0},
	} {
		if got := lineSuffixLen(tc.in); got != tc.want {
			t.Errorf("lineSuffixLen(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	checkTerms(t, "Files", DefaultOptions(), "/var/task/handler.py and /srv/app/main.go:45",
		[]string{"var/task/handler.py", "handler.py", "handler", "main.go", "srv/app/main.go"}, []string{"45", "main.go:45"})
	checkTerms(t, "Files off", onCallOff(), "/var/task/handler.py", []string{"handler"}, []string{"handler.py"})
}

// URL words: the path's words count, ids in it do not, the host stays one
// word.
func TestStepURLWords(t *testing.T) {
	in := "see https://status.example.com/incidents/kv7m2x9q/dns-outage-report.html?region=eu"
	checkTerms(t, "URLWords", DefaultOptions(), in,
		[]string{"status.example.com", "<url>", "incid", "dns", "outag", "report", "dns-outage-report.html", "region", "eu"},
		[]string{"kv7m2x9q", "status", "exampl", "com"})
	checkTerms(t, "URLWords off", onCallOff(), in, []string{"status.example.com", "<url>"}, []string{"dns", "outag"})
}

// Alert names: a status code inside a CamelCase name surfaces with its
// class (off by default, see AlertCodes); CamelCase pieces always do.
func TestStepAlertCodes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"Edge429", 4}, {"HTTP5xx", 4}, {"Edge200", 0}, {"EC2", 0}, {"x509", 0}, {"Http2", 0},
	} {
		if got := splitCodeName(tc.in); got != tc.want {
			t.Errorf("splitCodeName(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	o := DefaultOptions()
	o.AlertCodes = true
	checkTerms(t, "AlertCodes", o, "Edge429RatioHigh HTTP5xxRatioHigh", []string{"edg", "429", "4xx", "ratio", "high", "http", "5xx"}, []string{"edge429"})
	checkTerms(t, "AlertCodes off", DefaultOptions(), "KubeDNSDown Edge429RatioHigh", []string{"kube", "dns", "down", "edge429", "ratio"}, []string{"429"})
}

// Exception class names: the class whole beside its words.
func TestStepClassNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"sqlalchemy.exc.ProgrammingError", "ProgrammingError"},
		{"psycopg2.errors.UndefinedColumn", "UndefinedColumn"},
		{"java.lang.OutOfMemoryError", "OutOfMemoryError"},
		{"com.example.Foo", ""}, {"status.example.com", ""}, {"os.Exit", ""}, {"var/task/Handler.PyFile", ""},
	} {
		if got := className(tc.in); got != tc.want {
			t.Errorf("className(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	checkTerms(t, "ClassNames", DefaultOptions(), "(psycopg2.errors.UndefinedColumn) column does not exist",
		[]string{"undefinedcolumn", "undefin", "column", "psycopg2"}, nil)
}

// Log noise: levels in a log line's place, a frame's File and line N, a
// request id's key and a severity's value are dropped; the words stay
// elsewhere.
func TestStepLogNoise(t *testing.T) {
	for _, tc := range []struct {
		in            string
		want, notWant []string
	}{
		{"2024-03-14 09:12:07 ERROR [favorites-writer] PDOException", []string{"favorites-writer", "pdoexcept"}, []string{"error"}},
		{"[ERROR] connection timed out", []string{"connect", "time"}, []string{"error"}},
		{"WARN: disk almost full", []string{"disk", "full"}, []string{"warn"}},
		{"an error rate warning fired", []string{"error", "warn"}, nil},
		{`  File "/var/task/handler.py", line 58, in handle`, []string{"handler.py", "handl"}, []string{"file", "line", "58"}},
		{"the config file has 58 lines", []string{"file", "58", "line"}, nil},
		{"START RequestId: 9b1c7e2a-5d0f-4c1e-9a77-2f1e0b6b7d41 Version: $LATEST", []string{"start"}, []string{"requestid", "request"}},
		{"the request id was lost", []string{"request", "id"}, nil},
	} {
		checkTerms(t, "LogNoise", DefaultOptions(), tc.in, tc.want, tc.notWant)
	}
	checkTerms(t, "LogNoise off", onCallOff(), "[ERROR] x", []string{"error"}, nil)
}

// Noise classes: timestamps, dates, UUIDs, hashes, long numbers and ids
// leave no term; addresses, URLs and status classes stay.
func TestStepDropNoiseClasses(t *testing.T) {
	in := "2024-03-14T09:12:07Z req 550e8400-e29b-41d4-a716-446655440000 sha 88767d85c306 from 10.0.0.1 got 503 see https://x.example.com/"
	checkTerms(t, "DropNoiseClasses", DefaultOptions(), in, []string{ClassIP, ClassURL, "503", "5xx"},
		[]string{ClassTime, ClassUUID, ClassHex})
	checkTerms(t, "DropNoiseClasses off", onCallOff(), in, []string{ClassTime, ClassUUID, ClassHex}, nil)
}
