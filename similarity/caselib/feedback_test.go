package caselib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFeedbackFile(t *testing.T) {
	dir := t.TempDir()
	p, err := FeedbackPath([]string{dir})
	if err != nil || p != filepath.Join(dir, FeedbackName) {
		t.Fatalf("FeedbackPath = %q, %v", p, err)
	}
	s := NewFeedbackFile(p)
	s.Now = func() time.Time { return time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC) }
	if err := s.Record(Feedback{Paste: "redis primry failed over\nconection refused", ID: "DV-0019", Helpful: true, Rank: 1, Score: 0.15}); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(Feedback{Paste: "redis primry failed over", ID: "DV-0028", Rank: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(Feedback{ID: "DV-0028"}); err == nil {
		t.Error("feedback without a paste was recorded")
	}
	got, err := s.Load()
	if err != nil || len(got) != 2 || !got[0].Helpful || got[1].Helpful || got[0].Date != "2026-12-01" || !strings.Contains(got[0].Paste, "\n") {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	b, _ := os.ReadFile(p)
	if lines := strings.Count(string(b), "\n"); lines != 2 {
		t.Errorf("%d lines, want one per feedback:\n%s", lines, b)
	}
}
