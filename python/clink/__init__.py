# SPDX-License-Identifier: BSD-3-Clause
"""clink from Python: mechanisms with contact-impact, the single-impact laboratory.

    import clink
    m = clink.load("models/slider_crank_clearance.xml",
                   set={"revolute_clearance[rod_slider].clearance": 2e-4})
    r = m.simulate(t_end=0.01)
    r.t, r.q, r.a, r.contacts["rod_slider"].fn, r.impacts, r.summary

    s = m.start(on_impact=print)      # step by step
    s.advance(1e-3); s.q, s.v         # NumPy arrays kept current by advance()

    clink.impact(law="hunt-crossley", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)
    clink.calibrate(law="flores", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)
    clink.laws()

    table = clink.sweep("study.xml", "results", workers=2)   # a parameter study

A thin layer over the shared library libclink (cffi, ABI mode): every number
is computed by the library; this package only drives it and gathers arrays.
docs/python.md is the reference; units are SI throughout. Errors raise
clink.Error with the library's message ("FILE:LINE: ..." for a file).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from clink import _runs
from clink._lib import ffi, lib
from clink._runs import Run, read_run

from clink._errors import (Error, FileNotFound, InputError, IOFailure, NotFound, SolverError,
                           StateError)
from clink._types import (FloatArray, ImpactCallback, Overrides, RecordArray, SettingValue,
                          StrPath, UserForce, UserJacobian)

__all__ = [
    "Error", "Model", "Simulation", "Result", "ImpactResult", "load", "loads", "impact",
    "calibrate", "laws", "version", "sweep", "read_sweep",
    "FileNotFound", "InputError", "NotFound", "StateError", "IOFailure", "SolverError",
    "read_run", "Run", "__version__",
]

_ERR = 2048


def _status_name(st):
    return ffi.string(lib.clink_status_name(st)).decode()


def _text(buf):
    return ffi.string(buf).decode("utf-8", "replace")


def version() -> str:
    """The version of the library loaded, "MAJOR.MINOR.PATCH"."""
    return ffi.string(lib.clink_version()).decode()


__version__ = version()


def __dir__() -> list[str]:
    """The public names (__all__): the modules the package imports are not among them."""
    return sorted(__all__)


# ---- models ------------------------------------------------------------------------------

_SETTINGS_FLOATS = ("t_end", "output_step", "rtol", "atol", "max_step", "baumgarte_alpha",
                    "baumgarte_beta", "settle_speed", "max_steps", "min_step", "wall_limit")
# the library's table of methods (CLINK_METHOD_TABLE): each value's word
_METHODS = {ffi.string(lib.clink_method_name(k)).decode(): k
            for k in range(lib.CLINK_METHOD_COUNT)}
_DRIFTS = {"projection": lib.CLINK_DRIFT_PROJECTION, "baumgarte": lib.CLINK_DRIFT_BAUMGARTE,
           "none": lib.CLINK_DRIFT_NONE, "auto": lib.CLINK_DRIFT_AUTO}
_BOOKKEEPINGS = {"episodes": lib.CLINK_BOOKKEEPING_EPISODES,
                 "hysteresis": lib.CLINK_BOOKKEEPING_HYSTERESIS}
# the keyword settings: name -> (its words, the struct field)
_SETTINGS_WORDS = {"method": _METHODS, "drift": _DRIFTS,
                   "contact_bookkeeping": _BOOKKEEPINGS,
                   "strict": {"false": 0, "true": 1},  # strict=True also taken
                   "start": {"as_given": 0, "ideal": 1, "ideal_centred": 2},
                   "window": {"off": 0, "on": 1, "auto": 2}}
# Simulation.outputs: what each advance computes
_OUTPUT_LEVELS = {"all": lib.CLINK_OUTPUT_ALL, "contacts": lib.CLINK_OUTPUT_CONTACTS,
                  "state": lib.CLINK_OUTPUT_STATE}


def _sets(set):
    """The overrides as a list of "PATH=VALUE" strings (a dict, or an iterable of strings)."""
    if set is None:
        return []
    if isinstance(set, dict):
        out = []
        for k, v in set.items():
            if not isinstance(k, str):
                raise TypeError("override paths must be strings, got %r" % (k,))
            if isinstance(v, (list, tuple, np.ndarray)):
                v = " ".join(repr(float(x)) for x in v)
            elif isinstance(v, (bool, np.bool_)):
                raise TypeError("override %s: a boolean is not a value" % k)
            elif isinstance(v, (int, float, np.integer, np.floating)):
                v = repr(float(v))
            elif not isinstance(v, str):
                raise TypeError("override %s: value %r is not a number or a string" % (k, v))
            out.append("%s=%s" % (k, v))
        return out
    if isinstance(set, str):
        return [set]
    out = list(set)
    for s in out:
        if not isinstance(s, str):
            raise TypeError("overrides must be strings PATH=VALUE, got %r" % (s,))
    return out


def _load(loader, sets):
    n = len(sets)
    keep = [ffi.new("char[]", s.encode()) for s in sets]
    arr = ffi.new("const char *[]", keep) if n else ffi.NULL
    applied = ffi.new("clink_xml_applied[]", n) if n else ffi.NULL
    pm = ffi.new("clink_model **")
    summ = ffi.new("clink_xml_summary *")
    err = ffi.new("char[]", _ERR)
    st = loader(arr, n, applied, pm, summ, err, _ERR)
    if st != lib.CLINK_OK:
        raise Error(_text(err), _status_name(st))
    ov = {}
    for i in range(n):
        v = _text(applied[i].value)
        try:  # one number as a float (as summary.json writes it), else the text
            v = float(v) if math.isfinite(float(v)) else v
        except ValueError:
            pass
        ov[_text(applied[i].path)] = v
    return Model(pm[0], summ, ov)


def load(path: StrPath | bytes, set: Overrides = None) -> Model:
    """The model of the XML file at path; set: overrides {PATH: VALUE} (or ["PATH=VALUE"])."""
    if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
        raise TypeError("path must be a string or a path, got %r" % (path,))
    import os
    p = os.fsencode(path)
    try:
        model = _load(lambda *a: lib.clink_xml_load_with(p, *a), _sets(set))
    except IOFailure as e:
        if not os.path.exists(p):  # the file is not there: also a FileNotFoundError
            raise FileNotFound(e.message, e.status, os.fsdecode(p)) from None
        raise
    model.source = os.path.abspath(os.fsdecode(p))
    return model


def loads(xml_text: str | bytes, set: Overrides = None, name: str = "(string)") -> Model:
    """The model of an XML document given as a string; name stands for the file in messages."""
    if isinstance(xml_text, str):
        data = xml_text.encode("utf-8")
    elif isinstance(xml_text, bytes):
        data = xml_text
    else:
        raise TypeError("xml_text must be str or bytes, got %r" % type(xml_text).__name__)
    nm = name.encode()
    return _load(lambda *a: lib.clink_xml_load_memory_with(data, len(data), nm, *a), _sets(set))


def _element(ptr: Any, e: int) -> dict[str, Any]:
    """element e of the model: {"kind": XML name, "name", "fields": {attribute: value}}, the
    fields of its definition as a file gives them (clink_model_element_field: a point as a
    tuple, a body by its name, an attribute of a child element as "child.attribute")"""
    kind = _text(lib.clink_model_element_kind_name(lib.clink_model_element_kind(ptr, e)))
    fields: dict[str, Any] = {}
    name, child, unit = ffi.new("char *[1]"), ffi.new("char *[1]"), ffi.new("char *[1]")
    v = ffi.new("double[2]")
    for j in range(lib.clink_model_element_field_count(ptr, e)):
        n = lib.clink_model_element_field(ptr, e, j, name, child, unit, v)
        key = _text(name[0]) if child[0] == ffi.NULL else f"{_text(child[0])}.{_text(name[0])}"
        u = _text(unit[0])
        if u == "body":
            s = lib.clink_model_name(ptr, lib.CLINK_ENTITY_BODY, int(v[0]))
            fields[key] = _text(s) if s != ffi.NULL else ""
        elif u == "word":
            fields[key] = int(v[0])
        else:
            fields[key] = (v[0], v[1]) if n == 2 else v[0]
    return {"kind": kind, "name": _text(lib.clink_model_element_name(ptr, e)), "fields": fields}


class Model:
    """A mechanism loaded from XML (immutable). Names: .bodies (moving bodies, body i + 1 of
    the library), .joints, .drivers, .loads, each kind of contact element's (.pairs, .stops,
    .clearance_joints, ...: Model.__getattr__), .elements (every contact element's kind, name
    and fields), .contacts (the model's flat list of contacts,
    each named as its element names it: the order of contact quantities). .overrides: {PATH: effective value} of the load."""

    def __init__(self, ptr: Any, summ: Any, overrides: dict[str, float | str]) -> None:
        self._ptr = ptr
        self._law_warnings = None
        self._sims = 0
        self._closing = False
        self.name = _text(summ.name)
        # the absolute path of the model file (load()); None for loads()
        self.source: str | None = None
        self.overrides = overrides
        self.info = {
            "bodies": summ.bodies, "joints": summ.joints,
            "clearance_joints": summ.clearance_joints, "drivers": summ.drivers,
            "loads": summ.loads, "contacts": summ.contacts, "constraints": summ.constraints,
            "dof": summ.dof, "has_gravity": bool(summ.has_gravity),
            "laws": [x for x in _text(summ.laws).split(",") if x],
        }
        self._out_reactions = bool(summ.out_reactions)
        self._out_energies = bool(summ.out_energies)

        def names(kind: int, first: int = 0) -> list[str]:
            n = lib.clink_model_count(ptr, kind)
            out = []
            for i in range(first, n):
                s = lib.clink_model_name(ptr, kind, i)
                out.append(ffi.string(s).decode() if s != ffi.NULL else "")
            return out

        self.bodies = names(lib.CLINK_ENTITY_BODY, 1)
        self.joints = names(lib.CLINK_ENTITY_JOINT)
        self.drivers = names(lib.CLINK_ENTITY_DRIVER)
        self.loads = names(lib.CLINK_ENTITY_FORCE)
        # the contact elements, every kind alike (the library's element table): each kind's
        # names (its entity kind follows the loads', in the kinds' order) under its XML name
        # and its word, in the plural (__getattr__: .stops, .pairs, .clearance_joints, ...),
        # and .elements, each element's kind, name and fields
        self._element_lists: dict[str, list[str]] = {}
        kind = 0
        while lib.clink_model_element_kind_name(kind) != ffi.NULL:
            of_kind = names(lib.CLINK_ENTITY_FORCE + 1 + kind)
            for word in (lib.clink_model_element_kind_name(kind),
                         lib.clink_model_element_kind_word(kind)):
                self._element_lists[_text(word).replace(" ", "_") + "s"] = of_kind
            kind += 1
        self.elements = [_element(ptr, e) for e in range(lib.clink_model_element_count(ptr))]
        # the model's one flat list of contacts, each named by its element
        self.contacts: list[str] = []
        for i in range(lib.clink_model_contact_count(ptr)):
            s = lib.clink_model_contact_name(ptr, i)
            self.contacts.append(ffi.string(s).decode() if s != ffi.NULL else "")
        # the host's inputs (<inputs>), set on a simulation: s.inputs["motor"] = value
        self.inputs = [ffi.string(lib.clink_model_input_name(ptr, i)).decode()
                       for i in range(lib.clink_model_input_count(ptr))]

    def __getattr__(self, name: str) -> list[str]:
        """The names of one kind of contact element, by its XML name or its word in the
        plural: .pairs (.contact_pairs), .revolute_clearances (.clearance_joints),
        .translational_clearances, .stops, .gear_pairs, ... ("" for an unnamed one)."""
        lists = self.__dict__.get("_element_lists")
        if lists is not None and name in lists:
            return list(lists[name])
        raise AttributeError(f"'Model' object has no attribute '{name}'")

    def _live(self):
        if self._ptr is None or self._closing:
            raise Error("the model is closed", "CLINK_ERR_STATE")
        return self._ptr

    @property
    def warnings(self) -> list[str]:
        """The reader's unit hints, each "FILE:LINE: what" (clink_model_warning): an
        angle above 2 pi without angle_unit, E below 1 MPa, a length or clearance out of
        scale with the mechanism, as `clink check` warns. Empty for a clean file."""
        ptr = self._live()
        return [ffi.string(lib.clink_model_warning(ptr, i)).decode("utf-8", "replace")
                for i in range(lib.clink_model_warning_count(ptr))]

    @property
    def law_warnings(self) -> list[str]:
        """The contacts asked for a restitution their law's own damping rule does not
        reach (clink_model_law_warnings): a list of messages, as `clink run` warns."""
        if self._law_warnings is None:
            buf = ffi.new("char[]", 8 * 700)  # clink run keeps 8 of 700 bytes
            n = lib.clink_model_law_warnings(self._live(), buf, len(buf))
            self._law_warnings = _text(buf).split("\n")[:min(n, 8)]
        return list(self._law_warnings)

    @property
    def settings(self) -> dict[str, float | str]:
        """The model's settings as a dict (method and drift as words)."""
        s = lib.clink_model_settings(self._live())
        d = {k: getattr(s, k) for k in _SETTINGS_FLOATS}
        for key, words in _SETTINGS_WORDS.items():
            d[key] = {v: k for k, v in words.items()}[getattr(s, key)]
        return d

    def _settings(self, kw):
        s = ffi.new("clink_settings_def *", lib.clink_model_settings(self._live()))
        for k, v in kw.items():
            if v is None:
                continue
            if k in _SETTINGS_FLOATS:
                if isinstance(v, (bool, np.bool_)) or not isinstance(
                        v, (int, float, np.integer, np.floating)):
                    raise TypeError("%s must be a number, got %r" % (k, v))
                setattr(s, k, float(v))
            elif k in _SETTINGS_WORDS:
                words = _SETTINGS_WORDS[k]
                if k == "strict" and isinstance(v, (bool, np.bool_)):
                    v = "true" if v else "false"
                if not isinstance(v, str) or v not in words:
                    raise ValueError("%s must be one of %s, got %r" % (k, sorted(words), v))
                setattr(s, k, words[v])
            else:
                raise TypeError("unknown setting %r (settings: %s, %s)" %
                                (k, ", ".join(_SETTINGS_FLOATS), ", ".join(_SETTINGS_WORDS)))
        if not s.t_end > 0 or not s.output_step > 0:
            raise ValueError("t_end = %g s and output_step = %g s must be > 0" %
                             (s.t_end, s.output_step))
        if s.output_step > s.t_end:
            raise ValueError("output step %g s is larger than the end time %g s" %
                             (s.output_step, s.t_end))
        if s.t_end / s.output_step > 1e8:
            raise ValueError("%g s / %g s gives more than 1e8 output rows" %
                             (s.t_end, s.output_step))
        return s

    def start(self, on_impact: ImpactCallback | None = None, outputs: str = "all",
              **settings: SettingValue) -> Simulation:
        """A simulation at t = 0 (Simulation); settings override the model's (t_end, rtol,
        method="adams", ...); on_impact(record) is called at the end of each impact;
        outputs: what each advance computes ("all", "contacts", "state": Simulation.outputs)."""
        s = Simulation(self, self._settings(settings), on_impact)
        if outputs != "all":
            try:
                s.outputs = outputs
            except BaseException:
                s.close()
                raise
        return s

    def simulate(self, t_end: float | None = None, output_step: float | None = None,
                 on_impact: ImpactCallback | None = None, **settings: SettingValue) -> Result:
        """Integrates to t_end (s), sampled at 0, H, 2H, ... and t_end as `clink run`
        samples (H = output_step, s): a Result of NumPy arrays in SI units. Raises Error if
        the solver fails (the rows so far in err.result)."""
        with self.start(on_impact=on_impact, t_end=t_end, output_step=output_step,
                        **settings) as s:
            return s._run()

    def equilibrium(self, tolerance: float | None = None, relax: bool = False,
                    accept_unstable: bool = False) -> Any:
        """The static equilibrium at t = 0 under gravity, loads, springs and contacts
        (clink.analysis.Equilibrium; docs/analysis.md): Newton on the constrained static
        equations, dynamic relaxation or a continuation in the loads as the fallback
        (relax=True: the relaxation first), an unstable
        equilibrium left for a stable one unless accept_unstable. Raises clink.Error when
        there is none (a free motion, a moving driver: the message names it)."""
        from clink.analysis import equilibrium
        return equilibrium(self, tolerance, relax, accept_unstable)

    def modes(self, at: str | float = "equilibrium") -> Any:
        """The linearised modes (a list of clink.analysis.Mode, ascending in |eigenvalue|)
        about the equilibrium, the start ("start") or the state of a run at time at (s)."""
        from clink.analysis import modes
        return modes(self, at)

    def kinematics(self, driver: str | None = None, start: float | None = None,
                   stop: float | None = None, steps: int = 360, rate: float = 1.0) -> Any:
        """A kinematic sweep of a driven mechanism over a driver's values
        (clink.analysis.Kinematics, the columns of `clink kinematics`)."""
        from clink.analysis import kinematics
        return kinematics(self, driver, start, stop, steps, rate)

    def close(self) -> None:
        """Releases the model (at once, or when its last simulation is closed)."""
        self._closing = True
        if self._ptr is not None and self._sims == 0:
            pm = ffi.new("clink_model **", self._ptr)
            lib.clink_model_destroy(pm)
            self._ptr = None

    def __enter__(self) -> Model:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return "<clink.Model %r: %d bodies, %d joints, %d contacts>" % (
            self.name, len(self.bodies), len(self.joints), len(self.contacts))


