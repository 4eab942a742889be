package tokenize_test

import (
	"fmt"

	"github.com/caselink/caselink/tokenize"
)

// An on-call line: compound tokens keep their whole form and add their
// parts, status codes add their class, IP addresses become <ip>, and
// synonym groups add their canonical term ("k8s" → kubernet).
func ExampleAnalyzer_Analyze() {
	a := tokenize.New(tokenize.DefaultOptions())
	for _, t := range a.Analyze("k8s pods OOMKilled, HTTP 503 from 10.0.0.12 in us-east-1") {
		fmt.Printf("%d %-9s %-13q %s\n", t.Pos, t.Kind, t.Text, t.Surface)
	}
	// Output:
	// 0 word      "k8s"         k8s
	// 0 synonym   "kubernet"    k8s
	// 1 word      "pod"         pods
	// 2 word      "oomkil"      OOMKilled
	// 2 part      "oom"         OOMKilled
	// 2 part      "kill"        OOMKilled
	// 3 word      "http"        HTTP
	// 4 word      "503"         503
	// 4 class     "5xx"         503
	// 6 class     "<ip>"        10.0.0.12
	// 8 word      "us-east-1"   us-east-1
	// 8 part      "east"        us-east-1
}

// Options switch steps of the pipeline on and off: here the default
// analyzer beside one that keeps stop words, does not stem or split
// compounds, and drops volatile tokens without a trace. (Synonyms stay on
// in both: "db" adds databas, "timed out" adds timeout.)
func ExampleNew() {
	text := "The connections to db-primary timed out at 10:42"
	terms := func(a *tokenize.Analyzer) []string {
		var out []string
		for _, t := range a.Analyze(text) {
			out = append(out, t.Text)
		}
		return out
	}
	fmt.Println(terms(tokenize.New(tokenize.DefaultOptions())))

	o := tokenize.DefaultOptions()
	o.StopWords, o.Stem, o.SplitCompounds, o.DropClasses = false, false, false, true
	fmt.Println(terms(tokenize.New(o)))
	// Output:
	// [connect db-primary db primari databas time timeout out]
	// [the connections to db-primary timed timeout out at]
}

// An Alertmanager line: label values are tokens of their own (a status code
// with its class), keys stay words, the pod name loses its generated
// suffix, and the severity label and the timestamp leave no term.
func ExampleAnalyzer_Analyze_alert() {
	a := tokenize.New(tokenize.DefaultOptions())
	for _, t := range a.Analyze(`2024-03-14T09:12:07Z [FIRING:1] pod=hub-7f9c6d8b54-tq2lx status=429 severity="warning"`) {
		fmt.Printf("%d %-6s %-8q %s\n", t.Pos, t.Kind, t.Text, t.Surface)
	}
	// Output:
	// 1 word   "firing:1" FIRING:1
	// 1 part   "fire"   FIRING:1
	// 2 word   "pod"    pod
	// 3 word   "hub"    hub
	// 4 word   "status" status
	// 5 word   "429"    429
	// 5 class  "4xx"    429
}
