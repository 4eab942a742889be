package pgstore

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/caselink/caselink/similarity/caselib"
)

// IsURL reports whether s names a library in PostgreSQL: it begins with
// postgres:// or postgresql://.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// DefaultColumn is the jsonb column read when the URL names none.
const DefaultColumn = "data"

// Source is a parsed library URL: where the server is and which table and
// column hold the cases.
type Source struct {
	// Table is the table as named in the URL, optionally with its schema
	// ("cases", "incidents.cases").
	Table string
	// Column is the jsonb column holding one case per row.
	Column string

	url    string // the URL without table and column, for the driver
	config *pgx.ConnConfig
}

// Parse reads a library URL such as
// postgres://user@host:5432/db?table=cases&column=data. The parameter
// "table" is required, "column" defaults to DefaultColumn; the other
// parameters and what the URL leaves out (user, password, host, port,
// database, sslmode…) follow libpq, including the PG* environment variables
// and ~/.pgpass. Errors are *caselib.Error naming the URL (without its
// password).
func Parse(raw string) (*Source, error) {
	bad := func(msg string, err error) error {
		return &caselib.Error{File: redact(raw), Msg: msg, Err: err}
	}
	if !IsURL(raw) {
		return nil, bad("not a postgres:// or postgresql:// URL", nil)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, bad("bad URL", unwrapURLError(err))
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, bad("bad URL query", err)
	}
	s := &Source{Table: q.Get("table"), Column: q.Get("column")}
	if s.Table == "" {
		return nil, bad("the URL names no table: add ?table=NAME (and &column=NAME, default "+DefaultColumn+")", nil)
	}
	if s.Column == "" {
		s.Column = DefaultColumn
	}
	for _, part := range strings.Split(s.Table, ".") {
		if part == "" {
			return nil, bad(fmt.Sprintf("bad table name %q", s.Table), nil)
		}
	}
	if strings.Count(s.Table, ".") > 1 {
		return nil, bad(fmt.Sprintf("bad table name %q: use TABLE or SCHEMA.TABLE", s.Table), nil)
	}
	q.Del("table")
	q.Del("column")
	u.RawQuery = q.Encode()
	s.url = u.String()
	s.config, err = pgx.ParseConfig(s.url)
	if err != nil {
		return nil, bad("bad URL", err)
	}
	// Every statement is sent once: parse, bind and run in one round trip
	// (the default prepares each new statement first, a round trip more).
	s.config.DefaultQueryExecMode = pgx.QueryExecModeExec
	return s, nil
}

// unwrapURLError drops net/url's repetition of the URL (which may hold a
// password).
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// redact returns the URL with its password replaced by "xxxxx" (when it
// cannot be parsed, everything before the host).
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		scheme, rest, _ := strings.Cut(raw, "://")
		if i := strings.LastIndex(rest, "@"); i >= 0 {
			return scheme + "://xxxxx" + rest[i:]
		}
		return raw
	}
	return u.Redacted()
}

// Name returns how messages name the library: "postgres table NAME".
func (s *Source) Name() string { return "postgres table " + s.Table }

// String returns the URL, password hidden, with its table and column.
func (s *Source) String() string {
	u, _ := url.Parse(s.url)
	q := u.Query()
	q.Set("table", s.Table)
	q.Set("column", s.Column)
	u.RawQuery = q.Encode()
	return u.Redacted()
}

// table and column return the quoted identifiers for SQL.
func (s *Source) table() string  { return pgx.Identifier(strings.Split(s.Table, ".")).Sanitize() }
func (s *Source) column() string { return pgx.Identifier{s.Column}.Sanitize() }

// connect opens a connection; a failure is a *caselib.Error (the server
// cannot be reached, or refuses the user).
func (s *Source) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.config.Copy())
	if err != nil {
		return nil, &caselib.Error{File: s.String(), Msg: "cannot connect", Err: err}
	}
	return conn, nil
}

// check verifies that the table exists and the column is jsonb, and
// returns the table's size in pages (one round trip).
func (s *Source) check(ctx context.Context, conn *pgx.Conn) (pages int64, err error) {
	var exists bool
	var typ *string
	err = conn.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL,
		(SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			WHERE attrelid = to_regclass($1) AND attname = $2 AND attnum > 0 AND NOT attisdropped),
		coalesce(pg_relation_size(to_regclass($1)) / current_setting('block_size')::int, 0)`,
		s.table(), s.Column).Scan(&exists, &typ, &pages)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s: %w", s.Name(), err)
	case !exists:
		return 0, &caselib.Error{File: s.Name(), Msg: "no such table"}
	case typ == nil:
		return 0, &caselib.Error{File: s.Name(), Msg: fmt.Sprintf("no column %q", s.Column)}
	case *typ != "jsonb":
		return 0, &caselib.Error{File: s.Name(), Msg: fmt.Sprintf("column %q is %s, not jsonb", s.Column, *typ)}
	}
	return pages, nil
}
