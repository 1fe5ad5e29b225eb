# SPDX-License-Identifier: BSD-3-Clause
"""Animation of one `clink run` output directory: an MP4 and a GIF of the mechanism.

    python3 -m clink.viz.animate DIR --scene SCENE.json [--out OUTDIR] [--fps F] [--duration S]
                                 [--frames N] [--size WxH] [--clearance-scale K] [--slow-impacts F]
                                 [--format mp4,gif] [--frame T --png FILE]

SCENE is the scene file `clink animate` writes from the run's model: every body
with its contact shapes and joint points in body coordinates. Each frame draws
every body at its pose interpolated from DIR/timeseries.csv (or results.h5): circles,
capsules and polygons of its contact shapes, a bar through its joint points (a block for a
body with one point and no shape, e.g. a slider), each flexible beam as one curve
through its nodes (between two nodes the cubic with their positions and, as end
tangents, their cross-sections' directions), half-planes as hatched
lines, the bearing of each clearance joint as a ring and its journal as a disc
with the clearance magnified K times (the journal drawn at the bearing centre
plus K times the eccentricity, the ring's bore K times wider than the
clearance; K is printed on the frame), revolute joints as white pins,
translational guides as dashed lines, and an arrow along the normal for
every contact whose normal force is positive, its length proportional to the
force (the scale bar in the corner) and the largest one labelled in N; the
simulated time is in the top-left corner.

Frames are evenly spaced in simulated time from the first row to the last: N
frames (--frames), else F x S (default 25 fps x 10 s, at most one frame per
row). --slow-impacts F puts F times more frames inside every impact of
DIR/impacts.csv (from its onset to its separation, widened by half a frame
interval each side); the frames there say "slowed F x".

Output in OUTDIR (default DIR): animation.mp4 (H.264) and animation.gif (at most
480 pixels wide), both from one ffmpeg pass, written under a temporary name and
renamed when complete. --frame T --png FILE draws the single frame at
simulated time T into FILE instead, and FILE.json with the pixel transform
(for tests: pixel = A @ [x, y, 1] with the origin at the top left), the
colour of each body and each beam's nodes and colour.

Exit status: 0 written; 1 the run failed or was interrupted (animated up to
there, marked), or ffmpeg failed; 2 the run directory is damaged, the scene
unreadable or an option bad; 3 a file could not be written; 4 matplotlib,
NumPy or ffmpeg is not available.
"""
import json
import math
import os
import shutil
import subprocess
import sys

from . import plot  # the figures' run reading and damage reports are shared
from . import rundir

EXIT_OK, EXIT_MARKED, EXIT_DAMAGED, EXIT_IO = (plot.EXIT_OK, plot.EXIT_MARKED,
                                             plot.EXIT_DAMAGED, plot.EXIT_IO)
EXIT_MISSING = plot.EXIT_NO_MATPLOTLIB
PROG = "clink animate"  # the messages' prefix
COLORS = plot.COLORS
GROUND = "#555555"
ARROW = "black"  # contact forces
np = None
plt = None


Usage = plot.Usage  # a bad option or scene


def positive(name, text, integer=False):
    try:
        v = float(text)
    except ValueError:
        raise Usage(f"{name}: '{text}' is not a number") from None
    if not math.isfinite(v) or v <= 0 or (integer and v != int(v)):
        raise Usage(f"{name}: '{text}' is not a positive {'integer' if integer else 'number'}")
    return int(v) if integer else v


def parse(argv):
    o = {"out": None, "scene": None, "fps": 25.0, "duration": 10.0, "frames": None,
         "size": (800, 450), "clearance_scale": None, "slow": 1.0, "formats": ["mp4", "gif"],
         "frame": None, "png": None, "run": None}
    args, i = argv[1:], 0
    takes = {"--out", "--scene", "--fps", "--duration", "--frames", "--size",
             "--clearance-scale", "--slow-impacts", "--format", "--frame", "--png"}
    while i < len(args):
        a = args[i]
        if a in takes:
            if i + 1 >= len(args):
                raise Usage(f"{a} needs a value")
            v = args[i + 1]
            i += 2
            if a in ("--out", "--scene", "--png"):
                o[a[2:]] = v
            elif a == "--fps":
                o["fps"] = positive(a, v)
            elif a == "--duration":
                o["duration"] = positive(a, v)
            elif a == "--frames":
                o["frames"] = positive(a, v, integer=True)
            elif a == "--clearance-scale":
                o["clearance_scale"] = positive(a, v)
            elif a == "--slow-impacts":
                o["slow"] = positive(a, v)
                if o["slow"] < 1:
                    raise Usage(f"--slow-impacts: '{v}' is below 1")
            elif a == "--frame":
                try:
                    o["frame"] = float(v)
                except ValueError:
                    raise Usage(f"--frame: '{v}' is not a number") from None
            elif a == "--size":
                w, _, h = v.partition("x")
                o["size"] = (positive("--size width", w, True), positive("--size height", h, True))
                if o["size"][0] % 2 or o["size"][1] % 2 or min(o["size"]) < 32:
                    raise Usage(f"--size: '{v}': width and height must be even and >= 32")
            elif a == "--format":
                fmts = v.split(",")
                if not v or any(f not in ("mp4", "gif") for f in fmts):
                    raise Usage(f"--format: '{v}' is not a list of mp4, gif")
                o["formats"] = list(dict.fromkeys(fmts))
        elif a.startswith("-"):
            raise Usage(f"unknown option '{a}'")
        elif o["run"] is not None:
            raise Usage("one run directory only")
        else:
            o["run"] = a
            i += 1
    if o["run"] is None:
        raise Usage("no run directory")
    if o["scene"] is None:
        raise Usage("--scene is required (clink animate writes it from the run's model)")
    if (o["frame"] is None) != (o["png"] is None):
        raise Usage("--frame and --png go together")
    return o


