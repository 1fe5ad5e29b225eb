# SPDX-License-Identifier: BSD-3-Clause
"""Run directories from Python: Result.save(), Result.plot() and clink.read_run().

Result.save(DIR) writes what `clink run MODEL.xml -o DIR` writes for the same rows:
timeseries.csv (the same columns, names and units, in the same order: t; per body x,
y, phi, vx, vy, omega, ax, ay, alpha; per joint Fx, Fy, M and per driver F; per
contact delta, delta_dot, Fn, Ft, phase, ex and ey for a journal, a slider's offset
and tilt; the energies; the constraint violation; row.kind, 0 for every row since a
Result holds the grid), impacts.csv and summary.json (the Result's summary, with the
model file as "source" so that `clink plot` and `clink animate` find the model).
Numbers are written as Python's repr, the shortest decimal that reads back as the
same double (the library's writer uses the same rule, laid out like %.17g, so a
number can be spelt differently, "1e-05" or "0.0" against "1.0000000000000001e-05" or
"0", never valued differently). The files are written as NAME.incomplete and renamed,
summary.json last, as the library's recorder does.

read_run(DIR) reads a run directory written by `clink run` (CSV or HDF5) or by
Result.save into a Run: .timeseries and .impacts as pandas DataFrames (dicts of NumPy
arrays without pandas), .summary a dict, .format "csv" or "hdf5".
"""
from __future__ import annotations

import json
import math
import os
from typing import Any

import numpy as np

from clink._errors import FileNotFound, InputError, IOFailure
from clink._lib import ffi, lib
from clink._types import StrPath, Table

_ENERGY_CSV = ("kinetic", "gravity", "spring", "work_drivers", "work_loads", "residual",
               "contact_stored", "contact_damping", "contact_friction")
_ENERGY_FIELD = {"residual": "balance"}  # CSV name -> clink_energy field
_IMPACT_CSV = (("t [s]", "t_onset"), ("pair", "name"), ("v_impact [m/s]", "v_impact"),
               ("v_separation [m/s]", "v_separation"), ("restitution [-]", "restitution"),
               ("delta_max [m]", "delta_max"), ("F_max [N]", "F_max"),
               ("duration [s]", "duration"), ("dissipated [J]", "dissipated"),
               ("lobes [-]", "lobes"))


def _s(p):
    return ffi.string(p).decode() if p != ffi.NULL else ""


def layout(model_ptr, ndrivers):
    """what the columns need from the live model: the drivers' units, and per contact
    whether it is a journal (ex, ey) and the element outputs that follow it"""
    units = [_s(lib.clink_model_driver_unit(model_ptr, i)) or "N" for i in range(ndrivers)]
    n = lib.clink_model_contact_count(model_ptr)
    journal, extras = [], []
    for i in range(n):
        e = lib.clink_model_contact_element(model_ptr, i)
        journal.append(bool(lib.clink_model_contact_has_eccentricity(model_ptr, i)))
        last = i + 1 >= n or lib.clink_model_contact_element(model_ptr, i + 1) != e
        outs = []
        for j in range(lib.clink_model_element_output_count(model_ptr, e) if last else 0):
            unit = ffi.new("const char **")
            name = _s(lib.clink_model_element_output_name(model_ptr, e, j, unit))
            outs.append((e, j, _s(lib.clink_model_element_name(model_ptr, e)), name,
                         _s(unit[0])))
        extras.append(outs)
    return {"driver_units": units, "journal": journal, "extras": extras}


