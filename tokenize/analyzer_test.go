package tokenize

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// texts returns the Text of every term.
func texts(ts []Term) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Text
	}
	return out
}

// analyzeTexts analyzes in with opts and returns the term texts.
func analyzeTexts(opts Options, in string) []string {
	return texts(New(opts).Analyze(in))
}

// TestAnalyzeSnippets pins the exact term texts, in order, of incident
// snippets: short quotes from the seed cases, and lines written in the
// style of the incident corpus (status-page updates, Kubernetes stories,
// error messages, bug reports). Default options.
func TestAnalyzeSnippets(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// From the seed cases (seeds/*.json).
		{in: "the newly started distributor pods were OOM-killed over and over",
			want: []string{"newli", "start", "distributor", "pod", "oom-killed", "oom", "kill", "over", "over"}},
		{in: "After a kube-apiserver restart, pod LIST requests nearly tripled etcd memory",
			want: []string{"kube-apiserver", "kube", "apiserv", "kubernet", "restart", "pod", "list", "request", "near", "tripl", "etcd", "memori"}},
		{in: "Palark first tried resourceVersion=0, which lets kube-apiserver answer from its cache",
			want: []string{"palark", "first", "tri", "resourcevers", "resourc", "version", "0", "kube-apiserver", "kube", "apiserv", "kubernet", "answer", "cach"}},
		{in: "about 97% of requests got 429 errors for 72 minutes",
			want: []string{"97", "request", "got", "429", "4xx", "error", "72", "minut"}},
		{in: "the tower-governor middleware by default does not trust X-Forwarded-For",
			want: []string{"tower-governor", "tower", "governor", "middlewar", "default", "not", "trust", "x-forwarded-for", "forward"}},
		{in: "New pods could not finish this within the 20-second startup timeout and went into crash loops",
			want: []string{"new", "pod", "not", "finish", "20-second", "second", "startup", "timeout", "went", "crash", "loop"}},
		{in: "connection pool exhaustion and slow queries",
			want: []string{"connect", "pool", "exhaust", "slow", "queri"}},
		{in: "a stable internal service name such as dpg-123abc",
			want: []string{"stabl", "intern", "servic", "name", "dpg-123abc", "dpg"}},
		{in: "After Point-in-time Recovery (PITR) was released",
			want: []string{"point-in-time", "point", "time", "recoveri", "pitr", "releas"}},
		{in: "Pods that join memberlist carry the label gossip_ring_member: 'true'.",
			want: []string{"pod", "join", "memberlist", "carri", "label", "gossip_ring_member", "gossip", "ring", "member", "true"}},
		{in: "\"range_response_count:7130 size:13313287\"",
			want: []string{"range_response_count:7130", "rang", "respons", "count", "size"}},
		{in: "stores objects under /registry/<kind>/<namespace>/<name> in etcd",
			want: []string{"store", "object", "under", "registri", "kind", "namespac", "name", "etcd"}},
		{in: "PostHog's feature flags pods were packed onto Kubernetes nodes",
			want: []string{"posthog", "post", "hog", "featur", "flag", "pod", "pack", "kubernet", "node"}},
		{in: "노드가 파드의 CPU 요청에 비해 작아 CPU 가 포화되면서",
			want: []string{"node", "pod", "cpu", "request", "비해", "작아", "cpu", "satur"}},
		{in: "CPU saturation above 90% caused three outages",
			want: []string{"cpu", "satur", "abov", "90", "caus", "three", "outag"}},
		{in: "kube_deployment_status_replicas_updated showed only 16 of 140 distributors",
			want: []string{"kube_deployment_status_replicas_updated", "kube", "deploy", "status", "replica", "updat", "kubernet", "show", "16", "140", "distributor"}},
		{in: "PriorityLevelConfiguration named limit-list-custom",
			want: []string{"prioritylevelconfigur", "prioriti", "level", "configur", "name", "limit-list-custom", "limit", "list", "custom"}},

		// Written for these tests in the style of the incident corpus.
		{in: "pods OOMKilled",
			want: []string{"pod", "oomkil", "oom", "kill"}},
		{in: "Back-off restarting failed container; pod is in CrashLoopBackOff.",
			want: []string{"back-off", "back", "off", "restart", "fail", "contain", "pod", "crashloopbackoff", "crash", "loop", "back", "off"}},
		{in: "HTTP 503 Service Unavailable from the LB",
			want: []string{"http", "503", "5xx", "servic", "503", "unavail", "lb"}},
		{in: "dial tcp 10.0.0.12:5432: connect: connection refused",
			want: []string{"dial", "tcp", "<ip>", ":5432", "connect", "connect", "econnrefus", "refus"}},
		{in: "US-EAST-1 region",
			want: []string{"us-east-1", "east", "region"}},
		{in: "p99 latency rose to 2.3s on us-central1",
			want: []string{"p99", "latenc", "rose", "2.3s", "us-central1", "central1"}},
		{in: "x509: certificate has expired or is not yet valid",
			want: []string{"x509", "certif", "expir", "not", "valid"}},
		{in: "pgbouncer max_client_conn reached",
			want: []string{"pgbouncer", "max_client_conn", "max", "client", "conn", "reach"}},
		{in: "We are investigating elevated 502s and 5XX errors in europe-west2.",
			want: []string{"investig", "elev", "502", "5xx", "5xx", "error", "europe-west2", "europ", "west2"}},
		{in: "http2 and IPv6 on ARM64 nodes",
			want: []string{"http2", "ipv6", "arm64", "node"}},
		{in: "Update - 14:05 UTC: A fix has been implemented and we are monitoring the results.",
			want: []string{"updat", "utc", "fix", "implement", "monitor", "result"}},
		{in: "started 2021-12-09T10:15:00Z, resolved 12/09/2021 at 5:15 AM PST",
			want: []string{"start", "resolv", "pst"}},
		{in: "request id 550e8400-e29b-41d4-a716-446655440000 failed",
			want: []string{"request", "id", "fail"}},
		{in: "commit 88767d85c306 reverted",
			want: []string{"commit", "revert"}},
		{in: "traceparent 4bf92f3577b34da6a3ce929d0e0e4736",
			want: []string{"tracepar"}},
		{in: "AWS account 123456789012",
			want: []string{"aws", "account"}},
		{in: "See https://status.example.com/incidents/abc123 for details.",
			want: []string{"see", "status.example.com", "<url>", "incid", "detail"}},
		{in: "DB failover to the replica",
			want: []string{"db", "databas", "failov", "replica"}},
		{in: "rate-limited by the API gateway (HTTP 429 Too Many Requests)",
			want: []string{"rate-limited", "rate", "limit", "429", "api", "gateway", "http", "429", "4xx", "429", "request"}},
		{in: "the node went down and didn't come back up",
			want: []string{"node", "went", "down", "not", "come", "back", "up"}},
		{in: "Disk full: no space left on device",
			want: []string{"disk", "enospc", "full", "no", "enospc", "space", "left", "devic"}},
		{in: "TLS handshake timeout",
			want: []string{"tls", "handshak", "timeout"}},
		{in: "🔥 prod is on fire 🔥",
			want: []string{"🔥", "prod", "fire", "🔥"}},
		{in: "障害が発生しました",
			want: []string{"障", "害", "が", "発", "生", "し", "ま", "し", "た"}},
		{in: "Pub/Sub and/or Cloud SQL",
			want: []string{"pub/sub", "pub", "sub", "cloud", "sql"}},
		{in: "e.g. the LB, i.e. the ELB",
			want: []string{"lb", "elb"}},
		{in: "500 Internal Server Error for 500 customers",
			want: []string{"500", "5xx", "intern", "500", "server", "error", "500", "custom"}},
		{in: "&amp; <b>Impact:</b> none",
			want: []string{"impact", "none"}},
		{in: "1,024 pods evicted",
			want: []string{"1024", "pod", "evict"}},
		{in: "IPv6 address 2001:db8::1 unreachable",
			want: []string{"ipv6", "address", "<ip>", "unreach"}},
		{in: "GCFv2 on macOS under DDoS",
			want: []string{"gcfv2", "macos", "mac", "os", "under", "ddos"}},
		{in: "ZONE_RESOURCE_POOL_EXHAUSTED",
			want: []string{"zone_resource_pool_exhausted", "zone", "resourc", "pool", "exhaust"}},
		{in: "csagent.sys crashed on boot",
			want: []string{"csagent.sys", "csagent", "sys", "crash", "boot"}},
		{in: "upgraded to v1.24.4-gke.800",
			want: []string{"upgrad", "v1.24.4-gke.800", "v1", "gke"}},
	}
	a := New(DefaultOptions())
	for _, tt := range tests {
		got := texts(a.Analyze(tt.in))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Analyze(%q)\n got: %q\nwant: %q", tt.in, got, tt.want)
		}
	}
	if len(tests) < 40 {
		t.Fatalf("only %d snippets", len(tests))
	}
}

