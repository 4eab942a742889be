// Package tokenize is caselink's analyzer for incident English and Korean:
// it turns on-call pastes, status-page updates and post-mortems into terms.
//
// Incident text is full of tokens that ordinary tokenizers destroy —
// OOMKilled, CrashLoopBackOff, kube-apiserver, X-Forwarded-For,
// resourceVersion=0, us-east-1, HTTP 429, 5xx, p99, x509, 10.0.0.12,
// 20-second — and the same fact is written many ways ("pods OOMKilled",
// "out-of-memory killed"). The analyzer keeps such tokens whole, also emits
// their pieces, and maps known equivalents onto one term, so that a query
// and the right past case meet on shared terms. Queries and cases must be
// analyzed by Analyzers with the same Options.
//
// # Pipeline
//
// Analyze runs these steps; each Term records its normalized Text, the
// Surface it came from (a substring of the input, such as "OOMKilled", for
// explanations), the Pos of its source token and the Kind of step that
// produced it.
//
//  1. Segment (segment.go). Tokens are runs of letters and digits. The
//     joiners - _ . / = : keep a token whole when a letter or digit
//     follows ("kube-apiserver", "resourceVersion=0", "10.0.0.12",
//     "HTTP/2"); a trailing "." or ":" is not part of it. Apostrophes join
//     letters ("didn't"), commas join digits ("1,000"). "scheme://…" is one
//     URL token. Han ideographs, Hiragana and letters of Thai, Lao, Khmer
//     and Myanmar are one token per rune; Hangul and Katakana runs are
//     tokens; emoji clusters are tokens; a change of script is a boundary
//     ("Redis에서" → "Redis", "에서"). HTML tags and entities are skipped.
//     Clause punctuation and blank lines between tokens are remembered as
//     breaks, which bigrams and phrase synonyms do not cross.
//     On-call text (oncall.go) is then reshaped, each step with its own
//     Options field and table test: a label pair key=value becomes its key
//     and its value, a token of its own ("status=429" → status, 429, 4xx;
//     key="value" too); a Kubernetes name loses its generated suffix
//     (coredns-5d78c9869d-abcde → coredns, ingester-7 → ingester, but
//     us-east-1 stays); a port is cut off a host or IP address and becomes
//     a term that meets ports only (example.com:443 → example.com, :443;
//     dig's 198.41.222.173#53 → <ip>, :53, which no longer meets "Route
//     53"); a line number is cut off a
//     source file name (handler.py:58). The boilerplate of log lines is
//     marked to be dropped: a log level where a log line puts it, a
//     Python frame's "File" and "line N", a request id's key, a severity
//     label.
//  2. Split compounds (compound.go), before lower-casing: the whole token is
//     kept and its parts are emitted too — pieces between joiners
//     ("kube-apiserver" → kube, apiserver) and CamelCase and acronym pieces
//     ("OOMKilled" → oom, killed; "CrashLoopBackOff" → crash, loop, back,
//     off). Letters and digits are never split apart (p99, x509, http2,
//     ipv6, "IPv6" and "URLs" stay whole). Parts of one rune and parts
//     without letters are not emitted: "us-east-1" gives the whole
//     "us-east-1" and the part "east" ("us" is a stop word, "1" has no
//     letter); "20-second" gives "20-second" and "second". A path's file
//     name is also kept whole ("var/task/handler.py" → handler.py), and so
//     is a qualified exception's class ("sqlalchemy.exc.ProgrammingError" →
//     programmingerror).
//  3. Lower-case. Contractions and possessives are normalized first:
//     "didn't", "can't", "won’t" → not; "PostHog's" → PostHog; "we're" → we.
//  4. Stop words (stop.go): a curated list of function words that keeps
//     what matters in incidents (down, up, off, over, out, not, no, back,
//     full, system, fire, call, above, below…). Stop words are dropped from
//     the output but still take part in phrase synonyms ("out of memory").
//  5. Stem (stem.go) pure-letter ASCII words with the Snowball English
//     stemmer ("killed" → kill, "connections" → connect). Tokens with
//     digits (5xx, 429, p99, http2, us-east-1) are kept as written, lower
//     case; other scripts are only lower-cased. Every distinct spelling is
//     normalized once per Analyzer and cached.
//  6. Classes (volatile.go). Volatile tokens become class terms so they do
//     not pollute the vocabulary: IP addresses → <ip>, UUIDs → <uuid>, hex
//     hashes → <hex>, numbers of 6+ digits → <num>, random ids → <id>,
//     clock times and timestamps → <time>, dates → <date>, URLs → <url>
//     (plus the host name as a word and the words of the path as parts;
//     Options.URLWords). Every log line has timestamps and ids, so <time>,
//     <date>, <uuid>, <hex>, <num> and <id> are dropped by default
//     (Options.DropNoiseClasses); <ip>, <url> and status classes stay. A compound with a volatile part
//     ("api-7d9f8b6c5-x2k4j") is not emitted whole; its other parts are.
//     HTTP status codes are kept and also emit their class: "503" → 503,
//     5xx; "502s" → 502, 5xx; round codes (400, 500) only next to a word
//     such as HTTP, status, error or internal.
//  7. Synonyms (synonyms.go, data in synonyms.txt). Whenever a member of an
//     equivalence group occurs — a word or a phrase, matched after
//     lower-casing, splitting and stemming — the group's canonical term is
//     emitted as well: "k8s" → kubernet, "out-of-memory" → oom, "db" →
//     databas, "rate limited" → 429. Cases and queries get the same
//     treatment, so both sides meet on the canonical.
//  8. Bigrams (off by default): adjacent content words also emit "a b"
//     ("connection pool" → "connect pool", Surface "connection pool").
//
// # Korean
//
// A run of Hangul goes through its own steps (korean.go) in place of 2–5,
// each a small function with its own table test:
//
//  1. Strip particles and endings (korean_ending.go): 노드가 → 노드,
//     파드들에서 → 파드, 배포했는데 → 배포, 만료되면서 → 만료. The segmenter
//     already cuts at a change of script, so "OOMKilled로" gives OOMKilled
//     and 로, and a particle standing alone is dropped. Spelling rules
//     (이 only after a final consonant, 가 only after a vowel) and the
//     glossary's words keep it from cutting words (게이트웨이, 권한).
//  2. Split compounds by the glossary's words (korean_split.go):
//     메모리부족 → 메모리, 부족; a glossary verb stem takes any ending
//     (죽~: 죽음, 죽었다 → 죽).
//  3. Drop Korean stop words (korean_stop.go): chat filler, pronouns, time
//     words.
//  4. Glossary (glossary.go, data in glossary-ko.txt), beside synonyms: a
//     Korean word or phrase of the glossary is replaced by the terms its
//     English analyzes to (파드 → pod, 메모리 부족 → out, memori, oom;
//     Kind glossary); a Korean word the glossary does not know stays.
//
// A dictionary-based splitter was chosen over character bigrams (as
// Lucene's CJK analyzer does): a Korean paste has to meet English cases,
// and only dictionary words map to English terms; bigrams of unknown words
// would only ever match Korean text.
//
// EnglishWord tells a real English word (Debian's wamerican list, embedded
// as english-stems.txt.gz) from a typo, for the engine's typo tolerance.
//
// Options turns steps on and off so an evaluation can measure each.
// An Analyzer is safe for concurrent use.
//
// # What does not live here
//
// This package knows nothing about cases, vectors, files or scores: it does
// no weighting, no vector building and no ranking (package similarity
// does), reads no case files and keeps no index. It depends only on the
// standard library and the Snowball stemmer; its tables (stop words,
// synonyms, the Korean glossary, the English word list) are embedded.
package tokenize
