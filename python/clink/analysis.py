# SPDX-License-Identifier: BSD-3-Clause
"""Static equilibrium, linearised modes and kinematic analysis from Python
(include/clink/analysis.h, docs/analysis.md), as `clink equilibrium`, `clink modes` and
`clink kinematics` compute them:

    model = clink.load("models/slider_crank_spring.xml")
    eq = model.equilibrium()            # Equilibrium: .q (bodies, 3), .reactions, ...
    modes = model.modes()               # [Mode, ...] about the equilibrium
    modes = model.modes(at=0.5)         # about the state of a run at t = 0.5 s
    table = clink.load("models/slider_crank.xml").kinematics(steps=72)  # Kinematics

A model with no equilibrium raises clink.Error with the library's message (status
CLINK_ERR_SINGULAR for a free motion or a singular equilibrium, CLINK_ERR_MODEL for a driver
that moves).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clink._errors import Error
from clink._lib import ffi, lib

_ERR = 1024


def _status_name(st: int) -> str:
    return ffi.string(lib.clink_status_name(st)).decode()


@dataclass
class Equilibrium:
    """The static equilibrium: q (bodies, 3) x, y (m), phi (rad) of each moving body;
    reactions {joint: (fx, fy, moment)} on body_b (N, N m about its point);
    driver_forces {driver: force}; contact_forces (bodies, 3) the contacts' generalised
    force on each body; residual and tolerance (N or N m); iterations (Newton), fallback
    (True when a fallback was used), fallback_method ("", "dynamic relaxation" or "load
    continuation") and fallback_steps (its pseudo-time or load steps); stable (the reduced
    stiffness is positive definite) and min_stiffness (its smallest eigenvalue)."""

    q: Any
    reactions: dict[str, tuple[float, float, float]]
    driver_forces: dict[str, float]
    contact_forces: Any
    residual: float
    tolerance: float
    iterations: int
    fallback: bool
    fallback_steps: int
    stable: bool
    min_stiffness: float
    dof: int
    fallback_method: str = ""


@dataclass
class Mode:
    """One linearised mode: eigenvalue (complex, 1/s; imaginary part >= 0), frequency (Hz,
    |eigenvalue| / 2 pi), damped_frequency (Hz), damping_ratio, zero (no stiffness),
    unstable, shape (bodies, 3) in body coordinates (largest component 1) and moves (the
    body coordinates it moves most, as text)."""

    eigenvalue: complex
    frequency: float
    damped_frequency: float
    damping_ratio: float
    zero: bool
    unstable: bool
    shape: Any
    moves: str


@dataclass
class Kinematics:
    """A kinematic sweep: columns (names, as kinematics.csv's header) and data (rows,
    columns; NaN where assembly failed). column(name) is one column; assembly_fails and
    dead_points the driver values so flagged."""

    columns: list[str]
    data: Any = field(repr=False)

    def column(self, name: str) -> Any:
        return self.data[:, self.columns.index(name)]

    @property
    def assembly_fails(self) -> Any:
        return self.data[self.data[:, 1] == 0.0, 0]

    @property
    def dead_points(self) -> Any:
        return self.data[self.data[:, 3] == 1.0, 0]


class _Analysis:
    """An analysis handle over the model's pointer, released on exit."""

    def __init__(self, model: Any) -> None:
        self.model = model
        out = ffi.new("clink_analysis **")
        err = ffi.new("char[]", _ERR)
        st = lib.clink_analysis_create(model._live(), ffi.NULL, out, err, _ERR)
        if st != lib.CLINK_OK:
            raise Error(ffi.string(err).decode(), _status_name(st))
        self.ptr = out[0]
        self.nq = lib.clink_analysis_coordinate_count(self.ptr)

    def check(self, st: int) -> None:
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_analysis_error(self.ptr)).decode(),
                        _status_name(st))

    def __enter__(self) -> _Analysis:
        return self

    def __exit__(self, *exc: object) -> None:
        p = ffi.new("clink_analysis **", self.ptr)
        lib.clink_analysis_destroy(p)

    def state(self) -> Any:
        q = np.zeros(self.nq)
        lib.clink_analysis_state(self.ptr, ffi.cast("double *", ffi.from_buffer(q)), ffi.NULL)
        return q.reshape(-1, 3)

    def equilibrium(self, tolerance: float | None, relax: bool,
                    accept_unstable: bool) -> Equilibrium:
        o = ffi.new("clink_equilibrium_options *", lib.clink_default_equilibrium_options())
        if tolerance is not None:
            o.tolerance = tolerance
        o.relax_first = int(relax)
        o.accept_unstable = int(accept_unstable)
        r = ffi.new("clink_equilibrium_result *")
        self.check(lib.clink_analysis_equilibrium(self.ptr, o, r))
        m = self.model
        f = ffi.new("double[3]")
        reactions = {}
        for j, name in enumerate(m.joints):
            lib.clink_analysis_joint_reaction(self.ptr, j, f)
            reactions[name or "joint%d" % j] = (f[0], f[1], f[2])
        drivers = {}
        for d, name in enumerate(m.drivers):
            lib.clink_analysis_driver_force(self.ptr, d, f)
            drivers[name or "driver%d" % d] = f[0]
        contact = np.zeros((len(m.bodies), 3))
        for b in range(len(m.bodies)):
            lib.clink_analysis_contact_force(self.ptr, b + 1, f)
            contact[b] = (f[0], f[1], f[2])
        return Equilibrium(self.state(), reactions, drivers, contact, r.residual, r.tolerance,
                           r.iterations, bool(r.fallback), r.fallback_steps, bool(r.stable),
                           r.min_stiffness, lib.clink_analysis_dof(self.ptr),
                           ("", "dynamic relaxation", "load continuation")[r.fallback])

    def modes(self) -> list[Mode]:
        self.check(lib.clink_analysis_modes(self.ptr))
        out = []
        md = ffi.new("clink_mode *")
        buf = ffi.new("char[]", 512)
        for i in range(lib.clink_analysis_mode_count(self.ptr)):
            shape = np.zeros(self.nq)
            sp = ffi.cast("double *", ffi.from_buffer(shape))
            lib.clink_analysis_mode(self.ptr, i, md, sp)
            lib.clink_analysis_describe(self.ptr, sp, buf, 512)
            out.append(Mode(complex(md.re, md.im), md.frequency, md.damped_frequency,
                            md.damping_ratio, bool(md.zero), bool(md.unstable),
                            shape.reshape(-1, 3), ffi.string(buf).decode()))
        return out


