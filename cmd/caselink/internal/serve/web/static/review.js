// caselink serve: review probable duplicates one pair at a time.
// GET /api/dupes?pending=1 gives the undecided pairs; each decision is sent
// to POST /api/dupes/decisions. Keys: c confirm, d dismiss, s skip, u undo.
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
  };
  let queue = [];  // pairs not yet shown
  let skipped = 0; // pending pairs skipped: the next page starts after them
  let total = 0;   // pending pairs on the server
  let last = null; // the last decision, for undo
  let busy = false;

  async function load() {
    const r = await fetch(`/api/dupes?pending=1&limit=50&offset=${skipped}&threshold=${threshold}`);
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    queue = data.pairs || [];
    total = data.total;
  }

  function caseBlock(el, c) {
    const id = document.createElement('a');
    id.href = `/cases/${encodeURIComponent(c.id)}`;
    id.className = 'case-id';
    id.textContent = c.id;
    const meta = document.createElement('p');
    meta.className = 'muted';
    meta.textContent = [c.date || 'undated', c.org || 'no organisation'].join(' · ');
    const title = document.createElement('p');
    title.textContent = c.title || '(no title)';
    el.replaceChildren(id, meta, title);
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
    caseBlock(document.getElementById('case-a'), p.a);
    caseBlock(document.getElementById('case-b'), p.b);
    const ev = document.getElementById('pair-evidence');
    ev.replaceChildren(...p.evidence.map((e) => {
      const li = document.createElement('li');
      li.className = 'tag';
      li.textContent = e;
      return li;
    }));
    status.textContent = `Pair ${skipped + 1} of ${total} to review.` + (canDecide ? '' : ' Decisions cannot be kept: the server has no decisions file.');
    buttons.confirm.disabled = buttons.dismiss.disabled = !canDecide;
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
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest('input, textarea, select')) return;
    const act = { c: () => decide('duplicate'), d: () => decide('not-duplicate'), s: skip, u: undo }[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  });

  load().then(show).catch((err) => { status.textContent = `Could not load the pairs: ${err.message}`; });
})();
