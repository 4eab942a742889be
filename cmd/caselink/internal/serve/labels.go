package serve

import (
	"net/url"
	"path/filepath"
	"strings"
)

// pageLabels are the words of the match page, the case page and the header in each
// language of the page (?lang=ko or Accept-Language: ko gives Korean). The
// page's script has its own, chosen by <html lang>.
var pageLabels = map[string]map[string]string{
	"en": {
		"lang": "en", "skip": "Skip to results", "cases": "cases", "case": "case", "loaded": "loaded", "dupes": "review duplicates",
		"paste": "Paste what you see",
		"hint":  "Alert lines, error messages, a chat message. The most similar past incidents come first.",
		"find":  "Find similar cases", "filters": "Filters", "org": "Organisation", "domain": "Domain",
		"listHint": "Comma-separated; any of them matches (e.g. <code>kubernetes, database</code>).",
		"since":    "Since", "until": "Until", "show": "Show", "n5": "5 cases", "n10": "10 cases", "n20": "20 cases",
		"results":  "Similar past cases",
		"status":   "Results appear here. Each score is shown relative to the best hit; cases scoring below %s are not shown, and the answer says how many.",
		"noscript": "This page needs JavaScript to send the paste. Without it, use <code>POST /api/match</code> or <code>caselink match</code>.",
		"skipCase": "Skip to the case", "newSearch": "← New search", "text": "Text:", "organisation": "Organisation", "date": "Date",
		"severity": "Severity", "caseLink": "Case", "source": "Source", "tagsLabel": "Tags", "symptoms": "Symptoms",
		"summary": "Summary", "detection": "Detection", "trigger": "Trigger", "remediation": "Remediation", "lessons": "Lessons",
		"related": "Related cases", "shared": "shared", "noRelated": "No other case scores %s or more with this one.",
		"linked": "Linked in the library", "notInLibrary": "(not in this library)",
	},
	"ko": {
		"lang": "ko", "skip": "결과로 건너뛰기", "cases": "건", "case": "건", "loaded": "불러온 시각", "dupes": "중복 검토",
		"paste": "보이는 내용을 붙여 넣으세요",
		"hint":  "알림, 오류 메시지, 채팅 메시지. 가장 비슷한 과거 장애부터 보여 줍니다.",
		"find":  "비슷한 사례 찾기", "filters": "필터", "org": "조직", "domain": "도메인",
		"listHint": "쉼표로 구분; 하나라도 맞으면 됩니다 (예: <code>kubernetes, database</code>).",
		"since":    "시작일", "until": "종료일", "show": "표시", "n5": "5건", "n10": "10건", "n20": "20건",
		"results":  "비슷한 과거 사례",
		"status":   "결과가 여기에 나옵니다. 점수는 가장 비슷한 사례 대비로 보여 주며, %s 미만인 사례는 숨기고 몇 건인지 알려 줍니다.",
		"noscript": "붙여 넣은 내용을 보내려면 JavaScript가 필요합니다. 없으면 <code>POST /api/match</code>나 <code>caselink match</code>를 쓰세요.",
		"skipCase": "사례로 건너뛰기", "newSearch": "← 새 검색", "text": "본문:", "organisation": "조직", "date": "날짜",
		"severity": "심각도", "caseLink": "사례", "source": "출처", "tagsLabel": "태그", "symptoms": "증상",
		"summary": "요약", "detection": "탐지", "trigger": "계기", "remediation": "조치", "lessons": "교훈",
		"related": "관련 사례", "shared": "공통", "noRelated": "이 사례와 %s 이상인 다른 사례가 없습니다.",
		"linked": "라이브러리에 연결된 사례", "notInLibrary": "(이 라이브러리에 없음)",
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
