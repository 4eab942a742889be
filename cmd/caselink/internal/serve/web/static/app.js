// caselink serve: send the paste to POST /api/match and show the hits.
// Vanilla JavaScript, no framework; the DOM is built with textContent only.
(() => {
  'use strict';

  const form = document.getElementById('match-form');
  const paste = document.getElementById('paste');
  const submit = document.getElementById('submit');
  const status = document.getElementById('status');
  const results = document.getElementById('results');
  const hidden = document.getElementById('hidden-note');
  let inflight = null;
  // webURL reports whether a case's URL may become a link: an absolute
  // http(s) URL. A case is data from anyone who writes to the library, and a
  // javascript: or data: URL in it must stay text.
  const webURL = (u) => {
    if (typeof u !== 'string' || !/^https?:\/\//i.test(u)) return false;
    try { return ['http:', 'https:'].includes(new URL(u).protocol); } catch { return false; }
  };

  // ?lang=ko on the page asks for the cases' Korean text (the server also
  // reads the browser's Accept-Language); it is passed on to the API and to
  // the case pages.
  const pageLang = new URLSearchParams(location.search).get('lang');
  const langQuery = pageLang === 'ko' || pageLang === 'en' ? `?lang=${pageLang}` : '';
  // The labels in the page's language: the server chose it (?lang=ko or
  // Accept-Language: ko) and wrote it on <html lang>.
  const ko = document.documentElement.lang === 'ko';
  const L = ko ? {
    pasteFirst: '먼저 알림, 오류 메시지나 메시지를 붙여 넣으세요.',
    matching: '찾는 중…',
    failed: '찾지 못했습니다: ',
    none: '비슷한 과거 사례가 없습니다. 오류 메시지, 구성 요소 이름, 지표를 더 붙여 넣어 보세요.',
    found: (n, ms) => `비슷한 사례 ${n}건, 가장 비슷한 것부터 (${ms} ms).`,
    why: '이유', fixedBy: '해결', took: '소요', tags: '태그', more: (n) => `+${n}개 더`,
    resolvedAfter: (d) => `${d} 만에 해결`, source: '원문 ↗',
    sourceOf: (id) => `${id} 원문 (새 탭에서 열림)`,
    band: { strong: '강함', possible: '가능성', weak: '약함' },
    bandHelp: { strong: '이 정도 점수의 사례는 평가 세트에서 10번 중 9번 이상 맞았습니다', possible: '이 정도 점수의 사례는 절반 정도 맞았습니다', weak: '단어만 겹칩니다' },
    novel: '여기에는 이와 비슷한 사례가 없습니다: 새로운 종류의 장애일까요?',
    showWeak: (n) => `약한 사례 ${n}건 보기`,
    split: (p, l, id) => `점수: ${p}%는 붙여 넣은 내용에서, ${l}%는 ${id}와 비슷해서`,
    hidden: (n, min) => `${n}건이 최소 점수 ${min} 미만이라 숨겨졌습니다.`, showThem: '모두 보기',
    moreScored: (n) => `0점보다 높은 사례가 ${n}건 더 있습니다.`,
    helpful: '도움이 됨', notHelpful: '도움이 안 됨', thanks: '고맙습니다: 기록했습니다.', feedbackFailed: '기록하지 못했습니다: ',
    // "like IL-0191: a, b" (what a hit shares with the case it is like) and
    // "Deployment (from deploy)", as the API words them.
    like: (w) => w.replace(/^like (\S+): /, '비슷한 사례 $1: ').replace(/ \(from (.+)\)$/, ' ($1에서)'),
  } : {
    pasteFirst: 'Paste alert lines, error messages or a message first.',
    matching: 'Matching…',
    failed: 'Could not match: ',
    none: 'No similar past case. Add more of what you see: error messages, component names, metrics.',
    found: (n, ms) => `${n} similar case${n === 1 ? '' : 's'}, best first (${ms} ms).`,
    why: 'why', fixedBy: 'fixed by', took: 'took', tags: 'tags', more: (n) => `+${n} more`,
    resolvedAfter: (d) => `resolved after ${d}`, source: 'source ↗',
    sourceOf: (id) => `source of ${id} (opens in a new tab)`,
    band: { strong: 'strong', possible: 'possible', weak: 'weak' },
    bandHelp: { strong: 'hits of this score were right at least 9 times in 10 on judged pastes', possible: 'hits of this score were right about half the time', weak: 'shares words, seldom more' },
    novel: 'Nothing like this here: a new kind of incident?',
    showWeak: (n) => `Show the ${n} weak hit${n === 1 ? '' : 's'}`,
    split: (p, l, id) => `score: ${p}% from the paste, ${l}% like ${id}`,
    hidden: (n, min) => `${n} more case${n === 1 ? '' : 's'} scored below the minimum score ${min} and ${n === 1 ? 'is' : 'are'} not shown.`,
    showThem: 'Show them',
    moreScored: (n) => `${n} more case${n === 1 ? '' : 's'} scored above 0.`,
    helpful: 'Helpful', notHelpful: 'Not helpful', thanks: 'Thanks: recorded.', feedbackFailed: 'Not recorded: ',
    like: (w) => w,
  };
  // showAll asks for every hit, whatever it scores, until the paste changes;
  // showWeak lists the hits of an answer whose hits are all weak.
  let showAll = false;
  let showWeak = false;
  let lastAnswer = null;
  let lastPaste = ''; // the paste the shown hits answer

  // feedback returns the Helpful / Not helpful buttons of a hit: each
  // records the verdict with the paste (POST /api/feedback).
  function feedback(h, text) {
    const note = el('span', { class: 'fb-note', role: 'status' });
    const send = async (helpful, btn) => {
      try {
        const r = await fetch('/api/feedback', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ text, id: h.id, helpful, rank: h.rank, score: h.score }),
        });
        const data = await r.json().catch(() => ({}));
        if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
        for (const b of box.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b === btn));
        note.textContent = L.thanks;
      } catch (err) {
        note.textContent = L.feedbackFailed + err.message;
      }
    };
    const yes = el('button', { type: 'button', class: 'fb', 'aria-pressed': 'false', 'data-helpful': 'true', text: L.helpful });
    const no = el('button', { type: 'button', class: 'fb', 'aria-pressed': 'false', 'data-helpful': 'false', text: L.notHelpful });
    yes.addEventListener('click', () => send(true, yes));
    no.addEventListener('click', () => send(false, no));
    const box = el('p', { class: 'feedback' }, yes, ' ', no, ' ', note);
    return box;
  }
  paste.addEventListener('input', () => { showAll = false; showWeak = false; fitPaste(); });

  // fitPaste lets a paste of prose (a Slack message) wrap in the box, and
  // keeps one with columns (a kubectl table, aligned log fields: a run of
  // spaces or a tab between words) on unwrapped lines that scroll sideways.
  function fitPaste() {
    const columns = /\S(?: {2,}|\t)\S/.test(paste.value);
    paste.classList.toggle('columns', columns);
    paste.wrap = columns ? 'off' : 'soft';
  }
  fitPaste();

  // Ctrl+Enter (Cmd+Enter on a Mac) submits from anywhere in the form.
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = paste.value;
    if (!text.trim()) {
      showStatus(L.pasteFirst, true);
      paste.focus();
      return;
    }
    const body = {
      text,
      min_score: showAll ? 0 : undefined,
      top: Number(form.elements.top.value) || 5,
      filters: {
        org: list(form.elements.org.value),
        domain: list(form.elements.domain.value),
        since: form.elements.since.value.trim(),
        until: form.elements.until.value.trim(),
      },
    };
    keepInURL(text);
    lastPaste = text;
    if (inflight) inflight.abort();
    const ctl = new AbortController();
    inflight = ctl;
    form.setAttribute('aria-busy', 'true');
    submit.disabled = true;
    showStatus(L.matching, false);
    const t0 = performance.now();
    try {
      const r = await fetch(`/api/match${langQuery}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      const data = await r.json().catch(() => ({ error: `HTTP ${r.status} ${r.statusText}` }));
      if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
      lastAnswer = { data, ms: performance.now() - t0 };
      render(data, lastAnswer.ms);
    } catch (err) {
      if (err.name === 'AbortError') return;
      results.replaceChildren();
      showStatus(L.failed + err.message, true);
    } finally {
      if (inflight === ctl) {
        inflight = null;
        form.removeAttribute('aria-busy');
        submit.disabled = false;
      }
    }
  });

  // keepInURL puts the paste in the address (/?q=…) so that the search can
  // be shared as a link; a paste too long for a URL is left out.
  function keepInURL(text) {
    const u = new URL(window.location.href);
    if (text.length <= 4000) u.searchParams.set('q', text);
    else u.searchParams.delete('q');
    window.history.replaceState(null, '', u);
  }

  function list(s) {
    return s.split(',').map((x) => x.trim()).filter(Boolean);
  }

  function showStatus(msg, isError) {
    status.textContent = msg;
    status.classList.toggle('error', isError);
  }

  function el(tag, props, ...children) {
    const n = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (k === 'class') n.className = v;
        else if (k === 'text') n.textContent = v;
        else n.setAttribute(k, v);
      }
    }
    for (const c of children) {
      if (c != null) n.append(c);
    }
    return n;
  }

  function isTag(s) {
    return /^[a-z_]+:\S+$/.test(s) && !s.startsWith('like ');
  }

  // highlight returns text with the plain "why" words marked.
  function highlight(text, why) {
    const words = why.filter((w) => !isTag(w) && !w.startsWith('like ') && w.length > 2)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (!words.length) return [text];
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(${words.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
    const out = [];
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      out.push(el('mark', { text: m[0] }));
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  const tagOrder = ['domain:', 'symptom:', 'component:', 'root_cause:', 'contributing:'];
  function tagRank(t) {
    const i = tagOrder.findIndex((p) => t.startsWith(p));
    return i < 0 ? tagOrder.length : i;
  }

  // render shows the hits of an answer with their bands; when none reaches
  // "possible", that nothing like the paste is here, with a button to list
  // the weak hits; and how many more cases scored, with a button that
  // shows them.
  function render(data, ms) {
    const hits = data.hits || [];
    const nHidden = data.hidden || 0;
    const nMore = Math.max(data.more || 0, nHidden);
    results.replaceChildren();
    hidden.hidden = !nMore && !(data.filters || []).length;
    hidden.replaceChildren();
    for (const f of data.filters || []) hidden.append(el('span', { class: 'filter-note', text: f }), el('br'));
    if (nMore) {
      const more = el('button', { type: 'button', class: 'link', id: 'show-hidden', text: L.showThem });
      more.addEventListener('click', () => {
        showAll = true;
        form.elements.top.value = '20';
        form.requestSubmit();
      });
      hidden.append(nHidden === nMore ? L.hidden(nHidden, hidden.dataset.min) : L.moreScored(nMore), ' ', more);
    }
    if (data.novel && !showWeak) {
      status.replaceChildren(el('span', { class: 'novel', text: L.novel }));
      status.classList.remove('error');
      if (hits.length) {
        const weak = el('button', { type: 'button', class: 'link', id: 'show-weak', text: L.showWeak(hits.length) });
        weak.addEventListener('click', () => { showWeak = true; render(lastAnswer.data, lastAnswer.ms); });
        status.append(' ', weak);
      }
      return;
    }
    if (!hits.length) {
      showStatus(L.none, false);
      return;
    }
    showStatus(L.found(hits.length, Math.round(ms)), false);
    // On a narrow screen the paste box fills the first screen: bring the
    // answer into view.
    if (window.matchMedia('(max-width: 60rem)').matches) {
      document.getElementById('results-heading').scrollIntoView({ block: 'start' });
    }
    // Each hit shows its band, set from how often hits of its score were
    // right on judged pastes, with the 0–1 score under it: never a share of
    // the best hit, which made a weak best hit look like 100%.
    for (const h of hits) {
      const why = h.why || [];
      const whySet = new Set(why.map((w) => w.toLowerCase()));
      const titleId = `hit-${h.rank}-title`;

      const band = h.band || 'weak';
      const score = el('div', { class: `score ${band}`, title: L.bandHelp[band] },
        el('span', { class: 'score-num band', text: L.band[band] }),
        el('span', { class: 'score-raw', text: `(${h.score.toFixed(2)})` }));

      const title = el('h3', { id: titleId },
        el('a', { href: `/cases/${encodeURIComponent(h.id)}${langQuery}` }, ...highlight(h.title || h.id, why)));

      const meta = el('p', { class: 'meta' }, el('span', { class: 'hit-id', text: h.id }));
      if (h.org) meta.append(` · ${h.org}`);
      if (h.date) meta.append(' · ', el('time', { datetime: h.date, text: h.date }));
      if (webURL(h.url)) {
        meta.append(' · ', el('a', { href: h.url, rel: 'noreferrer noopener', target: '_blank',
          'aria-label': L.sourceOf(h.id) }, L.source));
      }

      const body = el('div', { class: 'hit-body' }, title, meta);
      if (why.length) {
        const p = el('p', { class: 'why' }, el('span', { class: 'label', text: L.why }), ' ');
        for (const w of why) {
          const cls = w.startsWith('like ') ? 'via' : isTag(w) ? 'tag' : '';
          p.append(el('mark', cls ? { class: cls, text: L.like(w) } : { text: L.like(w) }), ' ');
        }
        body.append(p);
      }
      if (h.like && h.like_score > 0 && h.score > 0) {
        // what moved the hit: the paste, or its likeness to the best hit
        const like = Math.round(100 * h.like_score / h.score);
        body.append(el('p', { class: 'split', text: L.split(100 - like, like, h.like) }));
      }
      const fix = h.remediation || [];
      if (fix.length) {
        const ul = el('ul');
        for (const f of fix) ul.append(el('li', { text: f }));
        body.append(el('div', { class: 'fix' }, el('span', { class: 'label', text: L.fixedBy }), ul));
      }
      if (h.resolved_after) {
        body.append(el('p', { class: 'fix took' }, el('span', { class: 'label', text: L.took }), ' ',
          L.resolvedAfter(h.resolved_after)));
      }
      const tags = h.tags || [];
      if (tags.length) {
        // matched tags first, then the most telling others; the rest folded
        const matched = tags.filter((t) => whySet.has(t));
        const rest = tags.filter((t) => !whySet.has(t))
          .sort((a, b) => tagRank(a) - tagRank(b) || a.localeCompare(b));
        const shown = rest.slice(0, Math.max(0, 4 - matched.length));
        const folded = rest.slice(shown.length);
        const p = el('div', { class: 'tags' }, el('span', { class: 'label', text: L.tags }), ' ');
        for (const t of matched) p.append(el('mark', { class: 'tag', text: t }), ' ');
        for (const t of shown) p.append(el('span', { class: 'tag', text: t }), ' ');
        if (folded.length) {
          const more = el('details', { class: 'more' },
            el('summary', { text: L.more(folded.length) }));
          for (const t of folded) more.append(el('span', { class: 'tag', text: t }), ' ');
          p.append(more);
        }
        body.append(p);
      }
      body.append(feedback(h, lastPaste));
      results.append(el('li', null, el('article', { class: 'hit', 'aria-labelledby': titleId }, score, body)));
    }
  }

  // A page opened with /?q=… matches the paste at once.
  if (paste.value.trim()) form.requestSubmit();
})();
