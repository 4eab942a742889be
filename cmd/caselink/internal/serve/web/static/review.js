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

  async function load() {
    const r = await fetch(`/api/dupes?pending=1&order=cluster&limit=50&offset=${skipped}&threshold=${threshold}`);
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
    meta.textContent = [c.date || 'undated', c.org || 'no organisation'].join(' · ');
    const title = document.createElement('p');
    title.className = 'case-title';
    marked(title, c.title || '(no title)', shared);
    const text = document.createElement('p');
    text.className = 'case-text';
    marked(text, c.text || '(no text)', shared);
    const src = document.createElement('ul');
    src.className = 'case-sources';
    for (const u of c.sources || []) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = u;
      a.rel = 'noopener noreferrer';
      a.target = '_blank';
      a.textContent = u;
      li.append(a);
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
      `Cluster ${c.n}: ${c.cases.length} records of one event, ${c.pairs} pair(s); the best record first.`;
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
      status.textContent = skipped > 0
        ? `No more pairs to review; ${skipped} skipped (reload the page to see them again).`
        : 'No probable duplicates left to review.';
      return;
    }
    pane.hidden = false;
    document.getElementById('pair-score').textContent = p.score.toFixed(2);
    document.getElementById('pair-ids').textContent = `${p.a.id} ~ ${p.b.id}`;
    caseBlock(document.getElementById('case-a'), p.a, p.shared || []);
    caseBlock(document.getElementById('case-b'), p.b, p.shared || []);
    showCluster(p);
    const ev = document.getElementById('pair-evidence');
    ev.replaceChildren(...p.evidence.map((e) => {
      const li = document.createElement('li');
      li.className = /^(same |specific: |\d+ day)/.test(e) ? 'tag event' : 'tag';
      li.textContent = e;
      return li;
    }));
    status.textContent = `Pair ${skipped + 1} of ${total} to review.` + (canDecide ? '' : ' Decisions cannot be kept: the server has no decisions file.');
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
      status.textContent = `${verdict === 'duplicate' ? 'Confirmed' : 'Dismissed'} ${c.pair_ids.length} pair(s) of cluster ${c.n}. ` + status.textContent;
    } catch (err) {
      status.textContent = `Could not record the decisions: ${err.message}`;
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
      status.textContent = `${verdict === 'duplicate' ? 'Confirmed' : 'Dismissed'} ${p.a.id} ~ ${p.b.id}. ` + status.textContent;
    } catch (err) {
      status.textContent = `Could not record the decision: ${err.message}`;
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
      status.textContent = `Undid the decision about ${pair.a.id} ~ ${pair.b.id}. ` + status.textContent;
    } catch (err) {
      status.textContent = `Could not undo: ${err.message}`;
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

  load().then(show).catch((err) => { status.textContent = `Could not load the pairs: ${err.message}`; });
})();