// findAt returns the term with the given text and position, and whether
// there is one.
func findAt(ts []Term, text string, pos int) (Term, bool) {
	for _, t := range ts {
		if t.Text == text && t.Pos == pos {
			return t, true
		}
	}
	return Term{}, false
}

// TestSurfaces checks the Surface, Pos and Kind of the terms an
// explanation shows: parts show the whole token, synonyms the member as
// written, bigrams both words, classes the volatile token.
func TestSurfaces(t *testing.T) {
	opts := DefaultOptions()
	opts.Bigrams = true
	a := New(opts)
	tests := []struct {
		in, text, surface string
		pos               int
		kind              Kind
	}{
		{"pods OOMKilled", "oom", "OOMKilled", 1, KindPart},
		{"pods OOMKilled", "kill", "OOMKilled", 1, KindPart},
		{"pods OOMKilled", "oomkil", "OOMKilled", 1, KindWord},
		{"pods OOMKilled", "pod oomkil", "pods OOMKilled", 0, KindBigram},
		{"out-of-memory killed", "oom", "out-of-memory", 0, KindSynonym},
		{"ran out of memory", "oom", "out of memory", 1, KindSynonym},
		{"k8s node", "kubernet", "k8s", 0, KindSynonym},
		{"connection pool exhaustion", "connect pool", "connection pool", 0, KindBigram},
		{"connection pool exhaustion", "pool exhaust", "pool exhaustion", 1, KindBigram},
		{"HTTP 503 Service Unavailable", "5xx", "503", 1, KindClass},
		{"HTTP 503 Service Unavailable", "503", "Service Unavailable", 2, KindSynonym},
		{"from 10.0.0.12 only", ClassIP, "10.0.0.12", 1, KindClass},
		{"PostHog's flags", "posthog", "PostHog", 0, KindWord},
		{"it didn't fail over", "not", "didn't", 1, KindWord},
		{"CrashLoopBackOff", "back", "CrashLoopBackOff", 0, KindPart},
		{"see https://example.com/x.", "example.com", "https://example.com/x", 1, KindWord},
	}
	for _, tt := range tests {
		ts := a.Analyze(tt.in)
		got, ok := findAt(ts, tt.text, tt.pos)
		want := Term{Text: tt.text, Surface: tt.surface, Pos: tt.pos, Kind: tt.kind}
		if !ok || got != want {
			t.Errorf("Analyze(%q): term %q = %+v (found %v), want %+v", tt.in, tt.text, got, ok, want)
		}
	}
}

