package pgstore

import (
	"context"
	"fmt"

	"github.com/caselink/caselink/similarity/caselib"
)

// Table is a library loaded from PostgreSQL: the cases, and for each the
// version of its row that was read, so that a write can tell a row changed
// since.
type Table struct {
	// Lib holds the cases, in case id order (byte order). Their Loc names
	// the table and the row's ctid: postgres table cases row (0,7).
	Lib *caselib.Library
	// Source is where the cases came from.
	Source *Source

	rows map[string]rowVersion // by case id
}

// rowVersion identifies the version of a row that was read.
type rowVersion struct {
	ctid, xmin string
}

// selectCases lists the rows, ordered by case id in byte order (COLLATE
// "C", the order Go sorts strings in) so that a load is deterministic.
func (s *Source) selectCases(extra string) string {
	col := s.column()
	return "SELECT ctid::text" + extra + ", " + col + "::text FROM " + s.table() +
		" ORDER BY (" + col + "->>'id') COLLATE \"C\", ctid"
}

// Load reads the cases of src. Rows are streamed and decoded as they come,
// with caselib's validation: a bad case is a *caselib.Error naming the
// table and the row's ctid; a missing table or column, a column that is
// not jsonb and a server that cannot be reached are *caselib.Error too.
// Other errors (a connection lost while reading) are runtime failures.
// opts.Lenient skips bad rows as Load skips bad cases.
func Load(ctx context.Context, src *Source, opts caselib.LoadOptions) (*Table, error) {
	conn, err := src.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	if err := src.check(ctx, conn); err != nil {
		return nil, err
	}
	versions := make(map[string]string) // ctid -> xmin
	finished := make(chan struct{})     // the producer no longer uses conn
	lib, err := caselib.LoadRecords(src.Name(), func(yield func(caselib.Record, error) bool) {
		defer close(finished)
		rows, err := conn.Query(ctx, src.selectCases(", xmin::text"))
		if err != nil {
			yield(caselib.Record{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			raw := rows.RawValues()
			ctid := string(raw[0])
			versions[ctid] = string(raw[1])
			data := raw[2]
			if data == nil {
				data = []byte("null")
			}
			if !yield(caselib.Record{Row: ctid, Data: data}, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(caselib.Record{}, fmt.Errorf("%s: reading rows: %w", src.Name(), err))
		}
	}, opts)
	<-finished
	if err != nil {
		return nil, err
	}
	t := &Table{Lib: lib, Source: src, rows: make(map[string]rowVersion, len(lib.Cases))}
	for _, c := range lib.Cases {
		t.rows[c.ID] = rowVersion{ctid: c.Loc.Row, xmin: versions[c.Loc.Row]}
	}
	return t, nil
}
