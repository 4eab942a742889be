package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/config"
	"github.com/caselink/caselink/cmd/caselink/internal/tuned"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

// weights.go applies the weights a library learned (caselink tune --write:
// the [weights] table of caselink.toml) wherever an index is built. The
// general config loader can take over weightsAt; engineConfig is the one
// place the weights reach the engine.

// Names of the documents kept in the settings table beside a postgres://
// library (pgstore.Settings), the counterparts of the files beside a
// library of files.
const (
	pgWeightsDoc = tuned.FileName
	pgLinksDoc   = tuned.LinksName
)

// weightsStore is where a library's weights are kept: a TOML file, or the
// settings table beside a postgres:// library.
type weightsStore struct {
	path string            // a caselink.toml, or ""
	pg   *pgstore.Settings // or the table, or nil
}

// none reports whether the library has nowhere to keep weights (the
// embedded seeds, standard input).
func (s weightsStore) none() bool { return s.path == "" && s.pg == nil }

// String names the store in messages.
func (s weightsStore) String() string {
	if s.pg != nil {
		return "table " + s.pg.Table()
	}
	return s.path
}

// weightsAt returns where the library's weights are kept: the config file
// config.LibraryFile names (--config, $CASELINK_CONFIG, else caselink.toml
// in the library's folder: the same lookup as the settings'), and for a
// postgres:// library without a named file, the settings table beside it.
// The user's own config file ($XDG_CONFIG_HOME) holds no weights: they
// belong to one library.
func weightsAt(c *cli.Context) (weightsStore, error) {
	paths := c.StringSlice("cases")
	p, how := config.LibraryFile(c.String("config"), paths)
	if p != "" && how != config.HowFolder {
		return weightsStore{path: p}, nil
	}
	if isTableLibrary(paths) {
		if len(paths) != 1 {
			return weightsStore{}, usagef("a postgres:// library must be the only --cases (got %d)", len(paths))
		}
		src, err := pgstore.Parse(paths[0])
		if err != nil {
			return weightsStore{}, usageError{err}
		}
		return weightsStore{pg: pgstore.SettingsFor(src)}, nil
	}
	return weightsStore{path: p}, nil
}

// load reads the weights kept in s (none when there are none).
func (s weightsStore) load(c *cli.Context) (tuned.Weights, error) {
	switch {
	case s.pg != nil:
		body, ok, err := s.pg.Get(ctxOf(c), pgWeightsDoc)
		if err != nil || !ok {
			return tuned.Weights{}, err
		}
		return tuned.Parse(s.String(), []byte(body))
	case s.path != "":
		return tuned.Load(s.path)
	}
	return tuned.Weights{}, nil
}

// save keeps w in s: the [weights] table of the file, the rest of it as it
// was; in a table, a document of that one table.
func (s weightsStore) save(c *cli.Context, w tuned.Weights) error {
	if s.pg != nil {
		if _, err := tuned.Parse(s.String(), w.Encode()); err != nil {
			return err
		}
		return s.pg.Put(ctxOf(c), pgWeightsDoc, string(w.Encode()))
	}
	return tuned.Save(s.path, w)
}

// engineConfig returns the configuration a command scores with: the
// defaults with the library's [weights] applied, and a sentence saying where
// the weights came from (for match --explain).
func engineConfig(c *cli.Context) (similarity.Config, string, error) {
	cfg := similarity.DefaultConfig()
	s, err := weightsAt(c)
	if err != nil || s.none() {
		return cfg, "defaults", err
	}
	w, err := s.load(c)
	if err != nil {
		return cfg, "", usageError{err}
	}
	if w.Empty() {
		return cfg, "defaults (no [weights] in " + s.String() + ")", nil
	}
	tuned.Apply(&cfg, w)
	from := fmt.Sprintf("[weights] of %s", s)
	if w.Note != "" {
		from += ": " + w.Note
	}
	return cfg, from, nil
}

// linksStore is where the links relate --write added are recorded: the
// links file beside a library of files, or the settings table beside a
// postgres:// library (never --config: they describe the library itself).
type linksStore struct {
	path string
	pg   *pgstore.Settings
}

// linksAt returns the links store of the library named by paths.
func linksAt(paths []string) (linksStore, error) {
	if isTableLibrary(paths) {
		if len(paths) != 1 {
			return linksStore{}, usagef("a postgres:// library must be the only --cases (got %d)", len(paths))
		}
		src, err := pgstore.Parse(paths[0])
		if err != nil {
			return linksStore{}, usageError{err}
		}
		return linksStore{pg: pgstore.SettingsFor(src)}, nil
	}
	p, err := tuned.Beside(paths, tuned.LinksName)
	if err != nil {
		return linksStore{}, err
	}
	return linksStore{path: p}, nil
}

// read returns the links recorded.
func (s linksStore) read(c *cli.Context) (map[tuned.Link]bool, error) {
	if s.pg == nil {
		return tuned.ReadLinks(s.path)
	}
	body, _, err := s.pg.Get(ctxOf(c), pgLinksDoc)
	if err != nil {
		return nil, err
	}
	return tuned.ParseLinks(s.pg.Table()+" "+pgLinksDoc, []byte(body))
}

// record adds the links add and removes the links remove (case id → ids).
func (s linksStore) record(c *cli.Context, add, remove map[string][]string) error {
	if s.pg == nil {
		return tuned.RecordLinks(s.path, add, remove)
	}
	have, err := s.read(c)
	if err != nil || !tuned.UpdateLinks(have, add, remove) {
		return err
	}
	data, err := tuned.FormatLinks(have)
	if err != nil {
		return err
	}
	return s.pg.Put(ctxOf(c), pgLinksDoc, string(data))
}