# ---- simulations -------------------------------------------------------------------------

_IMPACT_DTYPE = np.dtype([
    ("contact", "i4"), ("name", "U64"), ("t_onset", "f8"), ("duration", "f8"),
    ("v_impact", "f8"), ("v_separation", "f8"), ("restitution", "f8"), ("delta_max", "f8"),
    ("F_max", "f8"), ("dissipated", "f8"), ("m_eff", "f8"), ("persistent", "?"),
    ("lobes", "i4")])
_IMPACT_FIELDS = ("t_onset", "duration", "v_impact", "v_separation", "restitution",
                  "delta_max", "F_max", "dissipated", "m_eff")
# clink_energy's doubles, in its order (the declarations checked against the header by
# tests/python/test_layout.py)
_ENERGY_FIELDS = tuple(name for name, _ in ffi.typeof("clink_energy").fields)
_NENERGY = len(_ENERGY_FIELDS)
_STATS_FIELDS = ("steps", "rhs_evals", "rhs_evals_jac", "jac_evals", "lin_setups",
                 "error_test_fails", "nonlin_iters", "nonlin_fails", "proj_evals",
                 "proj_fails", "klu_factors", "klu_refactors", "last_step", "last_order",
                 "contact_events", "contact_reinits", "findings", "implausible")


