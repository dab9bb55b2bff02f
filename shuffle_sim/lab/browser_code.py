"""The few JavaScript callbacks the lab needs in the browser (Bokeh ``CustomJS`` bodies).

Everything else runs on the server in Python; these only do what a round trip cannot do well:

* ``GESTURES``: the court's pointer and keys. Bokeh's own gestures lose clicks (a second click
  within 300 ms is a "double tap", a press held 300 ms before moving is a "press", not a drag), so
  the lab reads the pointer itself: every press inside the court's frame is one gesture, told to
  the server as one row of the ``gesture`` source (``kind``: place, select, move, probe, aim,
  empty, delete, shot_done, skip). In the place and move modes a press on a disc selects and drags
  it (the disc follows the pointer at once; its live value comes from the server, ``probe``), a
  press elsewhere pans the view, or, released where it was pressed, places a disc (place) or says
  what the mode does (move); in the aim mode a press puts the arrow's tip there and drags it.
  Delete and Backspace delete the selected disc, Escape drops the selection, while the court was
  the last thing pressed. A press during a shot's animation ends it at once.
* ``ANIMATE``: play a shot's samples in real time (times a speed-up) with ``requestAnimationFrame``,
  interpolating linearly between the kernel's samples (60 per simulated second) and revealing each
  event mark at its instant; the view follows the moving discs and at the end comes back to where it
  was, or as near as shows the discs the shot moved where they rest (a short shot, a drift); the last
  frame is the exact rest state. The server waits for ``shot_done`` before it
  shows the board, the score and what the rules did; an empty payload stops the animation (undo,
  clear).
* ``DOWNLOAD``: save a board or scene JSON the server has checked it can read back, as a file.
* ``TIMESTAMP``: note when a server result reaches the page (``window.lab*Received``), so latency
  can be measured from the browser.
"""

#: Shared by the callbacks: the lab's page state (``window.shuffleLab``) and a source's column.
_PRELUDE = """
const lab = window.shuffleLab || (window.shuffleLab = {seq: 0, token: 0, playing: false});
const col = (data, key) => (data instanceof Map ? data.get(key) : data[key]);
"""

