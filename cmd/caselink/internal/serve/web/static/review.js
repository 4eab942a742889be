// caselink serve: review probable duplicates one cluster (the records of one
// event) and one pair at a time. GET /api/dupes?pending=1&order=cluster gives
// the undecided pairs, cluster by cluster; each decision is sent to POST
// /api/dupes/decisions (a cluster's as its pairs). Keys: c confirm, d dismiss,
// s skip, u undo; C and D confirm or dismiss the whole cluster.
// Vanilla JavaScript; the DOM is built with textContent only.
(() => {
  'use strict';

  const main = document.getElementById('review');
  const status = document.getElementById('review-status');
  const pane = document.getElementById('pair');
  const threshold = main.dataset.threshold;
  const canDecide = main.dataset.canDecide === 'true';
  const buttons = {
    confirm: document.getElementById('btn-confirm'),
    dismiss: document.getElementById('btn-dismiss'),
    skip: document.getElementById('btn-skip'),
    undo: document.getElementById('btn-undo'),
    confirmCluster: document.getElementById('btn-confirm-cluster'),
    dismissCluster: document.getElementById('btn-dismiss-cluster'),
  };
  let clusters = {}; // cluster number → {n, score, cases, pairs}
  let queue = [];  // pairs not yet shown
  let skipped = 0; // pending pairs skipped: the next page starts after them
  let total = 0;   // pending pairs on the server
  let last = null; // the last decision, for undo
  let busy = false;
  // webURL reports whether a case's URL may become a link: an absolute
  // http(s) URL. A case is data from anyone who writes to the library, and a
  // javascript: or data: URL in it must stay text.
  const webURL = (u) => {
    if (typeof u !== 'string' || !/^https?:\/\//i.test(u)) return false;
    try { return ['http:', 'https:'].includes(new URL(u).protocol); } catch { return false; }
  };
  // The labels in the page's language: the server chose it (?lang=ko or
  // Accept-Language: ko) and wrote it on <html lang>; the records' text is
  // asked for in it too.
  const ko = document.documentElement.lang === 'ko';
  const langParam = ko ? '&lang=ko' : '';
  const L = ko ? {
    band: { strong: '강함', possible: '가능성', weak: '약함' },
    undated: '날짜 없음', noOrg: '조직 없음', noTitle: '(제목 없음)', noText: '(본문 없음)',
    cluster: (n, records, pairs) => `묶음 ${n}: 한 사건의 기록 ${records}건, 쌍 ${pairs}개; 가장 나은 기록부터.`,
    doneSkipped: (n) => `검토할 쌍이 더 없습니다. ${n}쌍을 건너뛰었습니다 (다시 보려면 페이지를 새로 고치세요).`,
    done: '검토할 중복 후보가 남지 않았습니다.',
    pairOf: (i, n) => `검토할 ${n}쌍 중 ${i}번째.`,
    cannotKeep: ' 결정을 저장할 수 없습니다: 서버에 결정 파일이 없습니다.',
    clusterDone: (v, n, c) => `묶음 ${c}의 ${n}쌍을 ${v === 'duplicate' ? '확정' : '기각'}했습니다. `,
    pairDone: (v, a, b) => `${a} ~ ${b}: ${v === 'duplicate' ? '확정' : '기각'}했습니다. `,
    undone: (a, b) => `${a} ~ ${b}에 대한 결정을 취소했습니다. `,
    noDecisions: '결정들을 기록하지 못했습니다: ', noDecision: '결정을 기록하지 못했습니다: ',
    noUndo: '취소하지 못했습니다: ', noLoad: '쌍을 불러오지 못했습니다: ',
    // the engine's evidence (similarity.EventEvidence.Why), its kinds named in Korean
    evidence: (e) => e.replace(/^same source: /, '같은 출처: ').replace(/^same org: /, '같은 조직: ')
      .replace(/^same day$/, '같은 날').replace(/^(\d+) day\(s\) apart$/, '$1일 간격').replace(/^specific: /, '특이 단어: '),
  } : {
    band: { strong: 'strong', possible: 'possible', weak: 'weak' },
    undated: 'undated', noOrg: 'no organisation', noTitle: '(no title)', noText: '(no text)',
    cluster: (n, records, pairs) => `Cluster ${n}: ${records} records of one event, ${pairs} pair(s); the best record first.`,
    doneSkipped: (n) => `No more pairs to review; ${n} skipped (reload the page to see them again).`,
    done: 'No probable duplicates left to review.',
    pairOf: (i, n) => `Pair ${i} of ${n} to review.`,
    cannotKeep: ' Decisions cannot be kept: the server has no decisions file.',
    clusterDone: (v, n, c) => `${v === 'duplicate' ? 'Confirmed' : 'Dismissed'} ${n} pair(s) of cluster ${c}. `,
    pairDone: (v, a, b) => `${v === 'duplicate' ? 'Confirmed' : 'Dismissed'} ${a} ~ ${b}. `,
    undone: (a, b) => `Undid the decision about ${a} ~ ${b}. `,
    noDecisions: 'Could not record the decisions: ', noDecision: 'Could not record the decision: ',
    noUndo: 'Could not undo: ', noLoad: 'Could not load the pairs: ',
    evidence: (e) => e,
  };

  async function load() {
    const r = await fetch(`/api/dupes?pending=1&order=cluster&limit=50&offset=${skipped}&threshold=${threshold}${langParam}`);
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    queue = data.pairs || [];
    total = data.total;
    clusters = {};
    for (const c of data.clusters || []) clusters[c.n] = c;
  }

  // marked fills el with text, the words of shared wrapped in <mark>
  // (whole words, any case), built as text nodes: no HTML is parsed.
  function marked(el, text, shared) {
    const words = shared.filter((w) => w && w.length > 1)
      .sort((a, b) => b.length - a.length)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (words.length === 0) {
      el.textContent = text;
      return;
    }
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(${words.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
    const nodes = [];
    let at = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > at) nodes.push(document.createTextNode(text.slice(at, m.index)));
      const mark = document.createElement('mark');
      mark.textContent = m[0];
      nodes.push(mark);
      at = m.index + m[0].length;
    }
    if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
    el.replaceChildren(...nodes);
  }

  function caseBlock(el, c, shared) {
    const id = document.createElement('a');
    id.href = `/cases/${encodeURIComponent(c.id)}`;
    id.className = 'case-id';
    id.textContent = c.id;
    const meta = document.createElement('p');
    meta.className = 'muted case-meta';
    meta.textContent = [c.date || L.undated, c.org || L.noOrg].join(' · ');
    const title = document.createElement('p');
    title.className = 'case-title';
    marked(title, c.title || L.noTitle, shared);
    const text = document.createElement('p');
    text.className = 'case-text';
    marked(text, c.text || L.noText, shared);
    const src = document.createElement('ul');
    src.className = 'case-sources';
    for (const u of c.sources || []) {
      const li = document.createElement('li');
      if (webURL(u)) {
        const a = document.createElement('a');
        a.href = u;
        a.rel = 'noopener noreferrer';
        a.target = '_blank';
        a.textContent = u;
        li.append(a);
      } else {
        li.textContent = u; // not a web address: shown, never followed
      }
      src.append(li);
    }
    el.replaceChildren(id, meta, title, text, src);
  }

  function showCluster(p) {
    const box = document.getElementById('cluster');
    const c = clusters[p.cluster];
    if (!c || c.cases.length < 3) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    document.getElementById('cluster-head').textContent =
      L.cluster(c.n, c.cases.length, c.pairs);
    document.getElementById('cluster-cases').replaceChildren(...c.cases.map((id) => {
      const li = document.createElement('li');
      li.className = 'tag' + (id === p.a.id || id === p.b.id ? ' current' : '');
      li.textContent = id;
      return li;
    }));
  }

  function show() {
    const p = queue[0];
    if (!p) {
      pane.hidden = true;
      status.textContent = skipped > 0 ? L.doneSkipped(skipped) : L.done;
      return;
    }
    pane.hidden = false;
    // The band says how far to trust the pair to be one incident; the
    // score follows it.
    document.getElementById('pair-score').textContent = `${L.band[p.band] || p.band} ${p.score.toFixed(2)}`;
    document.getElementById('pair-ids').textContent = `${p.a.id} ~ ${p.b.id}`;
    caseBlock(document.getElementById('case-a'), p.a, p.shared || []);
    caseBlock(document.getElementById('case-b'), p.b, p.shared || []);
    showCluster(p);
    const ev = document.getElementById('pair-evidence');
    ev.replaceChildren(...p.evidence.map((e) => {
      const li = document.createElement('li');
      li.className = /^(same |specific: |\d+ day)/.test(e) ? 'tag event' : 'tag';
      li.textContent = L.evidence(e);
      return li;
    }));
    status.textContent = L.pairOf(skipped + 1, total) + (canDecide ? '' : L.cannotKeep);
    buttons.confirm.disabled = buttons.dismiss.disabled = !canDecide;
    buttons.confirmCluster.disabled = buttons.dismissCluster.disabled = !canDecide;
  }

  // decideCluster records verdict for every pair of the shown pair's
  // cluster (those on later pages too), in one request.
  async function decideCluster(verdict) {
    const p = queue[0];
    const c = p && clusters[p.cluster];
    if (!c || busy || !canDecide) return;
    busy = true;
    try {
      const r = await fetch('/api/dupes/decisions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ pairs: c.pair_ids, verdict }),
      });
      const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
      if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
      last = null;
      buttons.undo.disabled = true;
      queue = queue.filter((q) => q.cluster !== p.cluster);
      total -= c.pair_ids.length;
      // Cluster numbers change once a cluster is decided: reload the page.
      await load();
      show();
      status.textContent = L.clusterDone(verdict, c.pair_ids.length, c.n) + status.textContent;
    } catch (err) {
      status.textContent = L.noDecisions + err.message;
    } finally {
      busy = false;
    }
  }

  async function decide(verdict) {
    const p = queue[0];
    if (!p || busy || !canDecide) return;
    busy = true;
    try {
      const r = await fetch('/api/dupes/decisions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ a: p.a.id, b: p.b.id, verdict }),
      });
      const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
      if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
      last = { pair: p, verdict };
      buttons.undo.disabled = false;
      queue.shift();
      total--;
      if (queue.length === 0) await load();
      show();
      status.textContent = L.pairDone(verdict, p.a.id, p.b.id) + status.textContent;
    } catch (err) {
      status.textContent = L.noDecision + err.message;
    } finally {
      busy = false;
    }
  }

  async function skip() {
    if (!queue[0] || busy) return;
    queue.shift();
    skipped++;
    busy = true;
    try {
      if (queue.length === 0) await load();
      show();
    } finally {
      busy = false;
    }
  }

  async function undo() {
    if (!last || busy) return;
    busy = true;
    const { pair } = last;
    try {
      const r = await fetch('/api/dupes/decisions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ a: pair.a.id, b: pair.b.id, verdict: 'undo' }),
      });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      last = null;
      buttons.undo.disabled = true;
      queue.unshift(pair);
      total++;
      show();
      status.textContent = L.undone(pair.a.id, pair.b.id) + status.textContent;
    } catch (err) {
      status.textContent = L.noUndo + err.message;
    } finally {
      busy = false;
    }
  }

  buttons.confirm.addEventListener('click', () => decide('duplicate'));
  buttons.dismiss.addEventListener('click', () => decide('not-duplicate'));
  buttons.skip.addEventListener('click', skip);
  buttons.undo.addEventListener('click', undo);
  buttons.confirmCluster.addEventListener('click', () => decideCluster('duplicate'));
  buttons.dismissCluster.addEventListener('click', () => decideCluster('not-duplicate'));
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest('input, textarea, select')) return;
    const act = {
      c: () => decide('duplicate'), d: () => decide('not-duplicate'), s: skip, u: undo,
      C: () => decideCluster('duplicate'), D: () => decideCluster('not-duplicate'),
    }[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  });

  load().then(show).catch((err) => { status.textContent = L.noLoad + err.message; });
})();
