package tokenize

import (
	"slices"
	"testing"
)

// TestSegment checks token boundaries: technical tokens stay whole,
// trailing sentence punctuation is dropped, URLs run to the next space.
func TestSegment(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"kube-apiserver X-Forwarded-For resourceVersion=0", []string{"kube-apiserver", "X-Forwarded-For", "resourceVersion=0"}},
		{"in us-east-1.", []string{"in", "us-east-1"}},
		{"error: x509: bad", []string{"error", "x509", "bad"}},
		{"at 10.0.0.12:5432, then", []string{"at", "10.0.0.12:5432", "then"}},
		{"std::string 2001:db8::1", []string{"std::string", "2001:db8::1"}},
		{"path /var/log/syslog ok", []string{"path", "var/log/syslog", "ok"}},
		{"__init__ a--b a..b", []string{"init", "a", "b", "a", "b"}},
		{"didn't PostHog's pods' ‘quoted’ won’t", []string{"didn't", "PostHog's", "pods", "quoted", "won’t"}},
		{"1,000 users, 2,3", []string{"1,000", "users", "2,3"}},
		{"(see https://example.com/a_(b)/c?x=1#f).", []string{"see", "https://example.com/a_(b)/c?x=1#f"}},
		{"<https://example.com/x>", []string{"https://example.com/x"}},
		{"http: no", []string{"http", "no"}},
		{"<b>Impact:</b>&nbsp;none<br/>", []string{"Impact", "none"}},
		{"/registry/<kind>/<name>", []string{"registry", "kind", "name"}},
		{"Redis에서 日本語", []string{"Redis", "에서", "日", "本", "語"}},
		{"🔥🔥 👩‍💻", []string{"🔥", "🔥", "👩‍💻"}},
		{"──┼── → ≥ ©", nil},
		{"a\xffb", []string{"a", "b"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range segment(tt.in, nil) {
			got = append(got, tt.in[tk.start:tk.end])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("segment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSegmentBreaks checks which gaps count as clause breaks.
func TestSegmentBreaks(t *testing.T) {
	tests := []struct {
		in   string
		want []bool // fBreak per token
	}{
		{"connection pool", []bool{false, false}},
		{"connection, pool", []bool{false, true}},
		{"connection\npool", []bool{false, false}},
		{"connection\n\npool", []bool{false, true}},
		{"connection - pool", []bool{false, true}},
		{"connection (pool)", []bool{false, true}},
		{"connection **pool**", []bool{false, false}},
		{"connection — pool", []bool{false, true}},
	}
	for _, tt := range tests {
		var got []bool
		for _, tk := range segment(tt.in, nil) {
			got = append(got, tk.flags&fBreak != 0)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("segment(%q) breaks = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestSplitCompound checks part boundaries and volatile parts.
func TestSplitCompound(t *testing.T) {
	tests := []struct {
		in   string
		want []string // parts; volatile parts as their class
	}{
		{"OOMKilled", []string{"OOM", "Killed"}},
		{"CrashLoopBackOff", []string{"Crash", "Loop", "Back", "Off"}},
		{"kube-apiserver", []string{"kube", "apiserver"}},
		{"X-Forwarded-For", []string{"X", "Forwarded", "For"}},
		{"resourceVersion=0", []string{"resource", "Version", "0"}},
		{"HTTPServer", []string{"HTTP", "Server"}},
		{"EC2Instance", []string{"EC2", "Instance"}},
		{"XMLHttpRequest", []string{"XML", "Http", "Request"}},
		{"IPv6", []string{"IPv6"}},
		{"URLs", []string{"URLs"}},
		{"GCFv2", []string{"GCFv2"}},
		{"PaaS", []string{"PaaS"}},
		{"DDoS", []string{"DDoS"}},
		{"512Mi", []string{"512Mi"}},
		{"p99", []string{"p99"}},
		{"us-east-1", []string{"us", "east", "1"}},
		{"api-7d9f8b6c5-x2k4j", []string{"api", ClassHex, ClassID}},
		{"pod-550e8400-e29b-41d4-a716-446655440000-x", []string{"pod", ClassUUID, "x"}},
		{"size:13313287", []string{"size", ClassNum}},
		{"jsonPayload.message", []string{"json", "Payload", "message"}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range splitCompound(tt.in, nil) {
			if p.class != "" {
				got = append(got, p.class)
			} else {
				got = append(got, tt.in[p.off:p.end])
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitCompound(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := ""
	for i := 0; i < 100; i++ {
		long += "ab-"
	}
	if n := len(splitCompound(long, nil)); n != maxParts {
		t.Errorf("splitCompound of 100 parts gave %d parts, want %d", n, maxParts)
	}
}
