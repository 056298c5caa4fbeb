// lamport.js: logical time (Lamport clocks) for the "logical time" switch, computed once on
// first use. Each call spans [begin, end] on a logical axis: begin = the previous call's end,
// end = max(begin + 1, 1 + the begin of every send or collective contribution it completes),
// so every arrow goes forward and a blocking collective's members all end at one column.
// Ranks advance in a causal order (a call waits until what it completes has been sent);
// if a history is cut off and nothing can advance, the first waiting call goes ahead
// without what never came.
'use strict';

function computeLamport(D) {
  if (D.lamport) return D.lamport;
  const E = buildEdges(D), N = D.nranks, R = D.ranks;
  const Lb = R.map((r) => new Float64Array(r.n)), Le = R.map((r) => new Float64Array(r.n));
  const ptr = new Int32Array(N), posted = new Int32Array(N).fill(-1);
  const vLeft = new Int32Array(E.nv), vMax = new Float64Array(E.nv);
  for (let v = 0; v < E.nv; v++) vLeft[v] = E.vCStart[v + 1] - E.vCStart[v];
  // post: the call's begin, and its contributions to collective results
  const post = (q, i) => {
    Lb[q][i] = i ? Le[q][i - 1] : 0;
    posted[q] = i;
    const st = E.outStart[q], oe = E.outE[q];
    for (let x = st[i]; x < st[i + 1]; x++) {
      if (oe[x] >= 0) continue;
      const v = -oe[x] - 1;
      vLeft[v]--;
      if (Lb[q][i] > vMax[v]) vMax[v] = Lb[q][i];
    }
  };
  // runs rank q until it waits: true if it moved
  const advance = (q, force) => {
    const n = R[q].n, st = E.inStart[q], ie = E.inE[q];
    let moved = false;
    while (ptr[q] < n) {
      const i = ptr[q];
      if (posted[q] < i) { post(q, i); moved = true; }
      let m = Lb[q][i] + 1, wait = false;
      for (let x = st[i]; x < st[i + 1]; x++) {
        const s = ie[x];
        if (s >= 0) {
          const si = D.msgSI[s], sr = D.msgS[s];
          if (posted[sr] >= si) m = Math.max(m, Lb[sr][si] + 1); else wait = true;
        } else {
          const v = -s - 1;
          if (vLeft[v] === 0 || force) m = Math.max(m, vMax[v] + 1); else wait = true;
        }
      }
      if (wait && !force) return moved;
      force = false;
      Le[q][i] = m;
      ptr[q]++;
      moved = true;
    }
    return moved;
  };
  for (;;) {
    let moved = false;
    for (let q = 0; q < N; q++) if (advance(q, false)) moved = true;
    if (moved) continue;
    let q = 0;
    while (q < N && ptr[q] >= R[q].n) q++;
    if (q === N) break;
    advance(q, true);
  }
  D.lamport = { begin: Lb, end: Le };
  return D.lamport;
}