def element_outputs(model_ptr, result, lay):
    """{column name: (unit, values over the rows)} of the elements' own outputs: as sampled at
    the rows (clink_sim_element_outputs, the outputs from forces included), else from the
    bodies' poses of the result (clink_model_element_outputs; those from forces are NaN)"""
    out = {}
    q = result.q
    zero = np.zeros(3)
    for outs in lay["extras"]:
        for e, j, owner, name, unit in outs:
            sampled = getattr(result, "_elem_rows", {}).get(e)
            if sampled is not None:  # sampled at the rows: poses and forces
                out[f"{owner}.{name}"] = (unit, sampled[:result.rows, j].copy())
                continue
            a, b = ffi.new("int *"), ffi.new("int *")
            lib.clink_model_element_bodies(model_ptr, e, a, b)
            nv = lib.clink_model_element_output_count(model_ptr, e)
            vals = ffi.new("double[]", max(nv, 1))
            col = np.empty(result.rows)
            for k in range(result.rows):
                qa = q[k, a[0] - 1] if a[0] > 0 else zero
                qb = q[k, b[0] - 1] if b[0] > 0 else zero
                st = lib.clink_model_element_outputs(
                    model_ptr, e, ffi.new("double[3]", list(qa)),
                    ffi.new("double[3]", list(qb)), vals)
                col[k] = vals[j] if st == lib.CLINK_OK else math.nan
            out[f"{owner}.{name}"] = (unit, col)
    return out


def _columns(r):
    """(header, 2-D array) of the time series of Result r"""
    names, cols = ["t [s]"], [r.t]
    lay = r._layout
    for i, b in enumerate(r.bodies):
        for k, (qn, u) in enumerate((("x", "m"), ("y", "m"), ("phi", "rad"))):
            names.append(f"{b}.{qn} [{u}]")
            cols.append(r.q[:, i, k])
        for k, (qn, u) in enumerate((("vx", "m/s"), ("vy", "m/s"), ("omega", "rad/s"))):
            names.append(f"{b}.{qn} [{u}]")
            cols.append(r.v[:, i, k])
        for k, (qn, u) in enumerate((("ax", "m/s^2"), ("ay", "m/s^2"), ("alpha", "rad/s^2"))):
            names.append(f"{b}.{qn} [{u}]")
            cols.append(r.a[:, i, k])
    if r._out_reactions:
        for i, j in enumerate(r.joints):
            for k, (qn, u) in enumerate((("Fx", "N"), ("Fy", "N"), ("M", "N m"))):
                names.append(f"{j}.{qn} [{u}]")
                cols.append(r.reactions[:, i, k])
        for i, d in enumerate(r.drivers):
            names.append(f"{d}.F [{lay['driver_units'][i]}]")
            cols.append(r.driver_forces[:, i])
    c = r.contacts
    for i, name in enumerate(c.names):
        for qn, u, arr in (("delta", "m", c.delta), ("delta_dot", "m/s", c.delta_dot),
                           ("Fn", "N", c.fn), ("Ft", "N", c.ft), ("phase", "-", c.phase)):
            names.append(f"{name}.{qn} [{u}]")
            cols.append(arr[:, i])
        if lay["journal"][i]:
            for k, qn in enumerate(("ex", "ey")):
                names.append(f"{name}.{qn} [m]")
                cols.append(c.eccentricity[:, i, k])
        for _e, _j, owner, qn, u in lay["extras"][i]:
            names.append(f"{owner}.{qn} [{u}]")
            cols.append(r._element_outputs[f"{owner}.{qn}"][1])
    if r._out_energies:
        for qn in _ENERGY_CSV[:9 if len(c.names) else 6]:
            names.append(f"energy.{qn} [J]")
            cols.append(r.energy[_ENERGY_FIELD.get(qn, qn)])
    names += ["constraint.position [m]", "constraint.velocity [m/s]", "row.kind [-]"]
    cols += [r.violation[:, 0], r.violation[:, 1], np.zeros(r.rows)]
    return names, np.column_stack([np.asarray(x, dtype=float) for x in cols])