def _impact_dict(rec, names):
    d = {"contact": rec.contact, "name": names[rec.contact] if 0 <= rec.contact < len(names)
         else ""}
    for f in _IMPACT_FIELDS:
        d[f] = getattr(rec, f)
    d["persistent"] = bool(rec.persistent)
    d["lobes"] = rec.lobes
    return d


def _on_impact(data, record):
    sim = ffi.from_handle(data)
    if sim._exc is not None:
        return
    try:
        sim._on_impact(_impact_dict(record, sim.model.contacts))
    except BaseException as e:  # kept, re-raised by the advance that called back
        sim._exc = e


# one C function pointer for every simulation (cffi ABI mode: a callback object; the
# simulation is found through its handle, the callback's data)
_ON_IMPACT = ffi.callback("clink_impact_fn", _on_impact)


def _user_force(data, t, n, q, v, f):
    """clink_user_force_fn: calls the simulation's Python force with (t, q, v) as (bodies, 3)
    arrays over the library's memory and copies what it returns into f; an exception is kept
    (re-raised by the advance) and fails the call, which stops the run"""
    sim = ffi.from_handle(data)
    if sim._exc is not None:
        return -1
    try:
        qa = np.frombuffer(ffi.buffer(q, 8 * n), dtype=np.float64).reshape(-1, 3)
        va = np.frombuffer(ffi.buffer(v, 8 * n), dtype=np.float64).reshape(-1, 3)
        out = np.asarray(sim._force[0](t, qa, va), dtype=np.float64).reshape(n)
        ffi.memmove(f, ffi.from_buffer(out), 8 * n)
        return 0
    except BaseException as e:  # kept, re-raised by the advance that called back
        sim._exc = e
        return -1


def _user_jacobian(data, t, n, q, v, fq, fv):
    """clink_user_force_jac_fn: the Python Jacobian returns (df/dq, df/dv), each n x n with
    [i, j] = d f_i / d x_j; written column-major"""
    sim = ffi.from_handle(data)
    if sim._exc is not None:
        return -1
    try:
        qa = np.frombuffer(ffi.buffer(q, 8 * n), dtype=np.float64).reshape(-1, 3)
        va = np.frombuffer(ffi.buffer(v, 8 * n), dtype=np.float64).reshape(-1, 3)
        jq, jv = sim._force[1](t, qa, va)
        for src, dst in ((jq, fq), (jv, fv)):
            a = np.asfortranarray(np.asarray(src, dtype=np.float64).reshape(n, n))
            ffi.memmove(dst, ffi.from_buffer(a.ravel(order="F")), 8 * n * n)
        return 0
    except BaseException as e:
        sim._exc = e
        return -1


_ENERGY_NAMES = ("kinetic", "gravity", "spring", "work_drivers", "work_loads", "balance",
                 "contact_stored", "contact_damping", "contact_friction")


