// render.js: draws the space-time diagram on one canvas: ranks as lanes, calls as boxes
// coloured by kind, collectives as bands across their members, matched messages as arrows,
// racing receives outlined with their candidate messages dashed, search matches, the
// selected event and its past and future frontiers, and the time axis. Only what is in view
// is visited; where several calls share a pixel column they become one column in the colour
// of the kind most of them have, and past ARROW_CAP visible arrows the arrows are bundled
// per pixel pair, so a frame costs O(visible events + messages), never a DOM node each.
'use strict';

const COLORS = ['#2f7ed8', '#2ca25f', '#f0a830', '#8e6cc0', '#9a9a9a'];
const ARROW_CAP = 4000, CAND_CAP = 400, BAND_CAP = 200, LEFT = 70, TOP = 24;

const V = {
  D: null, canvas: null, ctx: null, W: 0, H: 0, dpr: 1, t0: 0, scale: 1, logical: false,
  sel: null, front: null, match: null, counts: {}, frameTimes: [],
  firstFrameMs: null, drawPending: false, agg: null, bundle: null, buf: null,
};

// the lanes share the window's height (at least 3 px each: many ranks scroll off instead)
function lanes() {
  const N = V.D.nranks;
  const h = Math.max(3, (V.H - TOP - 6) / N);
  return { h, box: Math.max(2, Math.round(h * 0.66)) };
}
function laneTop(q) { return TOP + 2 + q * lanes().h; }
function laneMid(q) { const L = lanes(); return TOP + 2 + q * L.h + L.h / 2; }
function X(t) { return LEFT + (t - V.t0) * V.scale; }
function T(x) { return V.t0 + (x - LEFT) / V.scale; }
function beginOf(q) { return V.logical ? computeLamport(V.D).begin[q] : V.D.ranks[q].start; }
function endOf(q) { return V.logical ? computeLamport(V.D).end[q] : V.D.ranks[q].end; }

// first position whose end is >= t (ends never decrease along a rank)
function firstEnding(e, n, t) {
  let lo = 0, hi = n;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (e[mid] < t) lo = mid + 1; else hi = mid; }
  return lo;
}

function timeSpan() {
  let lo = Infinity, hi = -Infinity;
  for (let q = 0; q < V.D.nranks; q++) {
    const n = V.D.ranks[q].n;
    if (!n) continue;
    lo = Math.min(lo, beginOf(q)[0]);
    hi = Math.max(hi, endOf(q)[n - 1]);
  }
  if (lo === Infinity) { lo = 0; hi = 1; }
  return { lo, hi: Math.max(hi, lo + 1) };
}

function fit() {
  const s = timeSpan();
  V.scale = (V.W - LEFT - 16) / (s.hi - s.lo);
  V.t0 = s.lo - 4 / V.scale;
}

// The communication: from the first send, receive, wait or collective after MPI_Init to the
// last before MPI_Finalize, over all ranks (MPI_Init often takes most of a short run); null if
// there is none. Kind classes as in view_write.c: 0-3 communicate, 4 other.
function commSpan() {
  let lo = Infinity, hi = -Infinity;
  const D = V.D;
  for (let q = 0; q < D.nranks; q++) {
    const R = D.ranks[q], b = beginOf(q), e = endOf(q), comm = (i) => D.shapeKind[R.shape[i]] < 4;
    let i = 0, j = R.n - 1;
    while (i < R.n && !comm(i)) i++;
    while (j > i && !comm(j)) j--;
    if (i < R.n) { lo = Math.min(lo, b[i]); hi = Math.max(hi, e[j]); }
  }
  return lo === Infinity ? null : { lo, hi: Math.max(hi, lo + 1) };
}

// The first view: the communication with a margin of a twentieth on each side, else all.
function fitCommunication() {
  fit();
  const c = commSpan(), s = timeSpan();
  if (!c || c.hi - c.lo >= 0.9 * (s.hi - s.lo)) return;
  const pad = (c.hi - c.lo) / 20;
  V.scale = (V.W - LEFT - 16) / (c.hi - c.lo + 2 * pad);
  V.t0 = c.lo - pad;
}

