package eval

import (
	"strings"
	"testing"
)

func TestMisspell(t *testing.T) {
	qs := []Query{{ID: "q1", Text: "redis primary failed over during the live migration, connection refused by DV-0019 at 10.0.0.1 in us-east-1; replicas lagging behind the leader"}}
	a, b := Misspell(qs, 1), Misspell(qs, 1)
	if a[0].Text != b[0].Text {
		t.Fatalf("same seed, different typos: %q, %q", a[0].Text, b[0].Text)
	}
	if a[0].ID != "q1" || qs[0].Text == a[0].Text {
		t.Fatalf("Misspell(%q) = %+v: want the same id and some typos", qs[0].Text, a[0])
	}
	for _, keep := range []string{"DV-0019", "10.0.0.1", "us-east-1"} {
		if !strings.Contains(a[0].Text, keep) {
			t.Errorf("%q lost %q: ids and numbers are never misspelt", a[0].Text, keep)
		}
	}
	// About a third of the long words, over many seeds.
	long, changed := 0, 0
	for seed := range uint64(200) {
		ow, mw := strings.Fields(qs[0].Text), strings.Fields(Misspell(qs, seed)[0].Text)
		for i, w := range ow {
			if len(strings.Trim(w, ",;")) >= TypoMinLen && strings.Trim(w, ",;abcdefghijklmnopqrstuvwxyz") == "" {
				long++
				if mw[i] != w {
					changed++
				}
			}
		}
	}
	if f := float64(changed) / float64(long); f < 0.25 || f > 0.42 {
		t.Errorf("%.2f of the long words misspelt, want about a third", f)
	}
}
