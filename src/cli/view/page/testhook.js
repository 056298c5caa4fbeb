// testhook.js: window.mpirrView, the page's interface for tests (tests/view/): readiness,
// counts of what the last frame drew, click(rank, event) with the frontier it shows,
// synchronous frames with their times, and scripted runs chosen by the URL's fragment
// (#test=basic, #test=frontier&at=R:E,R:E..., #test=perf, each with the view as loaded) whose result is written as JSON
// into <pre id=test-result> for `chromium --dump-dom`. They run during page load, so no
// timer or sleep is involved and performance.now() is real time.
'use strict';

// Draws now and reads one pixel back, so the time includes rasterising the frame.
function frameNow() {
  const t = performance.now();
  draw();
  V.ctx.getImageData(0, 0, 1, 1);
  V.drawPending = false;
  return performance.now() - t;
}

const mpirrView = {
  ready: false,
  get counts() { return V.counts; },
  get frameTimes() { return V.frameTimes; },
  get firstFrameMs() { return V.firstFrameMs; },
  get errors() { return pageErrors; },
  frontier: { past: null, future: null },
  click(rank, event) {
    const R = V.D.ranks[rank], i = R ? evIndex(R, event) : -1;
    if (i < 0) return null;
    const f = selectEvent(rank, i);
    frameNow();
    this.frontier = { past: f.past, future: f.future };
    return f;
  },
  panBy(px) { panBy(px); return frameNow(); },
  zoomBy(f) { zoomAt(LEFT + (V.W - LEFT) / 2, f); return frameNow(); },
  setLogical(on) { setLogical(on); return frameNow(); },
  search(text) { const n = runSearch(text); frameNow(); return n; },
  fit() { fit(); return frameNow(); },
};
window.mpirrView = mpirrView;

function stats(a) {
  const s = a.slice().sort((x, y) => x - y), q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1], mean: s.reduce((x, y) => x + y, 0) / s.length };
}

function pointer(type, x, y) {
  const r = V.canvas.getBoundingClientRect();
  V.canvas.dispatchEvent(new PointerEvent(type, { clientX: r.left + x, clientY: r.top + y, bubbles: true, pointerId: 1, isPrimary: true }));
}

// Drives the page through its real handlers: wheel, drag, keys, a click on a call.
function interactionChecks(D) {
  const out = {};
  const s0 = V.scale;
  V.canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -400, clientX: V.canvas.getBoundingClientRect().left + V.W / 2, bubbles: true, cancelable: true }));
  out.wheelZooms = V.scale > s0;
  const t0 = V.t0;
  pointer('pointerdown', V.W / 2, TOP + 5);
  pointer('pointermove', V.W / 2 + 120, TOP + 5);
  pointer('pointerup', V.W / 2 + 120, TOP + 5);
  out.dragPans = V.t0 < t0;
  const t1 = V.t0;
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  out.keyPans = V.t0 > t1;
  mpirrView.fit();
  // logical time: every arrow goes forward
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'l', bubbles: true }));
  frameNow();
  const L = computeLamport(D);
  let backward = 0;
  for (const m of D.arrows) if (!(L.end[D.msgR[m]][D.msgRI[m]] > L.begin[D.msgS[m]][D.msgSI[m]])) backward++;
  out.logical = { on: V.logical, backwardArrows: backward, arrowsDrawn: V.counts.arrowsDrawn };
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'l', bubbles: true }));
  frameNow();
  // a click on a call at its pixel: the first racing receive, else rank 0's middle call, that
  // its neighbours do not hide (a call without length in the same tick as the one before or
  // after it is drawn on the same pixel, where only search or logical time tell them apart)
  const apart = (r, j) => {
    const b = beginOf(r), e = endOf(r), n = D.ranks[r].n;
    const same = (k) => k >= 0 && k < n && b[k] === b[j] && e[k] === e[j];
    return !same(j - 1) && !same(j + 1);
  };
  let q = 0, i = Math.floor(D.ranks[0].n / 2);
  for (let k = 0; k < D.nraces; k++)
    if (D.raceI[k] >= 0 && apart(D.raceRank[k], D.raceI[k])) { q = D.raceRank[k]; i = D.raceI[k]; break; }
  centerOn(q, i);
  frameNow();
  const x = (X(beginOf(q)[i]) + X(endOf(q)[i])) / 2, y = laneMid(q);
  pointer('pointerdown', x, y);
  pointer('pointerup', x, y);
  frameNow();
  const cmd = document.getElementById('stopline');
  out.click = { rank: q, event: evNumber(D.ranks[q], i), selected: !!V.sel && V.sel.q === q && V.sel.i === i,
    stopline: cmd ? cmd.value : null, details: document.getElementById('details').textContent.slice(0, 400) };
  return out;
}

