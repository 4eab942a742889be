package similarity

import (
	"slices"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// TestNewDocumentKorean checks which Korean text a document takes: a
// field's Korean when it has no English, never the Korean twin of an
// English text.
func TestNewDocumentKorean(t *testing.T) {
	t.Parallel()
	c := &caselib.Case{
		ID:           "K-1",
		Title:        caselib.Text{EN: "Certificate expired", KO: "인증서 만료"},
		SymptomsText: caselib.Text{KO: "파드들이 재시작됨"},
		Summary:      caselib.Text{KO: "게이트웨이 인증서가 만료됐다"},
		Remediation:  []caselib.Text{{EN: "renewed the certificate", KO: "인증서 갱신"}, {KO: "롤백함"}},
	}
	d := NewDocument(c)
	want := [textViews][]string{
		Symptoms: {"Certificate expired", "파드들이 재시작됨"},
		Cause:    {"게이트웨이 인증서가 만료됐다"},
		Response: {"renewed the certificate", "롤백함"},
	}
	for v := range want {
		if !slices.Equal(d.Text[v], want[v]) {
			t.Errorf("view %d: %q, want %q", v, d.Text[v], want[v])
		}
	}
}