// TestMeet checks that texts a responder would consider the same fact
// share at least the listed terms under default options.
func TestMeet(t *testing.T) {
	a := New(DefaultOptions())
	tests := []struct {
		a, b   string
		shared []string
	}{
		{"pods OOMKilled", "the pods were out-of-memory killed", []string{"oom", "kill", "pod"}},
		{"container OOMKilled", "the container ran out of memory and was killed", []string{"oom", "kill", "contain"}},
		{"Java OutOfMemoryError in the worker", "worker out of memory", []string{"oom", "worker"}},
		{"k8s control plane", "Kubernetes control plane", []string{"kubernet", "control", "plane"}},
		{"HTTP 429 from the API", "API requests were rate limited", []string{"429", "api"}},
		{"HTTP 503 on checkout", "checkout returned 5xx errors", []string{"5xx", "checkout"}},
		{"db primary failover", "database primary failover", []string{"databas", "primari", "failov"}},
		{"SSL cert expired", "the TLS certificate expired", []string{"tls", "certif", "expir"}},
		{"db connection errors", "database connection errors", []string{"databas", "connect", "error"}},
		{"pods in CrashLoopBackOff", "pods were crash looping", []string{"crash", "loop", "pod"}},
		{"DEADLINE_EXCEEDED on reads", "reads timed out", []string{"timeout", "read"}},
		{"US-EAST-1", "us-east-1", []string{"us-east-1", "east"}},
		{"CPUs throttled", "cpu throttling", []string{"cpu", "throttl"}},
		{"kube-apiserver restarted", "the API server restarted", []string{"apiserv", "restart"}},
		{"ran out of disk: no space left on device", "disk full on the node", []string{"enospc", "disk"}},
	}
	for _, tt := range tests {
		ta, tb := texts(a.Analyze(tt.a)), texts(a.Analyze(tt.b))
		for _, s := range tt.shared {
			if !slices.Contains(ta, s) || !slices.Contains(tb, s) {
				t.Errorf("%q %q and %q %q do not share %q", tt.a, ta, tt.b, tb, s)
			}
		}
	}
}

