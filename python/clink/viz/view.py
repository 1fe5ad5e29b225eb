# SPDX-License-Identifier: BSD-3-Clause
"""An interactive viewer of a run or a sweep: one self-contained HTML file.

    python3 -m clink.viz.view DIR [--scene SCENE.json] [-o FILE.html] [--max-values N]

Called by `clink view DIR` (which writes the scene from the run's model). DIR is
a `clink run` output directory (CSV or HDF5: rundir.py) or a `clink sweep`
directory (sweep.csv). The page needs only a browser: the data, the script
(view.js) and the style (view.css) are inside it, nothing is fetched.

A run's page: the mechanism drawn as `clink animate` draws it (shapes, joints,
clearances magnified, contact-force arrows, each flexible beam as one curve
through its nodes), a time slider, play/pause and a
speed (simulated time per second of play); plots of any column chosen (against
time or the crank angle), the journal orbit in its clearance circle, the
energies and the audit residual, each with a cursor at the slider's time, zoom
(wheel) and pan (drag), double-click to reset; the impact log as a table whose
rows jump to the impact's onset and play through it slowed; the summary and
settings. With more than 8 contacts along a chain, the space-time map of the
normal force (zoomable).

A sweep's page: the table of sweep.csv, sortable and filterable, with failed and
invalid cases marked with their cause, and a scatter plot of any two columns
coloured by a third.

Packing: the time series goes in as one float32 array per column (float64 for
time), base64 in a JSON document; a column constant over the run as one number.
At most --max-values numbers (default 3e6, about 16 MB of page) are kept: above that, rows are thinned evenly (the first and
last kept, and every impact's onset row), and then, for many columns, only the
poses, the normal forces, the eccentricities, the energies and the constraint
violation are kept (the page says what was left out).

Exit status: 0 written; 2 the directory is damaged or missing, or a bad option;
3 the page could not be written.
"""
import base64
import csv
import json
import os
import sys

from . import rundir

EXIT_OK, EXIT_DAMAGED, EXIT_IO = 0, 2, 3
PROG = "clink view"
HERE = os.path.dirname(os.path.abspath(__file__))
MAX_VALUES = 3_000_000
KEEP_QUANTITIES = ("x", "y", "phi", "Fn", "ex", "ey", "offset", "tilt")


class Usage(Exception):
    """a bad option"""


def parse(argv):
    opts = {"dir": None, "scene": None, "out": None, "max_values": MAX_VALUES}
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--scene", "-o", "--out", "--max-values"):
            if i + 1 >= len(args):
                raise Usage(f"{a} needs a value")
            v = args[i + 1]
            i += 2
            if a == "--scene":
                opts["scene"] = v
            elif a == "--max-values":
                try:
                    opts["max_values"] = int(float(v))
                except ValueError:
                    raise Usage(f"--max-values: '{v}' is not a number") from None
                if opts["max_values"] < 1000:
                    raise Usage(f"--max-values: {v} is below 1000")
            else:
                opts["out"] = v
        elif a.startswith("-"):
            raise Usage(f"unknown option '{a}'")
        elif opts["dir"] is None:
            opts["dir"] = a
            i += 1
        else:
            raise Usage(f"one directory only (got '{opts['dir']}' and '{a}')")
    if opts["dir"] is None:
        raise Usage("no run or sweep directory")
    return opts


def b64(array):
    return base64.b64encode(array.tobytes()).decode("ascii")


def thin_rows(t, keep_times, n_max):
    """indices of at most about n_max rows, evenly spread, with the first and last rows
    and the rows at keep_times (impact onsets)"""
    import numpy as np
    n = len(t)
    if n <= n_max:
        return np.arange(n)
    idx = set(np.linspace(0, n - 1, n_max).round().astype(int).tolist())
    for tk in keep_times:
        k = int(np.searchsorted(t, tk))
        idx.update(j for j in (k - 1, k, k + 1) if 0 <= j < n)
    return np.array(sorted(idx))


