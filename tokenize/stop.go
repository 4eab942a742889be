package tokenize

import "strings"

// stopList is the curated stop-word list: English function words that carry
// no meaning about an incident. It is matched against the lower-cased,
// unstemmed word.
//
// It is deliberately smaller than general-purpose lists. Words that matter
// in incident text are NOT stop words, and must stay out of this list:
//
//	down up off over out under above below back      (went down, scaled up, back off, failed over, ran out, CPU above 90%)
//	not no never none nothing                         (negation: "did not fail over", "no healthy upstream")
//	system fire call full first last top get set put  (which other lists drop: "disk full", "kubectl top", GET requests)
//
// Contractions are normalized before this list is consulted ("didn't" →
// "not", "we're" → "we", "PostHog's" → "PostHog"), so only their stems are
// listed. Every single ASCII letter is a stop word: stray letters come from
// zone suffixes, list markers and abbreviations ("e.g").
var stopList = strings.Fields(`
a an the this that these those such each every both either neither other another own
and or but nor if then than so as because although though whether
of at by for with about into onto to from in on upon among around toward towards
between through during until while since within without across per via beyond
before after
i me my myself we our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves us
is are was were be been being am
have has had having do does did doing done
can could will would shall should may might must
what which who whom whose when where why how
there here now just also only very too again still already yet ever
all any some more most less few many much lots
same however therefore thus hence once further
let lets
don doesn didn isn aren wasn weren hasn haven hadn couldn wouldn shouldn won ain mustn needn
ll re ve
eg ie etc e.g i.e
www com
b c d e f g h j k l m n o p q r s t u v w x y z
`)

// stopWords is stopList as a set.
var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{}, len(stopList))
	for _, w := range stopList {
		m[w] = struct{}{}
	}
	return m
}()

// isStop reports whether the lower-cased word w is a stop word.
func isStop(w string) bool {
	if len(w) > 10 {
		return false
	}
	_, ok := stopWords[w]
	return ok
}