function resize() {
  const r = V.canvas.parentElement.getBoundingClientRect();
  V.dpr = window.devicePixelRatio || 1;
  V.W = Math.max(200, Math.floor(r.width));
  V.H = Math.max(120, Math.floor(r.height));
  V.canvas.width = V.W * V.dpr;
  V.canvas.height = V.H * V.dpr;
  V.canvas.style.width = V.W + 'px';
  V.canvas.style.height = V.H + 'px';
  V.agg = new Uint32Array((V.W + 2) * 5);
}

function requestDraw() {
  if (V.drawPending) return;
  V.drawPending = true;
  requestAnimationFrame(() => { V.drawPending = false; draw(); });
}

// The lanes and their calls are written as pixels into one ImageData (a path of thousands of
// rectangles costs the rasteriser far more than the same pixels set from JavaScript).
const PIX = COLORS.map((c) => 0xff000000 | (parseInt(c.slice(5, 7), 16) << 16) | (parseInt(c.slice(3, 5), 16) << 8) | parseInt(c.slice(1, 3), 16));
const LANE_PIX = [0xfffcfbfb, 0xfff7f5f4];

function drawBoxes(ctx, L) {
  const D = V.D, t1 = T(V.W), agg = V.agg, dpr = V.dpr, pw = V.canvas.width, ph = V.canvas.height;
  if (!V.img || V.img.width !== pw || V.img.height !== ph) {
    V.img = ctx.createImageData(pw, ph);
    V.pix = new Uint32Array(V.img.data.buffer);
  }
  const pix = V.pix;
  pix.fill(0xffffffff);
  let boxes = 0, columns = 0, visible = 0;
  const span = (x0, x1, y0, y1, v) => {
    const a = Math.max(0, Math.round(x0 * dpr)), z = Math.min(pw, Math.round(x1 * dpr));
    const ya = Math.max(0, Math.round(y0 * dpr)), yz = Math.min(ph, Math.round(y1 * dpr));
    for (let y = ya; y < yz; y++) pix.fill(v, y * pw + a, y * pw + Math.max(a, z));
  };
  for (let q = 0; q < D.nranks; q++) {
    const R = D.ranks[q], b = beginOf(q), e = endOf(q), kind = D.shapeKind, sh = R.shape;
    span(LEFT, V.W, laneTop(q), laneTop(q) + L.h, LANE_PIX[q % 2]);
    const y = laneTop(q) + (L.h - L.box) / 2;
    let cmin = V.W, cmax = -1;
    for (let i = firstEnding(e, R.n, V.t0); i < R.n && b[i] <= t1; i++) {
      visible++;
      const x0 = X(b[i]), x1 = X(e[i]), k = kind[sh[i]];
      if (x1 - x0 >= 2) {
        span(Math.max(x0, LEFT), Math.min(x1, V.W), y, y + L.box, PIX[k]);
        boxes++;
      } else {
        const c = Math.max(LEFT, Math.min(V.W, Math.floor(x0)));
        agg[c * 5 + k]++;
        if (c < cmin) cmin = c;
        if (c > cmax) cmax = c;
      }
    }
    for (let c = cmin; c <= cmax; c++) {
      let best = -1, bk = 0;
      for (let k = 0; k < 5; k++) { const v = agg[c * 5 + k]; if (v > best) { best = v; bk = k; } agg[c * 5 + k] = 0; }
      if (best > 0) { span(c, c + 1, y, y + L.box, PIX[bk]); columns++; }
    }
  }
  return { boxes, columns, visible };
}