def _energy_overflow(r):
    """the failure of energies that overflow double precision (as `clink run` says it), or
    None: the first row and member that is not finite"""
    e = r._energy[:r.rows, :len(_ENERGY_NAMES)]
    bad = np.argwhere(~np.isfinite(e))
    if not len(bad):
        return None
    i, j = bad[0]
    return ("implausible result at t = %r s: the %s energy is not finite (%g J): a mass, "
            "inertia, stiffness or speed beyond what double precision holds"
            % (float(r.t[i]), _ENERGY_NAMES[j], e[i, j]))


_USER_FORCE = ffi.callback("clink_user_force_fn", _user_force)
_USER_JACOBIAN = ffi.callback("clink_user_force_jac_fn", _user_jacobian)


class Inputs:
    """The inputs of a Simulation by name or index: s.inputs["motor"] = 2.5 (held from the
    current time on), s.inputs["motor"] = (2.5, 10.0) (value and slope per second),
    s.inputs["motor"] the value now; len(), iteration over the names. A change restarts the
    integrator at the current time (docs/api.md, "An input change restarts the
    integrator")."""

    def __init__(self, sim: Simulation, names: Iterable[str]) -> None:
        self._sim = sim
        self._names = list(names)

    def _index(self, key: str | int) -> int:
        if isinstance(key, str):
            if key not in self._names:
                raise KeyError("no input %r (the model's: %s)" % (key, ", ".join(self._names)))
            return self._names.index(key)
        if not 0 <= key < len(self._names):
            raise IndexError("input %d out of range (%d inputs)" % (key, len(self._names)))
        return int(key)

    def __setitem__(self, key: str | int,
                    value: float | tuple[float, float] | list[float]) -> None:
        self.set(key, *(value if isinstance(value, (tuple, list)) else (value, 0.0)))

    def set(self, key: str | int, value: float, slope: float = 0.0) -> None:
        p = self._sim._live()
        st = lib.clink_sim_set_input(p, self._index(key), float(value), float(slope))
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))

    def __getitem__(self, key: str | int) -> float:
        d = self._sim._d
        self._sim._ok(lib.clink_sim_input(self._sim._live(), self._index(key), d, d + 1))
        return d[0]

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __repr__(self) -> str:
        return "Inputs(%s)" % ", ".join("%s=%g" % (n, self[n]) for n in self._names)


class Contacts:
    """Per-contact arrays of a Result, by name or index: c = r.contacts["rod_slider"];
    c.delta, c.delta_dot, c.fn, c.ft (n,), c.phase (0 open, 1 compression, 2 restitution,
    3 released, 4 permanent contact), c.eccentricity (n, 2: clearance joints)."""

    class One:
        def __init__(self, parent: Contacts, i: int) -> None:
            self.delta = parent.delta[:, i]
            self.delta_dot = parent.delta_dot[:, i]
            self.fn = parent.fn[:, i]
            self.ft = parent.ft[:, i]
            self.phase = parent.phase[:, i]
            self.eccentricity = parent.eccentricity[:, i, :]

    def __init__(self, names: Sequence[str], n: int) -> None:
        self.names = list(names)
        nc = len(names)
        self.delta = np.zeros((n, nc))
        self.delta_dot = np.zeros((n, nc))
        self.fn = np.zeros((n, nc))
        self.ft = np.zeros((n, nc))
        self.phase = np.zeros((n, nc), dtype=np.int8)
        self.eccentricity = np.zeros((n, nc, 2))

    def _trim(self, n: int) -> None:
        for k in ("delta", "delta_dot", "fn", "ft", "phase", "eccentricity"):
            setattr(self, k, getattr(self, k)[:n])

    def __getitem__(self, key: str | int) -> Contacts.One:
        i = self.names.index(key) if isinstance(key, str) else int(key)
        if not 0 <= i < len(self.names):
            raise IndexError("contact %r out of range" % (key,))
        return Contacts.One(self, i)

    def __len__(self) -> int:
        return len(self.names)


class Result:
    """What Model.simulate() returns. Arrays, one row per output time:
    t (n,); q, v, a (n, bodies, 3): x, y, phi and their rates of each moving body;
    reactions (n, joints, 3): Fx, Fy, M on body2; driver_forces (n, drivers);
    contacts (Contacts); energy {name: (n,)} (kinetic, gravity, spring, work_drivers,
    work_loads, balance, contact_stored, contact_damping, contact_friction);
    violation (n, 2): max |Phi| and max |Phi_q v - nu|.
    impacts: a structured array (contact, name, t_onset, duration, v_impact, v_separation,
    restitution, delta_max, F_max, dissipated, m_eff, persistent, lobes); impacts_frame()
    as a pandas DataFrame. summary: dict with the figures of `clink run`'s summary.json.
    stats: the integrator's counters (dict)."""

    def __init__(self, model: Model, n: int) -> None:
        nb, nj, nd = len(model.bodies), len(model.joints), len(model.drivers)
        self.model_name = model.name
        self.source = model.source
        self._layout = _runs.layout(model._ptr, nd)  # what save() needs of the model
        self._element_outputs: dict[str, Any] = {}
        # each element's own outputs sampled at the rows (clink_sim_element_outputs)
        self._elem_rows = {outs[0][0]: np.full((n, len(outs)), np.nan)
                           for outs in self._layout["extras"] if outs}
        self._out_reactions, self._out_energies = model._out_reactions, model._out_energies
        self.bodies, self.joints, self.drivers = model.bodies, model.joints, model.drivers
        self.t = np.zeros(n)
        self.q = np.zeros((n, nb, 3))
        self.v = np.zeros((n, nb, 3))
        self.a = np.zeros((n, nb, 3))
        self.reactions = np.zeros((n, nj, 3))
        self.driver_forces = np.zeros((n, nd))
        self.contacts = Contacts(model.contacts, n)
        self._energy = np.zeros((n, len(_ENERGY_FIELDS)))
        self.violation = np.zeros((n, 2))
        self.rows = 0
        self.impacts = np.zeros(0, dtype=_IMPACT_DTYPE)
        self.summary: dict[str, Any] = {}
        self.stats: dict[str, float] = {}

    def _trim(self) -> None:
        n = self.rows
        for k in ("t", "q", "v", "a", "reactions", "driver_forces", "_energy", "violation"):
            setattr(self, k, getattr(self, k)[:n])
        self.contacts._trim(n)
        self.energy = {f: self._energy[:, i] for i, f in enumerate(_ENERGY_FIELDS)}

    def impacts_frame(self) -> Any:
        """The impacts as a pandas DataFrame (pandas is optional: ImportError without it)."""
        import pandas
        return pandas.DataFrame(self.impacts)

    def body(self, name: str) -> int:
        """The index of a body in the arrays (q[:, i]) by name."""
        return self.bodies.index(name)

    def save(self, directory: StrPath) -> str:
        """Writes the result as a run directory, what `clink run -o DIR` writes for these
        rows (timeseries.csv with the same columns and units, impacts.csv, summary.json
        naming the model file), so that `clink plot DIR`, `clink animate DIR` and
        clink.read_run() read it. Returns the directory's path."""
        return _runs.save(self, directory)

    def plot(self, out: StrPath, against: str = "auto",
             formats: str | Sequence[str] = ("png",)) -> list[str]:
        """Draws the figures `clink plot` draws (coordinates, velocities, accelerations,
        reactions, contact forces, energies, journal orbits; SI units on the axes) into
        the directory out, against time (the crank angle needs the model's scene:
        save() then `clink plot`). formats: of "png", "svg", "pdf". Returns the paths
        written."""
        if isinstance(formats, str):
            formats = (formats,)
        return _runs.plot(self, out, against, list(formats))

    def __repr__(self) -> str:
        return "<clink.Result %r: %d rows to t = %g s, %d impacts>" % (
            self.model_name, self.rows, self.t[-1] if self.rows else 0.0, len(self.impacts))