# ---- geometry -----------------------------------------------------------------------------

def line_face(s, length):
    """a thin plate of the given length along a line shape (a flat follower's face), on the
    solid side of its outward normal, body coordinates"""
    a, n = np.asarray(s["a"], float), np.asarray(s["normal"], float)
    n = n / (np.hypot(*n) or 1.0)
    d = np.array([-n[1], n[0]])
    h = 0.08 * length
    return np.array([a - 0.5 * length * d, a + 0.5 * length * d,
                     a + 0.5 * length * d - h * n, a - 0.5 * length * d - h * n])


def capsule_outline(a, b, r, n=16):
    """closed outline of the segment a-b swollen by r"""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    ang = math.atan2(d[1], d[0]) if np.hypot(*d) > 0 else 0.0
    s1 = np.linspace(ang + np.pi / 2, ang + 3 * np.pi / 2, n)
    s2 = np.linspace(ang - np.pi / 2, ang + np.pi / 2, n)
    pts = np.vstack([a + r * np.column_stack([np.cos(s1), np.sin(s1)]),
                     b + r * np.column_stack([np.cos(s2), np.sin(s2)])])
    return pts


def rotate(phi, p):
    c, s = np.cos(phi), np.sin(phi)
    p = np.asarray(p, float)
    return np.stack([c * p[..., 0] - s * p[..., 1], s * p[..., 0] + c * p[..., 1]], axis=-1)