function drawBands(ctx, L) {
  const D = V.D;
  let drawn = 0;
  const polys = [];
  for (let k = 0; k < D.ninst; k++) {
    const s = D.instStart[k], e = D.instStart[k + 1];
    if (e - s < 2) continue;
    let lo = Infinity, hi = -Infinity;
    const pts = [];
    for (let j = s; j < e; j++) {
      const q = D.memRank[j], pi = D.memPI[j];
      if (pi < 0) continue;
      const di = D.memDI[j] >= 0 ? D.memDI[j] : pi;
      const a = X(beginOf(q)[pi]), z = X(endOf(q)[di]);
      pts.push([q, a, Math.max(z, a + 1)]);
      lo = Math.min(lo, a); hi = Math.max(hi, z);
    }
    if (pts.length < 2 || hi < LEFT || lo > V.W) continue;
    polys.push(pts);
    if (polys.length > BAND_CAP) break;
  }
  if (polys.length > BAND_CAP) {
    // too many to outline: one faint line per pixel column that holds a collective
    ctx.fillStyle = 'rgba(142,108,192,0.10)';
    const seen = new Uint8Array(V.W + 1);
    for (let k = 0; k < D.ninst; k++) {
      const j = D.instStart[k];
      if (D.instStart[k + 1] - j < 2 || D.memPI[j] < 0) continue;
      const c = Math.floor(X(beginOf(D.memRank[j])[D.memPI[j]]));
      if (c < LEFT || c > V.W || seen[c]) continue;
      seen[c] = 1;
      ctx.fillRect(c, TOP, 1, V.H - TOP);
      drawn++;
    }
    return drawn;
  }
  // one path for all: one fill (where bands overlap they do not darken)
  const path = new Path2D(), clip = (x) => Math.max(LEFT - 2, Math.min(V.W + 2, x));
  for (const pts of polys) {
    let first = true;
    for (const [q, a] of pts) {
      const y = laneTop(q) + 1;
      if (first) path.moveTo(clip(a), y); else path.lineTo(clip(a), y);
      path.lineTo(clip(a), y + L.h - 2);
      first = false;
    }
    for (let x = pts.length - 1; x >= 0; x--) { const [q, , z] = pts[x]; const y = laneTop(q) + 1; path.lineTo(clip(z), y + L.h - 2); path.lineTo(clip(z), y); }
    path.closePath();
    drawn++;
  }
  ctx.fillStyle = 'rgba(142,108,192,0.22)';
  ctx.fill(path);
  return drawn;
}

// A line blended into the pixel buffer (bundled arrows: thousands of long antialiased
// canvas lines would cost more than the rest of the frame).
function pixLine(x0, y0, x1, y1) {
  const dpr = V.dpr, pw = V.canvas.width, ph = V.canvas.height, pix = V.pix;
  x0 *= dpr; y0 *= dpr; x1 *= dpr; y1 *= dpr;
  const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
  const lo = LEFT * dpr;
  for (let k = 0; k <= n; k++) {
    const x = Math.round(x0 + (x1 - x0) * k / (n || 1)), y = Math.round(y0 + (y1 - y0) * k / (n || 1));
    if (x < lo || x >= pw || y < 0 || y >= ph) continue;
    const o = y * pw + x, v = pix[o];
    // 60% of the way to dark grey, per channel
    const r = v & 255, g = (v >> 8) & 255, b = (v >> 16) & 255;
    pix[o] = 0xff000000 | ((b * 0.4 + 24) << 16) | ((g * 0.4 + 24) << 8) | (r * 0.4 + 24);
  }
}

function arrowHead(ctx, x0, y0, x1, y1) {
  const a = Math.atan2(y1 - y0, x1 - x0), s = 6;
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - s * Math.cos(a - 0.4), y1 - s * Math.sin(a - 0.4));
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - s * Math.cos(a + 0.4), y1 - s * Math.sin(a + 0.4));
}