def run_payload(run_dir, scene, max_values):
    import numpy as np
    summary = rundir.read_summary(run_dir)
    names, values, _labels = rundir.read_series(run_dir)
    log = rundir.read_impacts(run_dir) or {}
    impacts = []
    heads = list(log.keys())
    for k in range(len(log.get("t [s]", []))):
        impacts.append({h: log[h][k] for h in heads})
    onsets = []
    for row in impacts:
        try:
            onsets.append(float(row["t [s]"]))
        except (KeyError, ValueError):
            pass
    ncols = len(names)
    notes = []
    keep_cols = list(range(ncols))
    # many columns: the quantities the page draws by default, the rest left out
    if ncols * len(values) > max_values:
        drawn = [k for k, n in enumerate(names)
                 if k == 0 or n.split(" [")[0].rsplit(".", 1)[-1] in KEEP_QUANTITIES
                 or n.startswith(("energy.", "constraint.", "row."))]
        if len(drawn) < ncols:
            notes.append(f"{ncols - len(drawn)} of {ncols} columns left out to keep the page "
                         "small (velocities, accelerations, reactions, penetrations...: "
                         "`clink plot` or the files have them)")
            keep_cols = drawn
    # a column constant over the run (a bead's y and phi) goes in as one number
    const = {k for k in keep_cols[1:] if np.all(values[:, k] == values[0, k])}
    constants = {names[k]: float(values[0, k]) for k in sorted(const)}
    keep_cols = [k for k in keep_cols if k not in const]
    rows = thin_rows(values[:, 0], onsets, max(2, max_values // max(len(keep_cols), 1)))
    if len(rows) < len(values):
        notes.append(f"{len(rows)} of {len(values)} rows kept (evenly spread, every impact "
                     "onset kept)")
    t = np.ascontiguousarray(values[rows, 0], dtype="<f8")
    cols = np.ascontiguousarray(values[np.ix_(rows, keep_cols[1:])].T, dtype="<f4")
    return {
        "kind": "run",
        "dir": os.path.abspath(run_dir),
        "summary": summary,
        "scene": scene,
        "names": [names[k] for k in keep_cols[1:]],
        "constants": constants,
        "rows": int(len(rows)),
        "t": b64(t),
        "columns": b64(cols),
        "impacts": impacts,
        "impact_heads": heads,
        "notes": notes,
        "source_rows": int(len(values)),
        "source_columns": int(ncols),
    }


def sweep_payload(sweep_dir):
    path = os.path.join(sweep_dir, "sweep.csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise rundir.Damaged(f"{path}: cannot read: {e.strerror}") from None
    if not rows or "status" not in rows[0]:
        raise rundir.Damaged(f"{path}: not a clink sweep table (no status column)")
    head = rows[0]
    bad = [k + 2 for k, r in enumerate(rows[1:]) if len(r) != len(head)]
    if bad:
        raise rundir.Damaged(f"{path}:{bad[0]}: {len(rows[bad[0] - 1])} fields, the header "
                             f"has {len(head)}")
    return {"kind": "sweep", "dir": os.path.abspath(sweep_dir), "head": head,
            "rows": rows[1:]}


def page(payload):
    with open(os.path.join(HERE, "view.js")) as f:
        script = f.read()
    with open(os.path.join(HERE, "view.css")) as f:
        style = f.read()
    data = json.dumps(payload, allow_nan=True, separators=(",", ":"))
    # the JSON sits in a script element: "</" must not close it
    data = data.replace("</", "<\\/")
    title = payload["summary"].get("model", "clink run") if payload["kind"] == "run" \
        else os.path.basename(payload["dir"].rstrip("/")) + " (sweep)"
    title = title.replace("&", "&amp;").replace("<", "&lt;")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            f"<title>{title}: clink view</title>\n<style>\n{style}\n</style></head>\n"
            "<body>\n<div id=\"app\"></div>\n"
            f"<script type=\"application/json\" id=\"clink-data\">{data}</script>\n"
            f"<script>\n{script}\n</script>\n</body></html>\n")


def main(argv):
    try:
        o = parse(argv)
    except Usage as e:
        print(f"{PROG}: {e} (see {PROG} --help)", file=sys.stderr)
        return EXIT_DAMAGED
    d = o["dir"]
    try:
        import numpy  # noqa: F401  (the run's reader)
    except ImportError as e:
        print(f"{PROG}: NumPy is not available ({e}); install python3-numpy", file=sys.stderr)
        return EXIT_DAMAGED
    scene = None
    if o["scene"]:
        try:
            with open(o["scene"]) as f:
                scene = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{PROG}: {o['scene']}: cannot read the scene ({e})", file=sys.stderr)
            return EXIT_DAMAGED
    try:
        if not os.path.isdir(d):
            raise rundir.Damaged(f"{d}: not a directory")
        if os.path.exists(os.path.join(d, "sweep.csv")):
            payload = sweep_payload(d)
            default = os.path.join(d, "sweep.html")
        else:
            payload = run_payload(d, scene, o["max_values"])
            default = os.path.join(d, "view.html")
    except rundir.Damaged as e:
        print(f"{PROG}: damaged run: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    out = o["out"] or default
    text = page(payload)
    tmp = out + ".incomplete"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        print(f"{PROG}: {out}: cannot write: {e.strerror}", file=sys.stderr)
        try:
            os.remove(tmp)
        except OSError:
            pass
        return EXIT_IO
    print(out)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