// TestOptions checks that each option changes the output as documented.
func TestOptions(t *testing.T) {
	def := DefaultOptions()
	with := func(f func(*Options)) Options {
		o := def
		f(&o)
		return o
	}
	tests := []struct {
		name string
		in   string
		on   Options // the option's documented effect is visible here …
		off  Options // … and absent here
		onW  []string
		offW []string
	}{
		{"Stem", "killed connections",
			def, with(func(o *Options) { o.Stem = false }),
			[]string{"kill", "connect"}, []string{"killed", "connections"}},
		{"Stem keeps digit tokens", "5xx p99 us-east-1",
			def, with(func(o *Options) { o.Stem = false }),
			[]string{"5xx", "p99", "us-east-1", "east"}, []string{"5xx", "p99", "us-east-1", "east"}},
		{"SplitCompounds", "OOMKilled kube-apiserver",
			with(func(o *Options) { o.Synonyms = false }), with(func(o *Options) { o.Synonyms, o.SplitCompounds = false, false }),
			[]string{"oomkil", "oom", "kill", "kube-apiserver", "kube", "apiserv"}, []string{"oomkil", "kube-apiserver"}},
		{"SplitCompounds off still meets hyphenated phrases", "out-of-memory",
			def, with(func(o *Options) { o.SplitCompounds = false }),
			[]string{"out-of-memory", "out", "memori", "oom"}, []string{"out-of-memory", "oom"}},
		{"Synonyms", "k8s db",
			def, with(func(o *Options) { o.Synonyms = false }),
			[]string{"k8s", "kubernet", "db", "databas"}, []string{"k8s", "db"}},
		{"SynonymsOff turns off one group", "k8s db",
			def, with(func(o *Options) { o.SynonymsOff = "database" }),
			[]string{"k8s", "kubernet", "db", "databas"}, []string{"k8s", "kubernet", "db"}},
		{"Bigrams", "connection pool exhaustion. Redis overload",
			with(func(o *Options) { o.Bigrams = true }), def,
			[]string{"connect", "connect pool", "pool", "pool exhaust", "exhaust", "redis", "redis overload", "overload"},
			[]string{"connect", "pool", "exhaust", "redis", "overload"}},
		{"StopWords", "the node is down",
			def, with(func(o *Options) { o.StopWords = false }),
			[]string{"node", "down"}, []string{"the", "node", "is", "down"}},
		{"DropClasses", "10.0.0.12 returned 503 at 14:05",
			with(func(o *Options) { o.DropNoiseClasses = false }), with(func(o *Options) { o.DropClasses = true }),
			[]string{ClassIP, "return", "503", "5xx", ClassTime}, []string{"return", "503"}},
		{"Korean", "노드가 재시작됐다",
			with(func(o *Options) { o.Glossary = false }), with(func(o *Options) { o.Glossary, o.Korean = false, false }),
			[]string{"노드", "재시작"}, []string{"노드가", "재시작됐다"}},
		{"Glossary", "노드가 메모리 부족",
			def, with(func(o *Options) { o.Glossary = false }),
			[]string{"node", "memori", "out", "oom"}, []string{"노드", "메모리", "부족"}},
		{"MaxTokenBytes", "kube-apiserver-extra",
			def, with(func(o *Options) { o.MaxTokenBytes = 10 }),
			[]string{"kube-apiserver-extra", "kube", "apiserv", "extra", "kubernet"}, []string{"kube", "apiserv", "extra", "kubernet"}},
	}
	for _, tt := range tests {
		if got := analyzeTexts(tt.on, tt.in); !slices.Equal(got, tt.onW) {
			t.Errorf("%s on: Analyze(%q) = %q, want %q", tt.name, tt.in, got, tt.onW)
		}
		if got := analyzeTexts(tt.off, tt.in); !slices.Equal(got, tt.offW) {
			t.Errorf("%s off: Analyze(%q) = %q, want %q", tt.name, tt.in, got, tt.offW)
		}
	}
}

