# SPDX-License-Identifier: BSD-3-Clause
"""Parameter studies from Python: clink.sweep() runs a sweep specification (docs/sweeps.md)
through the library's sweep module (include/clink/sweep.h), exactly as `clink sweep` does,
and returns its table; clink.read_sweep() reads the table a finished sweep left.

    table = clink.sweep("study.xml", "results", workers=2)
    table = clink.sweep("study.xml", "results", resume=True)    # after an interruption
    table = clink.read_sweep("results")

The cases run in child processes of this interpreter; the directory receives what the
command writes (sweep.journal, sweep.csv, sweep.h5 with HDF5, cases/NNNNNN when the
specification keeps outputs), so the command and this function can resume each other's
sweeps. The table is a pandas DataFrame when pandas can be imported, else a dict of
NumPy arrays keyed by column in the table's order: "case" int64; a parameter float64 when
every value is a number, else str objects; "status" and "cause" str objects; "t_failed",
the quantities and "wall_time" float64, NaN where sweep.csv has an empty field.
"""

from __future__ import annotations

import csv
import io
import math
import os
import warnings
from collections.abc import Callable

import numpy as np

from clink._lib import ffi, lib
from clink._types import StrPath, Table

_ERR = 2048


def _status_name(st):
    return ffi.string(lib.clink_status_name(st)).decode()


def _number(text):
    """The text as a float when it reads whole as one (as sweep.h5 does), else None."""
    if text == "" or text != text.strip() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _table(text):
    """The table of the CSV text (the header first) in the form the module's doc says."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    head, rows = rows[0], rows[1:]
    status = head.index("status")
    table = {}
    for j, name in enumerate(head):
        texts = [r[j] for r in rows]
        if name == "case":
            table[name] = np.array([int(t) for t in texts], dtype=np.int64)
        elif 0 < j < status:
            numbers = [_number(t) for t in texts]
            if all(x is not None for x in numbers):
                table[name] = np.array(numbers, dtype=np.float64)
            else:
                table[name] = np.array(texts, dtype=object)
        elif name in ("status", "cause"):
            table[name] = np.array(texts, dtype=object)
        else:
            table[name] = np.array([float(t) if t != "" else math.nan for t in texts],
                                   dtype=np.float64)
    try:
        import pandas
    except ImportError:
        return table
    return pandas.DataFrame(table, columns=head)


def read_sweep(directory: StrPath) -> Table:
    """The table of DIR/sweep.csv (written by clink.sweep() or `clink sweep`)."""
    from clink import Error
    path = os.path.join(os.fspath(directory), "sweep.csv")
    try:
        with open(path, newline="") as f:
            return _table(f.read())
    except OSError as e:
        raise Error("%s: cannot read: %s" % (path, e.strerror), "CLINK_ERR_IO") from None


def _options(workers, resume, sync_interval):
    o = ffi.new("clink_sweep_options *")
    lib.clink_sweep_options_init(o)
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 4096:
            raise ValueError("workers=%r: an integer between 1 and 4096, or None (the cores "
                             "online)" % (workers,))
        o.workers = workers
    o.resume = 1 if resume else 0
    if not sync_interval >= 0 or math.isinf(sync_interval):
        raise ValueError("sync_interval=%r: seconds, finite and >= 0" % (sync_interval,))
    o.sync_interval = sync_interval
    # Ctrl-C reaches this process alone; the progress callback then stops the run, so that
    # no case is recorded as crashed by the interrupt
    o.children_ignore_sigint = 1
    return o


def sweep(spec: StrPath, directory: StrPath, workers: int | None = None, resume: bool = False,
          sync_interval: float = 0.0,
          progress: Callable[[int, int], object] | None = None) -> Table:
    """Runs every case of the sweep specification file `spec` into `directory` and returns
    its table (see the module's doc for its form; docs/sweeps.md for its columns).

    workers        cases run at once, each in a child process (None: the cores online)
    resume         keep the rows of directory/sweep.journal and run only the missing cases
                   (a journal of another specification raises clink.Error)
    sync_interval  fsync the journal at most every so many seconds (0: after every row)
    progress       None, or a callable progress(done, cases) called as rows arrive (and
                   every 0.1 s); a true return value stops the run like Ctrl-C

    The directory is created if missing (its parent must exist). Cases that fail, are
    invalid or crash are rows of the table (its "status" column), not exceptions. Raises
    clink.Error for a specification refused ("FILE:LINE: ..."), a journal of another
    sweep, or a file that cannot be written. KeyboardInterrupt (or progress returning
    true) kills the running cases, keeps the finished rows in the journal and raises
    (KeyboardInterrupt, or clink.Error with status CLINK_ERR_STATE): resume=True then runs
    only the others, and the table is the one an uninterrupted sweep gives. A damaged row
    of the journal is skipped on resume with a RuntimeWarning naming its line, and its case
    runs again; a directory another sweep is using raises clink.Error (CLINK_ERR_STATE).
    """
    from clink import Error
    o = _options(workers, resume, sync_interval)
    err = ffi.new("char[]", _ERR)
    handle = ffi.new("clink_sweep **")
    st = lib.clink_sweep_load(os.fsencode(os.fspath(spec)), handle, err, _ERR)
    if st != lib.CLINK_OK:
        raise Error(ffi.string(err).decode("utf-8", "replace"), _status_name(st))
    stop = []

    def on_error(exc_type, exc, tb):
        stop.append(exc if exc is not None else exc_type())
        return 1

    @ffi.callback("int(void *, long, long)", onerror=on_error)
    def on_progress(ctx, done, cases):
        if progress is not None and progress(done, cases):
            stop.append(None)
        return 1 if stop else 0

    o.progress = on_progress
    try:
        st = lib.clink_sweep_run(handle[0], os.fsencode(os.fspath(directory)), o)
        # the journal's rows skipped on resume ("DIR/sweep.journal:LINE: why")
        for line in ffi.string(lib.clink_sweep_warnings(handle[0])).decode().splitlines():
            warnings.warn(line, RuntimeWarning, stacklevel=2)
        if stop and isinstance(stop[0], BaseException):
            raise stop[0]
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sweep_error(handle[0])).decode("utf-8", "replace"),
                        _status_name(st))
        sw = handle[0]
        lines = [ffi.string(lib.clink_sweep_header(sw)).decode()]
        for k in range(lib.clink_sweep_case_count(sw)):
            row = lib.clink_sweep_row(sw, k)
            if row != ffi.NULL:
                lines.append(ffi.string(row).decode("utf-8", "replace"))
        return _table("".join(lines))
    finally:
        lib.clink_sweep_destroy(handle)
