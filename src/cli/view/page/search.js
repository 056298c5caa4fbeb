// search.js: the search box. "3" or "rank 3" marks a lane; "3:120" selects rank 3's event
// 120; a call name ("MPI_Recv", "recv", "allreduce") marks every call of it, a source line
// ("storm.c:25", any part of "file.c:LINE (function)") every call made there. Enter (or n)
// steps to the next match after the selection.
'use strict';

// V.match: null, or { rank, shapes, sites }: a call matches if it is on that rank (-1: any)
// and its shape and its site are marked (null: any).
function matches(q, i) {
  const M = V.match, R = V.D.ranks[q];
  return !!M && (M.rank < 0 || M.rank === q) && (!M.shapes || M.shapes[R.shape[i]] === 1) &&
    (!M.sites || (R.site[i] >= 0 && M.sites[R.site[i]] === 1));
}

function runSearch(text) {
  const D = V.D, info = document.getElementById('search-info');
  text = text.trim();
  V.match = null;
  let count = 0, m;
  if (!text) {
    info.textContent = '';
  } else if ((m = /^(\d+):(\d+)$/.exec(text))) {
    const q = +m[1], R = D.ranks[q], i = R ? evIndex(R, +m[2]) : -1;
    if (i >= 0) { selectEvent(q, i); centerOn(q, i); count = 1; }
    info.textContent = i >= 0 ? '' : 'no event ' + text;
  } else if ((m = /^(?:rank\s*)?(\d+)$/i.exec(text))) {
    V.match = { rank: +m[1], shapes: null, sites: null };
    count = V.match.rank < D.nranks ? D.ranks[V.match.rank].n : 0;
    info.textContent = count ? 'rank ' + m[1] + ': ' + count + ' calls' : 'no rank ' + m[1];
  } else {
    const t = text.toLowerCase(), bare = (n) => n.toLowerCase().replace(/^mpi_/, '');
    if (/[:.\/]/.test(t) && !/^mpi_/.test(t)) {
      const sites = new Uint8Array(D.strings.n);
      for (let s = 0; s < D.strings.n; s++) sites[s] = D.strings.get(s).toLowerCase().includes(t) ? 1 : 0;
      V.match = { rank: -1, shapes: null, sites };
    } else {
      const shapes = new Uint8Array(D.nshapes);
      let exact = false;
      for (const name of D.callName.values()) if (name.toLowerCase() === t || bare(name) === t) exact = true;
      for (let s = 0; s < D.nshapes; s++) {
        const name = (D.callName.get(D.shapes[s * SH.N + SH.CALL]) || '').toLowerCase();
        shapes[s] = (exact ? name === t || name.replace(/^mpi_/, '') === t : name.includes(t)) ? 1 : 0;
      }
      V.match = { rank: -1, shapes, sites: null };
    }
    for (let q = 0; q < D.nranks; q++) for (let i = 0; i < D.ranks[q].n; i++) if (matches(q, i)) count++;
    info.textContent = count + ' calls' + (count ? ' (Enter: next)' : '');
  }
  requestDraw();
  return count;
}

// The next match after the selection (rank by rank), selected and centred.
function nextMatch() {
  const D = V.D;
  if (!V.match) return false;
  let q = V.sel ? V.sel.q : 0, i = V.sel ? V.sel.i + 1 : 0;
  for (let step = 0; step <= D.nranks; step++, q = (q + 1) % D.nranks, i = 0) {
    const R = D.ranks[q];
    for (; i < R.n; i++) if (matches(q, i)) { selectEvent(q, i); centerOn(q, i); return true; }
  }
  return false;
}

function centerOn(q, i) {
  const b = beginOf(q)[i], e = endOf(q)[i], mid = (b + e) / 2;
  // zoom in until the call is a few pixels wide, at most a thousandfold at once; out until it fits
  const w = V.W - LEFT;
  if ((e - b) * V.scale < 8) V.scale = Math.min(8 / Math.max(e - b, 1e-9), V.scale * 1000);
  else if ((e - b) * V.scale > 0.8 * w) V.scale = 0.8 * w / (e - b);
  V.t0 = mid - (V.W - LEFT) / 2 / V.scale;
  requestDraw();
}