// The view as loaded: the time span shown and the communication's (render.js commSpan), the
// selected call's pixels (#select=R:E), whether the lanes fill the canvas, the crash marks.
function loadedView() {
  const D = V.D, c = commSpan(), s = timeSpan(), L = lanes();
  const out = { shown: { lo: T(LEFT), hi: T(V.W) }, comm: c, all: s, laneH: L.h, H: V.H,
    lanesBottom: laneTop(D.nranks - 1) + L.h, endMarks: V.counts.endMarks,
    endings: D.ranks.map((R) => R.ending) };
  if (V.sel) {
    const { q, i } = V.sel;
    out.selected = { rank: q, event: evNumber(D.ranks[q], i), x0: X(beginOf(q)[i]), x1: X(endOf(q)[i]), W: V.W };
    const row = [...document.querySelectorAll('#details th')].find((th) => th.textContent === 'duration');
    out.selected.duration = row ? row.nextSibling.textContent : null;
  }
  const note = document.getElementById('times-note');
  out.timesNote = note ? note.textContent : null;
  return out;
}

function runTests(spec) {
  const D = V.D, res = { test: spec.get('test'), firstFrameMs: V.firstFrameMs, timing: V.timing };
  res.loaded = loadedView();
  if (spec.get('test') === 'basic') {
    mpirrView.fit();
    res.countsAtFit = Object.assign({}, V.counts);
    res.matched = D.matched;
    res.interaction = interactionChecks(D);
    res.searchRecv = mpirrView.search('MPI_Recv');
    res.searchRank = mpirrView.search('rank 1');
    mpirrView.search('');
  } else if (spec.get('test') === 'frontier') {
    res.frontiers = (spec.get('at') || '').split(',').filter((x) => x).map((pt) => {
      const [r, e] = pt.split(':').map(Number), f = mpirrView.click(r, e);
      return f ? { rank: r, event: e, past: f.past, future: f.future } : { rank: r, event: e, missing: true };
    });
  } else if (spec.get('test') === 'perf') {
    V.profile = spec.get('profile') === '1';
    const t = performance.now();
    const f = mpirrView.click(D.nranks - 1, evNumber(D.ranks[D.nranks - 1], D.ranks[D.nranks - 1].n >> 1));
    res.clickFrontierMs = performance.now() - t;
    res.frontierFound = !!f;
    mpirrView.fit();
    const pansFit = [], pansZoomed = [], zooms = [];
    for (let k = 0; k < 30; k++) pansFit.push(mpirrView.panBy(k % 2 ? 37 : -41));
    res.layerMsFit = V.layerMs;
    res.countsFit = Object.assign({}, V.counts);
    for (let k = 0; k < 10; k++) zooms.push(mpirrView.zoomBy(1.6));
    for (let k = 0; k < 30; k++) pansZoomed.push(mpirrView.panBy(-53));
    res.pan = { fit: stats(pansFit), zoomed: stats(pansZoomed) };
    res.zoom = stats(zooms);
    res.countsZoomed = Object.assign({}, V.counts);
    res.layerMsZoomed = V.layerMs;
    const t2 = performance.now();
    mpirrView.setLogical(true);
    res.logicalSwitchMs = performance.now() - t2;
    const pl = [];
    for (let k = 0; k < 20; k++) pl.push(mpirrView.panBy(-29));
    res.panLogical = stats(pl);
    res.events = D.events;
  }
  res.errors = pageErrors.slice();
  res.resources = performance.getEntriesByType('resource').length;
  res.counts = V.counts;
  const pre = document.getElementById('test-result');
  pre.textContent = JSON.stringify(res);
}
