package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
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

	// dupes --help: the keys of dupes --json, at every level, on a library
	// with a cluster and a link to another event.
	help = runCLI(t, "dupes", "--help")
	m = regexp.MustCompile(`print (\{"threshold".*\}): `).FindStringSubmatch(help)
	if m == nil {
		t.Fatalf("dupes --help shows no JSON shape:\n%s", help)
	}
	documented = nil
	for _, k := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(m[1], -1) {
		documented = append(documented, k[1])
	}
	var page any
	if err := json.Unmarshal([]byte(runCLI(t, "dupes", "--cases", dupesLibrary(t), "--threshold", "0.1", "--json")), &page); err != nil {
		t.Fatal(err)
	}
	printed := map[string]bool{}
	jsonKeys(page, printed)
	for k := range printed {
		if !slices.Contains(documented, k) {
			t.Errorf("dupes --json prints %q, which dupes --help does not show", k)
		}
	}
	for _, k := range documented {
		if !printed[k] {
			t.Errorf("dupes --help shows %q, which dupes --json did not print", k)
		}
	}

	// serve --help: the example request is one the API takes.
	help = runCLI(t, "serve", "--help")
	for _, body := range regexp.MustCompile(`-d '(\{[^']*\})'`).FindAllStringSubmatch(help, -1) {
		dec := json.NewDecoder(strings.NewReader(body[1]))
		dec.DisallowUnknownFields()
		var req api.MatchRequest
		if err := dec.Decode(&req); err != nil || req.Text == "" {
			t.Errorf("serve --help request %s: %v", body[1], err)
		}
	}
}

// jsonKeys adds every object key in v, at any depth, to keys.
func jsonKeys(v any, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			keys[k] = true
			jsonKeys(x, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, keys)
		}
	}
}

// dupesLibrary writes a library with two records of one incident (a
// cluster) and a repeat years later (a link), as the dupes testscript has.
func dupesLibrary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	const text = `"org":"Acme","title":{"en":"Checkout API returns 502 after certificate expired on the load balancer"},` +
		`"summary":{"en":"The TLS certificate on the public load balancer expired at midnight; clients failed the handshake and checkout returned 502 until the certificate was renewed."},` +
		`"domain":["networking"],"symptoms":["tls-handshake-failures"],"components":["load-balancer","certificate"],"related":[]`
	for id, date := range map[string]string{"DUP-1": "2024-01-10", "DUP-2": "2024-01-10", "DUP-OLD": "2020-01-10"} {
		src := `{"id":"` + id + `","date":"` + date + `","url":"https://status.example.com/` + id + `",` + text + "}\n"
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
