package caselib

import (
	"errors"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/caselink/caselink/seeds"
)

// LoadOptions tune Load.
type LoadOptions struct {
	// Lenient skips bad cases (each reported through Warn) instead of
	// stopping at the first error. A file that is not UTF-8 or is empty, and
	// a folder with no case files, are skipped whole with one warning. Of
	// two cases with the same id the first is kept. Files that cannot be
	// read at all still stop the load.
	Lenient bool
	// Warn is called once per skipped case (or skipped file) in lenient
	// mode, in input order, from the goroutine that called Load. May be nil.
	Warn func(err error)
	// Stdin is what the path "-" reads; os.Stdin when nil.
	Stdin io.Reader
	// MaxCaseBytes is the largest case accepted, in bytes of JSON: 0 means
	// DefaultMaxCaseBytes, a negative value no limit. A larger case is an
	// error (IsTooLarge), skipped when Lenient.
	MaxCaseBytes int64
	// Progress, when not nil, is called now and then with the number of
	// cases read so far, from the goroutine that called Load (for a
	// progress line; never concurrently with Warn).
	Progress func(cases int)
	// Notice, when not nil, is told of each entry of a folder that Load
	// leaves out though a user may expect it read: a named pipe, device or
	// socket with a case file's name, a link that leads nowhere or in a
	// loop, a link to a folder. Strict or lenient, these do not stop the
	// load and are not counted in Skipped; without Notice they are left
	// out in silence. Called from the goroutine that called Load, never
	// concurrently with Warn or Progress.
	Notice func(err error)
}

// DefaultMaxCaseBytes is the default per-case size limit: 4 MiB, over ten
// times the largest case of the 6,854 real incidents (0.3 MB), while a
// runaway case (a log pasted whole: 47 MB took 13–18 s and 3.1 GB to index)
// is stopped early.
const DefaultMaxCaseBytes = 4 << 20

// maxCase returns the limit in force, or -1 for none.
func (o LoadOptions) maxCase() int64 {
	switch {
	case o.MaxCaseBytes == 0:
		return DefaultMaxCaseBytes
	case o.MaxCaseBytes < 0:
		return -1
	}
	return o.MaxCaseBytes
}

// srcKind says where a file's bytes came from, which decides whether the
// writer may rewrite it.
type srcKind uint8

const (
	srcFile     srcKind = iota // a regular file: writable
	srcStdin                   // standard input: read-only
	srcEmbedded                // the embedded seeds: read-only
	srcSpecial                 // a named pipe, device, …: read-only
	srcRecords                 // records (database rows) given to LoadRecords: read-only here
)

// fileState is what the library remembers of one input file: enough for the
// writer to find the cases again and to notice that the file changed. It
// never holds the file's bytes.
type fileState struct {
	display string // as the user named it
	root    string // the folder given to Load that holds the file ("" when named itself)
	path    string // OS path ("" unless kind == srcFile)
	kind    srcKind
	lines   bool // read as JSON Lines (else: the whole file is one case, or a list of them)
	list    bool // the whole file is a JSON list of cases
	size    int64
	mtime   time.Time
	hash    uint64 // maphash of the content, with the library's seed

	// collector state while loading
	skipped bool    // lenient: the whole file was skipped
	pending []*Case // cases accepted so far, added to the library at the end
	given   bool    // Stream: cases of the file were handed over (nothing pending)
}

// caseExts are the extensions of case files inside a folder.
var caseExts = []string{".json", ".jsonl", ".txt"}

func isCaseFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range caseExts {
		if ext == e {
			return true
		}
	}
	return false
}

// walkCaseFiles calls fn for each case file in the folder root and its
// subfolders, in lexical order, by the rules of Load: files whose extension
// is one of caseExts, skipping names that begin with a dot and what the
// folder's IgnoreFile lists (ignore); a link to a
// file is read, a link to a folder inside root is not followed (root itself
// may be one), other special files are left out, each told to leftOut (when
// not nil) with why. fn also receives the errors of reading a folder (with its path);
// an error returned by fn stops the walk and is returned.
func walkCaseFiles(root string, ignore ignoreList, fn func(fpath string, err error) error, leftOut func(fpath, why string)) error {
	tell := func(fpath, why string) {
		if leftOut != nil {
			leftOut(fpath, why)
		}
	}
	// A library given as a link to a folder is that folder (as a link
	// inside it is not): walk where it points, naming the files by the
	// link, so that messages and writes use the name the user gave.
	walkRoot := root
	if st, err := os.Lstat(root); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(root); err == nil {
			walkRoot = real
		}
	}
	return filepath.WalkDir(walkRoot, func(fpath string, d fs.DirEntry, err error) error {
		if walkRoot != root {
			if rel, rerr := filepath.Rel(walkRoot, fpath); rerr == nil {
				fpath = filepath.Join(root, rel)
			}
		}
		if err != nil {
			return fn(fpath, err)
		}
		if fpath != root && (strings.HasPrefix(d.Name(), ".") || ignore.match(root, fpath)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(fpath)
			switch {
			case err == nil && st.IsDir():
				tell(fpath, "a link to a folder (links to folders are not followed: give the folder as a --cases of its own)")
				return nil
			case !isCaseFile(d.Name()):
				return nil
			case errors.Is(err, syscall.ELOOP):
				tell(fpath, "a link that leads in a loop")
				return nil
			case err != nil:
				tell(fpath, "a link that leads nowhere ("+errText(err)+")")
				return nil
			case !st.Mode().IsRegular():
				tell(fpath, "a link to "+fileKind(st.Mode())+" (only regular files are read)")
				return nil
			}
			return fn(fpath, nil)
		}
		if !isCaseFile(d.Name()) {
			return nil
		}
		if !d.Type().IsRegular() {
			tell(fpath, fileKind(d.Type())+" (only regular files are read)")
			return nil
		}
		return fn(fpath, nil)
	})
}

