// model.js: indexes over the decoded data: event numbers <-> positions in a rank's arrays,
// message and collective endpoints as positions, and (built on first use) the happened-before
// edges the frontiers and logical time walk: per rank and per event, the messages and
// collective results it merges (in-edges) and the messages and contributions it sends
// (out-edges). Collectives become "virtual instances" with contributors and takers, following
// src/analysis/happened_before.c's data flows, so an N-member collective costs O(N) edges.
'use strict';

const FLOW = { ALL: 0, ROOT_OUT: 1, ROOT_IN: 2, PREFIX: 3, XPREFIX: 4 };

function evNumber(R, i) { return R.evnum ? R.evnum[i] : R.first + i; }

// Position of event number ev in rank R's arrays, or -1.
function evIndex(R, ev) {
  if (!R.evnum) { const i = ev - R.first; return i >= 0 && i < R.n ? i : -1; }
  if (R.evmap) return R.evmap.has(ev) ? R.evmap.get(ev) : -1;
  let lo = 0, hi = R.n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1, v = R.evnum[mid];
    if (v === ev) return mid;
    if (v < ev) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

function buildModel(D) {
  const N = D.nranks, nm = D.nmsgs;
  D.msgSI = new Int32Array(nm); D.msgRI = new Int32Array(nm);
  const arrows = [];
  for (let m = 0; m < nm; m++) {
    const s = D.msgS[m], r = D.msgR[m];
    D.msgSI[m] = s < N ? evIndex(D.ranks[s], D.msgSE[m]) : -1;
    D.msgRI[m] = (D.msgFlags[m] & 1) && r < N ? evIndex(D.ranks[r], D.msgRE[m]) : -1;
    if (D.msgSI[m] >= 0 && D.msgRI[m] >= 0) arrows.push(m);
  }
  D.arrows = Uint32Array.from(arrows);
  const nmem = D.memRank.length;
  D.memPI = new Int32Array(nmem); D.memDI = new Int32Array(nmem);
  for (let j = 0; j < nmem; j++) {
    const R = D.ranks[D.memRank[j]];
    D.memPI[j] = R ? evIndex(R, D.memPost[j]) : -1;
    D.memDI[j] = R && D.memDone[j] ? evIndex(R, D.memDone[j]) : -1;
  }
  // a racing receive is shown at the call that completed it (else the one that posted it)
  D.raceI = new Int32Array(D.nraces); D.racePI = new Int32Array(D.nraces);
  D.racing = D.ranks.map((R) => new Uint8Array(R.n));
  for (let k = 0; k < D.nraces; k++) {
    const R = D.ranks[D.raceRank[k]];
    D.racePI[k] = evIndex(R, D.racePost[k]);
    D.raceI[k] = D.raceDone[k] ? evIndex(R, D.raceDone[k]) : D.racePI[k];
    if (D.racePI[k] >= 0) D.racing[D.raceRank[k]][D.racePI[k]] = 1;
    if (D.raceI[k] >= 0) D.racing[D.raceRank[k]][D.raceI[k]] = 1;
  }
  D.edges = null;
}

// The virtual instances of collective k (happened_before.c: coll_post / coll_done): one for
// the accumulated result (contributors: every member, or the root alone for ROOT_OUT flows;
// takers: every member for ALL, the non-roots for ROOT_OUT, the root for ROOT_IN), and one
// per member of a prefix flow (contributors: members 0 .. its index, or .. index - 1).
function instanceFlows(D, k, out) {
  const s = D.instStart[k], e = D.instStart[k + 1];
  const flow = (j) => D.memFlags[j] & 7, root = (j) => (D.memFlags[j] >> 3) & 1;
  const prefix = (j) => flow(j) === FLOW.PREFIX || flow(j) === FLOW.XPREFIX;
  const contrib = [], takers = [];
  for (let j = s; j < e; j++) {
    if (D.memPI[j] >= 0 && !prefix(j) && (flow(j) !== FLOW.ROOT_OUT || root(j))) contrib.push(j);
    if (D.memDI[j] < 0) continue;
    const f = flow(j);
    if ((f === FLOW.ROOT_OUT && !root(j)) || f === FLOW.ALL || (f === FLOW.ROOT_IN && root(j))) takers.push(j);
    if (prefix(j)) {
      const upto = D.memIndex[j] - (f === FLOW.XPREFIX ? 1 : 0), pc = [];
      for (let i = s; i < e; i++)
        if (prefix(i) && D.memPI[i] >= 0 && D.memIndex[i] >= 0 && D.memIndex[i] <= upto) pc.push(i);
      if (pc.length && D.memIndex[j] >= 0) out.push([pc, [j]]);
    }
  }
  if (contrib.length && takers.length) out.push([contrib, takers]);
}

// Per rank CSR: in-edges and out-edges of each event (>= 0: a message; < 0: virtual
// instance -(v + 1)).
function buildEdges(D) {
  if (D.edges) return D.edges;
  const N = D.nranks;
  const vi = [];
  for (let k = 0; k < D.ninst; k++) instanceFlows(D, k, vi);
  const nv = vi.length;
  const vCStart = new Uint32Array(nv + 1), vTStart = new Uint32Array(nv + 1);
  for (let v = 0; v < nv; v++) {
    vCStart[v + 1] = vCStart[v] + vi[v][0].length;
    vTStart[v + 1] = vTStart[v] + vi[v][1].length;
  }
  const vCRank = new Int32Array(vCStart[nv]), vCIdx = new Int32Array(vCStart[nv]);
  const vTRank = new Int32Array(vTStart[nv]), vTIdx = new Int32Array(vTStart[nv]);
  for (let v = 0; v < nv; v++) {
    vi[v][0].forEach((j, x) => { vCRank[vCStart[v] + x] = D.memRank[j]; vCIdx[vCStart[v] + x] = D.memPI[j]; });
    vi[v][1].forEach((j, x) => { vTRank[vTStart[v] + x] = D.memRank[j]; vTIdx[vTStart[v] + x] = D.memDI[j]; });
  }
  const inCount = D.ranks.map((R) => new Uint32Array(R.n + 1));
  const outCount = D.ranks.map((R) => new Uint32Array(R.n + 1));
  const hbMsg = (m) => (D.msgFlags[m] & 3) === 1 && D.msgSI[m] >= 0 && D.msgRI[m] >= 0;
  const each = (fn) => {
    for (let m = 0; m < D.nmsgs; m++)
      if (hbMsg(m)) { fn(inCount, D.msgR[m], D.msgRI[m], m); fn(outCount, D.msgS[m], D.msgSI[m], m); }
    for (let v = 0; v < nv; v++) {
      for (let x = vCStart[v]; x < vCStart[v + 1]; x++) fn(outCount, vCRank[x], vCIdx[x], -(v + 1));
      for (let x = vTStart[v]; x < vTStart[v + 1]; x++) fn(inCount, vTRank[x], vTIdx[x], -(v + 1));
    }
  };
  each((c, q, i) => { c[q][i + 1]++; });
  for (let q = 0; q < N; q++)
    for (let i = 0; i < D.ranks[q].n; i++) { inCount[q][i + 1] += inCount[q][i]; outCount[q][i + 1] += outCount[q][i]; }
  const inE = inCount.map((c) => new Int32Array(c[c.length - 1]));
  const outE = outCount.map((c) => new Int32Array(c[c.length - 1]));
  const inFill = inCount.map((c) => c.slice()), outFill = outCount.map((c) => c.slice());
  each((c, q, i, x) => {
    if (c === inCount) inE[q][inFill[q][i]++] = x; else outE[q][outFill[q][i]++] = x;
  });
  D.edges = { inStart: inCount, inE, outStart: outCount, outE, nv, vCStart, vCRank, vCIdx, vTStart, vTRank, vTIdx };
  return D.edges;
}