GESTURES = (
    _PRELUDE
    + """
// The anchor may have left the document before the page was ready (a waiting page replaced by
// the lab as the page loads): then the page's own document is the one the server session feeds.
lab.doc = anchor.document || lab.doc || Bokeh.documents[Bokeh.documents.length - 1] || null;
if (lab.installed) { return; }
lab.installed = true;
const MOVE_PX = 4;          // a press that moves less than this is a click
const THROTTLE_MS = 40;     // live updates (drag probe, aim) at most this often
lab.model = (name) => {
  const roots = typeof lab.doc.roots === 'function' ? lab.doc.roots() : lab.doc.roots;
  for (const root of roots) {
    if (root.name === name) { return root; }
    for (const m of root.references()) { if (m.name === name) { return m; } }
  }
  return null;
};
lab.send = (kind, f) => {
  if (lab.m == null) { return; }
  lab.seq += 1;
  lab.m.gesture.data = {kind: [kind], i: [f.i == null ? -1 : f.i], x: [f.x || 0.0], y: [f.y || 0.0],
                        x0: [f.x0 || 0.0], y0: [f.y0 || 0.0], seq: [lab.seq]};
};
const last = {};
const throttled = (kind, f) => {
  const now = performance.now();
  if (last[kind] != null && now - last[kind] < THROTTLE_MS) { return; }
  last[kind] = now;
  lab.send(kind, f);
};
const mode = () => ['place', 'move', 'aim'][lab.m.mode.active] || 'place';
function at(ev) {
  const view = lab.view;
  const box = view.canvas_view.el.getBoundingClientRect();
  const sx = ev.clientX - box.left, sy = ev.clientY - box.top;
  const b = view.frame.bbox;
  return {sx, sy, x: view.frame.x_scale.invert(sx), y: view.frame.y_scale.invert(sy),
          inside: sx >= b.left && sx <= b.right && sy >= b.top && sy <= b.bottom};
}
function pixel() {
  const b = lab.view.frame.bbox;
  return (lab.plot.x_range.end - lab.plot.x_range.start) / b.width;
}
function hit(p) {
  const d = lab.m.discs.data, xs = col(d, 'x'), ys = col(d, 'y');
  const reach = Math.max(lab.plot.tags[0], 6 * pixel());
  let best = -1, nearest = Infinity;
  for (let i = 0; i < xs.length; i++) {
    const dist = Math.hypot(xs[i] - p.x, ys[i] - p.y);
    if (dist <= reach && dist < nearest) { best = i; nearest = dist; }
  }
  return best;
}
function claim(ev) {
  ev.stopImmediatePropagation();
  ev.preventDefault();
  if (ev.type === 'pointerdown') { lab.el.setPointerCapture(ev.pointerId); }
}
function moveDisc(i, x, y) {
  const d = lab.m.discs.data, l = lab.m.labels.data;
  col(d, 'x')[i] = x; col(d, 'y')[i] = y;
  lab.m.discs.change.emit();
  if (col(l, 'x') != null && i < col(l, 'x').length) {
    col(l, 'x')[i] = x; col(l, 'y')[i] = y;
    lab.m.labels.change.emit();
  }
}
function aimTo(p, final) {
  const tip = lab.m.tip, line = lab.m.aim_line;
  tip.setv({data: {x: [p.x], y: [p.y]}}, {sync: false});
  const ld = line.data;
  if (col(ld, 'x0') != null && col(ld, 'x0').length) {
    line.setv({data: {x0: [col(ld, 'x0')[0]], y0: [col(ld, 'y0')[0]], x1: [p.x], y1: [p.y]}}, {sync: false});
  }
  if (final) { lab.send('aim', {x: p.x, y: p.y}); } else { throttled('aim', {x: p.x, y: p.y}); }
}
function down(ev) {
  if (ev.button !== 0 || lab.m == null) { return; }
  const p = at(ev);
  lab.courtFocus = p.inside;
  if (!p.inside) { return; }
  claim(ev);
  if (lab.playing && lab.finish) { lab.finish(true); return; }
  if (mode() === 'aim') {
    lab.drag = {id: ev.pointerId, kind: 'aim'};
    aimTo(p, false);
    return;
  }
  const i = hit(p);
  const xr = lab.plot.x_range, yr = lab.plot.y_range;
  if (i >= 0) {
    const d = lab.m.discs.data, x0 = col(d, 'x')[i], y0 = col(d, 'y')[i];
    lab.drag = {id: ev.pointerId, kind: 'disc', i, x0, y0, dx: x0 - p.x, dy: y0 - p.y, sx: p.sx, sy: p.sy,
                moved: false};
  } else {
    lab.drag = {id: ev.pointerId, kind: 'empty', x: p.x, y: p.y, sx: p.sx, sy: p.sy, moved: false,
                xr: [xr.start, xr.end], yr: [yr.start, yr.end], px: pixel()};
  }
}
function move(ev) {
  const g = lab.drag;
  if (g == null || g.id !== ev.pointerId) { return; }
  claim(ev);
  const p = at(ev);
  if (!g.moved && g.sx != null && Math.hypot(p.sx - g.sx, p.sy - g.sy) > MOVE_PX) { g.moved = true; }
  if (g.kind === 'aim') {
    aimTo(p, false);
  } else if (g.kind === 'disc' && g.moved) {
    moveDisc(g.i, p.x + g.dx, p.y + g.dy);
    throttled('probe', {i: g.i, x: p.x + g.dx, y: p.y + g.dy, x0: g.x0, y0: g.y0});
  } else if (g.kind === 'empty' && g.moved) {
    const dx = (p.sx - g.sx) * g.px, dy = (p.sy - g.sy) * g.px;
    lab.plot.x_range.setv({start: g.xr[0] - dx, end: g.xr[1] - dx});
    lab.plot.y_range.setv({start: g.yr[0] + dy, end: g.yr[1] + dy});
  }
}
function up(ev) {
  const g = lab.drag;
  if (g == null || g.id !== ev.pointerId) { return; }
  claim(ev);
  lab.drag = null;
  if (lab.el.hasPointerCapture(ev.pointerId)) { lab.el.releasePointerCapture(ev.pointerId); }
  const p = at(ev);
  if (g.kind === 'aim') {
    aimTo(p, true);
  } else if (g.kind === 'disc') {
    if (g.moved) {
      lab.send('move', {i: g.i, x: p.x + g.dx, y: p.y + g.dy, x0: g.x0, y0: g.y0});
    } else {
      lab.send('select', {i: g.i, x0: g.x0, y0: g.y0});
    }
  } else if (!g.moved) {
    lab.send(mode() === 'place' ? 'place' : 'empty', {x: g.x, y: g.y});
  }
}
function cancel(ev) {
  const g = lab.drag;
  if (g == null || g.id !== ev.pointerId) { return; }
  lab.drag = null;
  if (g.kind === 'disc' && g.moved) { lab.send('move', {i: g.i, x: g.x0, y: g.y0, x0: g.x0, y0: g.y0}); }
}
function key(ev) {
  if (!['Delete', 'Backspace', 'Escape'].includes(ev.key) || lab.m == null || !lab.courtFocus) { return; }
  const target = ev.composedPath()[0];
  if (target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable)) { return; }
  ev.preventDefault();
  if (lab.playing && lab.finish) { lab.finish(true); }
  const sel = lab.m.discs.selected.indices;
  if (ev.key === 'Escape') { lab.send('select', {i: -1}); return; }
  if (sel.length === 0) { lab.send('delete', {i: -1}); return; }
  const d = lab.m.discs.data, i = sel[0];
  lab.send('delete', {i, x0: col(d, 'x')[i], y0: col(d, 'y')[i]});
}
lab.hook = () => {
  if (lab.doc == null) { lab.doc = Bokeh.documents[Bokeh.documents.length - 1] || null; }
  if (lab.doc == null) { return; }
  const plot = lab.model('court');
  if (plot == null) { return; }
  const view = Bokeh.index.find_one(plot);
  if (view == null || view === lab.view) { return; }
  const m = {};
  for (const r of plot.references()) { if (r.name) { m[r.name] = r; } }
  for (const name of ['gesture', 'mode']) { m[name] = lab.model(name); }
  if (m.gesture == null || m.mode == null) { return; }
  lab.view = view; lab.plot = plot; lab.m = m; lab.drag = null;
  lab.el = view.canvas_view.events_el;
  for (const [type, fn] of [['pointerdown', down], ['pointermove', move], ['pointerup', up],
                            ['pointercancel', cancel]]) {
    lab.el.addEventListener(type, fn, {capture: true});
  }
  window.labHooked = (window.labHooked || 0) + 1;
};
setInterval(lab.hook, 200);
lab.hook();
document.addEventListener('keydown', key, true);
// A press anywhere else takes the keys away from the court (the court's own press gives them back).
document.addEventListener('pointerdown', () => { lab.courtFocus = false; }, true);
"""
)