class Simulation:
    """A running simulation (Model.start()). advance(t) integrates to t; .t the time;
    .q, .v (bodies, 3) NumPy arrays updated in place by every advance (read-only views
    that stay current); accelerations(), reactions(), contact(i), energy(), impacts,
    stats. .outputs says what each advance computes (clink_sim_set_outputs): "all" (the
    default), "contacts" (q, v and contact(i)) or "state" (q, v); what the current output
    did not compute raises Error (status "CLINK_ERR_STATE"). An exception raised by the
    impact callback stops the simulation: the advance in progress returns, the exception
    is re-raised there and any later advance raises Error. close() (or a with block)
    releases it; a closed simulation raises Error. Inside its own on_impact callback,
    advance(), close() and the setters raise Error (status "CLINK_ERR_STATE": the
    simulation is in use) and change nothing; so do they while another thread advances
    it (one thread per simulation, docs/api.md)."""

    def __init__(self, model: Model, settings: Any, on_impact: ImpactCallback | None) -> None:
        if on_impact is not None and not callable(on_impact):
            raise TypeError("on_impact must be callable")
        self.model = model
        ptr = model._live()
        self._settings = settings
        self._ptr = None
        self._exc = None
        self._stopped: str | None = None
        self._on_impact = on_impact
        pp = ffi.new("clink_sim **")
        err = ffi.new("char[]", _ERR)
        st = lib.clink_sim_create(ptr, settings, pp, err, _ERR)
        if st != lib.CLINK_OK:
            raise Error(_text(err), _status_name(st))
        self._ptr = pp[0]
        model._sims += 1
        nb = len(model.bodies)
        self._q = np.zeros((nb, 3))
        self._v = np.zeros((nb, 3))
        self.q = self._q.view()
        self.v = self._v.view()
        self.q.flags.writeable = False
        self.v.flags.writeable = False
        self._qp = ffi.cast("double *", ffi.from_buffer(self._q))
        self._vp = ffi.cast("double *", ffi.from_buffer(self._v))
        self._energy = ffi.new("clink_energy *")
        self._info = ffi.new("clink_contact_info *")
        self._d = ffi.new("double[2]")
        self._handle = None
        self._outputs = "all"
        self._output_contacts: tuple[int, ...] | None = None
        if on_impact is not None:
            self._handle = ffi.new_handle(self)
            lib.clink_sim_set_impact_callback(self._ptr, _ON_IMPACT, self._handle)
        self._force: tuple[UserForce, UserJacobian | None] | None = None
        self.inputs = Inputs(self, model.inputs)
        self._refresh()

    def set_user_force(self, force: UserForce | None, jacobian: UserJacobian | None = None,
                       name: str = "user") -> None:
        """A force computed in Python at every right-hand side: force(t, q, v) with q, v
        (bodies, 3) arrays (read them, do not keep them) returns the generalised forces
        (bodies, 3): fx, fy N and torque N m per body. jacobian(t, q, v), optional, returns
        (df/dq, df/dv), each (3 bodies, 3 bodies) with [i, j] = d f_i / d x_j; without it the
        library takes central differences (4 x 3 bodies calls of force per Jacobian). An
        exception in either stops the run: the advance re-raises it. force None removes it.
        Cost: docs/python.md, "User forces"."""
        p = self._live()
        if force is not None and not callable(force):
            raise TypeError("force must be callable")
        if self._handle is None:
            self._handle = ffi.new_handle(self)
        st = lib.clink_sim_set_user_force(
            p, name.encode(), _USER_FORCE if force is not None else ffi.NULL,
            _USER_JACOBIAN if force is not None and jacobian is not None else ffi.NULL,
            self._handle)
        if st != lib.CLINK_OK:  # refused (inside a callback, ...): the force in use stays
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
        self._force = (force, jacobian) if force is not None else None

    @property
    def t_end(self) -> float:
        """The end time of the simulation (s): advance() refuses a time beyond it."""
        return self._settings.t_end

    @property
    def output_step(self) -> float:
        """The output step (s) of simulate()'s rows."""
        return self._settings.output_step

    def _live(self):
        if self._ptr is None:
            raise Error("the simulation is closed", "CLINK_ERR_STATE")
        return self._ptr

    def _refresh(self):
        p = self._ptr
        for i in range(len(self.model.bodies)):
            lib.clink_sim_body_state(p, i + 1, self._qp + 3 * i, self._vp + 3 * i)

    @property
    def t(self) -> float:
        """The current time of the simulation (s)."""
        return lib.clink_sim_time(self._live())

    @property
    def outputs(self) -> str:
        """What each advance computes from the next one on: "all" (accelerations,
        reactions, driver forces, energies, violation, contacts, state), "contacts" (the
        contacts' information and the state) or "state" (q and v). Setting it takes effect
        at the next advance; the integration is the same bits at every level."""
        self._live()
        return self._outputs

    @outputs.setter
    def outputs(self, level: str) -> None:
        p = self._live()
        if level not in _OUTPUT_LEVELS:
            raise ValueError("outputs must be one of %s, got %r"
                             % (", ".join(_OUTPUT_LEVELS), level))
        st = lib.clink_sim_set_outputs(p, _OUTPUT_LEVELS[level])
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
        self._outputs = level

    @property
    def output_contacts(self) -> tuple[int, ...] | None:
        """The contacts whose information each advance computes (at outputs "contacts"
        and "all"), from the next one on: None (every contact, the default) or a tuple of
        indices; set it to names or indices. contact(i) of another contact raises Error
        (status "CLINK_ERR_STATE")."""
        self._live()
        return self._output_contacts

    @output_contacts.setter
    def output_contacts(self, contacts: Iterable[str | int] | None) -> None:
        p = self._live()
        if contacts is None:
            st = lib.clink_sim_set_output_contacts(p, ffi.NULL, 0)
            if st != lib.CLINK_OK:  # refused: the list in use stays
                raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
            self._output_contacts = None
            return
        if isinstance(contacts, (str, int, np.integer)):
            raise TypeError("output_contacts must be None or a list of names or indices")
        idx = []
        for key in contacts:
            i = self.model.contacts.index(key) if isinstance(key, str) else int(key)
            if not 0 <= i < len(self.model.contacts):
                raise IndexError("contact %r out of range" % (key,))
            idx.append(i)
        st = lib.clink_sim_set_output_contacts(p, ffi.new("int[]", idx or [0]), len(idx))
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
        self._output_contacts = tuple(idx)

    @property
    def state(self) -> tuple[FloatArray, FloatArray]:
        """(q, v): the views s.q and s.v (bodies, 3), current after every advance."""
        self._live()
        return self.q, self.v

    def advance(self, t: float) -> None:
        """Integrates to time t (s, after the current time)."""
        p = self._live()
        if self._stopped is not None:
            raise Error("the simulation stopped: %s" % self._stopped, "CLINK_ERR_STATE")
        if isinstance(t, (bool, np.bool_)) or not isinstance(
                t, (int, float, np.integer, np.floating)):
            raise TypeError("t must be a number, got %r" % (t,))
        if float(t) > self.t_end * (1 + 1e-12) + 1e-300:  # rounding of t_end allowed
            raise InputError("advance(%r): past the simulation's end t_end = %r s (set by "
                             "start(t_end=...) or the model's settings)" % (t, self.t_end),
                             "CLINK_ERR_RANGE")
        st = lib.clink_sim_advance(p, float(t))
        if st == lib.CLINK_ERR_STATE:  # in use (from its own callback or another thread)
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
        self._refresh()
        if self._exc is not None:
            e, self._exc = self._exc, None
            self._stopped = "a callback raised %s" % type(e).__name__
            raise e
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))

    def state_save(self) -> bytes:
        """A snapshot of the state (bytes, opaque; clink_sim_state_save): restored by
        state_restore() into a simulation of the same model, it continues bit for bit as
        this one does from now on. Saving restarts the integrator here (docs/api.md)."""
        p = self._live()
        n = lib.clink_sim_state_size(p)
        buf = ffi.new("unsigned char[]", n)
        st = lib.clink_sim_state_save(p, buf, n)
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
        return bytes(ffi.buffer(buf, n))

    def state_restore(self, snapshot: bytes) -> None:
        """Makes the state of a snapshot from state_save() this simulation's; a snapshot
        of another model, or a damaged one, raises clink.Error (CLINK_ERR_MODEL,
        CLINK_ERR_PARSE) and changes nothing."""
        p = self._live()
        data = bytes(snapshot)
        st = lib.clink_sim_state_restore(p, data, len(data))
        if st != lib.CLINK_OK:
            raise Error(ffi.string(lib.clink_sim_error(p)).decode(), _status_name(st))
        self._stopped = None
        self._refresh()

    def accelerations(self) -> FloatArray:
        """(bodies, 3) accelerations at the current time."""
        p = self._live()
        a = np.zeros((len(self.model.bodies), 3))
        ap = ffi.cast("double *", ffi.from_buffer(a))
        for i in range(len(self.model.bodies)):
            self._ok(lib.clink_sim_body_acceleration(p, i + 1, ap + 3 * i))
        return a

    def reactions(self) -> FloatArray:
        """(joints, 3) reactions Fx, Fy, M on body2 at the current time."""
        p = self._live()
        r = np.zeros((len(self.model.joints), 3))
        rp = ffi.cast("double *", ffi.from_buffer(r))
        for i in range(len(self.model.joints)):
            self._ok(lib.clink_sim_joint_reaction(p, i, rp + 3 * i))
        return r

    def contact(self, key: str | int) -> dict[str, Any]:
        """The state of a contact (name or index) as a dict."""
        p = self._live()
        i = self.model.contacts.index(key) if isinstance(key, str) else int(key)
        if not 0 <= i < len(self.model.contacts):
            raise IndexError("contact %r out of range" % (key,))
        c = self._info
        self._ok(lib.clink_sim_contact(p, i, c))
        return {"delta": c.delta, "delta_dot": c.delta_dot, "fn": c.fn, "ft": c.ft,
                "normal": (c.normal[0], c.normal[1]),
                "eccentricity": (c.eccentricity[0], c.eccentricity[1]),
                "phase": 4 if c.persistent else int(c.phase)}

    def energy(self) -> dict[str, float]:
        """The energies at the current time (dict, J)."""
        e = self._energy
        self._ok(lib.clink_sim_energy(self._live(), e))
        return {f: getattr(e, f) for f in _ENERGY_FIELDS}

    @property
    def impacts(self) -> RecordArray:
        """The impacts so far (structured array, as Result.impacts)."""
        p = self._live()
        n = lib.clink_sim_impact_count(p)
        out = np.zeros(n, dtype=_IMPACT_DTYPE)
        rec = ffi.new("clink_impact_record *")
        for i in range(n):
            self._ok(lib.clink_sim_impact(p, i, rec))
            d = _impact_dict(rec, self.model.contacts)
            out[i] = tuple(d[k] for k in _IMPACT_DTYPE.names)
        return out

    @property
    def stats(self) -> dict[str, float]:
        """The integrator's counters since t = 0 (dict)."""
        s = ffi.new("clink_sim_stats *")
        lib.clink_sim_stats_get(self._live(), s)
        return {f: getattr(s, f) for f in _STATS_FIELDS}

    @property
    def method_switches(self) -> list[dict[str, Any]]:
        """The switches of method auto so far (docs/kernel.md, "Switched while running"): a
        list of {"t", "from", "to", "reason"}, the first 64; [] for another method."""
        p = self._live()
        out = ffi.new("clink_method_switch[64]")
        n = min(lib.clink_sim_method_switches(p, out, 64), 64)
        names = {v: k for k, v in _METHODS.items()}
        return [{"t": out[i].t, "from": names[getattr(out[i], "from")],
                 "to": names[out[i].to], "reason": ffi.string(out[i].reason).decode()}
                for i in range(n)]

    @property
    def findings(self) -> list[tuple[str, str]]:
        """The physical sanity findings so far: a list of (severity, message)."""
        p = self._live()
        out = []
        f = ffi.new("clink_sim_finding *")
        for i in range(min(lib.clink_sim_finding_count(p), 64)):
            if lib.clink_sim_finding_get(p, i, f) == lib.CLINK_OK:
                out.append(("implausible" if f.severity == 2 else "warning",
                            _text(f.message)))
        return out

    def _ok(self, st):
        if st == lib.CLINK_ERR_STATE:  # not computed at the current output's level
            raise Error(ffi.string(lib.clink_sim_error(self._ptr)).decode(), _status_name(st))
        if st != lib.CLINK_OK:
            raise Error("reading the state failed: %s" % _status_name(st), _status_name(st))

    def _sample(self, r):
        p, k = self._ptr, r.rows
        m = self.model
        nb, nj, nd, nc = len(m.bodies), len(m.joints), len(m.drivers), len(m.contacts)
        r.t[k] = lib.clink_sim_time(p)
        qp = r._qp + 3 * nb * k
        vp = r._vp + 3 * nb * k
        ap = r._ap + 3 * nb * k
        ok = lib.CLINK_OK
        for i in range(nb):
            if (lib.clink_sim_body_state(p, i + 1, qp + 3 * i, vp + 3 * i) != ok or
                    lib.clink_sim_body_acceleration(p, i + 1, ap + 3 * i) != ok):
                return False
        if m._out_reactions:
            rp = r._rp + 3 * nj * k
            for i in range(nj):
                if lib.clink_sim_joint_reaction(p, i, rp + 3 * i) != ok:
                    return False
            dp = r._dp + nd * k
            for i in range(nd):
                if lib.clink_sim_driver_force(p, i, dp + i) != ok:
                    return False
        c = self._info
        cs = r.contacts
        for i in range(nc):
            if lib.clink_sim_contact(p, i, c) != ok:
                return False
            cs.delta[k, i] = c.delta
            cs.delta_dot[k, i] = c.delta_dot
            cs.fn[k, i] = c.fn
            cs.ft[k, i] = c.ft
            cs.phase[k, i] = 4 if c.persistent else c.phase
            cs.eccentricity[k, i, 0] = c.eccentricity[0]
            cs.eccentricity[k, i, 1] = c.eccentricity[1]
        for e, rows in r._elem_rows.items():
            vals = ffi.new("double[]", rows.shape[1])
            if lib.clink_sim_element_outputs(p, e, vals) != ok:
                return False
            rows[k, :] = list(vals)
        if m._out_energies:
            if lib.clink_sim_energy(p, self._energy) != ok:
                return False
            ffi.memmove(r._ep + _NENERGY * k, self._energy, _NENERGY * 8)
        lib.clink_sim_constraint_violation(p, self._d, self._d + 1)
        r.violation[k, 0] = self._d[0]
        r.violation[k, 1] = self._d[1]
        r.rows = k + 1
        return True

    def _run(self) -> Result:
        """simulate(): `clink run`'s sampling loop (src/cli/cmd_run.c), rows into a Result."""
        self._live()
        if self._stopped is not None or lib.clink_sim_time(self._ptr) != 0.0:
            raise Error("simulate() needs a fresh simulation", "CLINK_ERR_STATE")
        t_end, h = self._settings.t_end, self._settings.output_step
        n = int(math.floor(t_end / h * (1.0 + 1e-12)))
        r = Result(self.model, n + 2)
        if not self.model._out_reactions:  # <output reactions="false">: not sampled
            r.reactions[:] = np.nan
            r.driver_forces[:] = np.nan
        if not self.model._out_energies:  # <output energies="false">
            r._energy[:] = np.nan
        r._qp = ffi.cast("double *", ffi.from_buffer(r.q))
        r._vp = ffi.cast("double *", ffi.from_buffer(r.v))
        r._ap = ffi.cast("double *", ffi.from_buffer(r.a))
        r._rp = ffi.cast("double *", ffi.from_buffer(r.reactions))
        r._dp = ffi.cast("double *", ffi.from_buffer(r.driver_forces))
        r._ep = ffi.cast("double *", ffi.from_buffer(r._energy))
        failed = None
        ok = self._sample(r)
        k = 1
        while k <= n + 1 and ok:
            t = float(k) * h if k <= n else t_end
            if t > t_end:
                t = t_end
            k += 1
            if t <= lib.clink_sim_time(self._ptr):
                continue
            try:
                self.advance(t)
            except Error as e:
                failed = e
                break
            except BaseException as e:
                r._trim()
                self._finish(r, "the impact callback raised %s" % type(e).__name__)
                raise
            ok = self._sample(r)
        if not ok and failed is None:
            failed = Error("reading the state for the output failed", "CLINK_ERR_STATE")
        r._trim()
        self._finish(r, failed.message if failed is not None else None)
        if failed is not None:
            failed.result = r
            raise failed
        return r

    def _finish(self, r: Result, message: str | None) -> None:
        """impacts, stats and the summary figures of summary.json into r."""
        p = self._ptr
        r.impacts = self.impacts
        r.stats = self.stats
        st = r.stats
        s = self._settings
        dq, dv = ffi.new("double *"), ffi.new("double *")
        lib.clink_sim_assembly(p, dq, dv)
        findings = self.findings
        status = "ok"
        if message is not None:
            status = "failed"
        else:
            message = _energy_overflow(r) if self.model._out_energies else None
            status = "failed" if message is not None else "ok"
            for sev, msg in findings if message is None else ():
                if sev == "implausible":
                    status, message = "failed", "implausible result: %s" % msg
                    break
        bal = r._energy[:, 5]
        run = lib.clink_sim_settings(p)  # auto resolved (docs/kernel.md)
        r.summary = {
            "model": self.model.name, "status": status, "message": message,
            "t_end_requested": s.t_end, "t_end_reached": lib.clink_sim_time(p),
            "method": {v: k for k, v in _METHODS.items()}[run.method],
            "drift": {v: k for k, v in _DRIFTS.items()}[run.drift],
            **({"auto": True} if (s.method, s.drift) != (run.method, run.drift) else {}),
            "rtol": s.rtol, "atol": s.atol, "max_steps": s.max_steps, "min_step": s.min_step,
            "wall_limit": s.wall_limit, "output_rows": r.rows, "steps": st["steps"],
            "rhs_calls": st["rhs_evals"], "rhs_calls_jacobian": st["rhs_evals_jac"],
            "error_test_failures": st["error_test_fails"], "projections": st["proj_evals"],
            "root_events": st["contact_events"], "cvode_reinits": st["contact_reinits"],
            "impacts": len(r.impacts),
            "max_constraint_violation_position": float(np.max(r.violation[:, 0], initial=0.0)),
            "max_constraint_violation_velocity": float(np.max(r.violation[:, 1], initial=0.0)),
            "energy_residual_final": float(bal[-1]) if r.rows and self.model._out_energies
            else 0.0,
            "energy_residual_max_abs": float(np.max(np.abs(bal), initial=0.0))
            if self.model._out_energies else 0.0,
            "assembly_correction_position": dq[0], "assembly_correction_velocity": dv[0],
            "warnings": (self.model.law_warnings + [m for _, m in findings])[:64],
        }
        n_switches = lib.clink_sim_method_switches(p, ffi.NULL, 0)
        if n_switches > 0:  # as summary.json has them
            r.summary["method_switch_count"] = n_switches
            r.summary["method_switches"] = self.method_switches
        if self.model.overrides:
            r.summary["overrides"] = dict(self.model.overrides)
        r._element_outputs = _runs.element_outputs(self.model._ptr, r, r._layout)

    def close(self) -> None:
        """Releases the simulation (and its model, if that was closed meanwhile). Inside
        the simulation's own on_impact callback (or while another thread advances it) it
        is refused: Error with status "CLINK_ERR_STATE", the simulation left open; close
        it after the advance returns."""
        if self._ptr is not None:
            pp = ffi.new("clink_sim **", self._ptr)
            lib.clink_sim_destroy(pp)
            if pp[0] != ffi.NULL:  # in use: clink_sim_destroy left it alone
                raise Error(ffi.string(lib.clink_sim_error(self._ptr)).decode(),
                            "CLINK_ERR_STATE")
            self._ptr = None
            self._handle = None
            self.model._sims -= 1
            if self.model._closing:
                self.model.close()

    def __enter__(self) -> Simulation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


