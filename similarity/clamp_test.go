package similarity

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// A k beyond the library's size gives what k = the library's size gives:
// no panic (makeslice), no overflow of k plus the search's margin (which
// returned nothing), no allocation for hits that cannot exist.
func TestHugeKIsClamped(t *testing.T) {
	t.Parallel()
	ix := seedIndex(t, DefaultConfig())
	n := ix.Len()
	paste := "loki distributor pods OOMKilled right after the deploy"
	for _, k := range []int{math.MaxInt, math.MaxInt - 2, 1 << 40} {
		want := ix.Match(Query{Text: paste, K: n}).Hits
		if got := ix.Match(Query{Text: paste, K: k}).Hits; !slices.Equal(hitIDs(got), hitIDs(want)) || len(got) == 0 {
			t.Errorf("Match k=%d: %v, want %v", k, hitIDs(got), hitIDs(want))
		}
		for d := range n {
			if got, want := ix.Related(d, k, 0), ix.Related(d, n, 0); !slices.Equal(got, want) || len(got) != n-1 {
				t.Errorf("Related(%d, k=%d) = %v, want %v", d, k, hitIDs(got), hitIDs(want))
			}
			if got, want := ix.DupesOf(d, k, 0), ix.DupesOf(d, n, 0); !slices.Equal(got, want) || len(got) != n-1 {
				t.Errorf("DupesOf(%d, k=%d) = %v, want %v", d, k, hitIDs(got), hitIDs(want))
			}
		}
		if got, want := ix.AllRelated(k, 0, nil), ix.AllRelated(n, 0, nil); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("AllRelated k=%d = %v, want %v", k, got, want)
		}
		if got, want := ix.Duplicates(0, k, nil), ix.Duplicates(0, n, nil); !reflect.DeepEqual(got, want) || len(got) != n*(n-1)/2 {
			t.Errorf("Duplicates k=%d = %d pairs, want %d", k, len(got), len(want))
		}
	}
}