// Arrows of messages: the send's begin to the receive's end. Called twice a frame: first
// (pixels) it counts the visible arrows and, past ARROW_CAP, blends them bundled into the
// pixel buffer; then (!pixels) it strokes them on the canvas if they were few enough.
function drawArrows(ctx, pixels) {
  const D = V.D, N = D.nranks, A = D.arrows;
  if (!V.buf || V.buf.length < A.length) V.buf = new Int32Array(A.length);
  const vis = V.buf;
  let nv = 0;
  for (let k = 0; k < A.length; k++) {
    const m = A[k], s = D.msgS[m], r = D.msgR[m];
    const xs = X(beginOf(s)[D.msgSI[m]]), xr = X(endOf(r)[D.msgRI[m]]);
    if ((xs < LEFT && xr < LEFT) || (xs > V.W && xr > V.W)) continue;
    vis[nv++] = m;
  }
  let lines = 0;
  const path = new Path2D();
  if (pixels && nv <= ARROW_CAP) return { drawn: nv, lines: nv, bundled: false };
  if (nv <= ARROW_CAP) {
    for (let k = 0; k < nv; k++) {
      const m = vis[k], s = D.msgS[m], r = D.msgR[m];
      const xs = X(beginOf(s)[D.msgSI[m]]), xr = X(endOf(r)[D.msgRI[m]]);
      const ys = laneMid(s), yr = laneMid(r);
      segment(path, xs, ys, xr, yr);
      if (nv <= 1500 && xr >= LEFT && xr <= V.W) arrowHead(path, xs, ys, xr, yr);
      lines++;
    }
    ctx.strokeStyle = 'rgba(40,40,40,0.75)';
    ctx.lineWidth = 1;
    ctx.stroke(path);
    return { drawn: nv, lines, bundled: false };
  } else {
    // bundled: one line per (sender lane, receiver lane, 4-px column pair): each line costs
    // its length in pixels, and long ones are common where ranks drift apart
    const size = 1 << 17;
    if (!V.bundle) V.bundle = { keys: new Float64Array(size), gen: new Uint32Array(size), g: 0 };
    const B = V.bundle;
    B.g++;
    const cols = Math.ceil(V.W / 4) + 3;
    const col = (x) => Math.max(0, Math.min(cols - 1, Math.floor(x / 4) + 1));
    for (let k = 0; k < nv; k++) {
      const m = vis[k], s = D.msgS[m], r = D.msgR[m];
      const xs = X(beginOf(s)[D.msgSI[m]]), xr = X(endOf(r)[D.msgRI[m]]);
      const key = ((s * N + r) * cols + col(xs)) * cols + col(xr);
      let h = (key * 2654435761) % size;
      let dup = false;
      for (let probe = 0; probe < 64; probe++) {
        if (B.gen[h] !== B.g) { B.gen[h] = B.g; B.keys[h] = key; break; }
        if (B.keys[h] === key) { dup = true; break; }
        h = (h + 1) & (size - 1);
      }
      if (dup) continue;
      const lo = LEFT - 4, hi = V.W + 4;
      let x0 = xs, y0 = laneMid(s), x1 = xr, y1 = laneMid(r);
      if (x0 > x1) [x0, y0, x1, y1] = [x1, y1, x0, y0];
      if (x1 - x0 > 1e-9) {
        if (x0 < lo) { y0 += (y1 - y0) * (lo - x0) / (x1 - x0); x0 = lo; }
        if (x1 > hi) { y1 = y0 + (y1 - y0) * (hi - x0) / (x1 - x0); x1 = hi; }
      }
      pixLine(x0, y0, x1, y1);
      lines++;
    }
    return { drawn: nv, lines, bundled: true };
  }
}

// The part of a line inside the view (a dashed line costs its whole length).
function segment(path, x0, y0, x1, y1) {
  const lo = LEFT - 4, hi = V.W + 4;
  if (x0 > x1) [x0, y0, x1, y1] = [x1, y1, x0, y0];
  if (x1 - x0 > 1e-9) {
    if (x0 < lo) { y0 += (y1 - y0) * (lo - x0) / (x1 - x0); x0 = lo; }
    if (x1 > hi) { y1 = y0 + (y1 - y0) * (hi - x0) / (x1 - x0); x1 = hi; }
  }
  path.moveTo(x0, y0);
  path.lineTo(x1, y1);
}

