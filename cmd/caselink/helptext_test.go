package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
)

func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"caselink"}, args...), strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("caselink %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// Help texts that show JSON show what the commands really print or accept.
func TestHelpJSONIsReal(t *testing.T) {
	// relate --help: the shape of relate --json.
	help := runCLI(t, "relate", "--help")
	m := regexp.MustCompile(`print \{"CASE-ID":\[\{((?:"[a-z_]+",?)+)\}…\]…\}`).FindStringSubmatch(help)
	if m == nil {
		t.Fatalf("relate --help shows no JSON shape:\n%s", help)
	}
	documented := strings.Split(strings.ReplaceAll(m[1], `"`, ""), ",")
	var got map[string][]map[string]any
	if err := json.Unmarshal([]byte(runCLI(t, "relate", "--json", "--min-score", "0")), &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for id, links := range got {
		for _, l := range links {
			for k := range l {
				if !slices.Contains(documented, k) {
					t.Errorf("relate --json: %s has field %q, which relate --help does not show", id, k)
				}
				seen[k] = true
			}
		}
	}
	for _, k := range documented {
		if !seen[k] {
			t.Errorf("relate --help shows %q, which relate --json never prints", k)
		}
	}

	// serve --help: the example request is one the API takes.
	help = runCLI(t, "serve", "--help")
	for _, body := range regexp.MustCompile(`-d '(\{[^']*\})'`).FindAllStringSubmatch(help, -1) {
		dec := json.NewDecoder(strings.NewReader(body[1]))
		dec.DisallowUnknownFields()
		var req serve.MatchRequest
		if err := dec.Decode(&req); err != nil || req.Text == "" {
			t.Errorf("serve --help request %s: %v", body[1], err)
		}
	}
}
