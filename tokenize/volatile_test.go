package tokenize

import "testing"

// TestClassify checks the volatile-token classes on whole tokens as the
// analyzer sees them.
func TestClassify(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.0.0.12", ClassIP},
		{"10.0.0.0/8", ClassIP},
		{"192.168.1.1:8080", ClassIP},
		{"256.1.1.1", ""},
		{"1.20.9", ""},
		{"2001:db8::1", ClassIP},
		{"fe80::1ff:fe23:4567:890a", ClassIP},
		{"FIRING:1", ""},
		{"550e8400-e29b-41d4-a716-446655440000", ClassUUID},
		{"88767d85c306784754560dedc1d5ac7abdb8a2a0", ClassHex},
		{"b7edea69", ClassHex},
		{"deadbeef", ""},
		{"0xFFFFF809E314033D", ClassHex},
		{"0x1f", ""},
		{"123456", ClassNum},
		{"2147483647", ""}, // a 32-bit limit stays a word: an overflow, not an id
		{"4294967295", ""},
		{"2147483646", ClassNum},
		{"12345", ""},
		{"2025", ""},
		{"1,000,000", ClassNum},
		{"1,000", ""},
		{"cqpqj188sdw8", ClassID},
		{"x2k4j", ClassID},
		{"p1662573041370449", ClassID},
		{"v1beta1", ""},
		{"utf8mb4", ""},
		{"2i2c", ""},
		{"x509", ""},
		{"14:05", ClassTime},
		{"5:15", ClassTime},
		{"09:21am", ClassTime},
		{"10:15:00.123Z", ClassTime},
		{"14:52-17:02", ClassTime},
		{"2021-12-09T10:15:00Z", ClassTime},
		{"2020-08-28", ClassDate},
		{"2025/10/21", ClassDate},
		{"07/19/22", ClassDate},
		{"21.10.2025", ClassDate},
		{"24/7", ""},
		{"16:9", ""},
		{"us-east-1", ""},
	}
	for _, tt := range tests {
		if got := classifyWhole(tt.in, wordFlags(tt.in)); got != tt.want {
			t.Errorf("classifyWhole(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStatusCodes checks which numbers emit a status class.
func TestStatusCodes(t *testing.T) {
	tests := []struct {
		in   string
		code string // the number's text
		cls  string // its class, "" for none
	}{
		{"HTTP 503", "503", "5xx"},
		{"got 429", "429", "4xx"},
		{"returned 404 for", "404", "4xx"},
		{"HTTP 500", "500", "5xx"},
		{"500 errors", "500", "5xx"},
		{"500 Internal Server Error", "500", "5xx"},
		{"500 customers", "500", ""},
		{"about 400 nodes", "400", ""},
		{"many 500s", "500", "5xx"},
		{"502s", "502", "5xx"},
		{"took 250 ms", "250", ""},
		{"scaled to 500 with 400 nodes", "500", ""},
		{"200 OK", "200", ""},
	}
	a := New(DefaultOptions())
	for _, tt := range tests {
		ts := a.Analyze(tt.in)
		var code, cls bool
		for _, tm := range ts {
			code = code || tm.Text == tt.code
			cls = cls || (tm.Kind == KindClass && tm.Text == tt.cls)
		}
		hasAnyClass := false
		for _, tm := range ts {
			hasAnyClass = hasAnyClass || tm.Kind == KindClass
		}
		if !code || (tt.cls != "" && !cls) || (tt.cls == "" && hasAnyClass) {
			t.Errorf("Analyze(%q) = %q: want %q with class %q", tt.in, texts(ts), tt.code, tt.cls)
		}
	}
}