// Racing receives: outlined; the other messages that could have arrived there, dashed. The
// pixels pass marks receives narrower than 3 px with a red tick above and below (thousands
// of stroked outlines would dominate a coarse frame); the canvas pass does the rest.
function drawRaces(ctx, L, pixels) {
  const D = V.D;
  let racing = 0, dashed = 0;
  const outline = new Path2D(), cand = new Path2D(), marks = V.raceMarks = [];
  for (let k = 0; k < D.nraces; k++) {
    const q = D.raceRank[k], i = D.raceI[k];
    if (i < 0) continue;
    const xb = X(beginOf(q)[i]), xe = X(endOf(q)[i]);
    const y = laneTop(q) + (L.h - L.box) / 2;
    const inView = xe >= LEFT - 2 && xb <= V.W + 2;
    if (inView && xe - xb >= 3) outline.rect(xb - 1.5, y - 1.5, xe - xb + 3, L.box + 3);
    else if (inView) marks.push(q, xb, y);
    if (inView) racing++;
    for (let c = D.candStart[k] + 1; c < D.candStart[k + 1] && dashed < CAND_CAP; c++) {
      const m = D.cands[c], s = D.msgS[m], si = D.msgSI[m];
      if (si < 0) continue;
      const xs = X(beginOf(s)[si]);
      if ((xs < LEFT && xe < LEFT) || (xs > V.W && xe > V.W)) continue;
      segment(cand, xs, laneMid(s), xe, laneMid(q));
      if (xe >= LEFT && xe <= V.W) arrowHead(cand, xs, laneMid(s), xe, laneMid(q));
      dashed++;
    }
  }
  if (pixels) {
    const dpr = V.dpr, pw = V.canvas.width, ph = V.canvas.height, red = 0xff1f30d7;
    for (let k = 0; k < marks.length; k += 3) {
      const x = Math.round(marks[k + 1] * dpr), y0 = Math.round((marks[k + 2] - 3) * dpr), y1 = Math.round((marks[k + 2] + L.box + 1) * dpr);
      if (x < LEFT * dpr || x >= pw - 1) continue;
      for (let y = Math.max(0, y0); y < Math.min(ph, y0 + 2 * dpr); y++) { V.pix[y * pw + x] = red; V.pix[y * pw + x + 1] = red; }
      for (let y = Math.max(0, y1); y < Math.min(ph, y1 + 2 * dpr); y++) { V.pix[y * pw + x] = red; V.pix[y * pw + x + 1] = red; }
    }
    return { racing, dashed };
  }
  ctx.lineWidth = 1.5;
  ctx.setLineDash([5, 4]);
  ctx.strokeStyle = 'rgba(228,87,46,0.9)';
  ctx.stroke(cand);
  ctx.setLineDash([]);
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#d7301f';
  ctx.stroke(outline);
  return { racing, dashed };
}

function drawMatches(ctx, L) {
  const D = V.D, t1 = T(V.W);
  let shown = 0;
  const path = new Path2D();
  for (let q = 0; q < D.nranks; q++) {
    if (V.match.rank >= 0 && q !== V.match.rank) continue;
    if (V.match.rank >= 0 && !V.match.shapes && !V.match.sites) {
      path.rect(LEFT, laneTop(q), V.W - LEFT, L.h);
      shown++;
      continue;
    }
    const R = D.ranks[q], b = beginOf(q), e = endOf(q), y = laneTop(q) + (L.h - L.box) / 2;
    let lastC = -10;
    for (let i = firstEnding(e, R.n, V.t0); i < R.n && b[i] <= t1; i++) {
      if (!matches(q, i)) continue;
      const x0 = X(b[i]), x1 = X(e[i]);
      if (x1 - x0 < 2 && Math.floor(x0) === lastC) continue;
      lastC = Math.floor(x0);
      path.rect(x0 - 1, y - 1, Math.max(2, x1 - x0 + 2), L.box + 2);
      shown++;
    }
  }
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#ffd400';
  ctx.stroke(path);
  return shown;
}

