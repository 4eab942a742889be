package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/caselink/caselink/similarity/caselib"
)

// ImportResult counts what Import did with each case.
type ImportResult struct {
	Inserted  int // cases whose id was not in the table
	Replaced  int // rows whose jsonb differed and was replaced
	Unchanged int // rows that already held the same jsonb
}

// Import copies the cases of lib (loaded from files) into the table, in one
// transaction: a case whose id is already in a row replaces that row's
// jsonb, any other is inserted. The table is created, with just the jsonb
// column and a unique index on its "id", when it does not exist. jsonb
// keeps neither key order nor spacing: the rows hold the same JSON values,
// not the same bytes.
func Import(ctx context.Context, src *Source, lib *caselib.Library) (ImportResult, error) {
	var res ImportResult
	var rows [][]any
	err := caselib.Objects(lib, func(c *caselib.Case, obj []byte) error {
		rows = append(rows, []any{c.ID, string(obj)})
		return nil
	})
	if err != nil {
		return res, err
	}
	conn, err := src.connect(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.Background())
	tbl, col := src.table(), src.column()
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", tbl).Scan(&exists); err != nil {
		return res, fmt.Errorf("%s: %w", src.Name(), err)
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if !exists {
			idx := pgx.Identifier{lastPart(src.Table) + "_id"}.Sanitize()
			if _, err := tx.Exec(ctx, "CREATE TABLE "+tbl+" ("+col+" jsonb NOT NULL)"); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "CREATE UNIQUE INDEX "+idx+" ON "+tbl+" (("+col+"->>'id'))"); err != nil {
				return err
			}
		} else if _, err := src.check(ctx, conn); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "LOCK TABLE "+tbl+" IN SHARE ROW EXCLUSIVE MODE"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "CREATE TEMP TABLE caselink_import (id text PRIMARY KEY, obj text NOT NULL) ON COMMIT DROP"); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"caselink_import"}, []string{"id", "obj"}, pgx.CopyFromRows(rows)); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, "UPDATE "+tbl+" AS t SET "+col+" = s.obj::jsonb FROM caselink_import s"+
			" WHERE t."+col+"->>'id' = s.id AND t."+col+" IS DISTINCT FROM s.obj::jsonb")
		if err != nil {
			return err
		}
		res.Replaced = int(tag.RowsAffected())
		tag, err = tx.Exec(ctx, "INSERT INTO "+tbl+" ("+col+") SELECT s.obj::jsonb FROM caselink_import s"+
			" WHERE NOT EXISTS (SELECT 1 FROM "+tbl+" t WHERE t."+col+"->>'id' = s.id) ORDER BY s.id COLLATE \"C\"")
		if err != nil {
			return err
		}
		res.Inserted = int(tag.RowsAffected())
		res.Unchanged = len(rows) - res.Replaced - res.Inserted
		return nil
	})
	if err != nil {
		var ce *caselib.Error
		if errors.As(err, &ce) {
			return ImportResult{}, err
		}
		return ImportResult{}, fmt.Errorf("%s: import failed, nothing was imported: %w", src.Name(), err)
	}
	return res, nil
}

func lastPart(table string) string {
	for i := len(table) - 1; i >= 0; i-- {
		if table[i] == '.' {
			return table[i+1:]
		}
	}
	return table
}

// Export writes every row's jsonb to w as JSON Lines, one case per line,
// in case id order (byte order), and returns how many it wrote. The lines
// are jsonb's text: keys in jsonb order, jsonb's spacing. A row whose
// column is NULL is an error naming its ctid.
func Export(ctx context.Context, src *Source, w io.Writer) (int, error) {
	conn, err := src.connect(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	if _, err := src.check(ctx, conn); err != nil {
		return 0, err
	}
	col := src.column()
	rows, err := conn.Query(ctx, "SELECT ctid::text, "+col+"::text FROM "+src.table()+
		" ORDER BY ("+col+"->>'id') COLLATE \"C\", ctid")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", src.Name(), err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		raw := rows.RawValues()
		if raw[1] == nil {
			return n, &caselib.Error{File: src.Name(), Row: string(raw[0]), Field: src.Column, Msg: "NULL, not a case"}
		}
		if _, err := w.Write(raw[1]); err != nil {
			return n, err
		}
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("%s: reading rows: %w", src.Name(), err)
	}
	return n, nil
}

// Stamp returns a fingerprint of the table's rows, cheap to take (it reads
// row headers, not the jsonb): their number and a sum of a hash of every
// row version's ctid and xmin. An insert, update or delete changes it,
// whatever order concurrent transactions commit in (the newest xmin alone
// would miss a transaction that started before another and committed
// after it); a server polls it to know when to reload. Rewriting the table
// (VACUUM FULL, CLUSTER) changes it too.
func Stamp(ctx context.Context, src *Source) (string, error) {
	conn, err := src.connect(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.Background())
	var stamp string
	err = conn.QueryRow(ctx, "SELECT count(*)::text || '/' || coalesce(sum(hashtext(ctid::text || xmin::text)::bigint), 0)::text FROM "+src.table()).Scan(&stamp)
	if err != nil {
		return "", fmt.Errorf("%s: %w", src.Name(), err)
	}
	return stamp, nil
}