class Scene:
    """bodies, their shapes and points (body coordinates) and the run's poses"""

    def __init__(self, scene, names, values):
        self.col = {}
        for k, n in enumerate(names):
            e, q, _ = plot.split(n)
            self.col[(e, q)] = k
        self.values = values
        self.t = values[:, 0]
        self.bodies = [b["name"] for b in scene.get("bodies", []) if b["name"] != "ground"]
        for b in self.bodies:
            if (b, "x") not in self.col:
                raise Usage(f"the scene's body '{b}' has no column in timeseries.csv "
                            "(a scene of another model?)")
        # a beam (its nodes, bodies, in order) is drawn as one curve in one colour
        self.beams = [bm for bm in scene.get("beams", []) if len(bm.get("nodes", [])) >= 2]
        self.node_of = {n: bm["name"] for bm in self.beams for n in bm["nodes"]}
        for n in self.node_of:
            if n not in self.bodies:
                raise Usage(f"the scene's beam node '{n}' is not a body of the run")
        items = list(dict.fromkeys(("beam", self.node_of[b]) if b in self.node_of else b
                                   for b in self.bodies))
        colour = {k: COLORS[i % len(COLORS)] for i, k in enumerate(items)}
        self.color = {b: colour[("beam", self.node_of[b]) if b in self.node_of else b]
                      for b in self.bodies}
        self.beam_color = {bm["name"]: colour[("beam", bm["name"])] for bm in self.beams}
        self.shapes = {b: [] for b in self.bodies + ["ground"]}
        self.points = {b: [] for b in self.bodies + ["ground"]}
        self.joints = scene.get("joints", [])
        self.clearances = scene.get("clearance_joints", [])
        self.contacts = scene.get("contacts", [])
        for j in self.joints:
            self.add_point(j["body_a"], j["point_a"])
            self.add_point(j["body_b"], j["point_b"])
        for c in self.clearances:
            self.add_point(c["journal"], c["journal_point"])
            self.add_point(c["bearing"], c["bearing_point"])
        for s in scene.get("springs", []):
            self.add_point(s["body_a"], s["point_a"])
            self.add_point(s["body_b"], s["point_b"])
        for c in self.contacts:
            for side in ("a", "b"):
                shape, body = c[f"shape_{side}"], c[f"body_{side}"]
                if shape not in self.shapes.setdefault(body, []):
                    self.shapes[body].append(shape)

    def add_point(self, body, p):
        pts = self.points.setdefault(body, [])
        if not any(abs(q[0] - p[0]) < 1e-12 and abs(q[1] - p[1]) < 1e-12 for q in pts):
            pts.append(list(p))

    def pose(self, body, t):
        """x, y, phi of body at times t (interpolated), arrays"""
        if body == "ground":
            z = np.zeros_like(t)
            return z, z, z
        return tuple(np.interp(t, self.t, self.values[:, self.col[(body, q)]])
                     for q in ("x", "y", "phi"))

    def world(self, body, p, t):
        """body point(s) p in the global frame at times t: array (len(t), ..., 2)"""
        x, y, phi = self.pose(body, np.atleast_1d(t))
        q = np.asarray(p, float)
        out = np.empty((len(x),) + q.shape)
        for i in range(len(x)):
            out[i] = rotate(phi[i], q) + [x[i], y[i]]
        return out

    def beam_curve(self, beam, t, journals=None, sub=8):
        """points of beam's centreline at time t (array (k, 2)): between two nodes the cubic
        with the nodes' positions and, as its end tangents, their cross-sections' directions
        (theta; scaled by the chord), sub pieces per element; a node that is a clearance
        joint's journal at its origin is moved to the drawn (magnified) journal,
        journals[node]"""
        poses = [[float(v[0]) for v in self.pose(n, np.array([t]))] for n in beam["nodes"]]
        for k, n in enumerate(beam["nodes"]):
            if journals and n in journals:
                poses[k][0], poses[k][1] = journals[n]
        s = np.linspace(0.0, 1.0, sub + 1)[:-1, None]
        h00, h10 = 2 * s ** 3 - 3 * s ** 2 + 1, s ** 3 - 2 * s ** 2 + s
        h01, h11 = -2 * s ** 3 + 3 * s ** 2, s ** 3 - s ** 2
        out = []
        for (xa, ya, pa), (xb, yb, pb) in zip(poses[:-1], poses[1:]):
            ra, rb = np.array([xa, ya]), np.array([xb, yb])
            c = math.hypot(xb - xa, yb - ya)
            ta = c * np.array([math.cos(pa), math.sin(pa)])
            tb = c * np.array([math.cos(pb), math.sin(pb)])
            out.append(h00 * ra + h10 * ta + h01 * rb + h11 * tb)
        out.append(np.array([poses[-1][:2]]))
        return np.vstack(out)

    def series(self, entity, quantity, t):
        k = self.col.get((entity, quantity))
        return None if k is None else np.interp(t, self.t, self.values[:, k])

    def outline_points(self, body):
        """body-frame points that bound what is drawn of body"""
        pts = [np.asarray(p, float)[None] for p in self.points.get(body, [])]
        for s in self.shapes.get(body, []):
            if s["type"] == "circle":
                pts.append(np.asarray(s["a"], float) + s["radius"] * np.array(
                    [[1, 0], [-1, 0], [0, 1], [0, -1]]))
            elif s["type"] == "capsule":
                pts.append(capsule_outline(s["a"], s["b"], s["radius"], 4))
            elif s["type"] in ("polygon", "profile", "arc"):
                pts.append(np.asarray(s["vertices"], float))
            elif s["type"] == "line":
                pts.append(line_face(s, 0.03))
        for c in self.clearances:
            if c["bearing"] == body:
                pts.append(np.asarray(c["bearing_point"], float) + 1.6 * c["bearing_radius"]
                           * np.array([[1, 0], [-1, 0], [0, 1], [0, -1]]))
        return np.vstack(pts) if pts else np.zeros((1, 2))


def view_box(sc, times, aspect):
    """xmin, xmax, ymin, ymax holding every body at every frame time, with the aspect"""
    lo, hi = np.array([np.inf, np.inf]), np.array([-np.inf, -np.inf])
    sample = times if len(times) <= 400 else times[np.linspace(0, len(times) - 1, 400).astype(int)]
    for b in sc.bodies:
        w = sc.world(b, sc.outline_points(b), sample).reshape(-1, 2)
        lo, hi = np.minimum(lo, w.min(axis=0)), np.maximum(hi, w.max(axis=0))
    fixed = [np.asarray(p, float) for p in sc.points.get("ground", [])]
    fixed += [np.asarray(s["a"], float) for s in sc.shapes.get("ground", [])]  # walls, floors
    fixed += [np.asarray(v, float) for s in sc.shapes.get("ground", [])
              for v in s.get("vertices", [])]
    for p in fixed:
        lo, hi = np.minimum(lo, p), np.maximum(hi, p)
    span = max(hi[0] - lo[0], hi[1] - lo[1], 1e-6)
    lo, hi = lo - 0.08 * span, hi + 0.08 * span
    cx, cy = (lo + hi) / 2
    w, h = hi - lo
    if w / h < aspect:
        w = h * aspect
    else:
        h = w / aspect
    return cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2


# ---- frame times --------------------------------------------------------------------------

