# SPDX-License-Identifier: BSD-3-Clause
"""Reading one `clink run` output directory, written as CSV or as HDF5.

    summary = read_summary(DIR)                   # summary.json, checked
    names, values, labels = read_series(DIR)      # the time series
    impacts = read_impacts(DIR)                   # the impact log, or None

A CSV run holds DIR/timeseries.csv, DIR/impacts.csv and DIR/summary.json; an
HDF5 run (`clink run --format hdf5`) holds DIR/results.h5 and DIR/summary.json.
Both give the same thing here: `names` are the CSV's column headers ("name
[unit]"), in the CSV's order (each body's x, y, phi, vx, vy, omega, ax, ay,
alpha together, each contact's quantities together), `values` the numeric
columns as one float array (rows x columns), `labels` the text columns by
header (none in either format today). results.h5 stores the same doubles as
the CSV, so a figure of either is the same figure. The order of the HDF5
columns is rebuilt from the datasets' `columns` attributes: the columns of one
entity (the part of a name before its last '.') are gathered where that entity
first appears, in the order of the datasets (time, q, v, a, reactions, driver
forces, contact quantities, eccentricity, energies, constraint violation, row
kind), which is the order the CSV writer uses.

A run that did not finish (killed, or still running) leaves its files named
NAME.incomplete and no summary.json; that is reported as such. Any damage is
raised as Damaged with the file (and line, for a CSV) and what is wrong.

The module imports NumPy when it reads, and h5py only for an HDF5 run.
"""
import json
import os

SERIES = ("timeseries.csv", "results.h5")
FILES = ("timeseries.csv", "impacts.csv", "results.h5", "summary.json")
# the datasets of results.h5 that hold time-series columns, in the CSV writer's order
H5_SERIES = ("q", "v", "a", "reactions", "driver_forces", "contacts/delta",
             "contacts/delta_dot", "contacts/Fn", "contacts/Ft", "contacts/phase",
             "contacts/eccentricity", "beams", "energies", "constraint_violation")
# impacts.csv header -> results.h5 dataset under impacts/
H5_IMPACTS = (("t [s]", "t_onset"), ("pair", "contact_name"), ("v_impact [m/s]", "v_impact"),
              ("v_separation [m/s]", "v_separation"), ("restitution [-]", "restitution"),
              ("delta_max [m]", "delta_max"), ("F_max [N]", "F_max"),
              ("duration [s]", "duration"), ("dissipated [J]", "dissipated"),
              ("lobes [-]", "lobes"))


class Damaged(Exception):
    """the run directory cannot be read; the message says why"""


def _np():
    import numpy
    return numpy


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def series_path(run_dir):
    """the path of the run's time series (CSV first), or None when it has none"""
    for name in SERIES:
        path = os.path.join(run_dir, name)
        if os.path.isfile(path):
            return path
    return None


def read_summary(run):
    """summary.json of a finished run (failed and interrupted runs included)"""
    leftovers = [f + ".incomplete" for f in FILES
                 if os.path.exists(os.path.join(run, f + ".incomplete"))]
    path = os.path.join(run, "summary.json")
    if not os.path.exists(path):
        if leftovers:
            raise Damaged(f"{run}: the run did not finish (killed, or still running): only "
                          f"{', '.join(leftovers)}; rerun clink run")
        raise Damaged(f"{path}: missing: not the directory of a finished clink run")
    try:
        with open(path) as f:
            summary = json.load(f)
    except OSError as e:
        raise Damaged(f"{path}: cannot read: {e.strerror}") from None
    except ValueError as e:
        raise Damaged(f"{path}: not valid JSON ({e})") from None
    if not isinstance(summary, dict) or summary.get("status") not in ("ok", "failed",
                                                                        "interrupted"):
        raise Damaged(f"{path}: no \"status\" of ok, failed or interrupted")
    return summary


def check_rows(path, header):
    """the first bad row of a CSV that NumPy refused, as a Damaged message"""
    with open(path, newline="") as f:
        next(f)
        text_cols = None
        for line, row in enumerate(f, start=2):
            fields = row.rstrip("\r\n").split(",")
            if len(fields) != len(header):
                return (f"{path}:{line}: {len(fields)} fields, the header has {len(header)} "
                        "(truncated file?)")
            if text_cols is None:
                text_cols = {k for k, v in enumerate(fields) if not is_number(v)}
                if line != 2:
                    continue
            for k, (h, v) in enumerate(zip(header, fields)):
                if k not in text_cols and not is_number(v):
                    return f"{path}:{line}: column '{h}': '{v}' is not a number"
    return f"{path}: not a CSV file written by clink run"


