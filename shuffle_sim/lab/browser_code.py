"""The few JavaScript callbacks the lab needs in the browser (Bokeh ``CustomJS`` bodies).

Everything else runs on the server in Python; these only do what a round trip cannot do well:

* ``ANIMATE``: play a shot's samples in real time (times a speed-up) with ``requestAnimationFrame``,
  interpolating linearly between the kernel's samples (60 per simulated second) and revealing each
  event mark at its instant; the last frame is the exact rest state.
* ``DRAG_PROBE``: while a disc is dragged, the drawing tool changes its position in the browser
  only; this sends the dragged position to the server (a one-row source), which judges it live.
* ``DOWNLOAD``: save the board or scene JSON the server keeps up to date, as a file.
* ``TIMESTAMP``: note when a server result reaches the page (``window.lab*Received``), so latency
  can be measured from the browser.
"""

ANIMATE = """
const d = anim.data;
const t = d.t;
const T = t == null ? 0 : t.length;
window.labShotReceived = performance.now();
if (T == 0) { return; }
const n = d.n[0];
const colours = d.colour.slice(0, n);
const speedup = parseFloat(speed.value) || 1.0;
const tend = t[T - 1];
const dt = T > 1 ? tend / (T - 1) : 1.0;
const marks_t = marks.data.t;
board.visible = false;
labels.visible = false;
moving.visible = true;
const token = (window.labAnimationToken = (window.labAnimationToken || 0) + 1);
const began = performance.now();
function at(k, f, i, key) {
  const a = d[key + i][k];
  const b = d[key + i][Math.min(k + 1, T - 1)];
  if (!isFinite(a) || !isFinite(b)) { return f < 0.5 || !isFinite(b) ? a : b; }
  return a + f * (b - a);
}
function step(now) {
  if (token != window.labAnimationToken) { return; }
  const ts = (now - began) / 1000.0 * speedup;
  const done = ts >= tend;
  const pos = Math.min(ts, tend) / dt;
  const k = done ? T - 1 : Math.min(Math.floor(pos), T - 1);
  const f = done ? 0.0 : pos - k;
  const xs = [], ys = [];
  for (let i = 0; i < n; i++) { xs.push(at(k, f, i, "x")); ys.push(at(k, f, i, "y")); }
  moving.data_source.setv({data: {x: xs, y: ys, colour: colours}}, {sync: false});
  const alpha = [];
  for (let m = 0; m < marks_t.length; m++) { alpha.push(marks_t[m] <= ts ? 1.0 : 0.0); }
  marks.data.alpha = alpha;
  marks.change.emit();
  if (done) {
    moving.visible = false;
    board.visible = true;
    labels.visible = true;
    window.labAnimationsDone = (window.labAnimationsDone || 0) + 1;
    window.labLastRest = {x: xs, y: ys};
    return;
  }
  requestAnimationFrame(step);
}
requestAnimationFrame(step);
"""

DRAG_PROBE = """
const sel = source.selected.indices;
if (sel.length != 1) { return; }
const i = sel[0];
const x = source.data.x[i], y = source.data.y[i];
if (x == null || y == null) { return; }
const last = window.labProbeLast;
if (last && last[0] == i && last[1] == x && last[2] == y) { return; }
window.labProbeLast = [i, x, y];
probe.data = {i: [i], x: [x], y: [y]};
"""

DOWNLOAD = """
const text = files.data[key][0];
if (!text) { message.text = files.data[key + "_why"][0]; return; }
const blob = new Blob([text], {type: "application/json"});
const link = document.createElement("a");
link.href = URL.createObjectURL(blob);
link.download = filename;
document.body.appendChild(link);
link.click();
link.remove();
"""

TIMESTAMP = """
window[name] = performance.now();
"""