# ---- the laboratory ----------------------------------------------------------------------

_LAB_METHODS = {"rk8": lib.CLINK_LAB_RK8, "adams": lib.CLINK_LAB_ADAMS,
                "bdf": lib.CLINK_LAB_BDF}
_PARAM_KEYS = tuple(ffi.string(lib.clink_contact_params_key(i)).decode()
                    for i in range(lib.clink_contact_params_key_count()))
_RESULT_FIELDS = tuple(f for f, _ in ffi.typeof("clink_lab_result").fields)


class _Lab:
    """One laboratory workspace, its parameter, option and result structs, reused."""

    def __init__(self):
        pl = ffi.new("clink_lab **")
        st = lib.clink_lab_create(pl)
        if st != lib.CLINK_OK:
            raise Error("cannot create the laboratory", _status_name(st))
        self.ptr = pl[0]
        self.pl = pl
        self.params = ffi.new("clink_contact_params *")
        self.opt = ffi.new("clink_lab_options *")
        self.cal = ffi.new("clink_lab_calibration *")

    def __del__(self):
        try:
            lib.clink_lab_destroy(self.pl)
        except Exception:
            pass


_tls = threading.local()  # one laboratory workspace per thread (cffi releases the GIL in C)
_laws = {}
_NUMBER = (int, float, np.integer, np.floating)


