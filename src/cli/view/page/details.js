// details.js: the side panel for the selected call: what it was (call, peer, tag,
// communicator, bytes, match, source line, times), whether it raced and with which messages,
// its past and future frontiers per rank, and the replay command that stops there
// (`mpirr replay DIR --stop R:E`), ready to copy. Built with text nodes only: strings from
// the recording are never parsed as HTML.
'use strict';

const TIME_SLACK = 1; // MPIRR_EV_TIME_SLACK (event_trace.h): a delta of one tick may be coded 0

function shellQuote(s) {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
}

function peerText(v) {
  return v === -1 ? 'any' : v === -2 ? 'MPI_PROC_NULL' : v === -3 ? 'MPI_ROOT' : String(v);
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function selectEvent(q, i) {
  const D = V.D, R = D.ranks[q];
  if (!R || i < 0 || i >= R.n) return null;
  V.sel = { q, i };
  V.front = frontierOf(D, q, evNumber(R, i), false);
  showDetails();
  requestDraw();
  return V.front;
}

function clearSelection() {
  V.sel = null;
  V.front = null;
  const box = document.getElementById('details');
  box.replaceChildren(el('p', 'Click a call to see its details, its frontiers and the replay command that stops there.', 'hint'));
  requestDraw();
}

function fieldRows(D, s) {
  const f = D.shapes[s * SH.N + SH.FIELDS], g = (k) => D.shapes[s * SH.N + k], rows = [];
  if (f & EVF.COMM) rows.push(['communicator', String(g(SH.COMM))]);
  if (f & EVF.PEER) rows.push(['peer', peerText(g(SH.PEER))]);
  if (f & EVF.TAG) rows.push(['tag', g(SH.TAG) === -1 ? 'any' : String(g(SH.TAG))]);
  if (f & EVF.RPEER) rows.push(['receive from', peerText(g(SH.RPEER)) + ', tag ' + (g(SH.RTAG) === -1 ? 'any' : g(SH.RTAG))]);
  if (f & EVF.BYTES) rows.push(['bytes', String(g(SH.BYTES))]);
  if (f & EVF.ROOT) rows.push(['root', peerText(g(SH.ROOT))]);
  if (f & EVF.MATCH) rows.push(['matched', 'source ' + peerText(g(SH.SRC)) + ', tag ' + g(SH.MTAG) + ', ' + g(SH.GOT) + ' bytes']);
  return rows;
}

// A duration in ticks as text: ms above a millisecond, else µs.
function durText(D, t) {
  const ns = t * D.tickNs;
  return ns >= 1e6 ? (ns / 1e6).toFixed(1) + ' ms' : (ns / 1e3).toFixed(1) + ' µs';
}

// The time rows of call i. Rounded times (a history recorded without MPIRR_EVENTS_EXACT) are
// log2 codes against the reconstructed clock (docs/events.md, "Time"): a code that moved the
// clock by d ticks stood for an exact delta in [d, 2d), a code 0 for at most the slack of one
// tick, and each exact time was rounded down to its tick; so the exact time lies in
// [R, R + spread) with spread d, or 2 for d = 0, and the duration between the bounds below.
function timeRows(D, R, i) {
  const us = (t) => (t * D.tickNs / 1000).toFixed(1) + ' µs';
  const rows = [['time', us(R.start[i]) + ' – ' + us(R.end[i])]], d = R.end[i] - R.start[i];
  if (R.exact) {
    rows.push(['duration', durText(D, d) + ' (exact, to the ' + durText(D, 1) + ' tick)']);
    return rows;
  }
  const spread = (delta) => delta > 0 ? delta : TIME_SLACK + 1;
  const lo = Math.max(0, d - spread(R.start[i] - (i > 0 ? R.end[i - 1] : 0))), hi = d + spread(d);
  rows.push(['duration', '≈ ' + durText(D, d) + ' (rounded: log2 time code, the exact value is between ' +
    durText(D, lo) + ' and ' + durText(D, hi) + ')']);
  return rows;
}

function showDetails() {
  const D = V.D, { q, i } = V.sel, R = D.ranks[q], ev = evNumber(R, i), s = R.shape[i];
  const call = D.shapes[s * SH.N + SH.CALL], site = R.site[i];
  const box = document.getElementById('details');
  box.replaceChildren();
  box.append(el('h2', (D.callName.get(call) || 'call ' + call)));
  const tbl = el('table');
  const rows = [['rank', String(q)], ['event', String(ev)], ['kind', KIND_NAMES[D.shapeKind[s]]],
    ['source line', D.strings.get(site)], ...fieldRows(D, s)];
  rows.push(...timeRows(D, R, i));
  if (D.lamport) rows.push(['logical time', D.lamport.begin[q][i] + ' – ' + D.lamport.end[q][i]]);
  for (const [k, v] of rows) { const tr = el('tr'); tr.append(el('th', k), el('td', v)); tbl.append(tr); }
  box.append(tbl);
  for (let k = 0; k < D.nraces; k++) {
    if (D.raceRank[k] !== q || (D.raceI[k] !== i && D.racePI[k] !== i)) continue;
    box.append(el('h3', 'racing receive', 'race'));
    const ul = el('ul');
    for (let c = D.candStart[k]; c < D.candStart[k + 1]; c++) {
      const m = D.cands[c];
      ul.append(el('li', 'rank ' + D.msgS[m] + ' event ' + D.msgSE[m] + (c === D.candStart[k] ? ' (matched)' : ' (could have arrived)')));
    }
    box.append(ul);
  }
  box.append(el('h3', 'stop a replay here'));
  const cmd = el('input');
  cmd.id = 'stopline';
  cmd.readOnly = true;
  cmd.value = 'mpirr replay ' + shellQuote(D.dir) + ' --stop ' + q + ':' + ev;
  const copy = el('button', 'copy');
  copy.addEventListener('click', () => {
    cmd.select();
    if (navigator.clipboard) navigator.clipboard.writeText(cmd.value).catch(() => document.execCommand('copy'));
    else document.execCommand('copy');
  });
  const line = el('div', undefined, 'cmd');
  line.append(cmd, copy);
  box.append(line);
  if (D.live) box.append(liveStopButton(q, ev));
  const f = V.front;
  box.append(el('h3', 'frontiers just before it'));
  const ft = el('table', undefined, 'front');
  const head = el('tr');
  head.append(el('th', 'rank'), el('th', 'past', 'past'), el('th', 'future', 'future'));
  ft.append(head);
  for (let r = 0; r < Math.min(D.nranks, 256); r++) {
    const tr = el('tr');
    tr.append(el('td', String(r)), el('td', f.past[r] ? String(f.past[r]) : 'none'), el('td', f.future[r] ? String(f.future[r]) : 'none'));
    ft.append(tr);
  }
  box.append(ft);
}
