package caselib

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// FeedbackName is the file, beside the decisions file in a library's
// folder, that keeps what on-call engineers said of match hits. It starts
// with a dot so that loading the folder as a library skips it.
const FeedbackName = ".caselink-feedback.jsonl"

// Feedback is one verdict on a match hit: the paste, the case it was shown,
// and whether that case helped. It is the signal a tuner can learn from: a
// helpful hit is a judged relevant case of the paste, an unhelpful one a
// judged non-relevant one (grade 2 and 0 in an eval queries file).
type Feedback struct {
	Paste   string  `json:"paste"`           // the paste as sent
	ID      string  `json:"id"`              // the hit's case id
	Helpful bool    `json:"helpful"`         // true: it helped; false: it did not
	Rank    int     `json:"rank,omitempty"`  // its rank when shown (1 for the best)
	Score   float64 `json:"score,omitempty"` // its score when shown
	Date    string  `json:"date"`            // YYYY-MM-DD, UTC
}

// FeedbackPath returns the feedback file beside a library named by its
// paths, in the folder DecisionsPath picks.
func FeedbackPath(library []string) (string, error) {
	p, err := DecisionsPath(library)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), FeedbackName), nil
}

// FeedbackFile keeps feedback as JSON Lines, one Feedback a line, oldest
// first. Recording rewrites the file through a temporary file renamed over
// it, so a failed write leaves it whole. It is safe for concurrent use.
type FeedbackFile struct {
	path string
	// Now gives the date of feedback recorded without one; nil means
	// time.Now.
	Now func() time.Time
	mu  sync.Mutex
}

// NewFeedbackFile returns the store kept in the file at path.
func NewFeedbackFile(path string) *FeedbackFile { return &FeedbackFile{path: path} }

// Path returns the file the store is kept in.
func (s *FeedbackFile) Path() string { return s.path }

// Record appends f (today's date when it has none).
func (s *FeedbackFile) Record(f Feedback) error {
	if strings.TrimSpace(f.Paste) == "" || f.ID == "" {
		return fmt.Errorf("%s: feedback needs the paste and the case id", s.path)
	}
	if f.Date == "" {
		now := time.Now
		if s.Now != nil {
			now = s.Now
		}
		f.Date = now().UTC().Format(time.DateOnly)
	}
	line, err := json.Marshal(f)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, err := os.ReadFile(s.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	return WriteFileAtomic(s.path, append(append(old, line...), '\n'), 0o644)
}

// Load returns the feedback kept, oldest first. A missing file holds none;
// a line that is not a Feedback is an error naming the file and line.
func (s *FeedbackFile) Load() ([]Feedback, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Feedback
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var f Feedback
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", s.path, n, err)
		}
		out = append(out, f)
	}
	return out, sc.Err()
}
