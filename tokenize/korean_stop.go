package tokenize

import "strings"

// Korean step 3: stop words.
//
// koreanStopList holds Korean function words, pronouns, hedges and time
// words of chat that say nothing about an incident, matched after endings
// are stripped. As for English, words that matter stay out: negation
// (안, 못, 없음), direction and change (증가, 감소), and every glossary word.
// In a library where few cases have Korean text, every Korean word is rare
// and weighs much; a chat word left here would pull Korean pastes towards
// those few cases.
var koreanStopList = strings.Fields(`
그 이 저 것 거 게 걸 수 등 및 좀 더 또 다 잘 꼭 막 확 쭉 딱 뭐 왜 넘 걍
이것 그것 저것 이거 그거 저거 여기 거기 저기 이런 그런 저런 이렇게 그렇게 저렇게 이번 저번 지난 다음
우리 저희 제가 내가 나 너 저는 나는 우리가 저희가 본인 누가 누구 뭔가 뭔지 무슨 어떤 어디 언제 어떻게 얼마나
그리고 그런데 근데 그래서 그러나 하지만 그러면 그럼 또는 혹은 및 즉 따라서 그러니까 암튼 아무튼 일단 우선
지금 현재 방금 아까 오늘 어제 내일 요즘 최근 당시 이후 이전 직후 직전 동안 이제 곧 먼저 나중 처음 마지막
계속 그냥 진짜 정말 완전 엄청 너무 매우 아주 거의 약간 조금 많이 살짝 갑자기 혹시 아마 일부러 다시 바로 아직 이미 벌써 또한 같이 함께 모두 전부 모든 각 여러
같음 같은 같아 같아요 같다 같습니다 있음 있는 있고 있다 있어 있어요 있었 있었다 있었음 있는데 있습니다
보임 보이 보여 보이는 보면 봐 보니 봄 봤 봤는데 하나 하나씩 두 세 네 몇 대 개 번 건 명 분 초 정도 쯤 때 경우 관련 대해 대한 통해 위해 위한 의해 따라
것으로 것이 것을 거임 거고 거야 듯 듯함 듯요 음 네네 넵 아 어 오 헐 혹시나
남 났음 났다 났고 나고 나는 나서 났는데 뜸 떴음 떴다 떴고 뜨고 뜨는 뜨면서 전혀 완전히 그대로 아무 봄 봐야
자체 둘 양쪽 매번 하루 종일 평소 아무것 누구 채 차이
`)

// koreanStops is koreanStopList as a set.
var koreanStops = func() map[string]bool {
	m := make(map[string]bool, len(koreanStopList))
	for _, w := range koreanStopList {
		m[w] = true
	}
	return m
}()

// isKoreanStop reports whether the Korean stem w is a stop word.
func isKoreanStop(w string) bool { return koreanStops[w] }
