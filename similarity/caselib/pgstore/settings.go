package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Settings keeps named text documents beside a library kept in PostgreSQL,
// where a library of files keeps files in its folder (the tuned weights of
// caselink.toml, the links relate wrote): a table named after the library's
// with "_caselink" (cases_caselink for the table cases, in the same schema),
// created on the first Put, one row per document:
//
//	name text PRIMARY KEY, body text, updated_at timestamptz
//
// Each call opens its own connection, so Settings is safe for concurrent use.
type Settings struct {
	src *Source
}

// SettingsFor returns the settings table beside src.
func SettingsFor(src *Source) *Settings { return &Settings{src: src} }

// Table returns the settings table's name as written in messages, e.g.
// "cases_caselink".
func (s *Settings) Table() string { return s.src.Table + "_caselink" }

func (s *Settings) ident() string {
	parts := pgx.Identifier{s.src.Table}
	if i := len(s.src.Table) - len(lastPart(s.src.Table)); i > 0 {
		parts = pgx.Identifier{s.src.Table[:i-1], lastPart(s.src.Table)}
	}
	parts[len(parts)-1] += "_caselink"
	return parts.Sanitize()
}

// Get returns the document name; ok is false when there is none (or no
// table yet).
func (s *Settings) Get(ctx context.Context, name string) (body string, ok bool, err error) {
	conn, err := s.src.connect(ctx)
	if err != nil {
		return "", false, err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", s.ident()).Scan(&exists); err != nil || !exists {
		return "", false, s.wrap(err)
	}
	err = conn.QueryRow(ctx, `SELECT body FROM `+s.ident()+` WHERE name = $1`, name).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	return body, err == nil, s.wrap(err)
}

// Put stores body as the document name, replacing the one kept, in one
// statement: a reader sees the old document or the new one.
func (s *Settings) Put(ctx context.Context, name, body string) error {
	conn, err := s.src.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+s.ident()+` (
		name text PRIMARY KEY, body text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return s.wrap(err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO `+s.ident()+` (name, body) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = now()`, name, body)
	return s.wrap(err)
}

func (s *Settings) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", s.Table(), err)
}
