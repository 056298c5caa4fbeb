// data.js: reads the data block that `mpirr view` writes (src/cli/view/view_write.c) into
// typed arrays: per rank the calls' begin/end times and shapes, the shape table, the
// messages, the collective instances and the racing receives. Columns arrive as base64
// LEB128 varints (zigzag for signed values); decoding them is one pass over the bytes.
'use strict';

function b64Bytes(s) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s);
  const bin = atob(s);
  const n = bin.length;
  const u = new Uint8Array(n);
  for (let i = 0; i < n; i++) u[i] = bin.charCodeAt(i);
  return u;
}

// A cursor over varints; numbers stay exact up to 2^53.
class VarReader {
  constructor(s) { this.u = b64Bytes(s); this.i = 0; }
  uint() {
    const u = this.u;
    let b = u[this.i++];
    if (b < 128) return b;
    let r = b & 127, m = 128;
    do { b = u[this.i++]; r += (b & 127) * m; m *= 128; } while (b >= 128);
    return r;
  }
  int() { const v = this.uint(); return v % 2 ? -(v + 1) / 2 : v / 2; }
}

// Shape fields, in view_data.h's order (SH_*).
const SH = { CALL: 0, FIELDS: 1, COMM: 2, PEER: 3, TAG: 4, BYTES: 5, SRC: 6, MTAG: 7,
  GOT: 8, ROOT: 9, RPEER: 10, RTAG: 11, N: 12 };
// Record field bits (src/format/event_trace.h, MPIRR_EVF_*).
const EVF = { COMM: 1, PEER: 2, TAG: 4, BYTES: 8, REQ: 16, MATCH: 32, ROOT: 64, RPEER: 128 };
const KIND_NAMES = ['send', 'receive', 'wait/test', 'collective', 'other'];

function decodeRank(r) {
  const n = r.n;
  const start = new Float64Array(n), end = new Float64Array(n), shape = new Uint32Array(n);
  const site = new Int32Array(n);
  const tb = new VarReader(r.tb), du = new VarReader(r.du), sh = new VarReader(r.sh), si = new VarReader(r.si);
  let t = 0, s = 0;
  for (let i = 0; i < n; i++) {
    const b = t + tb.int();
    start[i] = b;
    t = b + du.int();
    end[i] = t;
    shape[i] = sh.uint();
    s += si.int();
    site[i] = s;
  }
  let evnum = null;
  if (r.ev !== null) {
    evnum = new Float64Array(n);
    const ev = new VarReader(r.ev);
    let e = 0;
    for (let i = 0; i < n; i++) { e += ev.int(); evnum[i] = e; }
  }
  // threads may write records out of event order: then positions are found by a map
  let evmap = null;
  for (let i = 1; evnum && i < n && !evmap; i++) {
    if (evnum[i] > evnum[i - 1]) continue;
    evmap = new Map();
    for (let j = 0; j < n; j++) evmap.set(evnum[j], j);
  }
  return { n, first: r.first, last: r.last, clean: r.clean, exact: !!r.exact, ending: r.end || null, start, end, shape, site, evnum, evmap };
}

// Call-site strings come as templates and numbers (src/cli/view/view_strings.c); a string is
// put together when first asked for.
function decodeStrings(S) {
  const tpl = S.tpl, r = new VarReader(S.ids), t = new Uint32Array(S.n), num = new Float64Array(S.n);
  for (let i = 0; i < S.n; i++) { t[i] = r.uint(); num[i] = r.uint(); }
  const cache = new Array(S.n);
  return {
    n: S.n,
    get(i) {
      if (i < 0 || i >= S.n) return '?';
      if (cache[i] === undefined) {
        const [pre, suf, radix] = tpl[t[i]];
        cache[i] = radix ? pre + num[i].toString(radix) + suf : pre + suf;
      }
      return cache[i];
    },
  };
}

function decodeData(raw) {
  const D = { live: !!raw.live, dir: raw.dir, nranks: raw.nranks, tickNs: raw.tickNs, events: raw.events,
    startRealtimeNs: raw.startRealtimeNs, strings: decodeStrings(raw.strings) };
  D.callName = new Map();
  D.callKind = new Map();
  for (const [id, name, kind] of raw.calls) { D.callName.set(id, name); D.callKind.set(id, kind); }
  const ns = raw.nshapes;
  D.nshapes = ns;
  D.shapes = new Float64Array(ns * SH.N);
  const sr = new VarReader(raw.shapes);
  for (let i = 0; i < ns * SH.N; i++) D.shapes[i] = sr.int();
  D.shapeKind = new Uint8Array(ns);
  for (let s = 0; s < ns; s++) D.shapeKind[s] = D.callKind.get(D.shapes[s * SH.N]) ?? 4;
  D.ranks = raw.ranks.map(decodeRank);

  const nm = raw.nmsgs;
  D.nmsgs = nm;
  D.msgS = new Int32Array(nm); D.msgR = new Int32Array(nm);
  D.msgSE = new Float64Array(nm); D.msgRE = new Float64Array(nm); D.msgFlags = new Uint8Array(nm);
  const mr = new VarReader(raw.msgs);
  for (let m = 0; m < nm; m++) {
    D.msgS[m] = mr.uint(); D.msgR[m] = mr.uint(); D.msgSE[m] = mr.uint();
    const f = mr.uint();
    D.msgFlags[m] = f;
    if (f & 1) D.msgRE[m] = D.msgSE[m] + mr.int();
  }
  D.matched = raw.matched;

  // collective instances: members in CSR form
  const ni = raw.ninst;
  D.ninst = ni;
  D.instStart = new Uint32Array(ni + 1);
  const cr = new VarReader(raw.colls);
  const mem = { rank: [], post: [], done: [], flags: [], index: [] };
  for (let k = 0; k < ni; k++) {
    const m = cr.uint();
    for (let j = 0; j < m; j++) {
      mem.rank.push(cr.uint()); mem.post.push(cr.uint()); mem.done.push(cr.uint());
      mem.flags.push(cr.uint()); mem.index.push(cr.int());
    }
    D.instStart[k + 1] = D.instStart[k] + m;
  }
  D.memRank = Int32Array.from(mem.rank); D.memPost = Float64Array.from(mem.post);
  D.memDone = Float64Array.from(mem.done); D.memFlags = Uint8Array.from(mem.flags);
  D.memIndex = Int32Array.from(mem.index);

  // racing receives and their candidate messages (the matched one first)
  const nr = raw.nraces;
  D.nraces = nr;
  D.raceRank = new Int32Array(nr); D.racePost = new Float64Array(nr); D.raceDone = new Float64Array(nr);
  D.candStart = new Uint32Array(nr + 1);
  const cands = [];
  const rr = new VarReader(raw.races);
  for (let k = 0; k < nr; k++) {
    D.raceRank[k] = rr.uint(); D.racePost[k] = rr.uint(); D.raceDone[k] = rr.uint();
    const c = rr.uint();
    for (let j = 0; j < c; j++) cands.push(rr.uint());
    D.candStart[k + 1] = D.candStart[k] + c;
  }
  D.cands = Uint32Array.from(cands);
  return D;
}