def impact_windows(run_dir):
    """(onset, separation) of each impact of the run's impact log (impacts.csv, or
    results.h5 of an HDF5 run), or []"""
    try:
        log = rundir.read_impacts(run_dir)
    except (OSError, rundir.Damaged):
        return []
    if not log or "t [s]" not in log or "duration [s]" not in log:
        return []
    out = []
    for t_text, d_text in zip(log["t [s]"], log["duration [s]"]):
        try:
            t0, d = float(t_text), float(d_text)
        except ValueError:
            continue
        if math.isfinite(t0):
            out.append((t0, t0 + (d if math.isfinite(d) and d > 0 else 0.0)))
    return out


def frame_times(t0, t1, n, windows, slow):
    """n evenly spaced times in [t0, t1]; with slow > 1, slow times denser inside the
    windows (widened by half a frame interval); returns (times, slowed flags)"""
    base = np.linspace(t0, t1, n) if n > 1 else np.array([t0])
    if slow <= 1 or not windows or n < 2:
        return base, np.zeros(len(base), bool)
    half = 0.5 * (t1 - t0) / (n - 1)
    edges = sorted((max(t0, a - half), min(t1, b + half)) for a, b in windows)
    merged = []
    for a, b in edges:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        elif b > a:
            merged.append([a, b])
    # weight 1 outside, slow inside: frame times invert the cumulative weight
    knots = sorted({t0, t1, *[e for m in merged for e in m]})
    knots = np.array(knots)
    mids = (knots[:-1] + knots[1:]) / 2
    inside = np.array([any(a <= m <= b for a, b in merged) for m in mids])
    weight = np.where(inside, slow, 1.0)
    cum = np.concatenate([[0.0], np.cumsum(weight * np.diff(knots))])
    total_frames = int(round((n - 1) * cum[-1] / (t1 - t0))) + 1
    times = np.interp(np.linspace(0, cum[-1], total_frames), cum, knots)
    seg = np.clip(np.searchsorted(knots, times, side="right") - 1, 0, len(mids) - 1)
    return times, inside[seg]


# ---- drawing ------------------------------------------------------------------------------