// The selected event, and its frontiers as lines across the lanes (shaded outside).
function drawSelection(ctx, L) {
  if (!V.sel) return;
  const D = V.D, { q, i } = V.sel, f = V.front;
  if (f) {
    const px = [], fx = [];
    for (let r = 0; r < D.nranks; r++) {
      const R = D.ranks[r];
      const pi = f.past[r] ? evIndex(R, f.past[r]) : -1, fi = f.future[r] ? evIndex(R, f.future[r]) : -1;
      px.push(pi >= 0 ? X(endOf(r)[pi]) : (R.n ? X(beginOf(r)[0]) - 3 : LEFT));
      fx.push(fi >= 0 ? X(beginOf(r)[fi]) : (R.n ? X(endOf(r)[R.n - 1]) + 3 : V.W));
    }
    const band = (xs, color, shade, toLeft) => {
      ctx.beginPath();
      for (let r = 0; r < D.nranks; r++) { ctx.lineTo(xs[r], laneTop(r)); ctx.lineTo(xs[r], laneTop(r) + L.h); }
      const edge = toLeft ? LEFT : V.W;
      ctx.lineTo(edge, laneTop(D.nranks - 1) + L.h);
      ctx.lineTo(edge, laneTop(0));
      ctx.closePath();
      ctx.fillStyle = shade;
      ctx.fill();
      ctx.beginPath();
      for (let r = 0; r < D.nranks; r++) { ctx.lineTo(xs[r], laneTop(r)); ctx.lineTo(xs[r], laneTop(r) + L.h); }
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = color;
      ctx.stroke();
    };
    band(px, '#1f5fbf', 'rgba(31,95,191,0.07)', true);
    band(fx, '#c2185b', 'rgba(194,24,91,0.07)', false);
  }
  const x0 = X(beginOf(q)[i]), x1 = X(endOf(q)[i]), y = laneTop(q) + (L.h - L.box) / 2;
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#000';
  ctx.strokeRect(x0 - 2, y - 2, Math.max(4, x1 - x0 + 4), L.box + 4);
}

// A rank whose recording ended in a crash (signal, MPI_Abort, exit without MPI_Finalize): a red
// cross after its last call and the ending in words; a run cut off elsewhere gets it in grey.
function drawEndings(ctx, L) {
  const D = V.D;
  let marks = 0;
  for (let q = 0; q < D.nranks; q++) {
    const R = D.ranks[q], end = R.ending;
    if (!end || !R.n || end.text === 'finalized') continue;
    const k = end.event ? evIndex(R, end.event) : -1, i = k >= 0 ? k : R.n - 1;
    const x = X(end.inCall ? (beginOf(q)[i] + endOf(q)[i]) / 2 : endOf(q)[i]) + 2, y = laneMid(q), r = Math.min(7, L.h / 3);
    if (x < LEFT - r || x > V.W + r) continue;
    ctx.strokeStyle = ctx.fillStyle = end.crash ? '#d7301f' : '#777';
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r);
    ctx.stroke();
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillText(end.text, x + r + 4, y + 4);
    marks++;
  }
  return marks;
}