// fileKind names the kind of a file that is not regular, for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// errText is the system's words for err without the path it repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Load reads cases from paths: case files, folders of case files, JSON Lines
// files, or "-" for standard input (see the package documentation for the
// rules). It stops at the first error, an *Error, unless opts.Lenient is set.
func Load(paths []string, opts LoadOptions) (*Library, error) {
	if len(paths) == 0 {
		return nil, errors.New("caselib: Load: no paths given")
	}
	return load(opts, func(p *loader) {
		for _, name := range paths {
			if !p.loadPath(name) {
				return
			}
		}
	})
}

// LoadSeeds returns the embedded seed cases (package seeds), named
// "seeds/<file>". Such a library is read-only for WriteRelated.
func LoadSeeds() (*Library, error) {
	ents, err := fs.ReadDir(seeds.FS, ".")
	if err != nil {
		return nil, err
	}
	return load(LoadOptions{}, func(p *loader) {
		for _, e := range ents {
			if e.IsDir() || !isCaseFile(e.Name()) {
				continue
			}
			src := &fileState{display: path.Join("seeds", e.Name()), kind: srcEmbedded}
			f, err := seeds.FS.Open(e.Name())
			if err != nil {
				p.fail(src, &Error{File: src.display, Msg: "cannot read", Err: err}, true)
				return
			}
			size := int64(-1)
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
			ok := p.readStream(src, f, strings.EqualFold(path.Ext(e.Name()), ".jsonl"), size)
			f.Close()
			if !ok {
				return
			}
		}
	})
}

// loadPath feeds one path given to Load. It returns false to stop.
func (p *loader) loadPath(name string) bool {
	if name == "-" {
		r := p.opts.Stdin
		if r == nil {
			r = os.Stdin
		}
		return p.readStream(&fileState{display: "<stdin>", kind: srcStdin}, r, false, -1)
	}
	info, err := os.Stat(name)
	if err != nil {
		return p.fail(nil, &Error{File: name, Msg: "cannot read", Err: err}, true)
	}
	if !info.IsDir() {
		return p.readFile(name, name, "")
	}
	ignore, ierr := readIgnore(name)
	if ierr != nil {
		return p.fail(nil, ierr, true)
	}
	found := 0
	err = walkCaseFiles(name, ignore, func(fpath string, err error) error {
		if err != nil {
			return err
		}
		found++
		if !p.readFile(fpath, fpath, name) {
			return errStop
		}
		return nil
	}, p.leftOut)
	switch {
	case err == errStop:
		return false
	case err != nil:
		var pe *fs.PathError
		file := name
		if errors.As(err, &pe) {
			file, err = pe.Path, pe.Err
		}
		return p.fail(nil, &Error{File: file, Msg: "cannot read folder", Err: err}, true)
	case found == 0:
		return p.fail(nil, &Error{File: name, Msg: "folder holds no case files (" + strings.Join(caseExts, ", ") + ")"}, false)
	}
	return true
}

var errStop = errors.New("stop")

// readFile feeds one named file, found in the folder root ("" when the file
// was named itself). A file already read (a path given twice, or a file
// given beside its folder) is not read again.
func (p *loader) readFile(display, name, root string) bool {
	if abs, err := filepath.Abs(name); err == nil {
		if p.read[abs] {
			return true
		}
		p.read[abs] = true
	}
	src := &fileState{display: display, path: name, root: root}
	f, err := os.Open(name)
	if err != nil {
		return p.fail(nil, &Error{File: display, Msg: "cannot read", Err: err}, true)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return p.fail(nil, &Error{File: display, Msg: "cannot read", Err: err}, true)
	}
	if !info.Mode().IsRegular() {
		src.kind, src.path = srcSpecial, ""
	}
	src.mtime = info.ModTime()
	size := int64(-1)
	if src.kind == srcFile {
		size = info.Size()
	}
	return p.readStream(src, f, strings.EqualFold(filepath.Ext(name), ".jsonl"), size)
}

// plainLoad, set by a benchmark, makes load a plain loop: read, decode and
// collect in one goroutine.
var plainLoad = false

// load runs feed (the producer) against a pool of decoding workers and
// collects the results in input order.
func load(opts LoadOptions, feed func(p *loader)) (*Library, error) {
	return loadInto(&Library{byID: make(map[string]*Case), seed: maphash.MakeSeed()}, opts, feed)
}

// loadInto is load into lib, a library of cases or one being streamed.
func loadInto(lib *Library, opts LoadOptions, feed func(p *loader)) (*Library, error) {
	workers := runtime.GOMAXPROCS(0)
	p := &loader{
		opts:  opts,
		lib:   lib,
		work:  make(chan *job, 2*workers),
		order: make(chan *job, 2*workers+2),
		stop:  make(chan struct{}),
		free:  make(chan []byte, 3*workers+4),
		read:  make(map[string]bool),
	}
	if plainLoad {
		p.inline = true
		feed(p)
		if p.err != nil {
			return nil, p.err
		}
		return lib, nil
	}
	for range workers {
		go p.worker()
	}
	go func() {
		defer close(p.work)
		defer close(p.order)
		feed(p)
	}()
	if err := p.collect(); err != nil {
		close(p.stop) // the producer and workers wind down on their own
		go func() {
			for range p.order { // unblock the producer
			}
		}()
		return nil, err
	}
	return lib, nil
}
