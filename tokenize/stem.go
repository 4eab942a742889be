package tokenize

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kljensen/snowball/english"
)

// Cache sizing. The cache maps a word as written ("Killed", "killed",
// "US-EAST-1") to its normalized form, so each distinct spelling is
// lower-cased, looked up in the stop list and stemmed once per Analyzer.
// It stops growing at cacheCap entries (a few tens of MB at most); words
// first seen after that are normalized on every call.
const (
	cacheCap    = 1 << 18
	cacheMaxLen = 32 // longer words are not cached
	minFresh    = 512
)

// normEntry is a cached normalization.
type normEntry struct {
	text  string   // lower-cased, stemmed when Stem is on; a Korean word's stem
	stop  bool     // the lower-cased word is a stop word
	parts []string // a Korean compound's glossary words (korean.go), or nil
}

// normCache is a read-mostly map safe for concurrent use. Lookups of words
// already published in the frozen map take no lock and write no shared
// memory, so parallel indexers do not contend once the cache is warm. New
// words go to a small mutex-guarded map that is merged into a new frozen
// map when it reaches a quarter of the frozen map's size (so merging costs
// amortized O(1) per word).
type normCache struct {
	frozen atomic.Pointer[map[string]normEntry] // immutable once published
	mu     sync.Mutex
	fresh  map[string]normEntry // guarded by mu
	total  int                  // entries in frozen and fresh, guarded by mu
}

func newNormCache() *normCache {
	c := &normCache{fresh: make(map[string]normEntry, minFresh)}
	m := map[string]normEntry{}
	c.frozen.Store(&m)
	return c
}

func (c *normCache) get(s string) (normEntry, bool) {
	if e, ok := (*c.frozen.Load())[s]; ok {
		return e, true
	}
	c.mu.Lock()
	e, ok := c.fresh[s]
	c.mu.Unlock()
	return e, ok
}

// put stores e under key; key and e.text must not alias the caller's input.
func (c *normCache) put(key string, e normEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= cacheCap {
		return
	}
	if _, ok := c.fresh[key]; ok {
		return
	}
	old := *c.frozen.Load()
	if _, ok := old[key]; ok {
		return
	}
	c.fresh[key] = e
	c.total++
	if len(c.fresh) >= max(minFresh, len(old)/4) {
		m := make(map[string]normEntry, len(old)+len(c.fresh))
		for k, v := range old {
			m[k] = v
		}
		for k, v := range c.fresh {
			m[k] = v
		}
		c.frozen.Store(&m)
		c.fresh = make(map[string]normEntry, minFresh)
	}
}

// normalize returns the normalized form of a word or part as written: lower
// case, and stemmed with the Snowball English stemmer when it consists of
// ASCII letters only and Stem is on; and whether it is a stop word. Words
// with digits or other symbols (5xx, us-east-1, x509) and words in other
// scripts are only lower-cased. The result aliases s when s is already in
// normal form, so that normalizing allocates nothing for most words.
func (a *Analyzer) normalize(s string) (string, bool) {
	upper, letters, ascii := false, true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 0x80:
			ascii, letters = false, false
		default:
			letters = false
		}
	}
	if !ascii {
		if len(s) <= cacheMaxLen {
			if e, ok := a.cache.get(s); ok {
				return e.text, e.stop
			}
		}
		t := strings.ToLower(s) // returns s itself when nothing changes
		if t != s && len(s) <= cacheMaxLen {
			a.cache.put(strings.Clone(s), normEntry{text: t})
		}
		return t, false
	}
	if !upper && !(letters && a.opts.Stem) {
		if letters {
			return s, isStop(s)
		}
		return s, false
	}
	if len(s) <= cacheMaxLen {
		if e, ok := a.cache.get(s); ok {
			return e.text, e.stop
		}
	}
	lower := asciiLower(s) // a fresh string: safe to keep in the cache
	e := normEntry{text: lower}
	if letters {
		e.stop = isStop(lower)
		if a.opts.Stem {
			e.text = stemWord(s, lower)
		}
	}
	if len(s) <= cacheMaxLen {
		key := lower
		if upper {
			key = strings.Clone(s)
		}
		a.cache.put(key, e)
	}
	return e.text, e.stop
}

// asciiLower returns a lower-cased copy of the ASCII string s (always a new
// string, never s itself).
func asciiLower(s string) string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}

// stemExceptions overrides the stemmer for words it gets wrong in
// incident text: acronyms ending in s, which it would cut ("aws" → "aw",
// "ios" → "io", "redis" → "redi"), and acronym plurals it leaves alone
// ("cpus" stays "cpus" while "cpu" is "cpu").
var stemExceptions = map[string]string{
	"aws": "aws", "ecs": "ecs", "eks": "eks", "aks": "aks", "iops": "iops",
	"cors": "cors", "ios": "ios", "macos": "macos", "redis": "redis",
	"cpus": "cpu", "gpus": "gpu", "tpus": "tpu", "vms": "vm", "vpcs": "vpc",
	"slas": "sla", "slos": "slo", "dbs": "db", "lbs": "lb", "prs": "pr",
	"azs": "az", "nics": "nic", "ssds": "ssd", "cdns": "cdn", "acls": "acl",
}

// stemWord stems the lower-case ASCII word lower, written as surface:
// stemExceptions first; an acronym plural as written ("GPUs", "VMs",
// "SLAs") loses its s; every other word goes to the Snowball stemmer.
func stemWord(surface, lower string) string {
	if t, ok := stemExceptions[lower]; ok {
		return t
	}
	if n := len(surface); n >= 3 && surface[n-1] == 's' {
		acronym := true
		for i := 0; i < n-1; i++ {
			if c := surface[i]; c < 'A' || c > 'Z' {
				acronym = false
				break
			}
		}
		if acronym {
			return lower[:n-1]
		}
	}
	return stem(lower)
}

// stem applies the Snowball English stemmer to a lower-case ASCII word. It
// never returns an empty string.
func stem(w string) string {
	t := english.Stem(w, true)
	if t == "" {
		return w
	}
	return t
}