def _number(name, v):
    if type(v) is float:
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, _NUMBER):
        raise TypeError("%s must be a number, got %r" % (name, v))
    return float(v)


def _lab_setup(law, mass, velocity, k, n, restitution, method, rtol, damping, params):
    """The workspace with its parameters and options set for one call (kept lean: this is
    the whole overhead of a laboratory call from Python, bench/bench_python_lab.c)."""
    lab = getattr(_tls, "lab", None)
    if lab is None:
        lab = _tls.lab = _Lab()
    lp = _laws.get(law)
    if lp is None:
        if not isinstance(law, str):
            raise TypeError("law must be a law's name (clink.laws()), got %r" % (law,))
        lp = lib.clink_law_find(law.encode())
        if lp == ffi.NULL:
            raise Error("unknown law '%s' (clink.laws() lists them)" % law,
                        "CLINK_ERR_NOT_FOUND")
        _laws[law] = lp
    p = lab.params
    lib.clink_contact_params_init(p)
    if k is not None:
        p.K = _number("k", k)
    if n is not None:
        p.n = _number("n", n)
    if restitution is not None:
        p.e = _number("restitution", restitution)
    for key, v in params.items():
        if key not in _PARAM_KEYS:
            raise TypeError("unknown law parameter %r (parameters: %s)" %
                            (key, ", ".join(_PARAM_KEYS)))
        st = lib.clink_contact_params_set(p, key.encode(), _number(key, v))
        if st != lib.CLINK_OK:
            raise Error("%s = %r: %s" % (key, v, _status_name(st)), _status_name(st))
    o = lab.opt
    lib.clink_lab_options_init(o)
    m = _LAB_METHODS.get(method)
    if m is None:
        raise ValueError("method must be one of %s, got %r" % (sorted(_LAB_METHODS), method))
    o.method = m
    if rtol is not None:
        o.rtol = _number("rtol", rtol)
    if damping is not None:
        o.damping = _number("damping", damping)
    return lab, lp, _number("mass", mass), _number("velocity", velocity)