function niceStep(raw) {
  const p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

function timeLabel(t, step) {
  if (V.logical) return String(Math.round(t));
  const ns = t * V.D.tickNs, sns = step * V.D.tickNs;
  if (sns >= 1e9) return (ns / 1e9).toFixed(sns >= 1e10 ? 0 : 1) + ' s';
  if (sns >= 1e6) return (ns / 1e6).toFixed(Math.max(0, 3 - Math.round(Math.log10(sns / 1e3)))) + ' ms';
  if (sns >= 1e3) return (ns / 1e3).toFixed(Math.max(0, 6 - Math.round(Math.log10(sns)))) + ' µs';
  return ns.toFixed(0) + ' ns';
}

function drawAxis(ctx, L) {
  const D = V.D;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, V.W, TOP);
  ctx.fillRect(0, 0, LEFT, V.H);
  const step = niceStep(90 / V.scale);
  ctx.fillStyle = '#444';
  ctx.strokeStyle = '#ccc';
  ctx.font = '11px sans-serif';
  ctx.textBaseline = 'middle';
  ctx.beginPath();
  for (let t = Math.ceil(T(LEFT) / step) * step; X(t) <= V.W; t += step) {
    const x = Math.round(X(t)) + 0.5;
    ctx.moveTo(x, TOP - 6);
    ctx.lineTo(x, TOP);
    ctx.fillText(timeLabel(t, step), x + 3, TOP / 2 - 2);
  }
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.fillStyle = '#222';
  const every = Math.ceil(12 / L.h);
  for (let q = 0; q < D.nranks; q += every) ctx.fillText('rank ' + q, 6, laneMid(q));
  ctx.fillStyle = '#666';
  ctx.fillText(V.logical ? 'logical time' : 'time', 6, TOP / 2 - 2);
}

function draw() {
  const t = performance.now();
  const ctx = V.ctx, L = lanes();
  ctx.setTransform(V.dpr, 0, 0, V.dpr, 0, 0);
  // each layer's time (flushed, so it counts the rasterising), for tests and tuning
  const lt = {}, lap = (k) => { if (V.profile) { ctx.getImageData(0, 0, 1, 1); const n = performance.now(); lt[k] = n - lap.t; lap.t = n; } };
  lap.t = t;
  // pixel layers first (calls, bundled arrows, racing marks at coarse zoom), then the canvas ones
  const bx = drawBoxes(ctx, L);
  const ar = drawArrows(ctx, true);
  const rc = drawRaces(ctx, L, true);
  ctx.putImageData(V.img, 0, 0);
  lap('boxes');
  const bands = drawBands(ctx, L);
  lap('bands');
  const marked = V.match ? drawMatches(ctx, L) : 0;
  if (!ar.bundled) drawArrows(ctx, false);
  lap('arrows');
  drawRaces(ctx, L, false);
  lap('races');
  drawSelection(ctx, L);
  const endMarks = drawEndings(ctx, L);
  if (V.liveDraw) V.liveDraw(ctx, L);
  drawAxis(ctx, L);
  lap('rest');
  V.layerMs = lt;
  V.counts = { events: V.D.events, visibleEvents: bx.visible, boxes: bx.boxes, columns: bx.columns,
    arrows: V.D.arrows.length, arrowsDrawn: ar.drawn, arrowLines: ar.lines, racing: V.D.nraces,
    racingDrawn: rc.racing, candidateArrowsDrawn: rc.dashed, bands, matchesDrawn: marked, endMarks };
  const ms = performance.now() - t;
  V.frameTimes.push(ms);
  if (V.frameTimes.length > 600) V.frameTimes.shift();
  return ms;
}

// Nearest call to a canvas point within 5 px, or null.
function eventAt(x, y) {
  const D = V.D, L = lanes();
  const q = Math.floor((y - TOP - 2) / L.h);
  if (q < 0 || q >= D.nranks || x < LEFT) return null;
  const R = D.ranks[q], b = beginOf(q), e = endOf(q), t = T(x);
  const i = firstEnding(e, R.n, t);
  // touching calls share their edge: the one whose middle is nearest wins among those hit
  let best = null, bd = 6, bc = Infinity;
  for (let j = Math.max(0, i - 2); j < Math.min(R.n, i + 3); j++) {
    const x0 = X(b[j]), x1 = X(e[j]), c = Math.abs(x - (x0 + x1) / 2);
    const d = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
    if (d < bd || (d === bd && c < bc)) { bd = d; bc = c; best = { q, i: j }; }
  }
  return best;
}
