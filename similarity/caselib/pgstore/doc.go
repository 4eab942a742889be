// Package pgstore keeps a case library in a PostgreSQL table: one case per
// row, as a jsonb value in one column. It reads the cases (with caselib's
// validation and errors, the row's ctid in place of file:line), writes
// relate's "related" lists back in one transaction, keeps dupes decisions
// in a table beside the library (a caselib.DecisionStore), copies cases between
// files and a table (Import, Export), and fingerprints the table so a
// server can reload when it changes.
//
// A library is named by a URL (see Parse):
//
//	postgres://host/db?table=cases&column=data
//
// Everything but table and column is libpq's: user, password, host, port,
// sslmode… may also come from the PG* environment variables and
// ~/.pgpass (the driver, github.com/jackc/pgx/v5, reads them as libpq does).
//
// jsonb keeps neither the key order nor the spacing of a case file: a case
// imported and exported again has its keys in jsonb order (shorter keys
// first) and jsonb's spacing. The byte-exact promise of caselib's writer
// holds for files only.
//
// What does not live here: the link policy (which links relate proposes:
// cmd/caselink/internal/curate), scoring (package similarity), flags and
// output (cmd/caselink).
package pgstore