class Renderer:
    """the figure and its artists, moved to each frame's pose"""

    def __init__(self, sc, box, size, k_clear, title, status_mark):
        from matplotlib import patches, transforms
        self.sc, self.k = sc, k_clear
        self.transforms = transforms
        w, h = size
        self.fig = plt.figure(figsize=(w / 100, h / 100), dpi=100)
        self.ax = self.fig.add_axes([0, 0, 1, 1])
        self.ax.set_xlim(box[0], box[1])
        self.ax.set_ylim(box[2], box[3])
        self.ax.set_aspect("equal")
        self.ax.axis("off")
        self.fig.patch.set_facecolor("white")
        span = box[1] - box[0]
        self.span = span
        self.body_artists = {}  # body -> list of (artist, body-frame offset transform)
        self.bent = []  # (body, outline, its points in body coordinates, its clearance joints)
        lw_bar = max(2.0, 0.012 * w)
        for b in sc.bodies:
            arts = []
            col = sc.color[b]
            pts = [np.asarray(p, float) for p in sc.points.get(b, [])]
            for s in sc.shapes.get(b, []):
                if s["type"] in ("circle", "capsule"):
                    pts.append(np.asarray(s["a"], float))
                if s["type"] == "capsule":
                    pts.append(np.asarray(s["b"], float))
            pts = [p for i, p in enumerate(pts)
                   if not any(np.allclose(p, q, rtol=0, atol=1e-12) for q in pts[:i])]
            shapes = sc.shapes.get(b, [])
            if b in sc.node_of:
                pass  # a beam's node: the beam's curve goes through it (below)
            elif len(pts) >= 2:
                c = np.mean(pts, axis=0)
                order = sorted(pts, key=lambda p: math.atan2(p[1] - c[1], p[0] - c[0]))
                closed = order + [order[0]] if len(order) > 2 else order
                line, = self.ax.plot(*np.array(closed).T, color=col, lw=lw_bar,
                                     solid_capstyle="round", zorder=2)
                # a journal's body is drawn through its magnified journal: its outline is
                # redrawn each frame with the journal point moved to the drawn disc
                joined = [c for c in sc.clearances if c["journal"] == b]
                if joined:  # over the bearing's block and ring, under the journal's disc
                    line.set_zorder(4.5)
                    self.bent.append((b, line, np.array(closed), joined))
                else:
                    arts.append(line)
            elif not shapes:
                # a body with one point and no shape: a block (a slider)
                bw, bh = 0.08 * span, 0.045 * span
                for c in sc.clearances:  # a bearing's block holds its ring
                    if c["bearing"] == b:
                        rb = c["journal_radius"] + k_clear * (c["bearing_radius"]
                                                              - c["journal_radius"])
                        bw, bh = max(bw, 3.2 * rb), max(bh, 2.0 * rb)
                p0 = pts[0] if pts else np.zeros(2)
                rect = patches.Rectangle((p0[0] - bw / 2, p0[1] - bh / 2), bw, bh,
                                         facecolor=col, edgecolor="k", lw=0.8, zorder=2)
                self.ax.add_patch(rect)
                arts.append(rect)
            for s in shapes:
                if s["type"] == "circle":
                    p = patches.Circle(s["a"], s["radius"], facecolor=col, edgecolor="k",
                                       lw=0.5, zorder=3)
                elif s["type"] == "capsule":
                    p = patches.Polygon(capsule_outline(s["a"], s["b"], s["radius"]),
                                        closed=True, facecolor=col, edgecolor="k", lw=0.5,
                                        zorder=3, alpha=0.85)
                elif s["type"] in ("polygon", "profile"):
                    p = patches.Polygon(np.asarray(s["vertices"], float), closed=True,
                                        facecolor=col, edgecolor="k", lw=0.5, zorder=3)
                elif s["type"] == "arc":
                    p = patches.Polygon(np.asarray(s["vertices"], float), closed=False,
                                        fill=False, edgecolor=col, lw=2.0, zorder=3)
                elif s["type"] == "line":
                    # a line on a moving body (a flat follower's face): a plate along it
                    p = patches.Polygon(line_face(s, 0.15 * span), closed=True, facecolor=col,
                                        edgecolor="k", lw=0.5, zorder=3)
                else:
                    continue
                self.ax.add_patch(p)
                arts.append(p)
            for c in sc.clearances:
                if c["bearing"] == b:
                    rb = c["journal_radius"] + k_clear * (c["bearing_radius"] - c["journal_radius"])
                    ring = patches.Annulus(c["bearing_point"], rb * 1.3, rb * 0.3,
                                           facecolor=col, edgecolor="k", lw=0.6, zorder=4)
                    bore = patches.Circle(c["bearing_point"], rb, facecolor="white",
                                          edgecolor="none", zorder=4)
                    self.ax.add_patch(bore)
                    self.ax.add_patch(ring)
                    arts += [bore, ring]
            self.body_artists[b] = arts
        self.static_ground(patches)
        # the beams: a curve through their nodes, redrawn at each frame
        self.beam_lines = []
        for bm in sc.beams:
            # as a rigid journal's body: over the bearing's block and ring, under the disc
            journal = any(c["journal"] in bm["nodes"] for c in sc.clearances)
            line, = self.ax.plot([], [], color=sc.beam_color[bm["name"]], lw=lw_bar,
                                 solid_capstyle="round", solid_joinstyle="round",
                                 zorder=4.5 if journal else 2.5)
            self.beam_lines.append((bm, line))
        # journals (drawn magnified about their bearing), pins, arrows, labels
        self.journals = []
        for c in sc.clearances:
            disc = patches.Circle((0, 0), c["journal_radius"], facecolor=sc.color.get(
                c["journal"], GROUND), edgecolor="k", lw=0.6, zorder=5)
            self.ax.add_patch(disc)
            self.journals.append((c, disc))
        self.pins = self.ax.scatter([], [], s=max(12, 0.04 * w), facecolor="white",
                                    edgecolor="k", lw=0.8, zorder=6)
        ncontacts = len(sc.contacts) + len(sc.clearances)
        zero = np.zeros(max(ncontacts, 1))  # zero-length arrows draw nothing (minlength 0)
        self.arrows = self.ax.quiver(zero, zero, zero, zero, angles="xy", scale_units="xy",
                                     scale=1, color=ARROW, width=0.004, headwidth=4,
                                     headlength=5, headaxislength=4.5, minlength=0, zorder=7)
        self.flabel = self.ax.text(0, 0, "", color=ARROW, fontsize=8, zorder=8,
                                   ha="left", va="bottom")
        fs = max(7, int(w / 70))
        self.clock = self.ax.text(0.015, 0.975, "", transform=self.ax.transAxes, fontsize=fs,
                                  va="top", ha="left", family="monospace", zorder=9,
                                  bbox=dict(facecolor="white", alpha=0.8, edgecolor="none"))
        notes = [title]
        if sc.clearances:
            notes.append(f"clearance drawn x{k_clear:g}")
        if status_mark:
            notes.append(status_mark)
        self.ax.text(0.985, 0.975, "\n".join(notes), transform=self.ax.transAxes,
                     fontsize=max(6, fs - 2), va="top", ha="right", zorder=9,
                     color="red" if status_mark else "black")
        fmax = max([self.max_force(c) for c in self.contact_list()] + [0.0])
        self.fscale = (0.15 * span / fmax) if fmax > 0 else 0.0  # m per N
        if fmax > 0:
            ref = 10 ** math.floor(math.log10(fmax))
            x0, y0 = box[0] + 0.02 * span, box[2] + 0.04 * (box[3] - box[2])
            self.ax.plot([x0, x0 + ref * self.fscale], [y0, y0], color=ARROW, lw=2, zorder=9)
            self.ax.text(x0, y0 + 0.01 * span, f"contact force: {force_text(ref)}",
                         fontsize=max(6, fs - 2), color=ARROW, va="bottom", zorder=9)

    def static_ground(self, patches):
        sc, span = self.sc, self.span
        for s in sc.shapes.get("ground", []):
            if s["type"] == "line":
                a, n = np.asarray(s["a"], float), np.asarray(s["normal"], float)
                n = n / (np.hypot(*n) or 1.0)
                d = np.array([-n[1], n[0]])
                p = [a - 2 * span * d, a + 2 * span * d, a + 2 * span * d - 0.02 * span * n,
                     a - 2 * span * d - 0.02 * span * n]
                self.ax.add_patch(patches.Polygon(p, closed=True, facecolor="0.85",
                                                  edgecolor=GROUND, hatch="////", lw=0.8,
                                                  zorder=1))
            elif s["type"] == "circle":
                self.ax.add_patch(patches.Circle(s["a"], s["radius"], facecolor="0.8",
                                                 edgecolor=GROUND, zorder=1))
            elif s["type"] == "capsule":
                self.ax.add_patch(patches.Polygon(capsule_outline(s["a"], s["b"], s["radius"]),
                                                  closed=True, facecolor="0.8",
                                                  edgecolor=GROUND, zorder=1))
            elif s["type"] in ("polygon", "profile"):
                self.ax.add_patch(patches.Polygon(np.asarray(s["vertices"], float), closed=True,
                                                  facecolor="0.8", edgecolor=GROUND, zorder=1))
            elif s["type"] == "arc":
                self.ax.add_patch(patches.Polygon(np.asarray(s["vertices"], float), closed=False,
                                                  fill=False, edgecolor=GROUND, lw=1.5,
                                                  zorder=1))
        for j in sc.joints:
            if j["type"] in ("translational", "pin_slot") and j["body_a"] == "ground":
                a, d = np.asarray(j["point_a"], float), np.asarray(j["axis_a"], float)
                d = d / (np.hypot(*d) or 1.0)
                self.ax.plot(*np.array([a - 2 * span * d, a + 2 * span * d]).T, color=GROUND,
                             lw=0.8, ls="--", zorder=1)
        for p in sc.points.get("ground", []):
            self.ax.plot([p[0]], [p[1]], marker="^", ms=9, color=GROUND, zorder=1)

    def contact_list(self):
        return [c["name"] for c in self.sc.contacts] + [c["name"] for c in self.sc.clearances]

    def max_force(self, name):
        k = self.sc.col.get((name, "Fn"))
        return float(np.max(self.sc.values[:, k])) if k is not None else 0.0

    def draw(self, t, slowed, tunit):
        sc, tr = self.sc, self.transforms
        for b, arts in self.body_artists.items():
            x, y, phi = (float(v[0]) for v in sc.pose(b, np.array([t])))
            m = tr.Affine2D().rotate(phi).translate(x, y) + self.ax.transData
            for a in arts:
                a.set_transform(m)
        for c, disc in self.journals:
            cb = sc.world(c["bearing"], c["bearing_point"], t)[0]
            ex, ey = sc.series(c["name"], "ex", t), sc.series(c["name"], "ey", t)
            if ex is None:
                cj = sc.world(c["journal"], c["journal_point"], t)[0]
                ex, ey = cj - cb
            disc.center = (cb[0] + self.k * float(ex), cb[1] + self.k * float(ey))
        journal_at = {}  # a beam node that is a journal at its origin: the drawn disc
        for c, disc in self.journals:
            if c["journal"] in sc.node_of and np.allclose(c["journal_point"], 0, rtol=0,
                                                           atol=1e-12):
                journal_at[c["journal"]] = disc.center
        for bm, line in self.beam_lines:
            xy = sc.beam_curve(bm, t, journal_at)
            line.set_data(xy[:, 0], xy[:, 1])
        for b, line, pts, joined in self.bent:
            world = sc.world(b, pts, t)[0]
            for c in joined:
                disc = next(d for cc, d in self.journals if cc is c)
                at = np.all(np.isclose(pts, np.asarray(c["journal_point"], float), rtol=0,
                                       atol=1e-12), axis=1)
                world[at] = disc.center
            line.set_data(world[:, 0], world[:, 1])
        pins = [sc.world(j["body_b"], j["point_b"], t)[0] for j in sc.joints
                if j["type"] == "revolute"]
        self.pins.set_offsets(np.array(pins) if pins else np.empty((0, 2)))
        xy = np.zeros((len(sc.contacts) + len(sc.clearances), 4))
        best = None
        for i, c in enumerate(sc.contacts):
            fn = sc.series(c["name"], "Fn", t)
            if fn is None or fn <= 0:
                continue
            p, n = self.contact_point(c, t)
            if p is None:
                continue
            xy[i] = [*p, *(n * fn * self.fscale)]  # the force on body_b, from the contact
            if best is None or fn > best[0]:
                best = (float(fn), p + n * fn * self.fscale)
        for i, (c, disc) in enumerate(self.journals, start=len(sc.contacts)):
            fn = sc.series(c["name"], "Fn", t)
            if fn is None or fn <= 0:
                continue
            cb = sc.world(c["bearing"], c["bearing_point"], t)[0]
            e = np.array(disc.center) - cb
            n = e / (np.hypot(*e) or 1.0)
            p = np.array(disc.center) + n * c["journal_radius"]
            xy[i] = [*p, *(-n * fn * self.fscale)]  # on the journal, towards the bearing centre
            if best is None or fn > best[0]:
                best = (float(fn), p - n * fn * self.fscale)
        if len(xy):
            self.arrows.set_offsets(xy[:, :2])
            self.arrows.set_UVC(xy[:, 2], xy[:, 3])
        if best is not None:
            self.flabel.set_position(best[1])
            self.flabel.set_text(" " + force_text(best[0]))
        else:
            self.flabel.set_text("")
        scale, unit = tunit
        self.clock.set_text(f"t = {t * scale:9.4f} {unit}" + ("\nslowed" if slowed else ""))

    def contact_point(self, c, t):
        """point on shape_b and the normal pushing body_b (global), or (None, None)"""
        sa, sb, ba, bb = c["shape_a"], c["shape_b"], c["body_a"], c["body_b"]
        if sb["type"] != "circle":
            return None, None
        cb = self.sc.world(bb, sb["a"], t)[0]
        if sa["type"] == "circle":
            ca = self.sc.world(ba, sa["a"], t)[0]
            d = cb - ca
        elif sa["type"] == "capsule":
            a, b = self.sc.world(ba, [sa["a"], sa["b"]], t)[0]
            u = b - a
            s = np.clip(np.dot(cb - a, u) / (np.dot(u, u) or 1.0), 0, 1)
            d = cb - (a + s * u)
        elif sa["type"] == "line":
            x, y, phi = (float(v[0]) for v in self.sc.pose(ba, np.array([t])))
            d = rotate(phi, sa["normal"])
        else:
            return None, None
        n = d / (np.hypot(*d) or 1.0)
        return cb - n * sb["radius"], n

    def pixel_transform(self):
        """2x3 matrix from data coordinates to pixels, origin top left"""
        self.fig.canvas.draw()
        m = self.ax.transData.get_matrix()
        h = self.fig.bbox.height
        return [[m[0, 0], m[0, 1], m[0, 2]], [-m[1, 0], -m[1, 1], h - m[1, 2]]]


