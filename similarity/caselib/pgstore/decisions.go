package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/caselink/caselink/similarity/caselib"
)

// Decisions is the caselib.DecisionStore of a library kept in PostgreSQL: dupes
// decisions in a table beside the library's, named after it with
// "_decisions" (cases_decisions for the table cases, in the same schema),
// created on the first Record. It holds one row per decided pair:
//
//	a text, b text, verdict text, decided text (YYYY-MM-DD), recorded_at timestamptz, PRIMARY KEY (a, b)
//
// Each call opens its own connection, so a Decisions is safe for
// concurrent use.
type Decisions struct {
	src *Source
}

// NewDecisions returns the decision store beside the library at url (a
// library URL, see Parse).
func NewDecisions(url string) (*Decisions, error) {
	src, err := Parse(url)
	if err != nil {
		return nil, err
	}
	return &Decisions{src: src}, nil
}

// DecisionsFor returns the decision store beside src.
func DecisionsFor(src *Source) *Decisions { return &Decisions{src: src} }

var _ caselib.DecisionStore = (*Decisions)(nil)

// Table returns the decisions table's name as written in SQL messages,
// e.g. "cases_decisions".
func (d *Decisions) Table() string { return d.src.Table + "_decisions" }

func (d *Decisions) ident() string {
	parts := pgx.Identifier{d.src.Table}
	if i := len(d.src.Table) - len(lastPart(d.src.Table)); i > 0 {
		parts = pgx.Identifier{d.src.Table[:i-1], lastPart(d.src.Table)}
	}
	parts[len(parts)-1] += "_decisions"
	return parts.Sanitize()
}

// Load returns every pair's decision, sorted by A then B; none when the
// table does not exist yet.
func (d *Decisions) Load() ([]caselib.Decision, error) {
	ctx := context.Background()
	conn, err := d.src.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", d.ident()).Scan(&exists); err != nil || !exists {
		return nil, d.wrap(err)
	}
	rows, err := conn.Query(ctx, `SELECT a, b, verdict, decided FROM `+d.ident()+` ORDER BY a COLLATE "C", b COLLATE "C"`)
	if err != nil {
		return nil, d.wrap(err)
	}
	var out []caselib.Decision
	for rows.Next() {
		var x caselib.Decision
		var v string
		if err := rows.Scan(&x.A, &x.B, &v, &x.Date); err != nil {
			return nil, d.wrap(err)
		}
		x.Verdict = caselib.Verdict(v)
		out = append(out, x)
	}
	return out, d.wrap(rows.Err())
}

// Record stores x, replacing the pair's earlier decision; an empty Verdict
// removes it (undo). The pair is stored with A < B whatever order x gives.
func (d *Decisions) Record(x caselib.Decision) error {
	switch x.Verdict {
	case "", caselib.NotDuplicate, caselib.Duplicate:
	default:
		return fmt.Errorf("%s: unknown verdict %q", d.Table(), x.Verdict)
	}
	if x.A == "" || x.B == "" || x.A == x.B {
		return fmt.Errorf("%s: a decision needs two different case ids, got %q and %q", d.Table(), x.A, x.B)
	}
	if x.A > x.B {
		x.A, x.B = x.B, x.A
	}
	ctx := context.Background()
	conn, err := d.src.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+d.ident()+` (
		a text NOT NULL, b text NOT NULL, verdict text NOT NULL, decided text NOT NULL,
		recorded_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (a, b))`)
	if err != nil && !createRace(err) {
		return d.wrap(err)
	}
	if x.Verdict == "" {
		_, err = conn.Exec(ctx, `DELETE FROM `+d.ident()+` WHERE a = $1 AND b = $2`, x.A, x.B)
		return d.wrap(err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO `+d.ident()+` (a, b, verdict, decided) VALUES ($1, $2, $3, $4)
		ON CONFLICT (a, b) DO UPDATE SET verdict = excluded.verdict, decided = excluded.decided, recorded_at = now()`,
		x.A, x.B, string(x.Verdict), x.Date)
	return d.wrap(err)
}

func (d *Decisions) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", d.Table(), err)
}

// createRace reports whether err is PostgreSQL's answer to two sessions
// creating the same table at once (CREATE TABLE IF NOT EXISTS checks
// before it creates): the other session created it, which is what was
// wanted.
func createRace(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "42P07", "42710", "23505": // duplicate_table, duplicate_object, unique_violation (on pg_type)
		return true
	}
	return false
}
