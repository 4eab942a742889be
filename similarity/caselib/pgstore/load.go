package pgstore

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

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

// Reading a table: the server's work (turning jsonb into text) is most of
// a load's time, so a table of more than minSplitPages pages is read by
// GOMAXPROCS connections (at least two, at most maxReaders) at once, each a range of
// the table's pages (a TID range scan), all in one snapshot exported by the
// first. Sorting on the server (by the id inside the jsonb) would double
// the time: Load sorts the cases itself.
const (
	minSplitPagesDefault = 128
	maxReadersDefault    = 4
	batchBytes           = 256 << 10
)

// maxReaders caps the connections reading one table, and minSplitPages is
// the smallest table read by several (variables for the tests and the
// benchmark that compares one reader with several).
var maxReaders, minSplitPages = maxReadersDefault, int64(minSplitPagesDefault)

// readerStarted is called after each reader's goroutine is started (a hook
// for the test that starts the later readers late).
var readerStarted = func(i int) {}

// batch is a run of rows read by one reader.
type batch struct {
	ctids, xmins []string
	data         []byte
	ends         []int
}

// Load reads the cases of src. Rows are streamed and decoded as they come,
// with caselib's validation: a bad case is a *caselib.Error naming the
// table and the row's ctid; a missing table or column, a column that is
// not jsonb and a server that cannot be reached are *caselib.Error too.
// Other errors (a connection lost while reading) are runtime failures.
// opts.Lenient skips bad rows as Load skips bad cases (of two rows with
// one id, the first in the table's physical order is kept).
func Load(ctx context.Context, src *Source, opts caselib.LoadOptions) (*Table, error) {
	conn, err := src.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	pages, err := src.check(ctx, conn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ranges, err := src.readRanges(ctx, conn, pages)
	if err != nil {
		return nil, err
	}
	versions := make(map[string]string) // ctid -> xmin
	lib, err := caselib.LoadRecords(src.Name(), func(yield func(caselib.Record, error) bool) {
		for _, ch := range ranges {
			for b := range ch {
				if b.err != nil {
					yield(caselib.Record{}, b.err)
					return
				}
				start := 0
				for i, end := range b.ends {
					versions[b.ctids[i]] = b.xmins[i]
					if !yield(caselib.Record{Row: b.ctids[i], Data: b.data[start:end]}, nil) {
						return
					}
					start = end
				}
			}
		}
	}, opts)
	cancel()
	for _, ch := range ranges { // let the readers finish before conn closes
		for range ch {
		}
	}
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(lib.Cases, func(a, b *caselib.Case) int { return strings.Compare(a.ID, b.ID) })
	t := &Table{Lib: lib, Source: src, rows: make(map[string]rowVersion, len(lib.Cases))}
	for _, c := range lib.Cases {
		t.rows[c.ID] = rowVersion{ctid: c.Loc.Row, xmin: versions[c.Loc.Row]}
	}
	return t, nil
}

// readResult is a batch of rows or the error that ended a reader.
type readResult struct {
	*batch
	err error
}

// readRanges starts the readers and returns their channels, in the table's
// page order. conn reads the first range; extra connections are opened for
// the others and closed when their range is read.
func (src *Source) readRanges(ctx context.Context, conn *pgx.Conn, pages int64) ([]chan readResult, error) {
	n := min(max(runtime.GOMAXPROCS(0), 2), maxReaders) // the server works in processes of its own
	if pages < minSplitPages {
		n = 1
	}
	var tx pgx.Tx
	var snapshot string
	if n > 1 {
		var err error
		tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err == nil {
			err = tx.QueryRow(ctx, "SELECT pg_export_snapshot()").Scan(&snapshot)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name(), err)
		}
	}
	base := "SELECT ctid::text, xmin::text, " + src.column() + "::text FROM " + src.table()
	chans := make([]chan readResult, n)
	// Every reader is counted before any starts: reader 0 must not pass
	// Wait (and end the exporting transaction) while a reader not yet
	// counted has still to import the snapshot.
	var started sync.WaitGroup
	started.Add(n)
	for i := range n {
		ch := make(chan readResult, 1024)
		chans[i] = ch
		q := base
		if n > 1 {
			lo, hi := pages*int64(i)/int64(n), pages*int64(i+1)/int64(n)
			switch {
			case i == 0:
				q += fmt.Sprintf(" WHERE ctid < '(%d,0)'", hi)
			case i == n-1:
				q += fmt.Sprintf(" WHERE ctid >= '(%d,0)'", lo) // and whatever was added since
			default:
				q += fmt.Sprintf(" WHERE ctid >= '(%d,0)' AND ctid < '(%d,0)'", lo, hi)
			}
		}
		go func() {
			defer close(ch)
			c := conn
			if i > 0 {
				var err error
				c, err = src.connect(ctx)
				if err == nil {
					defer c.Close(context.Background())
					_, err = c.Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '"+snapshot+"'")
				}
				started.Done()
				if err != nil {
					ch <- readResult{err: err}
					return
				}
			} else {
				started.Done()
				if tx != nil {
					defer tx.Rollback(context.Background())
					// the exported snapshot lives as long as this
					// transaction: keep it open until the other readers
					// have joined it
					started.Wait()
				}
			}
			readRows(ctx, c, q, ch)
		}()
		readerStarted(i)
	}
	return chans, nil
}

// readRows runs q and sends its rows in batches.
func readRows(ctx context.Context, c *pgx.Conn, q string, ch chan<- readResult) {
	rows, err := c.Query(ctx, q)
	if err != nil {
		ch <- readResult{err: err}
		return
	}
	defer rows.Close()
	newBatch := func() *batch { return &batch{data: make([]byte, 0, batchBytes+batchBytes/4)} }
	b := newBatch()
	for rows.Next() {
		raw := rows.RawValues()
		b.ctids = append(b.ctids, string(raw[0]))
		b.xmins = append(b.xmins, string(raw[1]))
		if raw[2] == nil {
			b.data = append(b.data, "null"...)
		} else {
			b.data = append(b.data, raw[2]...)
		}
		b.ends = append(b.ends, len(b.data))
		if len(b.data) >= batchBytes {
			select {
			case ch <- readResult{batch: b}:
			case <-ctx.Done():
				return
			}
			b = newBatch()
		}
	}
	if err := rows.Err(); err != nil {
		ch <- readResult{err: fmt.Errorf("reading rows: %w", err)}
		return
	}
	if len(b.ends) > 0 {
		ch <- readResult{batch: b}
	}
}