ANIMATE = (
    _PRELUDE
    + """
const d = anim.data;
const t = col(d, 't');
const T = t == null ? 0 : t.length;
window.labShotReceived = performance.now();
lab.token += 1;
const token = lab.token;
const xr = plot.x_range, yr = plot.y_range;
function rest(view) {
  for (const r of [board, labels, numbers, ghosts]) { r.setv({visible: true}, {sync: false}); }
  moving.setv({visible: false}, {sync: false});
  view = view || lab.home;
  if (view != null) {
    xr.setv({start: view[0], end: view[1]}, {sync: false});
    yr.setv({start: view[2], end: view[3]}, {sync: false});
  }
  lab.home = null;
  lab.playing = false;
  lab.finish = null;
}
if (T == 0) { rest(); return; }
const id = col(d, 'id')[0];
const n = col(d, 'n')[0];
const colours = Array.from(col(d, 'colour')).slice(0, n);
const speedup = parseFloat(speed.value) || 1.0;
const tend = t[T - 1];
const dt = T > 1 ? tend / (T - 1) : 1.0;
const marks_t = col(marks.data, 't');
const series = [];
for (let i = 0; i < n; i++) { series.push([col(d, 'x' + i), col(d, 'y' + i)]); }
for (const r of [board, labels, numbers, ghosts]) { r.setv({visible: false}, {sync: false}); }
moving.setv({visible: true}, {sync: false});
lab.home = lab.home || [xr.start, xr.end, yr.start, yr.end];
lab.playing = true;
const began = performance.now();
let previous = null;
function at(k, f, a) {
  const u = a[k], v = a[Math.min(k + 1, T - 1)];
  if (!isFinite(u) || !isFinite(v)) { return f < 0.5 || !isFinite(v) ? u : v; }
  return u + f * (v - u);
}
function show(ts, done) {
  const pos = Math.min(ts, tend) / dt;
  const k = done ? T - 1 : Math.min(Math.floor(pos), T - 1);
  const f = done ? 0.0 : pos - k;
  const xs = [], ys = [];
  for (let i = 0; i < n; i++) { xs.push(at(k, f, series[i][0])); ys.push(at(k, f, series[i][1])); }
  moving.data_source.setv({data: {x: xs, y: ys, colour: colours}}, {sync: false});
  const alpha = col(marks.data, 'alpha');
  for (let m = 0; m < marks_t.length; m++) { alpha[m] = done || marks_t[m] <= ts ? 1.0 : 0.0; }
  marks.change.emit();
  if (!done) { follow(xs, ys); }
  previous = [xs, ys];
  return [xs, ys];
}
function follow(xs, ys) {
  // keep the fastest-moving disc inside the middle of the view, the view's size unchanged
  if (previous == null) { return; }
  let lead = -1, far = 0.0;
  for (let i = 0; i < n; i++) {
    const step = Math.hypot(xs[i] - previous[0][i], ys[i] - previous[1][i]);
    if (isFinite(step) && step > far) { far = step; lead = i; }
  }
  if (lead < 0) { return; }
  for (const [r, v, lo, hi] of [[xr, xs[lead], extent[0], extent[2]], [yr, ys[lead], extent[1], extent[3]]]) {
    const w = r.end - r.start, margin = 0.2 * w;
    let shift = 0.0;
    if (v < r.start + margin) { shift = v - (r.start + margin); }
    if (v > r.end - margin) { shift = v - (r.end - margin); }
    if (shift === 0.0) { continue; }
    let start = Math.max(Math.min(r.start + shift, hi - w), lo);
    r.setv({start: start, end: start + w}, {sync: false});
  }
}
function shift(lo, hi, a, b, margin, min, max) {
  // how far to move [lo, hi] (keeping its size) so that [a, b] lies inside it, margins kept, and
  // within [min, max] where it is narrower than that
  let move = 0.0;
  if (a < lo + margin) { move = a - (lo + margin); }
  if (b > hi - margin) { move = b - (hi - margin); }
  if (move === 0.0 || hi - lo >= max - min) { return move; }
  return Math.max(Math.min(lo + move, max - (hi - lo)), min) - lo;
}
function endView(xs, ys) {
  // The view the discs come to rest in: where it was before the shot, unless a disc the shot moved
  // rests outside it (a short shot, a drift on a sloped table); then the same size moved as little
  // as it takes to show them, the shot disc first, then each other moved disc that fits with it.
  const home = lab.home;
  if (home == null) { return null; }
  const w = home[1] - home[0], h = home[3] - home[2], mx = 0.08 * w, my = 0.08 * h;
  let box = null;
  for (let i = n - 1; i >= 0; i--) {
    const x0 = series[i][0][0], y0 = series[i][1][0];
    if (!isFinite(xs[i]) || !isFinite(ys[i]) || Math.hypot(xs[i] - x0, ys[i] - y0) === 0.0) { continue; }
    const grown = box == null ? [xs[i], xs[i], ys[i], ys[i]]
      : [Math.min(box[0], xs[i]), Math.max(box[1], xs[i]), Math.min(box[2], ys[i]), Math.max(box[3], ys[i])];
    if (box == null || (grown[1] - grown[0] <= w - 2 * mx && grown[3] - grown[2] <= h - 2 * my)) { box = grown; }
  }
  if (box == null) { return home; }
  const dx = shift(home[0], home[1], box[0], box[1], mx, extent[0], extent[2]);
  const dy = shift(home[2], home[3], box[2], box[3], my, extent[1], extent[3]);
  return [home[0] + dx, home[1] + dx, home[2] + dy, home[3] + dy];
}
lab.finish = (skipped) => {
  if (token != lab.token) { return; }
  lab.token += 1;
  const [xs, ys] = show(tend, true);
  rest(endView(xs, ys));
  window.labAnimationsDone = (window.labAnimationsDone || 0) + 1;
  window.labLastRest = {x: xs, y: ys};
  lab.send(skipped ? 'skip' : 'shot_done', {i: id});
};
function step(now) {
  if (token != lab.token) { return; }
  if (window.labFirstFrameAt == null) { window.labFirstFrameAt = performance.now(); }
  const ts = (now - began) / 1000.0 * speedup;
  if (ts >= tend) { lab.finish(false); return; }
  show(ts, false);
  requestAnimationFrame(step);
}
requestAnimationFrame(step);
"""
)

DOWNLOAD = (
    _PRELUDE
    + """
const text = col(download.data, 'text')[0];
const filename = col(download.data, 'name')[0];
if (!text) { return; }
const blob = new Blob([text], {type: "application/json"});
const link = document.createElement("a");
link.href = URL.createObjectURL(blob);
link.download = filename;
document.body.appendChild(link);
link.click();
link.remove();
"""
)

TIMESTAMP = """
window[name] = performance.now();
"""
