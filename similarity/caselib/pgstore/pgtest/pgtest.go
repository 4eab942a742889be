// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb in
// a temporary folder, a server listening only on a private Unix socket,
// stopped and removed when the test binary ends. It looks for the server's
// binaries on PATH and under /usr/lib/postgresql/*/bin (Debian's
// postgresql package); as root it runs them as the user "postgres", since
// PostgreSQL refuses to run as root.
//
// Tests call New(t) for a fresh, empty database; the package's TestMain
// calls Main so the cluster is stopped at the end. When no server can be
// started the test is skipped, unless the environment says CI=true, where a
// server is required and the test fails.
package pgtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	dir    string // the temporary folder: data/ and the socket
	bin    string // folder of initdb, pg_ctl, postgres
	runAs  string // user to run the server as; "" for the current user
	socket string // folder of the Unix socket
	n      int    // databases created so far
	mu     sync.Mutex
}

var (
	shared    *Cluster
	sharedErr error
	once      sync.Once
)

// Main runs the tests and then stops the shared cluster, if one was
// started. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run runs the tests (m.Run) and then stops the shared cluster, if one was
// started, and returns m.Run's exit code; for a TestMain that wraps m
// (testscript.Main), Wrap gives such an m.
func Run(m interface{ Run() int }) int {
	code := m.Run()
	if shared != nil {
		shared.Stop()
	}
	return code
}

// Wrap returns m with a Run that stops the shared cluster at the end.
func Wrap(m interface{ Run() int }) interface{ Run() int } { return wrapped{m} }

type wrapped struct{ m interface{ Run() int } }

func (w wrapped) Run() int { return Run(w.m) }

// Shared returns the shared cluster, started on first use. It skips the
// test when no server can be started, or fails it under CI=true.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	once.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: no PostgreSQL server (required under CI=true): %v", sharedErr)
		}
		t.Skipf("pgtest: no PostgreSQL server: %v", sharedErr)
	}
	return shared
}

// New returns the connection URL of a new empty database on the shared
// cluster (started on first use), e.g.
// "postgres:///caselink3?host=/tmp/caselink-pg-1/sock&user=postgres".
// It skips the test when no server can be started, or fails it under
// CI=true.
func New(t testing.TB) string {
	t.Helper()
	url, err := Shared(t).CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// findBin returns the folder holding initdb and pg_ctl: the newest under
// /usr/lib/postgresql, else the one of initdb on PATH.
func findBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no pg_ctl on PATH or under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start creates and starts a new cluster.
func Start() (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin}
	c.dir, err = os.MkdirTemp("", "caselink-pg-")
	if err != nil {
		return nil, err
	}
	c.socket = filepath.Join(c.dir, "sock")
	if err := os.Mkdir(c.socket, 0o700); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(c.dir)
			return nil, fmt.Errorf("running as root and no user postgres to run the server as: %w", err)
		}
		c.runAs = "postgres"
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for _, p := range []string{c.dir, c.socket} {
			if err := os.Chown(p, uid, gid); err != nil {
				os.RemoveAll(c.dir)
				return nil, err
			}
		}
	}
	data := filepath.Join(c.dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(c.dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -F -c shared_buffers=32MB -c max_connections=40", c.socket)
	if out, err := c.run("pg_ctl", "-D", data, "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		os.RemoveAll(c.dir)
		return nil, fmt.Errorf("pg_ctl start: %v: %s %s", err, out, log)
	}
	return c, nil
}

// run runs one of the server's programs, as the server's user.
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	path := filepath.Join(c.bin, prog)
	var cmd *exec.Cmd
	if c.runAs != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.runAs, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = c.dir
	return cmd.CombinedOutput()
}

// URL returns the connection URL of database db.
func (c *Cluster) URL(db string) string {
	return "postgres:///" + db + "?host=" + c.socket + "&user=postgres"
}

// Socket returns the folder of the server's Unix socket (PGHOST).
func (c *Cluster) Socket() string { return c.socket }

// CreateDB creates a new empty database and returns its URL.
func (c *Cluster) CreateDB() (string, error) {
	c.mu.Lock()
	c.n++
	name := "caselink" + strconv.Itoa(c.n)
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return c.URL(name), nil
}

// Stop stops the server and removes its folder.
func (c *Cluster) Stop() {
	c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
}

// WithParams returns url with extra query parameters added ("table=cases").
func WithParams(url string, params ...string) string {
	sep := "&"
	if !strings.Contains(url, "?") {
		sep = "?"
	}
	return url + sep + strings.Join(params, "&")
}

// Rows runs query (its one column: a jsonb case) on the database at url and
// returns the rows decoded, by their "id".
func Rows(t testing.TB, url, query string) map[string]map[string]any {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		id, _ := m["id"].(string)
		out[id] = m
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Without returns a copy of m without the given keys.
func Without(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if !slices.Contains(keys, k) {
			out[k] = v
		}
	}
	return out
}
