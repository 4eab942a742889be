// Package seeds embeds the four seed incident cases that caselink uses as its
// library when the user names none.
//
// The files are byte-for-byte copies of the seed cases the project was given,
// one case per file, named by case id (IL-0100.json, …). This package only
// holds the bytes; reading and validating them is the case library's job
// (package similarity/caselib). It imports nothing but the standard library.
package seeds

import "embed"

// FS holds the seed case files at its root, one JSON object per file.
//
//go:embed *.json
var FS embed.FS
