package caselib

import "testing"

func TestTextIn(t *testing.T) {
	tests := []struct {
		t    Text
		lang string
		want string
	}{
		{Text{EN: "pods down", KO: "파드 다운"}, "ko", "파드 다운"},
		{Text{EN: "pods down", KO: "파드 다운"}, "en", "pods down"},
		{Text{EN: "pods down"}, "ko", "pods down"}, // no Korean: English
		{Text{KO: "파드 다운"}, "en", "파드 다운"},         // no English: Korean
		{Text{}, "ko", ""},
	}
	for _, tt := range tests {
		if got := tt.t.In(tt.lang); got != tt.want {
			t.Errorf("%+v.In(%q) = %q, want %q", tt.t, tt.lang, got, tt.want)
		}
	}
}