// TestDefaultOptions pins the documented defaults.
func TestDefaultOptions(t *testing.T) {
	want := Options{Stem: true, SplitCompounds: true, Synonyms: true, Bigrams: false,
		StopWords: true, DropClasses: false, Korean: true, Glossary: true, MaxTokenBytes: DefaultMaxTokenBytes,
		LabelPairs: true, LabelKeys: true, PodNames: true, Addresses: true, Files: true, URLWords: true,
		ClassNames: true, LogNoise: true, DropNoiseClasses: true}
	if got := DefaultOptions(); got != want {
		t.Fatalf("DefaultOptions() = %+v, want %+v", got, want)
	}
	if got := New(Options{}).Options().MaxTokenBytes; got != DefaultMaxTokenBytes {
		t.Fatalf("New(Options{}).Options().MaxTokenBytes = %d", got)
	}
	if got := New(want).Options(); got != want {
		t.Fatalf("Options() = %+v, want %+v", got, want)
	}
}

// checkInvariants checks what every output must satisfy: non-empty valid
// UTF-8 texts and surfaces, surfaces that are substrings of the input,
// non-decreasing positions, no text twice at one position, and at most
// MaxTermsPerByte terms per input byte.
func checkInvariants(t testing.TB, in string, ts []Term) {
	t.Helper()
	if len(ts) > MaxTermsPerByte*len(in) {
		t.Fatalf("%d terms for %d bytes of %q", len(ts), len(in), in)
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(in)))
	for i, tm := range ts {
		if tm.Text == "" || tm.Surface == "" || !utf8.ValidString(tm.Text) || !utf8.ValidString(tm.Surface) {
			t.Fatalf("term %d of %q: bad %+v", i, in, tm)
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(tm.Surface)))
		if p < base || p+uintptr(len(tm.Surface)) > base+uintptr(len(in)) {
			t.Fatalf("term %d of %q: surface %q is not a substring of the input", i, in, tm.Surface)
		}
		if i > 0 && tm.Pos < ts[i-1].Pos {
			t.Fatalf("term %d of %q: Pos %d after %d", i, in, tm.Pos, ts[i-1].Pos)
		}
		if tm.Pos < 0 || tm.Kind > KindGlossary {
			t.Fatalf("term %d of %q: bad %+v", i, in, tm)
		}
		for j := i - 1; j >= 0 && ts[j].Pos == tm.Pos; j-- {
			if ts[j].Text == tm.Text {
				t.Fatalf("term %d of %q: %q twice at Pos %d", i, in, tm.Text, tm.Pos)
			}
		}
	}
}

// allOn turns every step on.
func allOn() Options {
	o := DefaultOptions()
	o.Bigrams = true
	return o
}

// TestInvariantsOnCorpus checks the invariants over the seeds and, when
// present, the shared incident corpus (through package sharedtest).
func TestInvariantsOnCorpus(t *testing.T) {
	check := func(t *testing.T, docs []string) {
		for _, o := range []Options{DefaultOptions(), allOn(), {}} {
			a := New(o)
			for _, d := range docs {
				checkInvariants(t, d, a.Analyze(d))
			}
		}
	}
	t.Run("seeds", func(t *testing.T) { check(t, seedTexts(t)) })
	t.Run("incidents", func(t *testing.T) {
		if testing.Short() {
			t.Skip("the 6,854-case corpus is checked without -short")
		}
		check(t, incidentTexts(t))
	})
}