def force_text(f):
    return f"{f / 1e3:.3g} kN" if f >= 1e3 else f"{f:.3g} N"


def time_unit(t_end):
    if t_end < 1e-3:
        return 1e6, "us"
    if t_end < 1.0:
        return 1e3, "ms"
    return 1.0, "s"


def default_clearance_scale(sc, span):
    """a round factor that draws the largest clearance over about 3% of the view"""
    cs = [c["bearing_radius"] - c["journal_radius"] for c in sc.clearances]
    if not cs:
        return 1.0
    k = 0.03 * span / max(cs)
    if k <= 1:
        return 1.0
    p = 10 ** math.floor(math.log10(k))
    return float(max(m * p for m in (1, 2, 5, 10) if m * p <= k))


def encode(frames_iter, size, fps, out, formats, inputs=None):
    """pipes RGBA frames to one ffmpeg writing the formats asked; the paths written"""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise FileNotFoundError("ffmpeg")
    w, h = size
    cmd = [ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo",
           "-pix_fmt", "rgba", "-s", f"{w}x{h}", "-r", f"{fps:g}", "-i", "-"]
    final, temp, graph, maps = [], [], [], []
    gw = min(w, 480) // 2 * 2
    if "mp4" in formats and "gif" in formats:
        graph.append("[0:v]split=2[m][g0]")
        mp4_in, gif_in = "[m]", "[g0]"
    else:
        mp4_in = gif_in = "[0:v]"
    if "gif" in formats:
        graph.append(f"{gif_in}scale={gw}:-2:flags=lanczos,split[g1][g2];[g1]palettegen"
                     "[p];[g2][p]paletteuse[gif]")
    if "mp4" in formats:
        path = os.path.join(out, "animation.mp4")
        final.append(path)
        temp.append(path + ".incomplete")
        if graph:
            graph.append(f"{mp4_in}null[mp4]")
            maps.append(["-map", "[mp4]"])
        else:
            maps.append([])
        maps[-1] += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", "-f", "mp4",
                     temp[-1]]
    if "gif" in formats:
        path = os.path.join(out, "animation.gif")
        final.append(path)
        temp.append(path + ".incomplete")
        maps.append(["-map", "[gif]", "-f", "gif", temp[-1]])
    for p in final:  # an input is refused before ffmpeg starts (plot.InputClash)
        plot.refuse_input(p, inputs)
    if graph:
        cmd += ["-filter_complex", ";".join(graph)]
    for m in maps:
        cmd += m
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for rgba in frames_iter:
            proc.stdin.write(rgba)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    err = proc.stderr.read().decode(errors="replace").strip()
    if proc.wait() != 0:
        for p in temp:
            if os.path.exists(p):
                os.remove(p)
        raise RuntimeError(f"ffmpeg failed: {err.splitlines()[-1] if err else 'no message'}")
    for a, b in zip(temp, final):
        os.replace(a, b)
    return final


