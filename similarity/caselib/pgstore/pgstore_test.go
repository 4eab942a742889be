package pgstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// seedsDir is the repository's seed cases.
const seedsDir = "../../../seeds"

// newTable returns a fresh database's library URL for table cases, filled
// with the cases of paths (none when paths is empty).
func newTable(t testing.TB, paths ...string) (*Source, string) {
	t.Helper()
	url := pgtest.WithParams(pgtest.New(t), "table=cases", "column=data")
	src, err := Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) > 0 {
		lib, err := caselib.Load(paths, caselib.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Import(context.Background(), src, lib); err != nil {
			t.Fatal(err)
		}
	}
	return src, url
}

func connect(t testing.TB, src *Source) *pgx.Conn {
	t.Helper()
	conn, err := src.connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// typed returns the cases' decoded fields as JSON, where they were read
// from left out.
func typed(t testing.TB, cases []*caselib.Case) string {
	t.Helper()
	var b bytes.Buffer
	for _, c := range cases {
		cc := *c
		cc.Loc = caselib.Location{}
		j, err := json.Marshal(cc)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

func sortedByID(cases []*caselib.Case) []*caselib.Case {
	out := slices.Clone(cases)
	slices.SortFunc(out, func(a, b *caselib.Case) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func TestLoadSameCasesAsFiles(t *testing.T) {
	src, _ := newTable(t, seedsDir)
	files, err := caselib.Load([]string{seedsDir}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := Load(context.Background(), src, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := typed(t, tbl.Lib.Cases), typed(t, sortedByID(files.Cases)); got != want {
		t.Errorf("cases from the table differ from the files:\n%s\nwant\n%s", got, want)
	}
	c := tbl.Lib.Cases[0]
	if !strings.HasPrefix(c.Loc.String(), "postgres table cases row (") {
		t.Errorf("location %q does not name the table and row", c.Loc.String())
	}
}

func TestLoadErrors(t *testing.T) {
	src, url := newTable(t, seedsDir)
	conn := connect(t, src)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE notjson (data text)",
		"CREATE TABLE noid (data jsonb)",
		`INSERT INTO noid VALUES ('{"id":"A"}'), ('{"title":"no id here"}')`,
		"CREATE TABLE dup (data jsonb)",
		`INSERT INTO dup VALUES ('{"id":"A"}'), ('{"id":"A","title":"again"}')`,
		"CREATE TABLE badfield (data jsonb)",
		`INSERT INTO badfield VALUES ('{"id":"A","domain":"db"}')`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	base, _, _ := strings.Cut(url, "table=")
	for _, tc := range []struct{ url, want string }{
		{"postgres://host/db", `postgres://host/db: the URL names no table: add ?table=NAME (and &column=NAME, default data)`},
		{"postgres://u:secret@host/db?table=a.b.c", `postgres://u:xxxxx@host/db?table=a.b.c: bad table name "a.b.c": use TABLE or SCHEMA.TABLE`},
		{"postgres://h:notaport/db?table=t", `postgres://h:notaport/db?table=t: bad URL: invalid port ":notaport" after host`},
		{base + "table=missing", `postgres table missing: no such table`},
		{base + "table=cases&column=doc", `postgres table cases: no column "doc"`},
		{base + "table=notjson", `postgres table notjson: column "data" is text, not jsonb`},
		{base + "table=noid", `postgres table noid row (0,2): field "id": missing`},
		{base + "table=dup", `postgres table dup row (0,2): case "A": duplicate id (first at postgres table dup row (0,1))`},
		{base + "table=badfield", `postgres table badfield row (0,1): case "A": field "domain": expected a list of strings, found a string`},
	} {
		src, err := Parse(tc.url)
		if err == nil {
			_, err = Load(ctx, src, caselib.LoadOptions{})
		}
		var ce *caselib.Error
		if !errors.As(err, &ce) || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.url, err, tc.want)
		}
	}
	// an unreachable server: a named error, no hang
	src, err := Parse("postgres:///db?host=/nonexistent-caselink&table=cases&connect_timeout=5")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(ctx, src, caselib.LoadOptions{})
	var ce *caselib.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "cannot connect") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unreachable server: %v", err)
	}
}

// rowsByID returns every row's jsonb, decoded, by case id.
func rowsByID(t testing.TB, src *Source) map[string]map[string]any {
	return pgtest.Rows(t, src.url, "SELECT data::text FROM cases")
}

func TestWriteRelated(t *testing.T) {
	src, _ := newTable(t, seedsDir)
	conn := connect(t, src)
	ctx := context.Background()
	// IL-0371 loses its updated_at key, to see that only rows having one get it
	if _, err := conn.Exec(ctx, `UPDATE cases SET data = data - 'updated_at' WHERE data->>'id' = 'IL-0371'`); err != nil {
		t.Fatal(err)
	}
	before := rowsByID(t, src)
	tbl, err := Load(ctx, src, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// another session edits IL-0194 after the load
	if _, err := conn.Exec(ctx, `UPDATE cases SET data = jsonb_set(data, '{org}', '"edited"') WHERE data->>'id' = 'IL-0194'`); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 9, 30, 0, 123456000, time.UTC)
	related := map[string][]string{
		"IL-0100": {"IL-0191", "IL-0371"},
		"IL-0194": {"IL-0100"},
		"IL-0371": {"IL-0100"},
		"IL-0191": tbl.Lib.ByID("IL-0191").Related, // no change: not written
	}
	res, err := tbl.WriteRelated(ctx, related, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := (WriteResult{Updated: []string{"IL-0100", "IL-0371"}, Skipped: []string{"IL-0194"}}); !reflect.DeepEqual(res, want) {
		t.Errorf("result %+v, want %+v", res, want)
	}
	after := rowsByID(t, src)
	for id, row := range after {
		if id == "IL-0194" {
			if row["org"] != "edited" || !reflect.DeepEqual(row["related"], before[id]["related"]) {
				t.Errorf("IL-0194 changed since read was overwritten: %v", row)
			}
			continue
		}
		if !reflect.DeepEqual(pgtest.Without(row, "related", "updated_at"), pgtest.Without(before[id], "related", "updated_at")) {
			t.Errorf("%s: more than related and updated_at changed", id)
		}
		want := before[id]["related"]
		if r, ok := related[id]; ok && id != "IL-0191" {
			want = toAny(r)
		}
		if !reflect.DeepEqual(row["related"], want) {
			t.Errorf("%s: related %v, want %v", id, row["related"], want)
		}
	}
	if got := after["IL-0100"]["updated_at"]; got != "2026-11-30T09:30:00.123456Z" {
		t.Errorf("IL-0100 updated_at = %v, want the write time", got)
	}
	if got := after["IL-0191"]["updated_at"]; got != before["IL-0191"]["updated_at"] {
		t.Errorf("IL-0191 was not written but its updated_at changed to %v", got)
	}
	if _, ok := after["IL-0371"]["updated_at"]; ok {
		t.Error("IL-0371 had no updated_at and got one")
	}
	// a second write of the same lists changes nothing
	res, err = tbl.WriteRelated(ctx, related, now.Add(time.Hour))
	if err != nil || len(res.Updated) != 0 {
		t.Errorf("second write: %+v, %v", res, err)
	}
}

func toAny(ids []string) []any {
	out := []any{}
	for _, id := range ids {
		out = append(out, id)
	}
	return out
}

// A connection lost in the middle of the write (the backend terminated
// just before COMMIT) leaves every row as it was.
func TestWriteRollsBackWhenTheConnectionIsLost(t *testing.T) {
	src, _ := newTable(t, seedsDir)
	conn := connect(t, src)
	ctx := context.Background()
	before := rowsByID(t, src)
	tbl, err := Load(ctx, src, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	beforeCommit = func(pid uint32) {
		var ok bool
		if err := conn.QueryRow(ctx, "SELECT pg_terminate_backend($1)", pid).Scan(&ok); err != nil || !ok {
			t.Errorf("pg_terminate_backend: %v %v", ok, err)
		}
	}
	defer func() { beforeCommit = nil }()
	_, err = tbl.WriteRelated(ctx, map[string][]string{"IL-0100": {"IL-0191"}, "IL-0191": {"IL-0100"}}, time.Now())
	if err == nil {
		t.Fatal("the write succeeded although its connection was terminated")
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	if after := rowsByID(t, src); !reflect.DeepEqual(after, before) {
		t.Error("rows changed although the transaction was cut")
	}
}

func TestImportExportRoundTrip(t *testing.T) {
	src, _ := newTable(t, seedsDir)
	var out bytes.Buffer
	n, err := Export(context.Background(), src, &out)
	if err != nil || n != 4 {
		t.Fatalf("export: %d cases, %v", n, err)
	}
	f := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(f, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	exported, err := caselib.Load([]string{f}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := caselib.Load([]string{seedsDir}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if typed(t, exported.Cases) != typed(t, sortedByID(files.Cases)) {
		t.Error("exported cases differ from the imported files")
	}
	// importing the export again changes no row; an edited file replaces its row
	res, err := Import(context.Background(), src, exported)
	if err != nil || res != (ImportResult{Unchanged: 4}) {
		t.Errorf("re-import: %+v, %v", res, err)
	}
	edited := filepath.Join(t.TempDir(), "new.jsonl")
	os.WriteFile(edited, []byte(`{"id":"IL-0100","title":"replaced"}`+"\n"+`{"id":"NEW-1"}`+"\n"), 0o644)
	lib, err := caselib.Load([]string{edited}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err = Import(context.Background(), src, lib)
	if err != nil || res != (ImportResult{Inserted: 1, Replaced: 1}) {
		t.Errorf("import of an edit: %+v, %v", res, err)
	}
}

func TestStampChangesWithTheTable(t *testing.T) {
	src, _ := newTable(t, seedsDir)
	conn := connect(t, src)
	ctx := context.Background()
	stamp := func() string {
		s, err := Stamp(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s0 := stamp()
	if stamp() != s0 {
		t.Fatal("stamp changed with no change")
	}
	seen := map[string]bool{s0: true}
	for _, q := range []string{
		`UPDATE cases SET data = jsonb_set(data, '{org}', '"x"') WHERE data->>'id' = 'IL-0100'`,
		`DELETE FROM cases WHERE data->>'id' = 'IL-0191'`,
		`INSERT INTO cases VALUES ('{"id":"NEW"}')`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
		s := stamp()
		if seen[s] {
			t.Errorf("stamp %s did not change after %s", s, q)
		}
		seen[s] = true
	}
	// a transaction that began first and commits last still changes it
	early := connect(t, src)
	if _, err := early.Exec(ctx, "BEGIN; SELECT txid_current()"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE cases SET data = jsonb_set(data, '{org}', '"late"') WHERE data->>'id' = 'IL-0100'`); err != nil {
		t.Fatal(err)
	}
	s1 := stamp()
	if _, err := early.Exec(ctx, `UPDATE cases SET data = jsonb_set(data, '{org}', '"early"') WHERE data->>'id' = 'IL-0194'; COMMIT`); err != nil {
		t.Fatal(err)
	}
	if s2 := stamp(); s2 == s1 {
		t.Errorf("stamp %s did not change when an older transaction committed", s2)
	}
}

// A table read by several connections at once (each a range of its pages)
// gives the same library as one connection, and the same errors.
func TestLoadInRanges(t *testing.T) {
	src, _ := newTable(t)
	conn := connect(t, src)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE cases (data jsonb)",
		`INSERT INTO cases SELECT jsonb_build_object('id', 'G-' || lpad(i::text, 5, '0'), 'org', 'org' || (i % 7),
			'title', jsonb_build_object('en', repeat('disk full on node ' || i || ' ', 20))) FROM generate_series(1, 3000) i`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	load := func(readers int, split int64) (*Table, error) {
		defer func(r int, s int64) { maxReaders, minSplitPages = r, s }(maxReaders, minSplitPages)
		maxReaders, minSplitPages = readers, split
		return Load(ctx, src, caselib.LoadOptions{})
	}
	one, err := load(1, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	many, err := load(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if one.Lib.Len() != 3000 || typed(t, one.Lib.Cases) != typed(t, many.Lib.Cases) {
		t.Errorf("one reader: %d cases; several: %d, or different cases", one.Lib.Len(), many.Lib.Len())
	}
	if !reflect.DeepEqual(one.rows, many.rows) {
		t.Error("row versions differ between one reader and several")
	}
	// The first reader holds the snapshot the others import: it must wait
	// for them even when they start late (an exporting transaction that
	// ends first fails them with "invalid snapshot identifier").
	readerStarted = func(i int) {
		if i == 0 {
			time.Sleep(300 * time.Millisecond)
		}
	}
	late, err := load(4, 1)
	readerStarted = func(int) {}
	if err != nil {
		t.Fatalf("readers started late: %v", err)
	}
	if !reflect.DeepEqual(one.rows, late.rows) {
		t.Error("readers started late: row versions differ from one reader's")
	}
	// a duplicate at the far end of the table is reported against the first row
	if _, err := conn.Exec(ctx, `INSERT INTO cases VALUES ('{"id": "G-00001"}')`); err != nil {
		t.Fatal(err)
	}
	_, err1 := load(1, 1<<40)
	_, errN := load(4, 1)
	if err1 == nil || errN == nil || err1.Error() != errN.Error() || !strings.Contains(err1.Error(), "(first at postgres table cases row (0,1))") {
		t.Errorf("duplicate id: one reader %v, several %v", err1, errN)
	}
}