// TestConcurrent analyzes the seeds from many goroutines sharing one fresh
// Analyzer and compares with a sequential run.
func TestConcurrent(t *testing.T) {
	docs := seedTexts(t)
	want := make([][]Term, len(docs))
	seq := New(allOn())
	for i, d := range docs {
		want[i] = seq.Analyze(d)
	}
	a := New(allOn())
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for r := 0; r < 3; r++ {
				for i := range docs {
					k := (i + g) % len(docs)
					if got := a.Analyze(docs[k]); !slices.Equal(got, want[k]) {
						errs <- fmt.Sprintf("doc %d differs", k)
						return
					}
				}
			}
			errs <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// TestAppendTerms checks that AppendTerms appends to dst and equals Analyze.
func TestAppendTerms(t *testing.T) {
	a := New(DefaultOptions())
	prefix := []Term{{Text: "x", Surface: "x"}}
	in := "pods OOMKilled on us-east-1"
	got := a.AppendTerms(prefix, in)
	if got[0] != prefix[0] || !slices.Equal(got[1:], a.Analyze(in)) {
		t.Fatalf("AppendTerms = %+v", got)
	}
	if ts := a.Analyze(""); len(ts) != 0 {
		t.Fatalf("Analyze(\"\") = %+v", ts)
	}
}

// TestOtherScripts checks that CJK, emoji and other scripts pass through:
// segmented, lower-cased where they have case, never stemmed, never mixed
// with adjacent Latin words; Korean goes through the Korean steps.
func TestOtherScripts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Redis에서 장애", []string{"redis", "outag"}},
		{"파드가 OOMKilled 됨", []string{"pod", "oomkil", "oom", "kill"}},
		{"数据库故障", []string{"数", "据", "库", "故", "障"}},
		{"サーバー障害", []string{"サーバー", "障", "害"}},
		{"👍🏽 fixed 👩‍💻 🇰🇷", []string{"👍🏽", "fix", "👩‍💻", "🇰🇷"}},
		{"ОШИБКА базы данных", []string{"ошибка", "базы", "данных"}},
		{"Ünicode café naïve", []string{"ünicode", "café", "naïve"}},
		{"ทดสอบ", []string{"ท", "ด", "ส", "อ", "บ"}},
		{"e\u0301tat", []string{"e\u0301tat"}},
	}
	a := New(DefaultOptions())
	for _, tt := range tests {
		if got := texts(a.Analyze(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("Analyze(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStopList checks the curated list against incident vocabulary.
func TestStopList(t *testing.T) {
	for _, w := range strings.Fields("down up off over out under above below back not no never none nothing system fire call full first last top get set put") {
		if isStop(w) {
			t.Errorf("%q must not be a stop word", w)
		}
	}
	for _, w := range strings.Fields("the a of and or is was were to in on for with by we our it this that") {
		if !isStop(w) {
			t.Errorf("%q should be a stop word", w)
		}
	}
}

// synonymGroup returns the index of the synonym group whose canonical
// member is canon.
func synonymGroup(canon string) int {
	for i, g := range SynonymGroups() {
		if g[0] == canon {
			return i
		}
	}
	panic("no synonym group " + canon)
}

// TestGroupNames: synonym groups and glossary sections are switched off by
// unique names a comma-separated list can hold, and Validate catches a name
// that switches nothing off.
func TestGroupNames(t *testing.T) {
	var groups []string
	for _, g := range SynonymGroups() {
		groups = append(groups, g[0])
	}
	for what, list := range map[string][]string{"synonym group": groups, "glossary section": GlossarySections()} {
		seen := map[string]bool{}
		for _, n := range list {
			if strings.Contains(n, ",") || strings.TrimSpace(n) != n || n == "" || seen[n] {
				t.Errorf("%s %q cannot be named in a comma-separated list (or is not unique)", what, n)
			}
			seen[n] = true
		}
	}
	o := DefaultOptions()
	o.SynonymsOff, o.GlossarySectionsOff = strings.Join(groups, ","), strings.Join(GlossarySections(), ", ")
	if err := o.Validate(); err != nil {
		t.Errorf("every name: %v", err)
	}
	for _, bad := range []Options{{SynonymsOff: "database,databse"}, {GlossarySectionsOff: "networking, netwrking"}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v: misspelt name accepted", bad)
		}
	}
}