def main(argv):
    global np, plt
    o = plot.command_line(argv, PROG, parse, __doc__)
    if isinstance(o, int):
        return o
    try:
        import numpy
        np = plot.np = numpy
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
        plt = pyplot
    except ImportError as e:
        print(f"{PROG}: {e}; install python3-numpy and python3-matplotlib",
              file=sys.stderr)
        return EXIT_MISSING
    run_dir, out = o["run"], o["out"] or o["run"]
    run_read = plot.read_run(run_dir, PROG)
    if run_read is None:
        return EXIT_DAMAGED
    summary, names, values = run_read
    try:
        with open(o["scene"]) as f:
            scene = json.load(f)
        sc = Scene(scene, names, values)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{PROG}: {o['scene']}: not a scene file ({e})", file=sys.stderr)
        return EXIT_DAMAGED
    except Usage as e:
        print(f"{PROG}: {o['scene']}: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    status = summary["status"]
    mark = "" if status == "ok" else f"{status.upper()} at t = {sc.t[-1]:.6g} s: ends there"
    t0, t1 = float(sc.t[0]), float(sc.t[-1])
    n = o["frames"] or max(2, int(round(o["fps"] * o["duration"])))
    n = min(n, max(2, len(sc.t))) if o["frames"] is None else n
    times, slowed = frame_times(t0, t1, n, impact_windows(run_dir) if o["slow"] > 1 else [],
                                o["slow"])
    w, h = o["size"]
    if o["frame"] is not None:
        if not t0 <= o["frame"] <= t1:
            print(f"{PROG}: --frame {o['frame']:g}: outside the run's [{t0:g}, {t1:g}] s",
                  file=sys.stderr)
            return EXIT_DAMAGED
        times = np.array([o["frame"]])
        slowed = np.zeros(1, bool)
    box = view_box(sc, times if len(times) > 1 else np.linspace(t0, t1, 50), w / h)
    k = o["clearance_scale"] or default_clearance_scale(sc, box[1] - box[0])
    title = str(summary.get("model", ""))
    if o["slow"] > 1:
        title += f"  (impacts slowed x{o['slow']:g})"
    r = Renderer(sc, box, (w, h), k, title, mark)
    tunit = time_unit(t1)
    inputs = plot.run_inputs(run_dir, summary, scene, o["scene"])
    try:
        os.makedirs(out, exist_ok=True) if o["frame"] is None else None
        if o["frame"] is not None:
            r.draw(o["frame"], False, tunit)
            plot.refuse_input(o["png"] + ".json", inputs)  # both refused before either is written
            plot.write_replacing(o["png"], lambda tmp: r.fig.savefig(tmp, format="png",
                                                                       dpi=100), inputs)

            def write_json(tmp):
                with open(tmp, "w") as f:
                    json.dump({"pixel_transform": r.pixel_transform(), "size": [w, h],
                               "colors": sc.color, "clearance_scale": k,
                               "beams": {bm["name"]: {"nodes": bm["nodes"],
                                                      "color": sc.beam_color[bm["name"]]}
                                         for bm in sc.beams}}, f, indent=1)
            plot.write_replacing(o["png"] + ".json", write_json, inputs)
            print(o["png"])
            return EXIT_OK if status == "ok" else EXIT_MARKED

        def frames():
            for t, s in zip(times, slowed):
                r.draw(float(t), bool(s), tunit)
                r.fig.canvas.draw()
                yield bytes(r.fig.canvas.buffer_rgba())

        written = encode(frames(), (w, h), o["fps"], out, o["formats"], inputs)
    except plot.InputClash as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    except FileNotFoundError as e:
        if e.filename is None and str(e) == "ffmpeg":
            print(f"{PROG}: ffmpeg is not available; install ffmpeg", file=sys.stderr)
            return EXIT_MISSING
        print(f"{PROG}: {e.filename or out}: cannot write: {e.strerror}",
              file=sys.stderr)
        return EXIT_IO
    except OSError as e:
        print(f"{PROG}: {e.filename or out}: cannot write: {e.strerror}",
              file=sys.stderr)
        return EXIT_IO
    except RuntimeError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_MARKED
    for p in written:
        print(p)
    print(f"{PROG}: {len(times)} frames at {o['fps']:g} fps "
          f"({len(times) / o['fps']:.2f} s of video for {t1 - t0:.6g} s simulated"
          + (f"; clearance drawn x{k:g}" if sc.clearances else "") + ")", file=sys.stderr)
    if status != "ok":
        print(f"{PROG}: {run_dir}: the run {status} at t = "
              f"{summary.get('t_end_reached')} s; animated up to there and marked",
              file=sys.stderr)
        return EXIT_MARKED
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 -- the user gets one line, never a traceback
        print(f"{PROG}: cannot animate {sys.argv[1] if len(sys.argv) > 1 else ''}: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
