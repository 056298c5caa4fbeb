// live.js: the page of a replay session (`mpirr replay DIR [--stop R:E] --ui`, src/cli/replayui/):
// the session panel (the `where` table with each held rank's source line, step and stack (`bt R`)
// per rank, continue, undo, merged stacks (`stacks`), quit, print R EXPR), "stop here" on a
// selected call, and the stopline drawn on the diagram. Every action is one session command POSTed to /api/command,
// run by the same code as a line typed at mpirr's prompt; GET /api/state?wait=1 answers once
// the ranks stand still. The token comes from the page's address and goes in a header.
'use strict';

const LIVE = { token: '', state: null, busy: null, ended: false, lastOutput: '', lastPrint: '', commands: 0, drawn: 0 };

async function liveApi(path, body) {
  const r = await fetch(path, {
    method: body ? 'POST' : 'GET', cache: 'no-store', body: body ? JSON.stringify(body) : undefined,
    headers: { 'X-Mpirr-Token': LIVE.token, 'Content-Type': 'application/json' },
  });
  const text = await r.text();
  if (!r.ok) throw new Error(text.trim() || 'HTTP ' + r.status);
  return JSON.parse(text);
}

function liveLog(text) {
  const pre = document.getElementById('live-output');
  pre.textContent += text.endsWith('\n') ? text : text + '\n';
  pre.scrollTop = pre.scrollHeight;
}

function liveStatus(text) { document.getElementById('live-status').textContent = text; }

function liveEnded(why) {
  LIVE.ended = true;
  liveStatus('the replay has ended');
  liveLog(why);
  for (const b of document.querySelectorAll('#live button')) b.disabled = true;
}

// Runs one session command; resolves with its output once the ranks stand still again.
function liveCommand(cmd) {
  if (LIVE.busy || LIVE.ended) return Promise.resolve(null);
  liveStatus('running: ' + cmd);
  LIVE.busy = (async () => {
    try {
      const res = await liveApi('/api/command', { cmd });
      LIVE.lastOutput = res.output;
      liveLog('(mpirr) ' + cmd + '\n' + res.output);
      if (res.quit) { liveEnded('the session was ended'); return res.output; }
      await liveRefresh(res.running);
      return res.output;
    } catch (e) {
      liveLog('mpirr: ' + e.message);
      return null;
    } finally {
      LIVE.busy = null;
      LIVE.commands++;
    }
  })();
  return LIVE.busy;
}

async function liveRefresh(wait) {
  try {
    LIVE.state = await liveApi('/api/state' + (wait ? '?wait=1' : ''));
  } catch (e) {
    liveEnded('mpirr: the session is gone (' + e.message + ')');
    return;
  }
  renderLive(LIVE.state);
  requestDraw();
}

function button(text, onclick, cls) {
  const b = el('button', text, cls);
  b.type = 'button';
  b.addEventListener('click', onclick);
  return b;
}

function renderLive(st) {
  liveStatus(st.running ? 'running to the stopline' : 'ranks held');
  document.getElementById('live-stopline').textContent = 'stopline: ' + st.stopline;
  const t = document.getElementById('live-where');
  t.replaceChildren();
  for (const r of st.ranks) {
    const tr = el('tr');
    tr.dataset.rank = r.rank;
    tr.dataset.state = r.state;
    tr.dataset.event = r.event;
    const step = button('step', () => liveCommand('step ' + r.rank), 'step');
    step.disabled = r.state !== 'held';
    const stack = button('stack', () => liveCommand('bt ' + r.rank), 'stack');
    stack.disabled = r.state === 'ended' || r.state === 'starting';
    const where = el('td', r.where);
    if (r.source !== undefined) where.append(el('div', r.line + '  ' + r.source.trim(), 'src'));
    tr.append(el('td', 'rank ' + r.rank), el('td', r.state, 'state-' + r.state),
      el('td', (r.after ? 'after ' : 'before ') + r.event), where, el('td'));
    tr.lastChild.append(step, stack);
    t.append(tr);
  }
}

