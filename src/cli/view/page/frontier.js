// frontier.js: p2d2's past and future frontiers of the point just before (or after) an event,
// with src/analysis/frontier.c's definitions, found by walking the happened-before edges
// (model.js) instead of sweeping vector clocks: only the part of the run that can reach or be
// reached from the point is visited. Entries are half-events as in the analysis: 2e for what
// event e sent (its posts), 2e + 1 for what it received (its completions).
//  past[q]:   the last event of q that happened before the point (0: none); for q = the
//             point's rank, e - 1 (before) or e (after).
//  future[q]: the first event of q that completes something carrying the point's rank's
//             events from e (before) or e + 1 (after) on (0: none); for the point's rank, e
//             (before) or e + 1 (after; 0 past its last event).
'use strict';

function frontierOf(D, rank, ev, after) {
  const E = buildEdges(D), N = D.nranks, R = D.ranks;
  const past = new Array(N).fill(0), future = new Array(N).fill(0);

  // backward: hi[q] is the highest half-event of q known to happen before the point; every
  // in-edge of q at or below it brings its source in.
  const hi = new Float64Array(N).fill(-1), up = new Int32Array(N), seenB = new Uint8Array(E.nv);
  const work = [];
  const raise = (q, h) => { if (h > hi[q]) { hi[q] = h; work.push(q); } };
  raise(rank, after ? 2 * ev + 1 : 2 * ev - 1);
  while (work.length) {
    const q = work.pop(), Rq = R[q], st = E.inStart[q], ie = E.inE[q];
    while (up[q] < Rq.n && 2 * evNumber(Rq, up[q]) + 1 <= hi[q]) {
      const i = up[q]++;
      for (let x = st[i]; x < st[i + 1]; x++) {
        const s = ie[x];
        if (s >= 0) { raise(D.msgS[s], 2 * D.msgSE[s]); continue; }
        const v = -s - 1;
        if (seenB[v]) continue;
        seenB[v] = 1;
        for (let c = E.vCStart[v]; c < E.vCStart[v + 1]; c++) raise(E.vCRank[c], 2 * evNumber(R[E.vCRank[c]], E.vCIdx[c]));
      }
    }
  }
  for (let q = 0; q < N; q++) past[q] = hi[q] < 0 ? 0 : Math.floor(hi[q] / 2);
  past[rank] = after ? ev : ev - 1;

  // forward: lo[q] is the lowest half-event of q the point reaches; every out-edge of q at or
  // above it carries the point on.
  const lo = new Float64Array(N).fill(Infinity), down = new Int32Array(N), seenF = new Uint8Array(E.nv);
  for (let q = 0; q < N; q++) down[q] = R[q].n - 1;
  const lower = (q, h) => { if (h < lo[q]) { lo[q] = h; work.push(q); } };
  lower(rank, 2 * (ev + (after ? 1 : 0)));
  while (work.length) {
    const q = work.pop(), Rq = R[q], st = E.outStart[q], oe = E.outE[q];
    while (down[q] >= 0 && 2 * evNumber(Rq, down[q]) >= lo[q]) {
      const i = down[q]--;
      for (let x = st[i]; x < st[i + 1]; x++) {
        const t = oe[x];
        if (t >= 0) { lower(D.msgR[t], 2 * D.msgRE[t] + 1); continue; }
        const v = -t - 1;
        if (seenF[v]) continue;
        seenF[v] = 1;
        for (let c = E.vTStart[v]; c < E.vTStart[v + 1]; c++) lower(E.vTRank[c], 2 * evNumber(R[E.vTRank[c]], E.vTIdx[c]) + 1);
      }
    }
  }
  for (let q = 0; q < N; q++) future[q] = lo[q] === Infinity ? 0 : (lo[q] - 1) / 2;
  future[rank] = after ? (ev < R[rank].last ? ev + 1 : 0) : ev;
  return { rank, event: ev, when: after ? 'after' : 'before', past, future };
}
