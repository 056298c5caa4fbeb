// input.js: zoom and pan with the wheel (zoom at the pointer; shift or a horizontal wheel
// pans), drag to pan, click to select, and keys: arrows or a/d pan, +/- or w/s zoom, 0 or
// Home fits (c: back to the communication), l switches logical time, n steps to the next search match, Escape clears the
// selection, / goes to the search box. Every change asks for one frame (requestDraw).
'use strict';

function zoomAt(px, factor) {
  const t = T(px), s = timeSpan();
  const minScale = (V.W - LEFT) / (s.hi - s.lo) / 4;
  V.scale = Math.max(minScale, Math.min(V.scale * factor, 1e6 * V.W));
  V.t0 = t - (px - LEFT) / V.scale;
  requestDraw();
}

function panBy(dx) {
  V.t0 -= dx / V.scale;
  requestDraw();
}

function setLogical(on) {
  if (V.logical === on) return;
  const sel = V.sel;
  V.logical = on;
  document.getElementById('logical').checked = on;
  fit();
  if (sel) { centerOn(sel.q, sel.i); if (V.sel) showDetails(); }
  requestDraw();
}

function installInput() {
  const c = V.canvas;
  c.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = c.getBoundingClientRect(), x = e.clientX - r.left;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) panBy(-(e.deltaX || e.deltaY));
    else zoomAt(x, Math.exp(-e.deltaY * 0.0015));
  }, { passive: false });
  let drag = null;
  c.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, last: e.clientX, moved: false };
    c.setPointerCapture(e.pointerId);
  });
  c.addEventListener('pointermove', (e) => {
    if (!drag) return;
    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3) drag.moved = true;
    if (drag.moved) { panBy(e.clientX - drag.last); drag.last = e.clientX; c.style.cursor = 'grabbing'; }
  });
  c.addEventListener('pointerup', (e) => {
    const d = drag;
    drag = null;
    c.style.cursor = '';
    if (!d || d.moved) return;
    const r = c.getBoundingClientRect(), hit = eventAt(e.clientX - r.left, e.clientY - r.top);
    if (hit) { selectEvent(hit.q, hit.i); centerOn(hit.q, hit.i); } else clearSelection();
  });
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) {
      if (e.key === 'Escape') e.target.blur();
      return;
    }
    const w = V.W - LEFT;
    const keys = {
      ArrowLeft: () => panBy(w / 8), a: () => panBy(w / 8), ArrowRight: () => panBy(-w / 8), d: () => panBy(-w / 8),
      ArrowUp: () => zoomAt(LEFT + w / 2, 1.5), '+': () => zoomAt(LEFT + w / 2, 1.5), '=': () => zoomAt(LEFT + w / 2, 1.5),
      w: () => zoomAt(LEFT + w / 2, 1.5), ArrowDown: () => zoomAt(LEFT + w / 2, 1 / 1.5), '-': () => zoomAt(LEFT + w / 2, 1 / 1.5),
      s: () => zoomAt(LEFT + w / 2, 1 / 1.5), Home: () => { fit(); requestDraw(); }, 0: () => { fit(); requestDraw(); },
      c: () => { fitCommunication(); requestDraw(); },
      l: () => setLogical(!V.logical), n: () => nextMatch(), Escape: () => clearSelection(),
      '/': () => document.getElementById('search').focus(),
    };
    const f = keys[e.key];
    if (!f || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    f();
  });
  const search = document.getElementById('search');
  search.addEventListener('input', () => { if (!/^\d+:\d*$/.test(search.value.trim())) runSearch(search.value); });
  search.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    if (/^\d+:\d+$/.test(search.value.trim())) runSearch(search.value); else nextMatch();
  });
  document.getElementById('logical').addEventListener('change', (e) => setLogical(e.target.checked));
  document.getElementById('fit').addEventListener('click', () => { fit(); requestDraw(); });
  window.addEventListener('resize', () => { resize(); requestDraw(); });
}