def read_csv(path):
    """header, numeric columns as one float array (rows x columns) and text columns"""
    np = _np()
    try:
        with open(path, newline="") as f:
            first = f.readline()
            second = f.readline()
    except OSError as e:
        raise Damaged(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise Damaged(f"{path}: not a CSV file written by clink run ({e})") from None
    header = first.rstrip("\r\n").split(",")
    if not first:
        raise Damaged(f"{path}: empty (no header)")
    if not header[0].startswith("t "):
        raise Damaged(f"{path}: line 1 is not a clink header (it should start with 't [s]')")
    if not second.strip():
        raise Damaged(f"{path}: no data rows")
    fields = second.rstrip("\r\n").split(",")
    if len(fields) != len(header):
        raise Damaged(f"{path}:2: {len(fields)} fields, the header has {len(header)} "
                      "(truncated file?)")
    # a column whose first value is not a number is a text column (e.g. the row kind)
    text = [k for k, v in enumerate(fields) if not is_number(v) and k > 0]
    numeric = [k for k in range(len(header)) if k not in text]
    try:
        values = np.loadtxt(path, delimiter=",", skiprows=1, usecols=numeric, ndmin=2,
                            comments=None)
        labels = {header[k]: np.loadtxt(path, delimiter=",", skiprows=1, usecols=[k],
                                        dtype=str, ndmin=1, comments=None) for k in text}
    except (ValueError, IndexError):
        raise Damaged(check_rows(path, header)) from None
    names = [header[k] for k in numeric]
    return names, values, labels


def _h5py(path):
    try:
        import h5py
    except ImportError as e:
        raise Damaged(f"{path}: reading an HDF5 run needs h5py ({e}); install python3-h5py "
                      "or write the run as CSV") from None
    return h5py


def _h5_attr_list(ds, key):
    value = ds.attrs.get(key)
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        value = [value]
    return [v.decode() if isinstance(v, bytes) else str(v) for v in value]


def _h5_columns(f, path):
    """(name with unit, 1-D array) of every time-series column, dataset by dataset"""
    np = _np()
    cols = []
    rows = f["time"].shape[0]
    for key in H5_SERIES:
        if key not in f:
            continue
        ds = f[key]
        names, units = _h5_attr_list(ds, "columns"), _h5_attr_list(ds, "units")
        if (ds.ndim != 2 or ds.shape[0] != rows or names is None or units is None
                or len(names) != ds.shape[1] or len(units) != ds.shape[1]):
            raise Damaged(f"{path}: dataset '{key}' is not a clink time series "
                          f"(shape {ds.shape}, {rows} rows of time)")
        data = np.asarray(ds[...], dtype=float)
        cols.extend((f"{n} [{u}]", data[:, k]) for k, (n, u) in enumerate(zip(names, units)))
    return cols


def read_h5(path):
    """read_csv's (names, values, labels) from results.h5"""
    np = _np()
    h5py = _h5py(path)
    try:
        with h5py.File(path, "r") as f:
            if "time" not in f:
                raise Damaged(f"{path}: no dataset 'time': not a results.h5 of clink run")
            t = np.asarray(f["time"][...], dtype=float)
            cols = _h5_columns(f, path)
            kind = (np.asarray(f["row_kind"][...], dtype=float) if "row_kind" in f
                    else None)
    except OSError as e:
        raise Damaged(f"{path}: cannot read as HDF5 ({e})") from None
    if t.size == 0:
        raise Damaged(f"{path}: no data rows")
    # gather each entity's columns where the entity first appears (the CSV's order)
    first = {}
    for k, (name, _) in enumerate(cols):
        first.setdefault(name.split(" [")[0].rsplit(".", 1)[0], k)
    cols.sort(key=lambda c: first[c[0].split(" [")[0].rsplit(".", 1)[0]])
    names = ["t [s]"] + [c[0] for c in cols]
    arrays = [t] + [c[1] for c in cols]
    if kind is not None:
        names.append("row.kind [-]")
        arrays.append(kind)
    return names, np.column_stack(arrays), {}


def read_series(run_dir):
    """(names, values, labels) of the run's time series, CSV or HDF5"""
    path = series_path(run_dir)
    if path is None:
        raise Damaged(f"{run_dir}: neither timeseries.csv nor results.h5 (run `clink run "
                      f"MODEL.xml -o {run_dir}` first)")
    return read_h5(path) if path.endswith(".h5") else read_csv(path)


def read_impacts(run_dir):
    """the impact log as {impacts.csv header: list of values}, or None when the run has
    none; an HDF5 run's log is read from results.h5"""
    csv = os.path.join(run_dir, "impacts.csv")
    if os.path.isfile(csv):
        with open(csv, newline="") as f:
            header = f.readline().rstrip("\r\n").split(",")
            rows = [line.rstrip("\r\n").split(",") for line in f if line.strip()]
        return {h: [r[k] if k < len(r) else "" for r in rows] for k, h in enumerate(header)}
    h5 = os.path.join(run_dir, "results.h5")
    if not os.path.isfile(h5):
        return None
    h5py = _h5py(h5)
    out = {}
    try:
        with h5py.File(h5, "r") as f:
            if "impacts" not in f:
                return {h: [] for h, _ in H5_IMPACTS}
            for header, key in H5_IMPACTS:
                if key in f["impacts"]:
                    out[header] = [v.decode() if isinstance(v, bytes) else str(v)
                                   for v in f["impacts"][key][...]]
    except OSError as e:
        raise Damaged(f"{h5}: cannot read as HDF5 ({e})") from None
    return out
