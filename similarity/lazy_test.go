package similarity

import (
	"errors"
	"fmt"
	"testing"
)

// CatchCaseError turns the panic of a case that cannot be read again into
// its error, and lets every other panic through.
func TestCatchCaseError(t *testing.T) {
	t.Parallel()
	if err := CatchCaseError(func() {}); err != nil {
		t.Errorf("no panic: %v", err)
	}
	ce := &CaseError{Pos: 3, ID: "A-3", Err: errors.New("changed")}
	if err := CatchCaseError(func() { panic(fmt.Errorf("reading: %w", ce)) }); err != ce {
		t.Errorf("a wrapped *CaseError: got %v, want %v", err, ce)
	}
	for _, v := range []any{"boom", errors.New("other")} {
		func() {
			defer func() {
				if got := recover(); got != v {
					t.Errorf("panic %v came out as %v", v, got)
				}
			}()
			CatchCaseError(func() { panic(v) })
			t.Errorf("panic %v was swallowed", v)
		}()
	}
}
