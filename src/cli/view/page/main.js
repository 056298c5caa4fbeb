// main.js: last of the page's scripts: decodes the data block, lays out the canvas, draws the
// first frame (zoomed on the communication) and installs the input handlers; in the URL's
// fragment, logical=1 starts in logical time, select=R:E selects a call and pans and zooms to
// it (also when the fragment changes), search=TEXT searches, test=... runs a scripted test
// (testhook.js). A live page (`mpirr replay --ui`) starts its session panel (live.js).
'use strict';

function legend() {
  const box = document.getElementById('legend');
  KIND_NAMES.forEach((k, i) => {
    const s = el('span', k, 'key');
    s.style.setProperty('--c', COLORS[i]);
    box.append(s);
  });
  const r = el('span', 'racing receive', 'key race');
  box.append(r);
  const D = V.D, exact = D.ranks.every((R) => R.exact);
  const t = el('span', exact ? 'times exact (to the ' + durText(D, 1) + ' tick)'
    : 'times rounded (log2 time codes: a drawn duration is within a factor of about 2; the details give the range)', 'key times');
  t.id = 'times-note';
  box.append(t);
}

function selectFromHash(spec) {
  const sel = /^(\d+):(\d+)$/.exec(spec.get('select') || '');
  if (sel && mpirrView.click(+sel[1], +sel[2])) { centerOn(V.sel.q, V.sel.i); frameNow(); }
}

function init() {
  const t0 = performance.now();
  const raw = JSON.parse(document.getElementById('mpirr-data').textContent);
  const t1 = performance.now();
  V.D = decodeData(raw);
  buildModel(V.D);
  const t2 = performance.now();
  buildEdges(V.D);
  const t3 = performance.now();
  V.canvas = document.getElementById('canvas');
  V.ctx = V.canvas.getContext('2d', { willReadFrequently: false });
  resize();
  fitCommunication();
  draw();
  V.ctx.getImageData(0, 0, 1, 1);
  V.firstFrameMs = performance.now();
  V.timing = { parseMs: t1 - t0, decodeMs: t2 - t1, edgesMs: t3 - t2, drawMs: V.firstFrameMs - t3, scriptStartMs: t0 };
  const D = V.D;
  document.getElementById('title').textContent = D.dir + ' — ' + D.nranks + ' ranks, ' + D.events +
    ' calls, ' + D.matched + ' messages, ' + D.nraces + ' racing receives';
  legend();
  clearSelection();
  installInput();
  const spec = new URLSearchParams(location.hash.slice(1));
  if (spec.get('logical') === '1') setLogical(true);
  selectFromHash(spec);
  window.addEventListener('hashchange', () => selectFromHash(new URLSearchParams(location.hash.slice(1))));
  if (spec.get('search')) { document.getElementById('search').value = spec.get('search'); mpirrView.search(spec.get('search')); }
  if (D.live) startLive();
  mpirrView.ready = true;
  if (spec.get('test')) runTests(spec);
}

try {
  init();
} catch (e) {
  pageErrors.push('init: ' + (e && e.stack ? e.stack : e));
  const pre = document.getElementById('test-result');
  pre.textContent = JSON.stringify({ errors: pageErrors });
  throw e;
}
