package pgstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

// WriteResult says what WriteRelated did.
type WriteResult struct {
	// Updated lists the cases whose row was updated, by id.
	Updated []string
	// Skipped lists the cases whose row changed (or went away) since it
	// was read: they were left as they are, by id.
	Skipped []string
}

// beforeCommit, when set by tests, runs inside the write's transaction
// just before COMMIT, with the backend's process id.
var beforeCommit func(pid uint32)

// UpdatedAtFormat is how the write time is stored in a row's "updated_at"
// (the seeds' format: UTC, microseconds).
const UpdatedAtFormat = "2006-01-02T15:04:05.000000Z"

// WriteRelated sets the "related" list of the cases named in related (case
// id -> ids, most similar first), in one transaction. Only the rows whose
// list changes are updated, and only their "related" key (jsonb_set; a row
// without the key gets it); a row whose jsonb has an "updated_at" key gets
// now there, in UpdatedAtFormat. A row changed since Load read it (its
// ctid and xmin differ) is not overwritten but listed in Skipped. When the
// connection or the commit fails, nothing is written.
//
// related says what the lists must become; which links to propose is the
// caller's (relate's link policy), not this function's. On success the
// cases' Related fields are updated.
func (t *Table) WriteRelated(ctx context.Context, related map[string][]string, now time.Time) (WriteResult, error) {
	var res WriteResult
	ch, err := t.changes(related)
	if err != nil || len(ch.ctids) == 0 {
		return res, err
	}
	conn, err := t.Source.connect(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.Background())
	col := t.Source.column()
	q := "UPDATE " + t.Source.table() + " AS t SET " + col + " = CASE WHEN t." + col + " ? 'updated_at'" +
		" THEN jsonb_set(jsonb_set(t." + col + ", '{related}', v.rel::jsonb), '{updated_at}', to_jsonb($4::text))" +
		" ELSE jsonb_set(t." + col + ", '{related}', v.rel::jsonb) END" +
		" FROM unnest($1::text[], $2::text[], $3::text[]) AS v(ctid, xmin, rel)" +
		" WHERE t.ctid = v.ctid::tid AND t.xmin = v.xmin::xid RETURNING v.ctid, t.ctid::text, t.xmin::text"
	updated := make(map[string]rowVersion, len(ch.ctids))
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q, ch.ctids, ch.xmins, ch.rels, now.UTC().Format(UpdatedAtFormat))
		if err != nil {
			return err
		}
		for rows.Next() {
			var old string
			var now rowVersion
			if err := rows.Scan(&old, &now.ctid, &now.xmin); err != nil {
				return err
			}
			updated[old] = now
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if beforeCommit != nil {
			beforeCommit(conn.PgConn().PID())
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("%s: writing related failed, the transaction did not commit: %w", t.Source.Name(), err)
	}
	for _, ctid := range ch.ctids {
		id := ch.byCtid[ctid]
		if v, ok := updated[ctid]; ok {
			res.Updated = append(res.Updated, id)
			t.rows[id] = v
			t.Lib.ByID(id).Related = slices.Clone(related[id])
		} else {
			res.Skipped = append(res.Skipped, id)
		}
	}
	return res, nil
}

// rowChanges are the rows whose related list changes, in id order: each
// row's version as read and its new list as JSON.
type rowChanges struct {
	ctids, xmins, rels []string
	byCtid             map[string]string // ctid → case id
}

// changes returns the rows of related whose list differs from the case's.
func (t *Table) changes(related map[string][]string) (rowChanges, error) {
	ch := rowChanges{byCtid: make(map[string]string)}
	ids := make([]string, 0, len(related))
	for id := range related {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := t.Lib.ByID(id)
		if c == nil {
			return ch, fmt.Errorf("%s: WriteRelated: no case %q in the library", t.Source.Name(), id)
		}
		list := related[id]
		if slices.Equal(list, c.Related) {
			continue
		}
		if list == nil {
			list = []string{}
		}
		b, err := json.Marshal(list)
		if err != nil {
			return ch, err
		}
		v := t.rows[id]
		ch.ctids = append(ch.ctids, v.ctid)
		ch.xmins = append(ch.xmins, v.xmin)
		ch.rels = append(ch.rels, string(b))
		ch.byCtid[v.ctid] = id
	}
	return ch, nil
}