// The session's `stacks`: every held or blocked rank's stack merged into one tree (the
// session's kept gdbs, as typed at the prompt), shown as the command prints it. Resolves with
// the tree's lines that name ranks (0 if the command failed).
async function mergedStacks() {
  const out = await liveCommand('stacks');
  const tree = document.getElementById('live-stacks-out');
  tree.textContent = out || '';
  tree.hidden = !out;
  return (out || '').split('\n').filter((l) => /^ *[0-9][0-9,-]*  \S/.test(l) && !l.endsWith('(running or ended: no stack)')).length;
}

// The session's `print R EXPR` on rank R (its kept gdb, in its application frame): the value
// of its `rank R  EXPR = VALUE` line, else the command's output (an error, a refusal).
async function livePrint(rank, expr) {
  expr = expr.trim();
  if (!expr) {
    liveLog('mpirr: print: which expression?');
    return null;
  }
  const out = await liveCommand('print ' + String(rank).trim() + ' ' + expr);
  const head = 'rank ' + String(rank).trim() + '  ' + expr + ' = ';
  const line = (out || '').split('\n').find((l) => l.startsWith(head));
  LIVE.lastPrint = line ? line.slice(head.length) : (out || '').trim();
  return LIVE.lastPrint;
}

// "stop here" in the details of a selected call: run to a stopline just before it.
function liveStopButton(q, ev) {
  const b = button('stop here (continue ' + q + ':' + ev + ')', () => liveCommand('continue ' + q + ':' + ev));
  b.id = 'stop-here';
  b.disabled = LIVE.ended;
  return b;
}

// The stopline: where each rank stands (before or after its event), an orange cut across the lanes.
function drawStopline(ctx, L) {
  const st = LIVE.state, D = V.D;
  LIVE.drawn = 0;
  if (!st || st.running) return;
  ctx.beginPath();
  for (const r of st.ranks) {
    const R = D.ranks[r.rank], i = R ? evIndex(R, r.event) : -1;
    if (i < 0) continue;
    LIVE.drawn++;
    const x = r.after ? X(endOf(r.rank)[i]) + 1 : X(beginOf(r.rank)[i]) - 1;
    ctx.lineTo(x, laneTop(r.rank));
    ctx.lineTo(x, laneTop(r.rank) + L.h);
  }
  ctx.lineWidth = 3;
  ctx.setLineDash([6, 3]);
  ctx.strokeStyle = '#ff7a00';
  ctx.stroke();
  ctx.setLineDash([]);
}

function startLive() {
  LIVE.token = new URLSearchParams(location.search).get('token') || '';
  document.getElementById('live').hidden = false;
  document.querySelector('#bar strong').textContent = 'mpirr replay';
  V.liveDraw = drawStopline;
  document.getElementById('live-continue').addEventListener('click', () => liveCommand('continue'));
  document.getElementById('live-undo').addEventListener('click', () => liveCommand('undo'));
  document.getElementById('live-stacks').addEventListener('click', () => mergedStacks());
  document.getElementById('live-quit').addEventListener('click', () => liveCommand('quit'));
  const print = () => livePrint(document.getElementById('print-rank').value, document.getElementById('print-expr').value);
  document.getElementById('print-go').addEventListener('click', print);
  document.getElementById('print-expr').addEventListener('keydown', (e) => { if (e.key === 'Enter') print(); });
  resize();
  liveStatus('waiting for the ranks');
  LIVE.busy = liveRefresh(true).finally(() => { LIVE.busy = null; });
  mpirrView.live = {
    get state() { return LIVE.state; },
    get lastOutput() { return LIVE.lastOutput; },
    get lastPrint() { return LIVE.lastPrint; },
    get ended() { return LIVE.ended; },
    get stoplineDrawn() { return LIVE.drawn; }, // ranks the last frame drew the stopline across
    settled() { return LIVE.busy || Promise.resolve(null); },
    mergedStacks,
  };
}
