// SPDX-License-Identifier: BSD-3-Clause
// clink view: the script of the viewer page (python/clink/viz/view.py puts it inside the
// page with the data). No library: canvas 2-D drawing and the DOM only. A run: the
// mechanism at the slider's time (as `clink animate` draws it), linked plots with a
// cursor, the impact log, the summary, the space-time map of a chain's forces. A sweep:
// the table (sort, filter) and a scatter plot coloured by a third column.
// Test hooks (tests/cli/view_*.sh): the URL fragment "#t=T" sets the time, "#impact=K"
// clicks impact row K, "#test" writes a report (errors, time, pixel positions of the
// mechanism and of the cursor, the load time) as JSON into <pre id="clink-test">.
"use strict";
(function () {
  const t0Load = performance.now();
  const errors = [];
  window.addEventListener("error", (e) => errors.push(String(e.message)));
  const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  const D = JSON.parse(document.getElementById("clink-data").textContent);
  const app = document.getElementById("app");
  const hash = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    if (i < 0) hash[decodeURIComponent(part)] = true;
    else hash[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1));
  }

  // ---- small helpers ------------------------------------------------------------------
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  function decode(s, Ctor) {
    const bin = atob(s);
    const u8 = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
    return new Ctor(u8.buffer);
  }
  function fmt(x) {
    if (typeof x !== "number") return String(x);
    if (!isFinite(x)) return String(x);
    const a = Math.abs(x);
    return a !== 0 && (a < 1e-3 || a >= 1e5) ? x.toExponential(4) : String(+x.toPrecision(6));
  }
  function niceTicks(lo, hi, n) {
    if (!(hi > lo)) return [lo];
    const step0 = (hi - lo) / n;
    const p = Math.pow(10, Math.floor(Math.log10(step0)));
    const m = step0 / p;
    const step = (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(v);
    return out;
  }
  function fitCanvas(c, height) {
    const w = c.clientWidth || 600;
    const r = window.devicePixelRatio || 1;
    c.width = Math.round(w * r);
    c.height = Math.round(height * r);
    c.style.height = height + "px";
    const g = c.getContext("2d");
    g.setTransform(r, 0, 0, r, 0, 0);
    return { g, w, h: height };
  }

  if (D.kind === "sweep") { sweepPage(); return; }

  // ---- the run's data -----------------------------------------------------------------
  const T = decode(D.t, Float64Array);
  const COLS = decode(D.columns, Float32Array);
  const N = D.rows;
  const names = D.names;
  const index = {};
  const units = {};
  names.forEach((n, k) => {
    const i = n.indexOf(" [");
    const key = i >= 0 ? n.slice(0, i) : n;
    index[key] = k;
    units[key] = i >= 0 ? n.slice(i + 2, -1) : "";
  });
  // the columns constant over the run come as one number each (view.py)
  const constCols = {};
  for (const [n, v] of Object.entries(D.constants || {})) {
    const i = n.indexOf(" [");
    const key = i >= 0 ? n.slice(0, i) : n;
    units[key] = i >= 0 ? n.slice(i + 2, -1) : "";
    constCols[key] = v;
    names.push(n);
  }
  const constCache = {};
  const col = (key) => {
    if (key in index) return COLS.subarray(index[key] * N, (index[key] + 1) * N);
    if (key in constCols) return constCache[key] || (constCache[key] = new Float32Array(N).fill(constCols[key]));
    return null;
  };
  const summary = D.summary || {};
  const scene = D.scene || {};
  const t0 = T[0], t1 = T[N - 1];
  function rowAt(t) { // the last row with T <= t
    let lo = 0, hi = N - 1;
    if (t <= T[0]) return 0;
    if (t >= T[hi]) return hi;
    while (hi - lo > 1) { const m = (lo + hi) >> 1; if (T[m] <= t) lo = m; else hi = m; }
    return lo;
  }
  function valueAt(c, t) {
    if (!c) return NaN;
    const k = rowAt(t);
    if (k >= N - 1 || T[k + 1] === T[k]) return c[k];
    const s = (t - T[k]) / (T[k + 1] - T[k]);
    return c[k] + s * (c[k + 1] - c[k]);
  }

  // crank angle: the first driver of a joint's angle, phi_b - phi_a from its start, deg
  let angle = null, angleLabel = "";
  for (const d of scene.drivers || []) {
    if (d.target !== "joint_angle") continue;
    const j = (scene.joints || []).find((x) => x.name === d.joint);
    if (!j) continue;
    const pa = j.body_a === "ground" ? null : col(j.body_a + ".phi");
    const pb = j.body_b === "ground" ? null : col(j.body_b + ".phi");
    if (!pa && !pb) continue;
    angle = new Float64Array(N);
    for (let k = 0; k < N; k++) angle[k] = ((pb ? pb[k] : 0) - (pa ? pa[k] : 0)) * 180 / Math.PI;
    const a0 = angle[0];
    for (let k = 0; k < N; k++) angle[k] -= a0;
    angleLabel = `crank angle [deg] (driver ${d.name})`;
    break;
  }

  // ---- state and its listeners --------------------------------------------------------
  const state = { t: t0, playing: false, rate: (t1 - t0) / 10, slow: null, current: -1 };
  const listeners = [];
  function setTime(t) {
    state.t = Math.min(t1, Math.max(t0, t));
    for (const f of listeners) f(state.t);
  }

  // ---- layout ---------------------------------------------------------------------------
  const ok = summary.status === "ok";
  const head = el("header", {},
    el("h1", {}, summary.model || "clink run"),
    el("span", { class: "status " + (ok ? "ok" : "bad") }, summary.status || "?"),
    summary.message ? el("span", {}, " " + summary.message) : "",
    el("div", { class: "hint" }, `${D.dir} · ${D.source_rows} rows, ${D.source_columns} columns`),
    ...D.notes.map((n) => el("div", { class: "notes" }, n)));
  app.append(head);
  const grid = el("div", { class: "grid" });
  app.append(grid);

  // ---- the mechanism ------------------------------------------------------------------
  const bodies = (scene.bodies || []).map((b) => b.name).filter((b) => b !== "ground");
  // a flexible beam (its nodes, bodies, in order) is drawn as one curve in one colour
  const beams = (scene.beams || []).filter((bm) => (bm.nodes || []).length >= 2);
  const nodeOf = {};
  for (const bm of beams) for (const n of bm.nodes) nodeOf[n] = bm.name;
  const color = {}, beamColor = {}, items = [];
  for (const b of bodies) {
    const k = b in nodeOf ? "\u0000beam " + nodeOf[b] : b;
    if (!items.includes(k)) items.push(k);
    color[b] = COLORS[items.indexOf(k) % COLORS.length];
    if (b in nodeOf) beamColor[nodeOf[b]] = color[b];
  }
  const pts = {}, shapes = {};
  function addPoint(b, p) {
    const l = pts[b] || (pts[b] = []);
    if (!l.some((q) => Math.abs(q[0] - p[0]) < 1e-12 && Math.abs(q[1] - p[1]) < 1e-12)) l.push(p);
  }
  for (const j of scene.joints || []) { addPoint(j.body_a, j.point_a); addPoint(j.body_b, j.point_b); }
  for (const c of scene.clearance_joints || []) {
    addPoint(c.journal, c.journal_point); addPoint(c.bearing, c.bearing_point);
  }
  for (const s of scene.springs || []) { addPoint(s.body_a, s.point_a); addPoint(s.body_b, s.point_b); }
  for (const c of scene.contacts || []) {
    for (const side of ["a", "b"]) {
      const b = c["body_" + side], s = c["shape_" + side];
      (shapes[b] || (shapes[b] = [])).push(s);
    }
  }
  const poseCols = {};
  for (const b of bodies) poseCols[b] = [col(b + ".x"), col(b + ".y"), col(b + ".phi")];
  const hasPoses = bodies.length > 0 && bodies.every((b) => poseCols[b][0] && poseCols[b][2]);
  function pose(b, t) {
    if (b === "ground" || !poseCols[b] || !poseCols[b][0]) return [0, 0, 0];
    return poseCols[b].map((c) => valueAt(c, t));
  }
  function world(b, p, t) {
    const [x, y, phi] = pose(b, t);
    const c = Math.cos(phi), s = Math.sin(phi);
    return [x + c * p[0] - s * p[1], y + s * p[0] + c * p[1]];
  }
  // the view box: every body's points over the run, and the round shapes
  let box = [Infinity, -Infinity, Infinity, -Infinity];
  function grow(x, y, r) {
    box = [Math.min(box[0], x - r), Math.max(box[1], x + r), Math.min(box[2], y - r),
      Math.max(box[3], y + r)];
  }
  const stride = Math.max(1, Math.floor(N / 200));
  for (const b of bodies.concat(["ground"])) {
    const l = (pts[b] || []).slice();
    for (const s of shapes[b] || []) if (s.type !== "line") l.push(s.a || [0, 0]);
    if (b !== "ground" && l.length === 0) l.push([0, 0]);
    for (let k = 0; k < N; k += stride) {
      for (const p of l) {
        const w = world(b, p, T[k]);
        grow(w[0], w[1], 0);
      }
    }
    for (const s of shapes[b] || []) {
      if (s.type === "circle" || s.type === "capsule") {
        const w = world(b, s.a, T[0]);
        grow(w[0], w[1], s.radius || 0);
      }
    }
  }
  if (!isFinite(box[0])) box = [-1, 1, -1, 1];
  let span = Math.max(box[1] - box[0], box[3] - box[2], 1e-6);
  box = [box[0] - 0.08 * span, box[1] + 0.08 * span, box[2] - 0.08 * span, box[3] + 0.08 * span];
  span = box[1] - box[0];
  // clearance drawn K times: a round factor putting the largest clearance over ~3% of the view
  const clear = scene.clearance_joints || [];
  let K = 1;
  if (clear.length) {
    const c = Math.max(...clear.map((x) => x.bearing_radius - x.journal_radius));
    const want = 0.03 * span / c;
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(want, 1))));
    K = [1, 2, 5, 10].map((m) => m * p).filter((k) => k <= Math.max(want, 1)).pop() || 1;
  }

  const mechPanel = el("div", { class: "panel" }, el("h2", {}, "Mechanism" +
    (clear.length ? ` (clearance drawn x${K})` : "")));
  const mech = el("canvas", { id: "mechanism" });
  const slider = el("input", { type: "range", min: 0, max: 10000, step: 1, value: 0, id: "slider" });
  const playBtn = el("button", { id: "play" }, "play");
  const speed = el("select", { id: "speed" });
  for (const f of [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]) {
    speed.append(el("option", { value: f }, `${fmt((t1 - t0) * f)} s per s`));
  }
  speed.value = 0.1;
  const clock = el("span", { class: "clock" });
  mechPanel.append(mech, el("div", { class: "controls" }, playBtn, slider, speed, clock),
    el("div", { class: "hint" }, "Slider: time. Speed: simulated time per second of play. " +
      "Click an impact to play through it slowed."));
  grid.append(mechPanel);
  let mechView = null;
  function mechTransform() {
    const v = mechView;
    const s = Math.min(v.w / (box[1] - box[0]), v.h / (box[3] - box[2]));
    const ox = (v.w - s * (box[1] - box[0])) / 2, oy = (v.h - s * (box[3] - box[2])) / 2;
    return { s, px: (x) => ox + s * (x - box[0]), py: (y) => v.h - oy - s * (y - box[2]) };
  }
  // a beam's centreline at t: between two nodes the cubic with their positions and, as end
  // tangents, their cross-sections' directions (scaled by the chord), sub pieces per element;
  // a node that is a clearance joint's journal at its origin is moved to its drawn disc
  function beamCurve(bm, t, journals, sub = 8) {
    const p = bm.nodes.map((n) => {
      const q = pose(n, t);
      return journals && journals[n] ? [journals[n][0], journals[n][1], q[2]] : q;
    });
    const out = [];
    for (let i = 0; i + 1 < p.length; i++) {
      const [xa, ya, pa] = p[i], [xb, yb, pb] = p[i + 1], c = Math.hypot(xb - xa, yb - ya);
      for (let k = 0; k < sub; k++) {
        const u = k / sub, u2 = u * u, u3 = u2 * u;
        const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
        out.push([h00 * xa + h10 * c * Math.cos(pa) + h01 * xb + h11 * c * Math.cos(pb),
          h00 * ya + h10 * c * Math.sin(pa) + h01 * yb + h11 * c * Math.sin(pb)]);
      }
    }
    const e = p[p.length - 1];
    out.push([e[0], e[1]]);
    return out;
  }
  function hull(l) {
    if (l.length < 3) return l;
    const cx = l.reduce((a, p) => a + p[0], 0) / l.length;
    const cy = l.reduce((a, p) => a + p[1], 0) / l.length;
    return l.slice().sort((p, q) => Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(q[1] - cy, q[0] - cx));
  }
  function drawMechanism(t) {
    if (!mechView) mechView = fitCanvas(mech, 360);
    const { g, w, h } = mechView;
    const X = mechTransform();
    g.clearRect(0, 0, w, h);
    g.lineCap = "round"; g.lineJoin = "round";
    // the ground's shapes
    for (const s of shapes.ground || []) {
      g.strokeStyle = "#555"; g.fillStyle = "#999"; g.lineWidth = 1.5;
      if (s.type === "line") {
        const n = s.normal || [0, 1], a = s.a;
        const d = [-n[1], n[0]];
        g.beginPath();
        g.moveTo(X.px(a[0] - 2 * span * d[0]), X.py(a[1] - 2 * span * d[1]));
        g.lineTo(X.px(a[0] + 2 * span * d[0]), X.py(a[1] + 2 * span * d[1]));
        g.stroke();
      } else if (s.type === "circle") {
        g.beginPath(); g.arc(X.px(s.a[0]), X.py(s.a[1]), X.s * s.radius, 0, 2 * Math.PI); g.stroke();
      }
    }
    const journals = {};
    for (const c of clear) {
      const cb = world(c.bearing, c.bearing_point, t);
      let ex = valueAt(col(c.name + ".ex"), t), ey = valueAt(col(c.name + ".ey"), t);
      if (!isFinite(ex)) { const cj = world(c.journal, c.journal_point, t); ex = cj[0] - cb[0]; ey = cj[1] - cb[1]; }
      journals[c.name] = { c, cb, disc: [cb[0] + K * ex, cb[1] + K * ey] };
    }
    const lw = Math.max(3, 0.012 * w);
    for (const b of bodies) {
      g.strokeStyle = color[b]; g.fillStyle = color[b];
      let l = (pts[b] || []).map((p) => world(b, p, t));
      // a journal's body drawn through its magnified journal
      for (const c of clear) {
        if (c.journal !== b) continue;
        const jp = world(b, c.journal_point, t);
        l = l.map((p) => (Math.hypot(p[0] - jp[0], p[1] - jp[1]) < 1e-12 ? journals[c.name].disc : p));
      }
      const sh = shapes[b] || [];
      if (b in nodeOf) {
        // a beam's node: the beam's curve goes through it (drawn below)
      } else if (l.length >= 2) {
        const o = hull(l);
        g.lineWidth = lw;
        g.beginPath();
        o.forEach((p, i) => (i ? g.lineTo(X.px(p[0]), X.py(p[1])) : g.moveTo(X.px(p[0]), X.py(p[1]))));
        if (o.length > 2) g.closePath();
        g.stroke();
      } else if (sh.length === 0) {
        const p = l.length ? l[0] : world(b, [0, 0], t);
        let bw = 0.08 * span, bh = 0.045 * span;
        for (const c of clear) {
          if (c.bearing !== b) continue;
          const rb = c.journal_radius + K * (c.bearing_radius - c.journal_radius);
          bw = Math.max(bw, 3.2 * rb); bh = Math.max(bh, 2 * rb);
        }
        g.save();
        g.translate(X.px(p[0]), X.py(p[1]));
        g.rotate(-pose(b, t)[2]);
        g.fillRect(-X.s * bw / 2, -X.s * bh / 2, X.s * bw, X.s * bh);
        g.strokeStyle = "#000"; g.lineWidth = 0.8;
        g.strokeRect(-X.s * bw / 2, -X.s * bh / 2, X.s * bw, X.s * bh);
        g.restore();
      }
      for (const s of sh) {
        g.lineWidth = 0.8; g.strokeStyle = "#000";
        if (s.type === "circle") {
          const c = world(b, s.a, t);
          g.beginPath(); g.arc(X.px(c[0]), X.py(c[1]), X.s * s.radius, 0, 2 * Math.PI);
          g.fill(); g.stroke();
        } else if (s.type === "capsule") {
          const a = world(b, s.a, t), e = world(b, s.b, t);
          g.lineWidth = 2 * X.s * s.radius; g.strokeStyle = color[b];
          g.beginPath(); g.moveTo(X.px(a[0]), X.py(a[1])); g.lineTo(X.px(e[0]), X.py(e[1])); g.stroke();
        } else if ((s.type === "polygon" || s.type === "profile") && s.vertices) {
          g.beginPath();
          s.vertices.forEach((v, i) => { const p = world(b, v, t); (i ? g.lineTo : g.moveTo).call(g, X.px(p[0]), X.py(p[1])); });
          g.closePath(); g.fill(); g.stroke();
        } else if (s.type === "arc" && s.vertices) {
          g.lineWidth = 2; g.strokeStyle = color[b];
          g.beginPath();
          s.vertices.forEach((v, i) => { const p = world(b, v, t); (i ? g.lineTo : g.moveTo).call(g, X.px(p[0]), X.py(p[1])); });
          g.stroke();
        } else if (s.type === "line") {
          // a line on a moving body (a flat follower's face): a segment along it
          const n = s.normal, l = Math.hypot(n[0], n[1]) || 1, d = [-n[1] / l, n[0] / l], h = 0.1 * span;
          const a = world(b, [s.a[0] - h * d[0], s.a[1] - h * d[1]], t), e = world(b, [s.a[0] + h * d[0], s.a[1] + h * d[1]], t);
          g.lineWidth = 3; g.strokeStyle = color[b];
          g.beginPath(); g.moveTo(X.px(a[0]), X.py(a[1])); g.lineTo(X.px(e[0]), X.py(e[1])); g.stroke();
        }
      }
    }
    // the beams, over the bearings' rings and under the journals' discs
    const journalAt = {};
    for (const name in journals) {
      const { c, disc } = journals[name];
      if (c.journal in nodeOf && Math.abs(c.journal_point[0]) < 1e-12 && Math.abs(c.journal_point[1]) < 1e-12) journalAt[c.journal] = disc;
    }
    const drawBeams = (front) => {
      for (const bm of beams) {
        if (bm.nodes.some((n) => n in journalAt) !== front) continue;
        const o = beamCurve(bm, t, journalAt);
        g.strokeStyle = beamColor[bm.name]; g.lineWidth = lw;
        g.beginPath();
        o.forEach((p, i) => (i ? g.lineTo(X.px(p[0]), X.py(p[1])) : g.moveTo(X.px(p[0]), X.py(p[1]))));
        g.stroke();
      }
    };
    const ring = (c, cb) => { // a bearing's ring and its white bore
      const rb = c.journal_radius + K * (c.bearing_radius - c.journal_radius);
      g.lineWidth = X.s * rb * 0.6; g.strokeStyle = color[c.bearing] || "#999";
      g.beginPath(); g.arc(X.px(cb[0]), X.py(cb[1]), X.s * rb * 1.3, 0, 2 * Math.PI); g.stroke();
      g.fillStyle = "#fff";
      g.beginPath(); g.arc(X.px(cb[0]), X.py(cb[1]), X.s * rb, 0, 2 * Math.PI); g.fill();
    };
    drawBeams(false);
    if (beams.length) for (const name in journals) ring(journals[name].c, journals[name].cb);
    drawBeams(true);
    for (const name in journals) {
      const { c, cb, disc } = journals[name];
      if (!beams.length) ring(c, cb);
      g.fillStyle = color[c.journal] || "#999"; g.strokeStyle = "#000"; g.lineWidth = 0.8;
      g.beginPath(); g.arc(X.px(disc[0]), X.py(disc[1]), X.s * c.journal_radius, 0, 2 * Math.PI);
      g.fill(); g.stroke();
      const fn = valueAt(col(name + ".Fn"), t);
      if (fn > 1e-6 * maxFn) { // the force on the journal, towards the bearing centre
        const d = [cb[0] - disc[0], cb[1] - disc[1]], n = Math.hypot(d[0], d[1]) || 1;
        const len = Math.min(0.25 * span, 0.15 * span * fn / (maxFn || fn));
        arrow(g, X, disc, [disc[0] + len * d[0] / n, disc[1] + len * d[1] / n]);
        g.fillStyle = "#000"; g.font = "11px sans-serif";
        g.fillText(`${fmt(fn)} N`, X.px(disc[0]) + 6, X.py(disc[1]) - 6);
      }
    }
    // pairs in contact: their shapes outlined in the arrow colour
    for (const c of scene.contacts || []) {
      if (!(valueAt(col(c.name + ".Fn"), t) > 0)) continue;
      for (const side of ["a", "b"]) {
        const s = c["shape_" + side], b = c["body_" + side];
        if (s.type !== "circle") continue;
        const p = world(b, s.a, t);
        g.strokeStyle = "#000"; g.lineWidth = 2.5;
        g.beginPath(); g.arc(X.px(p[0]), X.py(p[1]), X.s * s.radius, 0, 2 * Math.PI); g.stroke();
      }
    }
    g.fillStyle = "#fff"; g.strokeStyle = "#000"; g.lineWidth = 1;
    for (const j of scene.joints || []) {
      if (j.type !== "revolute") continue;
      const p = world(j.body_b, j.point_b, t);
      g.beginPath(); g.arc(X.px(p[0]), X.py(p[1]), 3.5, 0, 2 * Math.PI); g.fill(); g.stroke();
    }
    if (!hasPoses && bodies.length) {
      g.fillStyle = "#a00"; g.font = "12px sans-serif";
      g.fillText("the bodies' poses are not in the page (left out)", 10, 20);
    }
  }
  function arrow(g, X, a, b) {
    const x0 = X.px(a[0]), y0 = X.py(a[1]), x1 = X.px(b[0]), y1 = X.py(b[1]);
    const ang = Math.atan2(y1 - y0, x1 - x0);
    g.strokeStyle = "#000"; g.fillStyle = "#000"; g.lineWidth = 2;
    g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke();
    g.beginPath(); g.moveTo(x1, y1);
    g.lineTo(x1 - 8 * Math.cos(ang - 0.4), y1 - 8 * Math.sin(ang - 0.4));
    g.lineTo(x1 - 8 * Math.cos(ang + 0.4), y1 - 8 * Math.sin(ang + 0.4));
    g.closePath(); g.fill();
  }
  let maxFn = 0;
  for (const n of names) {
    if (!/\.Fn \[/.test(n)) continue;
    const c = col(n.slice(0, n.indexOf(" [")));
    for (let k = 0; k < N; k++) if (c[k] > maxFn) maxFn = c[k];
  }
  listeners.push(drawMechanism);
  listeners.push((t) => {
    slider.value = Math.round(10000 * (t - t0) / ((t1 - t0) || 1));
    clock.textContent = `t = ${(t * 1e3).toFixed(4)} ms`;
  });
  slider.addEventListener("input", () => { state.slow = null; setTime(t0 + (t1 - t0) * slider.value / 10000); });
  playBtn.addEventListener("click", () => togglePlay());
  speed.addEventListener("change", () => { state.rate = (t1 - t0) * Number(speed.value); });
  state.rate = (t1 - t0) * Number(speed.value);
  let lastFrame = 0;
  function togglePlay(on) {
    state.playing = on === undefined ? !state.playing : on;
    playBtn.textContent = state.playing ? "pause" : "play";
    if (state.playing) { if (state.t >= t1) setTime(t0); lastFrame = performance.now(); requestAnimationFrame(frame); }
  }
  function frame(now) {
    if (!state.playing) return;
    const dt = Math.min(0.1, (now - lastFrame) / 1000);
    lastFrame = now;
    let rate = state.rate;
    if (state.slow && state.t >= state.slow[0] - 1e-12 && state.t <= state.slow[1]) rate *= 0.05;
    setTime(state.t + rate * dt);
    if (state.t >= t1) togglePlay(false);
    else requestAnimationFrame(frame);
  }

  // ---- plots ----------------------------------------------------------------------------
  class Plot {
    constructor(title, keys, opts) {
      this.keys = keys; this.opts = opts || {};
      this.panel = el("div", { class: "panel" });
      this.select = el("select", {});
      this.xsel = el("select", {}, el("option", { value: "t" }, "against time"));
      if (angle) this.xsel.append(el("option", { value: "angle" }, "against crank angle"));
      if (this.opts.x === "angle" && angle) this.xsel.value = "angle";
      const groups = {};
      for (const n of names) {
        const key = n.slice(0, n.indexOf(" [") >= 0 ? n.indexOf(" [") : n.length);
        const q = key.slice(key.lastIndexOf(".") + 1);
        (groups[q] || (groups[q] = [])).push(key);
      }
      this.select.append(el("option", { value: "" }, "(choose a column)"));
      for (const q of Object.keys(groups)) {
        if (groups[q].length > 1 && groups[q].length <= 30) {
          this.select.append(el("option", { value: "*" + q }, `every ${q} (${groups[q].length})`));
        }
      }
      for (const n of names) {
        const key = n.slice(0, n.indexOf(" [") >= 0 ? n.indexOf(" [") : n.length);
        this.select.append(el("option", { value: key }, n));
      }
      this.groups = groups;
      this.select.value = keys.length === 1 ? keys[0] : (opts && opts.group ? "*" + opts.group : "");
      this.select.addEventListener("change", () => {
        const v = this.select.value;
        this.keys = v.startsWith("*") ? this.groups[v.slice(1)] : v ? [v] : [];
        this.reset(); this.draw(state.t);
      });
      this.xsel.addEventListener("change", () => { this.reset(); this.draw(state.t); });
      this.canvas = el("canvas", {});
      this.panel.append(el("div", { class: "plotbar" }, el("b", {}, title), this.select, this.xsel),
        this.canvas, el("div", { class: "hint" }, "wheel: zoom; drag: pan; double-click: all"));
      this.reset();
      this.bind();
    }
    xdata() { return this.xsel.value === "angle" ? angle : T; }
    reset() { const x = this.xdata(); this.x0 = x[0]; this.x1 = x[N - 1]; if (this.x1 === this.x0) this.x1 = this.x0 + 1; }
    bind() {
      const c = this.canvas;
      c.addEventListener("wheel", (e) => {
        e.preventDefault();
        const r = c.getBoundingClientRect(), f = e.deltaY > 0 ? 1.25 : 0.8;
        const xm = this.x0 + (this.x1 - this.x0) * (e.clientX - r.left - 50) / (r.width - 60);
        this.x0 = xm + (this.x0 - xm) * f; this.x1 = xm + (this.x1 - xm) * f;
        this.draw(state.t);
      }, { passive: false });
      let drag = null;
      c.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, x0: this.x0, x1: this.x1 }; c.setPointerCapture(e.pointerId); });
      c.addEventListener("pointermove", (e) => {
        if (!drag) return;
        const d = (e.clientX - drag.x) / (c.getBoundingClientRect().width - 60) * (drag.x1 - drag.x0);
        this.x0 = drag.x0 - d; this.x1 = drag.x1 - d; this.draw(state.t);
      });
      c.addEventListener("pointerup", (e) => {
        if (drag && Math.abs(e.clientX - drag.x) < 3 && this.xsel.value === "t") {
          const r = c.getBoundingClientRect();
          setTime(this.x0 + (this.x1 - this.x0) * (e.clientX - r.left - 50) / (r.width - 60));
        }
        drag = null;
      });
      c.addEventListener("dblclick", () => { this.reset(); this.draw(state.t); });
    }
    draw(t) {
      if (!this.view) this.view = fitCanvas(this.canvas, 190);
      const { g, w, h } = this.view;
      const L = 50, R = 10, TOP = 6, B = 30;
      g.clearRect(0, 0, w, h);
      const x = this.xdata();
      const cs = this.keys.map(col).filter((c) => c);
      let lo = Infinity, hi = -Infinity;
      const k0 = Math.max(0, lowerIndex(x, this.x0) - 1), k1 = Math.min(N - 1, lowerIndex(x, this.x1) + 1);
      for (const c of cs) for (let k = k0; k <= k1; k++) { const v = c[k]; if (v < lo) lo = v; if (v > hi) hi = v; }
      if (!isFinite(lo)) { lo = -1; hi = 1; }
      if (hi === lo) { hi += Math.abs(hi) * 0.1 || 1; lo -= Math.abs(lo) * 0.1 || 1; }
      const pad = (hi - lo) * 0.05; lo -= pad; hi += pad;
      const sx = (v) => L + (w - L - R) * (v - this.x0) / (this.x1 - this.x0);
      const sy = (v) => TOP + (h - TOP - B) * (1 - (v - lo) / (hi - lo));
      g.strokeStyle = "#ccc"; g.fillStyle = "#444"; g.font = "10px sans-serif"; g.lineWidth = 1;
      for (const v of niceTicks(lo, hi, 4)) { g.beginPath(); g.moveTo(L, sy(v)); g.lineTo(w - R, sy(v)); g.stroke(); g.fillText(fmt(v), 2, sy(v) + 3); }
      for (const v of niceTicks(this.x0, this.x1, 6)) { g.fillText(fmt(v), sx(v) - 10, h - B + 12); }
      g.fillText(this.xsel.value === "angle" ? angleLabel : "t [s]", L, h - 4);
      g.save(); g.beginPath(); g.rect(L, TOP, w - L - R, h - TOP - B); g.clip();
      cs.forEach((c, i) => {
        g.strokeStyle = COLORS[i % COLORS.length]; g.lineWidth = 1.2; g.beginPath();
        // at most two points (min and max) per pixel column
        let px = -1, mn = 0, mx = 0, first = true;
        for (let k = k0; k <= k1; k++) {
          const X0 = Math.round(sx(x[k])), v = c[k];
          if (X0 !== px) {
            if (px >= 0) { g.lineTo(px, sy(mn)); g.lineTo(px, sy(mx)); }
            if (first) { g.moveTo(X0, sy(v)); first = false; }
            px = X0; mn = mx = v;
          } else { if (v < mn) mn = v; if (v > mx) mx = v; }
        }
        if (px >= 0) { g.lineTo(px, sy(mn)); g.lineTo(px, sy(mx)); }
        g.stroke();
      });
      // the cursor at the slider's time
      const xc = this.xsel.value === "angle" ? valueAt(angle, t) : t;
      this.cursorX = Math.round(sx(xc)) + 0.5; // on a pixel column: a sharp line
      g.strokeStyle = "#000"; g.lineWidth = 1; g.setLineDash([6, 2]);
      g.beginPath(); g.moveTo(this.cursorX, TOP); g.lineTo(this.cursorX, h - B); g.stroke(); g.setLineDash([]);
      g.restore();
      const legend = this.keys.length <= 6 ? this.keys.map((k) => `${k} [${units[k]}]`).join(", ") : `${this.keys.length} series`;
      g.fillStyle = "#222"; g.fillText(legend, L + 4, TOP + 10);
    }
  }
  function lowerIndex(x, v) {
    let lo = 0, hi = N - 1;
    if (x[0] <= x[N - 1]) { while (lo < hi) { const m = (lo + hi) >> 1; if (x[m] < v) lo = m + 1; else hi = m; } return lo; }
    return 0;
  }
  class Orbit {
    constructor(c) {
      this.c = c; this.ex = col(c.name + ".ex"); this.ey = col(c.name + ".ey");
      this.panel = el("div", { class: "panel" }, el("h2", {}, `Journal orbit: ${c.name} (mm, clearance circle c = ${fmt((c.bearing_radius - c.journal_radius) * 1e3)} mm)`));
      this.canvas = el("canvas", {}); this.panel.append(this.canvas);
    }
    draw(t) {
      if (!this.view) this.view = fitCanvas(this.canvas, 260);
      const { g, w, h } = this.view;
      g.clearRect(0, 0, w, h);
      const cl = (this.c.bearing_radius - this.c.journal_radius) * 1e3;
      const s = 0.42 * Math.min(w, h) / cl, cx = w / 2, cy = h / 2;
      g.strokeStyle = "#888"; g.lineWidth = 1;
      for (const f of [1, 0.75, 0.5, 0.25]) { g.setLineDash(f === 1 ? [] : [3, 3]); g.beginPath(); g.arc(cx, cy, s * cl * f, 0, 2 * Math.PI); g.stroke(); }
      g.setLineDash([]);
      if (!this.ex) return;
      const k1 = rowAt(t);
      g.strokeStyle = "#1f77b4"; g.beginPath();
      for (let k = 0; k <= k1; k++) { const X0 = cx + s * this.ex[k] * 1e3, Y0 = cy - s * this.ey[k] * 1e3; k ? g.lineTo(X0, Y0) : g.moveTo(X0, Y0); }
      g.stroke();
      g.fillStyle = "#d62728"; g.beginPath(); g.arc(cx + s * valueAt(this.ex, t) * 1e3, cy - s * valueAt(this.ey, t) * 1e3, 4, 0, 2 * Math.PI); g.fill();
    }
  }
  const plots = [];
  const fnKeys = names.map((n) => n.slice(0, n.indexOf(" ["))).filter((k) => k.endsWith(".Fn"));
  const first = fnKeys.length ? [fnKeys[0]] : bodies.length ? [bodies[0] + ".x"] : [];
  const accel = names.map((n) => n.slice(0, n.indexOf(" ["))).filter((k) => /\.(ax|ay)$/.test(k)).slice(-2);
  const chain = fnKeys.length > 8;
  if (!chain) plots.push(new Plot("Plot 1", fnKeys.length <= 6 && fnKeys.length ? fnKeys : first, { x: "t" }));
  if (accel.length) plots.push(new Plot("Plot 2", accel, { x: "angle" }));
  for (const c of clear) if (col(c.name + ".ex")) plots.push(new Orbit(c));
  const energyKeys = ["energy.kinetic", "energy.residual"].filter((k) => col(k));
  if (energyKeys.length) plots.push(new Plot("Energies", energyKeys, {}));
  if (chain) plots.push(new SpaceTime(fnKeys));
  if (!plots.length) plots.push(new Plot("Plot", first, {}));
  for (const p of plots) { grid.append(p.panel); listeners.push((t) => p.draw(t)); }

  function SpaceTime(keys) {
    const self = this;
    this.keys = keys;
    this.panel = el("div", { class: "panel" }, el("h2", {}, `Normal force along the chain (${keys.length} contacts; wheel: zoom, drag: pan, double-click: all)`));
    this.canvas = el("canvas", {}); this.panel.append(this.canvas);
    this.reset = () => { this.t0 = t0; this.t1 = t1; this.c0 = 0; this.c1 = keys.length; };
    this.reset();
    const cs = keys.map(col);
    let fmax = 0;
    for (const c of cs) for (let k = 0; k < N; k++) if (c[k] > fmax) fmax = c[k];
    this.draw = (t) => {
      if (!self.view) self.view = fitCanvas(self.canvas, 300);
      const { g, w, h } = self.view;
      const L = 40, B = 20, W = w - L, H = h - B;
      const img = g.createImageData(Math.max(1, Math.floor(W)), Math.max(1, Math.floor(H)));
      for (let py = 0; py < img.height; py++) {
        const ci = Math.floor(self.c1 - (self.c1 - self.c0) * (py + 0.5) / img.height);
        const c = cs[Math.min(cs.length - 1, Math.max(0, ci))];
        for (let px = 0; px < img.width; px++) {
          const tt = self.t0 + (self.t1 - self.t0) * (px + 0.5) / img.width;
          const v = Math.max(0, Math.min(1, valueAt(c, tt) / (fmax || 1)));
          const o = 4 * (py * img.width + px);
          img.data[o] = 255 * Math.min(1, 2 * v); img.data[o + 1] = 255 * Math.max(0, 2 * v - 1); img.data[o + 2] = 60 * (1 - v); img.data[o + 3] = 255;
        }
      }
      g.clearRect(0, 0, w, h);
      const r = window.devicePixelRatio || 1;
      g.putImageData(img, L * r, 0);
      g.fillStyle = "#444"; g.font = "10px sans-serif";
      g.fillText(`contact ${Math.floor(self.c0)}`, 0, H - 2); g.fillText(`${Math.ceil(self.c1)}`, 0, 10);
      g.fillText(`t ${fmt(self.t0)} .. ${fmt(self.t1)} s; colour: Fn / ${fmt(fmax)} N`, L, h - 6);
      const xc = L + W * (t - self.t0) / (self.t1 - self.t0);
      g.strokeStyle = "#fff"; g.beginPath(); g.moveTo(xc, 0); g.lineTo(xc, H); g.stroke();
      self.cursorX = xc;
    };
    const cv = this.canvas;
    cv.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rc = cv.getBoundingClientRect(), f = e.deltaY > 0 ? 1.25 : 0.8;
      const fx = (e.clientX - rc.left - 40) / (rc.width - 40), fy = 1 - (e.clientY - rc.top) / (rc.height - 20);
      const tm = self.t0 + (self.t1 - self.t0) * fx, cm = self.c0 + (self.c1 - self.c0) * fy;
      self.t0 = tm + (self.t0 - tm) * f; self.t1 = tm + (self.t1 - tm) * f;
      self.c0 = cm + (self.c0 - cm) * f; self.c1 = cm + (self.c1 - cm) * f;
      self.draw(state.t);
    }, { passive: false });
    let drag = null;
    cv.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, t0: self.t0, t1: self.t1, c0: self.c0, c1: self.c1 }; cv.setPointerCapture(e.pointerId); });
    cv.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const rc = cv.getBoundingClientRect();
      const dt = (e.clientX - drag.x) / (rc.width - 40) * (drag.t1 - drag.t0), dc = (e.clientY - drag.y) / (rc.height - 20) * (drag.c1 - drag.c0);
      self.t0 = drag.t0 - dt; self.t1 = drag.t1 - dt; self.c0 = drag.c0 + dc; self.c1 = drag.c1 + dc; self.draw(state.t);
    });
    cv.addEventListener("pointerup", () => { drag = null; });
    cv.addEventListener("dblclick", () => { self.reset(); self.draw(state.t); });
  }

  // ---- impacts and summary ------------------------------------------------------------
  const impPanel = el("div", { class: "panel" }, el("h2", {}, `Impacts (${D.impacts.length})`));
  const heads = D.impact_heads.length ? D.impact_heads : ["t [s]"];
  const tbody = el("tbody", {});
  const rowsEl = [];
  D.impacts.forEach((r, i) => {
    const tr = el("tr", { "data-index": i }, ...heads.map((h) => {
      const v = Number(r[h]);
      return el("td", {}, h === "pair" || isNaN(v) ? r[h] : fmt(v));
    }));
    tr.addEventListener("click", () => jumpToImpact(i));
    rowsEl.push(tr); tbody.append(tr);
  });
  impPanel.append(el("div", { class: "scroll" }, el("table", { id: "impacts" },
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", {}, h)))), tbody)));
  function jumpToImpact(i) {
    const r = D.impacts[i];
    const on = Number(r["t [s]"]), dur = Number(r["duration [s]"]) || 0;
    state.slow = [on, on + Math.max(dur, 0)];
    state.current = i;
    rowsEl.forEach((tr, k) => tr.classList.toggle("current", k === i));
    setTime(on - 0.02 * Math.max(dur, (t1 - t0) * 0.002));
  }
  const sumPanel = el("div", { class: "panel" }, el("h2", {}, "Summary and settings"));
  const dl = el("dl", {});
  for (const [k, v] of Object.entries(summary)) {
    if (k === "warnings" && Array.isArray(v)) { v.forEach((m) => dl.append(el("dt", {}, "warning"), el("dd", {}, m))); continue; }
    dl.append(el("dt", {}, k), el("dd", {}, typeof v === "object" && v !== null ? JSON.stringify(v) : fmt(v)));
  }
  sumPanel.append(el("div", { class: "scroll" }, dl));
  grid.append(impPanel, sumPanel);

  // ---- start, and the test hooks --------------------------------------------------------
  setTime(t0);
  if (hash.t !== undefined) setTime(Number(hash.t));
  if (hash.impact !== undefined && rowsEl[Number(hash.impact)]) rowsEl[Number(hash.impact)].click();
  if (hash.test) {
    const r = mech.getBoundingClientRect();
    const X = mechTransform();
    const bodyPx = {};
    for (const b of bodies) {
      const [x, y] = pose(b, state.t);
      bodyPx[b] = [r.left + window.scrollX + X.px(x), r.top + window.scrollY + X.py(y)];
    }
    const beamPx = {}; // each beam's colour and its curve's points in pixels
    for (const bm of beams) {
      beamPx[bm.name] = { color: beamColor[bm.name], nodes: bm.nodes,
        curve: beamCurve(bm, state.t, null).map(([x, y]) => [r.left + window.scrollX + X.px(x), r.top + window.scrollY + X.py(y)]) };
    }
    const p0 = plots[0], pr = p0.canvas.getBoundingClientRect();
    const report = {
      errors, t: state.t, colors: color, bodies: bodyPx, beams: beamPx, load_ms: performance.now() - t0Load,
      cursor: [pr.left + window.scrollX + (p0.cursorX || 0), pr.top + window.scrollY + 20],
      current_impact: state.current, rows: N, impacts: D.impacts.length, plots: plots.length,
    };
    document.body.append(el("pre", { id: "clink-test" }, JSON.stringify(report)));
  }

  // ---- a sweep --------------------------------------------------------------------------
  function sweepPage() {
    const head = D.head, rows = D.rows;
    const si = head.indexOf("status"), ci = head.indexOf("cause");
    const num = head.map((h, j) => rows.every((r) => r[j] === "" || !isNaN(Number(r[j]))));
    app.append(el("header", {}, el("h1", {}, `Sweep: ${D.dir}`),
      el("div", { class: "hint" }, `${rows.length} cases; failed and invalid cases in red with their cause`)));
    const gridS = el("div", { class: "grid" });
    app.append(gridS);
    const filter = el("input", { type: "text", id: "filter", placeholder: "filter: text, or col<v, col>v, col=v, col!=v" });
    let sortCol = 0, sortDir = 1;
    const tb = el("tbody", {});
    const tablePanel = el("div", { class: "panel" }, el("div", { class: "plotbar" }, el("b", {}, "Table"), filter),
      el("div", { class: "scroll tall" }, el("table", { id: "sweep" },
        el("thead", {}, el("tr", {}, ...head.map((h, j) => el("th", { onclick: () => { sortDir = sortCol === j ? -sortDir : 1; sortCol = j; render(); } }, h)))), tb)));
    const xs = el("select", { id: "sx" }), ys = el("select", { id: "sy" }), cs = el("select", { id: "sc" });
    head.forEach((h, j) => { if (num[j]) for (const s of [xs, ys, cs]) s.append(el("option", { value: j }, h)); });
    cs.prepend(el("option", { value: -1 }, "(status)"));
    const numeric = head.map((h, j) => j).filter((j) => num[j]);
    if (numeric.length > 1) { xs.value = numeric[1] !== undefined ? numeric[1] : numeric[0]; ys.value = numeric[numeric.length - 1]; }
    cs.value = -1;
    const sc = el("canvas", { id: "scatter" });
    const scatterPanel = el("div", { class: "panel" }, el("div", { class: "plotbar" }, el("b", {}, "Scatter"), "x", xs, "y", ys, "colour", cs), sc);
    gridS.append(tablePanel, scatterPanel);
    function match(r) {
      const f = filter.value.trim();
      if (!f) return true;
      const m = f.match(/^([^<>=!]+)(<=|>=|!=|<|>|=)(.*)$/);
      if (m) {
        const j = head.indexOf(m[1].trim());
        if (j >= 0) {
          const a = num[j] ? Number(r[j]) : r[j], b = num[j] ? Number(m[3]) : m[3].trim();
          return { "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "=": a == b, "!=": a != b }[m[2]]; // eslint-disable-line eqeqeq
        }
      }
      return r.join(",").toLowerCase().includes(f.toLowerCase());
    }
    function visible() {
      const out = rows.filter(match);
      out.sort((a, b) => {
        const x = num[sortCol] ? Number(a[sortCol]) : a[sortCol], y = num[sortCol] ? Number(b[sortCol]) : b[sortCol];
        return (x < y ? -1 : x > y ? 1 : 0) * sortDir;
      });
      return out;
    }
    function render() {
      const v = visible();
      tb.replaceChildren(...v.map((r) => {
        const bad = si >= 0 && r[si] !== "ok";
        const tr = el("tr", bad ? { class: "bad", title: ci >= 0 ? r[ci] : r[si] } : {}, ...r.map((x, j) => el("td", {}, num[j] && x !== "" ? fmt(Number(x)) : x)));
        return tr;
      }));
      drawScatter(v);
    }
    function drawScatter(v) {
      const { g, w, h } = fitCanvas(sc, 380);
      g.clearRect(0, 0, w, h);
      const jx = Number(xs.value), jy = Number(ys.value), jc = Number(cs.value);
      if (!(jx >= 0 && jy >= 0)) return;
      const X = v.map((r) => Number(r[jx])), Y = v.map((r) => Number(r[jy]));
      const fin = (a) => a.filter((x) => isFinite(x));
      const [x0, x1] = [Math.min(...fin(X)), Math.max(...fin(X))], [y0, y1] = [Math.min(...fin(Y)), Math.max(...fin(Y))];
      const L = 60, B = 30;
      const sx = (x) => L + (w - L - 10) * (x1 > x0 ? (x - x0) / (x1 - x0) : 0.5);
      const sy = (y) => 10 + (h - 10 - B) * (1 - (y1 > y0 ? (y - y0) / (y1 - y0) : 0.5));
      g.fillStyle = "#444"; g.font = "10px sans-serif";
      for (const t of niceTicks(x0, x1, 5)) g.fillText(fmt(t), sx(t) - 10, h - B + 12);
      for (const t of niceTicks(y0, y1, 5)) g.fillText(fmt(t), 2, sy(t) + 3);
      g.fillText(`${head[jx]} →`, L, h - 4);
      g.save(); g.translate(10, 10); g.fillText(`↑ ${head[jy]}`, 0, 0); g.restore();
      let c0 = 0, c1 = 1;
      if (jc >= 0) { const C = fin(v.map((r) => Number(r[jc]))); c0 = Math.min(...C); c1 = Math.max(...C); }
      v.forEach((r, i) => {
        if (!isFinite(X[i]) || !isFinite(Y[i])) return;
        const bad = si >= 0 && r[si] !== "ok";
        let col = bad ? "#d62728" : "#1f77b4";
        if (jc >= 0 && !bad) { const f = c1 > c0 ? (Number(r[jc]) - c0) / (c1 - c0) : 0.5; col = `hsl(${240 - 240 * f},70%,45%)`; }
        g.fillStyle = col; g.beginPath(); g.arc(sx(X[i]), sy(Y[i]), bad ? 5 : 3.5, 0, 2 * Math.PI); g.fill();
      });
    }
    for (const s of [xs, ys, cs]) s.addEventListener("change", render);
    filter.addEventListener("input", render);
    if (hash.filter) filter.value = hash.filter;
    if (hash.sort !== undefined) { sortCol = Math.max(0, head.indexOf(hash.sort)); }
    render();
    if (hash.test) {
      const shown = [...tb.children].map((tr) => [...tr.children].map((td) => td.textContent));
      document.body.append(el("pre", { id: "clink-test" }, JSON.stringify({ errors, rows: shown.length, first: shown[0] || null, bad: tb.querySelectorAll("tr.bad").length, load_ms: performance.now() - t0Load })));
    }
  }
})();
