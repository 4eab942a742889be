package caselib

import (
	"strings"
	"testing"
)

func TestSpliceRelated(t *testing.T) {
	bc := []string{"B", "C"}
	tests := []struct {
		name string
		in   string
		ids  []string
		want string
	}{
		{"compact replace", `{"id":"A","related":[]}`, bc, `{"id":"A","related":["B","C"]}`},
		{"spaced replace", `{"id": "A", "related": [], "x": 1}`, bc, `{"id": "A", "related": ["B", "C"], "x": 1}`},
		{"replace non-empty", `{"id":"A","related":["X","Y","Z"]}`, bc, `{"id":"A","related":["B","C"]}`},
		{"replace with none", `{"id": "A", "related": ["X"]}`, nil, `{"id": "A", "related": []}`},
		{"replace null", `{"id": "A", "related": null}`, bc, `{"id": "A", "related": ["B", "C"]}`},
		{"keep padding", `{"id": "A", "related": [ "X" ]}`, bc, `{"id": "A", "related": [ "B", "C" ]}`},
		{"keep own separator", `{"id":"A","related":["X" , "Y"]}`, bc, `{"id":"A","related":["B" , "C"]}`},
		{"separator from other list", `{"id":"A","domain":["x", "y"],"related":["X"]}`, bc, `{"id":"A","domain":["x", "y"],"related":["B", "C"]}`},
		{"insert compact", `{"id":"A","domain":["x","y"]}`, bc, `{"id":"A","domain":["x","y"],"related":["B","C"]}`},
		{"insert spaced", `{"id": "A", "org": "o"}`, bc, `{"id": "A", "org": "o", "related": ["B", "C"]}`},
		{"insert one member compact", `{"id":"A"}`, bc, `{"id":"A","related":["B","C"]}`},
		{"insert one member spaced", `{"id": "A"}`, bc, `{"id": "A", "related": ["B", "C"]}`},
		{"insert into empty object", `{}`, bc, `{"related":["B","C"]}`},
		{"insert empty list", `{"id":"A"}`, nil, `{"id":"A","related":[]}`},
		{"whitespace around", "  {\"id\": \"A\"} \r\n", bc, "  {\"id\": \"A\", \"related\": [\"B\", \"C\"]} \r\n"},
		{"escaped name", `{"\u0069d":"A","rel\u0061ted":null}`, bc, `{"\u0069d":"A","rel\u0061ted":["B","C"]}`},
		{"nested related untouched", `{"id":"A","x":{"related":[1]}}`, bc, `{"id":"A","x":{"related":[1]},"related":["B","C"]}`},
		{"escapes in ids", `{"id":"A"}`, []string{"a\"b\\c\nd\u0001<&>", "한국"}, `{"id":"A","related":["a\"b\\c\nd\u0001<&>","한국"]}`},
		{"ascii-only object", `{"id": "A", "t": "\ud55c"}`, []string{"한", "😀"}, `{"id": "A", "t": "\ud55c", "related": ["\ud55c", "\ud83d\ude00"]}`},
		{
			"pretty insert, no lists",
			"{\n  \"id\": \"A\",\n  \"docs\": []\n}\n", bc,
			"{\n  \"id\": \"A\",\n  \"docs\": [],\n  \"related\": [\n    \"B\",\n    \"C\"\n  ]\n}\n",
		},
		{
			"pretty replace, layout from other list",
			"{\n  \"id\": \"A\",\n  \"domain\": [\n    \"x\",\n    \"y\"\n  ],\n  \"related\": []\n}", bc,
			"{\n  \"id\": \"A\",\n  \"domain\": [\n    \"x\",\n    \"y\"\n  ],\n  \"related\": [\n    \"B\",\n    \"C\"\n  ]\n}",
		},
		{
			"pretty inline lists stay inline",
			"{\n  \"id\": \"A\",\n  \"domain\": [\"x\", \"y\"]\n}", bc,
			"{\n  \"id\": \"A\",\n  \"domain\": [\"x\", \"y\"],\n  \"related\": [\"B\", \"C\"]\n}",
		},
		{
			"tabs",
			"{\n\t\"id\": \"A\"\n}", bc,
			"{\n\t\"id\": \"A\",\n\t\"related\": [\n\t\t\"B\",\n\t\t\"C\"\n\t]\n}",
		},
		{
			"crlf",
			"{\r\n    \"id\": \"A\",\r\n    \"x\": {}\r\n}\r\n", bc,
			"{\r\n    \"id\": \"A\",\r\n    \"x\": {},\r\n    \"related\": [\r\n        \"B\",\r\n        \"C\"\r\n    ]\r\n}\r\n",
		},
		{
			"indented object",
			"{\n    \"id\": \"A\"\n  }", []string{"B"},
			"{\n    \"id\": \"A\",\n    \"related\": [\n      \"B\"\n    ]\n  }",
		},
		{
			"pretty one member",
			"{\n  \"id\": \"A\"\n}", nil,
			"{\n  \"id\": \"A\",\n  \"related\": []\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SpliceRelated([]byte(tt.in), tt.ids)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("\n got %q\nwant %q", got, tt.want)
			}
			checkSpliced(t, []byte(tt.in), got, tt.ids)
			// Splicing the same ids again changes nothing.
			again, err := SpliceRelated(got, tt.ids)
			if err != nil || string(again) != string(got) {
				t.Fatalf("second splice: %q %v", again, err)
			}
		})
	}
}

func TestSpliceRelatedErrors(t *testing.T) {
	tests := []struct {
		in   string
		ids  []string
		want string
	}{
		{`[1]`, nil, "expected a JSON object, found a list"},
		{``, nil, "unexpected end of input where an object is expected"},
		{`{"id": "A",}`, nil, `1:12: invalid character '}' where a member name (a string) is expected`},
		{"{\"id\": \"A\"}\n{}", nil, "2:1: unexpected data after the object"},
		{`{"related": [], "related": []}`, nil, `two "related" members`},
		{`{"id": "A"}`, []string{"ok", "bad\xff"}, "not valid UTF-8"},
		{`{"id": "A" "x"}`, nil, "after object member"},
	}
	for _, tt := range tests {
		_, err := SpliceRelated([]byte(tt.in), tt.ids)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SpliceRelated(%q): %v, want %q", tt.in, err, tt.want)
		}
	}
}