def _number(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def _write(path, text):
    tmp = path + ".incomplete"
    try:
        with open(tmp, "w", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise IOFailure(f"{path}: cannot write: {e.strerror}") from None


def save(r: Any, directory: StrPath) -> str:
    """Result.save: the run directory of Result r (see the module's doc)"""
    d = os.fspath(directory)
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        raise IOFailure(f"{d}: cannot create the directory: {e.strerror}") from None
    if not os.path.isdir(d):
        raise IOFailure(f"{d}: not a directory")
    for name in ("summary.json", "timeseries.csv", "impacts.csv", "results.h5"):
        try:  # the previous run's files go first, summary.json first
            os.remove(os.path.join(d, name))
        except FileNotFoundError:
            pass
        except OSError as e:
            raise IOFailure(f"{os.path.join(d, name)}: cannot remove: {e.strerror}") from None
    names, values = _columns(r)
    lines = [",".join(names)]
    lines += [",".join(_number(x) for x in row) for row in values]
    _write(os.path.join(d, "timeseries.csv"), "\n".join(lines) + "\n")
    imp = [",".join(h for h, _ in _IMPACT_CSV)]
    for rec in r.impacts:
        imp.append(",".join(str(rec[f]) if f in ("name", "lobes") else _number(rec[f])
                            for _, f in _IMPACT_CSV))
    _write(os.path.join(d, "impacts.csv"), "\n".join(imp) + "\n")
    summary = dict(r.summary)
    if r.source is not None:
        summary["source"] = r.source
    summary.setdefault("output_rows", r.rows)
    summary["row_mode"] = "grid"
    summary["output_format"] = "csv"
    summary["written_by"] = "clink (Python) Result.save"
    _write(os.path.join(d, "summary.json"),
           json.dumps(summary, indent=2, allow_nan=False, default=_json_default) + "\n")
    return d


def _json_default(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    raise TypeError(f"{type(x).__name__} is not JSON")


def plot(r: Any, out: StrPath, against: str, formats: list[str]) -> list[str]:
    """Result.plot: the figures of `clink plot` drawn from Result r into out"""
    import tempfile
    from clink.viz import plot as viz_plot
    with tempfile.TemporaryDirectory(prefix="clink-result-") as tmp:
        save(r, tmp)
        argv = ["clink.viz.plot", tmp, "--out", os.fspath(out), "--against", against,
                "--format", ",".join(formats)]
        os.makedirs(os.fspath(out), exist_ok=True)
        before = {f: os.stat(os.path.join(out, f)).st_mtime_ns for f in os.listdir(out)}
        status = viz_plot.main(argv)
    if status not in (0, 1):
        raise IOFailure(f"the figures of the result could not be drawn into {out} "
                        f"(clink plot's exit status {status})")
    return sorted(os.path.join(out, f) for f in os.listdir(out)
                  if os.path.splitext(f)[1][1:] in formats
                  and before.get(f) != os.stat(os.path.join(out, f)).st_mtime_ns)


class Run:
    """A run directory read by clink.read_run(): .timeseries (DataFrame, or dict of
    arrays without pandas; columns "NAME.QUANTITY [UNIT]", times in s), .impacts (the
    impact log, same kinds), .summary (dict of summary.json), .path, .format ("csv" or
    "hdf5")."""

    def __init__(self, path: str, fmt: str, timeseries: Table, impacts: Table,
                 summary: dict[str, Any]) -> None:
        self.path, self.format = path, fmt
        self.timeseries, self.impacts, self.summary = timeseries, impacts, summary

    def __repr__(self) -> str:
        n = len(self.timeseries["t [s]"])
        return "<clink.Run %r (%s): %d rows, status %s>" % (self.path, self.format, n,
                                                             self.summary.get("status"))


def read_run(directory: StrPath) -> Run:
    """The run in directory (written by `clink run`, CSV or HDF5, or Result.save)."""
    from clink.viz import rundir
    d = os.fspath(directory)
    if not os.path.exists(d):
        raise FileNotFound(f"{d}: no such run directory", filename=d)
    try:
        summary = rundir.read_summary(d)
        names, values, _labels = rundir.read_series(d)
        log = rundir.read_impacts(d) or {}
    except rundir.Damaged as e:
        raise InputError(str(e), "CLINK_ERR_PARSE") from None
    series = {n: values[:, k] for k, n in enumerate(names)}
    impacts = {}
    for h, col in log.items():
        try:
            impacts[h] = np.array([float(x) for x in col])
        except ValueError:
            impacts[h] = np.array(col, dtype=object)
    fmt = "hdf5" if rundir.series_path(d).endswith(".h5") else "csv"
    try:
        import pandas
        series = pandas.DataFrame(series, columns=names)
        impacts = pandas.DataFrame(impacts)
    except ImportError:
        pass
    return Run(d, fmt, series, impacts, summary)