class ImpactResult:
    """The laboratory's result (clink_lab_result, a copy): fields as attributes and as keys
    (r.e_out, r["F_max"], dict(r)): v_impact, e_out, v_out, delta_max, t_compression,
    F_max, t_F_max, F_min, duration, delta_residual, E_impact, E_diss_compression,
    E_diss_restitution, E_residual, W_damping, energy_residual, damping, damping_law,
    damping_is_c, separated, n_steps, n_rhs, ... (the integrator's counters)."""

    __slots__ = ("_c",)

    def __init__(self, c: Any) -> None:
        self._c = c

    def __getattr__(self, name: str) -> float:
        if name in _RESULT_SET:
            return getattr(self._c, name)
        raise AttributeError(name)

    def __getitem__(self, name: str) -> float:
        if name in _RESULT_SET:
            return getattr(self._c, name)
        raise KeyError(name)

    def keys(self) -> list[str]:
        """The names of the result's figures, as a dict's keys (units: docs/python.md)."""
        return list(_RESULT_FIELDS)

    def __iter__(self) -> Iterator[str]:
        return iter(_RESULT_FIELDS)

    def __len__(self) -> int:
        return len(_RESULT_FIELDS)

    def __repr__(self) -> str:
        return "ImpactResult(e_out=%r, delta_max=%r, F_max=%r, duration=%r)" % (
            self.e_out, self.delta_max, self.F_max, self.duration)


_RESULT_SET = frozenset(_RESULT_FIELDS)


def impact(law: str, mass: float, velocity: float, k: float | None = None,
           n: float | None = None, restitution: float | None = None, method: str = "rk8",
           rtol: float | None = None, damping: float | None = None,
           **params: float) -> ImpactResult:
    """One central impact in the laboratory (as `clink impact`): effective mass (kg),
    approach speed (m/s), the law's stiffness k (N/m^n), exponent n, target restitution,
    any other parameter of the law by its key (chi, c, alpha, v_ref, E1, ...).
    method: "rk8" (default), "adams" or "bdf"; damping replaces the law's coefficient."""
    lab, lp, m, v = _lab_setup(law, mass, velocity, k, n, restitution, method, rtol, damping,
                               params)
    res = ffi.new("clink_lab_result *")
    st = lib.clink_lab_impact(lab.ptr, lp, lab.params, m, v, lab.opt, res)
    if st != lib.CLINK_OK:
        raise Error(ffi.string(lib.clink_lab_error(lab.ptr)).decode(), _status_name(st))
    return ImpactResult(res)


def calibrate(law: str, mass: float, velocity: float, restitution: float,
              k: float | None = None, n: float | None = None, method: str = "rk8",
              rtol: float | None = None, **params: float) -> dict[str, Any]:
    """The damping coefficient for which the laboratory's restitution equals `restitution`
    (as `clink calibrate`): a dict (e_target, damping, e_achieved, damping_law, e_law, alpha,
    alpha_law, damping_is_c, iterations, impact: the ImpactResult with it)."""
    lab, lp, m, v = _lab_setup(law, mass, velocity, k, n, restitution, method, rtol, None,
                               params)
    e = _number("restitution", restitution)
    st = lib.clink_lab_calibrate(lab.ptr, lp, lab.params, m, v, e, lab.opt, lab.cal)
    if st != lib.CLINK_OK:
        raise Error(ffi.string(lib.clink_lab_error(lab.ptr)).decode(), _status_name(st))
    c = lab.cal
    out = {f: getattr(c, f) for f in (
        "e_target", "damping", "e_achieved", "damping_law", "e_law", "alpha", "alpha_law",
        "damping_is_c", "iterations")}
    out["impact"] = ImpactResult(ffi.new("clink_lab_result *", c.impact))
    return out


def laws() -> list[dict[str, Any]]:
    """The contact-law catalogue: a list of dicts (name, aliases, title, formula, damping,
    reference, required, optional, separation, can_pull, n_default, m, geometry)."""
    out = []
    info = ffi.new("clink_law_info *")
    for i in range(lib.clink_law_count()):
        lib.clink_law_get_info(lib.clink_law_at(i), info)
        d = {}
        for f in ("name", "title", "formula", "damping", "reference", "separation"):
            s = getattr(info, f)
            d[f] = ffi.string(s).decode() if s != ffi.NULL else ""
        for f in ("aliases", "required", "optional"):
            s = getattr(info, f)
            d[f] = [x for x in (ffi.string(s).decode() if s != ffi.NULL else "").split(",") if x]
        d["can_pull"] = bool(info.can_pull)
        d["n_default"] = info.n_default
        d["m"] = info.m
        d["geometry"] = ffi.string(lib.clink_law_geometry(lib.clink_law_at(i))).decode()
        out.append(d)
    return out


# ---- parameter studies (python/clink/sweep.py) ----------------------------------------------

from clink.sweep import read_sweep, sweep  # noqa: E402 (after Error, which it raises)