def equilibrium(model: Any, tolerance: float | None = None, relax: bool = False,
                accept_unstable: bool = False) -> Equilibrium:
    """The static equilibrium of model at t = 0 (Model.equilibrium)."""
    with _Analysis(model) as a:
        return a.equilibrium(tolerance, relax, accept_unstable)


def modes(model: Any, at: str | float = "equilibrium") -> list[Mode]:
    """The linearised modes of model about its equilibrium (at="equilibrium"), its start
    ("start") or the state of a run at time at (s) (Model.modes)."""
    with _Analysis(model) as a:
        if at == "equilibrium":
            a.equilibrium(None, False, False)
        elif at == "start":
            pass
        elif isinstance(at, (int, float)) and not isinstance(at, bool) and math.isfinite(at):
            a.check(lib.clink_analysis_advance(a.ptr, float(at)))
        else:
            raise ValueError("at must be 'equilibrium', 'start' or a time in s, got %r" % (at,))
        return a.modes()


def kinematics(model: Any, driver: str | None = None, start: float | None = None,
               stop: float | None = None, steps: int = 360, rate: float = 1.0) -> Kinematics:
    """The kinematic sweep of model over a driver's values (Model.kinematics): driver by
    name (default the first), from start to stop (m or rad; default the driver's values
    over the run, an angle's to one turn), steps intervals, the driver's rate (unit/s)."""
    o = ffi.new("clink_kinematics_options *", lib.clink_default_kinematics_options())
    p = model._live()
    if driver is not None:
        if driver not in model.drivers:
            raise Error("no driver named %r (drivers: %s)" % (driver, ", ".join(model.drivers)),
                        "CLINK_ERR_NOT_FOUND")
        o.driver = model.drivers.index(driver)
    if (start is None) != (stop is None):
        raise ValueError("start and stop go together")
    if start is not None:
        o.range_given = 1
        o.__setattr__("from", float(start))
        o.to = float(stop)
    o.steps = int(steps)
    o.rate = float(rate)
    out = ffi.new("clink_kinematics **")
    err = ffi.new("char[]", _ERR)
    st = lib.clink_kinematics_sweep(p, o, out, err, _ERR)
    if st != lib.CLINK_OK:
        raise Error(ffi.string(err).decode(), _status_name(st))
    k = out[0]
    try:
        cols = [ffi.string(lib.clink_kinematics_column_name(k, c)).decode()
                for c in range(lib.clink_kinematics_columns(k))]
        rows = lib.clink_kinematics_rows(k)
        data = np.empty((rows, len(cols)))
        for r in range(rows):
            row = lib.clink_kinematics_row(k, r)
            data[r] = np.frombuffer(ffi.buffer(row, 8 * len(cols)), dtype=np.float64)
    finally:
        lib.clink_kinematics_destroy(out)
    return Kinematics(cols, data)
