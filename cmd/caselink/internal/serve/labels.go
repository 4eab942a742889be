package serve

import (
	"net/url"
	"path/filepath"
	"strings"
)

// pageLabels are the words of every page (match, case, dupes review, not
// found) and of the header in each language of the page (?lang=ko or Accept-Language: ko gives Korean). The
// page's script has its own, chosen by <html lang>.
var pageLabels = map[string]map[string]string{
	"en": {
		"lang": "en", "skip": "Skip to results", "cases": "cases", "case": "case", "loaded": "loaded", "dupes": "review duplicates",
		"paste": "Paste what you see",
		"hint":  "Alert lines, error messages, a chat message. The most similar past incidents come first.",
		"find":  "Find similar cases", "filters": "Filters", "org": "Organisation", "domain": "Domain",
		"listHint": "Comma-separated; any of them matches (e.g. <code>kubernetes, database</code>).",
		"since":    "Since", "until": "Until", "show": "Show", "n5": "5 cases", "n10": "10 cases", "n20": "20 cases",
		"results":     "Similar past cases",
		"status":      "Results appear here. Each hit says how far to trust it: strong (hits like it were right 9 times in 10), possible (about half), weak (shared words). Cases scoring below %s are not shown, and the answer says how many.",
		"band-strong": "strong", "band-possible": "possible", "band-weak": "weak",
		"noscript": "This page needs JavaScript to send the paste. Without it, use <code>POST /api/match</code> or <code>caselink match</code>.",
		"skipCase": "Skip to the case", "newSearch": "← New search", "text": "Text:", "organisation": "Organisation", "date": "Date",
		"severity": "Severity", "caseLink": "Case", "source": "Source", "tagsLabel": "Tags", "symptoms": "Symptoms",
		"summary": "Summary", "detection": "Detection", "trigger": "Trigger", "remediation": "Remediation", "lessons": "Lessons",
		"related": "Related cases", "shared": "shared", "noRelated": "No other case scores %s or more with this one.",
		"linked": "Linked in the library", "notInLibrary": "(not in this library)",
		"reloadFailed": "The library failed to reload", "reloadKept": "; the cases loaded before keep being served.",
		"notFound": "Not found", "notFoundTitle": "Not found · caselink", "noPage": "There is no page at %s.",
		"noCaseTitle": "No such case · caselink", "noCase": "There is no case with id %q in the library.",
		"dupesTitle": "Probable duplicates · caselink", "dupesHeading": "Probable duplicates",
		"dupesOrder":  "One event at a time, the most probable first (dupes score at least %s), and within it one pair of records at a time.",
		"decisionsTo": "Decisions go to", "decisionsRead": ", the file <code>caselink dupes</code> reads.",
		"noFolder": "nowhere: the embedded seeds have no folder", "decisionStore": "the decisions store",
		"keys": "Keys:", "keyConfirm": "confirm duplicate", "keyDismiss": "dismiss, not a duplicate", "keySkip": "skip",
		"keyUndo": "undo the last decision", "keyCluster": "(with Shift) confirm or dismiss every pair of the cluster.",
		"loadingPairs": "Loading the pairs…", "clusterRecords": "Records of this cluster, the best first",
		"confirmCluster": "Confirm the cluster", "dismissCluster": "Dismiss the cluster", "evidence": "Evidence",
		"marked":  "Words both records use are <mark>marked</mark> in their texts.",
		"confirm": "✓ Same incident: confirm", "dismiss": "✗ Not a duplicate: dismiss", "skipPair": "Skip", "undo": "Undo",
		"dupesNoscript": "This page needs JavaScript. Without it, use <code>GET /api/dupes</code> and <code>POST /api/dupes/decisions</code>, or <code>caselink dupes</code>.",
	},
	"ko": {
		"lang": "ko", "skip": "결과로 건너뛰기", "cases": "건", "case": "건", "loaded": "불러온 시각", "dupes": "중복 검토",
		"paste": "보이는 내용을 붙여 넣으세요",
		"hint":  "알림, 오류 메시지, 채팅 메시지. 가장 비슷한 과거 장애부터 보여 줍니다.",
		"find":  "비슷한 사례 찾기", "filters": "필터", "org": "조직", "domain": "도메인",
		"listHint": "쉼표로 구분; 하나라도 맞으면 됩니다 (예: <code>kubernetes, database</code>).",
		"since":    "시작일", "until": "종료일", "show": "표시", "n5": "5건", "n10": "10건", "n20": "20건",
		"results":     "비슷한 과거 사례",
		"status":      "결과가 여기에 나옵니다. 각 사례에 믿을 만한 정도를 표시합니다: 강함(이 정도 점수의 사례는 10번 중 9번 맞음), 가능성(절반 정도), 약함(단어만 겹침). %s 미만인 사례는 숨기고 몇 건인지 알려 줍니다.",
		"band-strong": "강함", "band-possible": "가능성", "band-weak": "약함",
		"noscript": "붙여 넣은 내용을 보내려면 JavaScript가 필요합니다. 없으면 <code>POST /api/match</code>나 <code>caselink match</code>를 쓰세요.",
		"skipCase": "사례로 건너뛰기", "newSearch": "← 새 검색", "text": "본문:", "organisation": "조직", "date": "날짜",
		"severity": "심각도", "caseLink": "사례", "source": "출처", "tagsLabel": "태그", "symptoms": "증상",
		"summary": "요약", "detection": "탐지", "trigger": "계기", "remediation": "조치", "lessons": "교훈",
		"related": "관련 사례", "shared": "공통", "noRelated": "이 사례와 %s 이상인 다른 사례가 없습니다.",
		"linked": "라이브러리에 연결된 사례", "notInLibrary": "(이 라이브러리에 없음)",
		"reloadFailed": "라이브러리를 다시 불러오지 못했습니다", "reloadKept": ". 전에 불러온 사례로 계속 응답합니다.",
		"notFound": "찾을 수 없음", "notFoundTitle": "찾을 수 없음 · caselink", "noPage": "%s 에 해당하는 페이지가 없습니다.",
		"noCaseTitle": "없는 사례 · caselink", "noCase": "라이브러리에 id가 %q인 사례가 없습니다.",
		"dupesTitle": "중복 후보 · caselink", "dupesHeading": "중복 후보",
		"dupesOrder":  "한 번에 한 사건씩, 가능성이 높은 것부터 (dupes 점수 %s 이상), 그 안에서 한 번에 기록 한 쌍씩 보여 줍니다.",
		"decisionsTo": "결정은 다음 파일에 저장됩니다:", "decisionsRead": " (<code>caselink dupes</code>가 읽는 파일).",
		"noFolder": "저장할 곳 없음: 내장 예제에는 폴더가 없습니다", "decisionStore": "결정 저장소",
		"keys": "키:", "keyConfirm": "중복으로 확정", "keyDismiss": "중복 아님으로 기각", "keySkip": "건너뛰기",
		"keyUndo": "마지막 결정 취소", "keyCluster": "(Shift와 함께) 묶음의 모든 쌍을 확정하거나 기각.",
		"loadingPairs": "쌍을 불러오는 중…", "clusterRecords": "이 묶음의 기록, 가장 나은 것부터",
		"confirmCluster": "묶음 확정", "dismissCluster": "묶음 기각", "evidence": "근거",
		"marked":  "두 기록이 함께 쓰는 단어는 본문에 <mark>표시</mark>됩니다.",
		"confirm": "✓ 같은 사건: 확정", "dismiss": "✗ 중복 아님: 기각", "skipPair": "건너뛰기", "undo": "취소",
		"dupesNoscript": "이 페이지에는 JavaScript가 필요합니다. 없으면 <code>GET /api/dupes</code>와 <code>POST /api/dupes/decisions</code>, 또는 <code>caselink dupes</code>를 쓰세요.",
	},
}

// libraryName names the library in the page header without the server's
// folders: the base name of each path, or "table T" for a PostgreSQL
// table (never its host or credentials).
func libraryName(paths []string) string {
	if len(paths) == 0 {
		return "embedded seeds"
	}
	names := make([]string, 0, len(paths))
	for _, p := range paths {
		if strings.HasPrefix(p, "postgres://") || strings.HasPrefix(p, "postgresql://") {
			name := "PostgreSQL table"
			if u, err := url.Parse(p); err == nil {
				if t := u.Query().Get("table"); t != "" {
					name = "table " + t
				}
			}
			names = append(names, name)
			continue
		}
		names = append(names, filepath.Base(filepath.Clean(p)))
	}
	return strings.Join(names, ", ")
}
