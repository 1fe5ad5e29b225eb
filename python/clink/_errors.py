# SPDX-License-Identifier: BSD-3-Clause
"""The exceptions of the package: clink.Error and its subclasses.

Every failure the library reports is a clink.Error (.status the library's status name,
.message its one-line message), raised as the subclass that also derives from the
built-in exception a Python caller would catch for that kind of failure:

    clink.FileNotFound   (Error, FileNotFoundError)  a model or run file that is not there
    clink.InputError     (Error, ValueError)         a bad file, override or argument
                                                     (CLINK_ERR_ARG, _RANGE, _PARSE, _MODEL)
    clink.NotFound       (Error, LookupError)        an unknown name (CLINK_ERR_NOT_FOUND)
    clink.StateError     (Error, RuntimeError)       a call the object's state does not
                                                     allow: closed, in use, stopped, past
                                                     its end (CLINK_ERR_STATE)
    clink.IOFailure      (Error, OSError)            a file that cannot be read or written
                                                     (CLINK_ERR_IO)
    clink.SolverError    (Error, ArithmeticError)    the integration or a solve failed
                                                     (CLINK_ERR_SOLVER, _LINSOLVE,
                                                     _SINGULAR, _ASSEMBLY, _NONFINITE,
                                                     _NO_CONVERGENCE)

`Error(message, status)` picks the subclass from the status by itself, so
`except clink.Error` catches them all and `except ValueError` the bad input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for the annotation of Error.result only (clink imports this module)
    from clink import Result

__all__ = ["Error", "FileNotFound", "InputError", "NotFound", "StateError", "IOFailure",
           "SolverError"]


class Error(Exception):
    """A failure reported by clink: .status is the status name ("CLINK_ERR_RANGE"),
    .message clink's one-line message. Constructed with a status, it is an instance of
    the subclass for that status (module clink._errors). .result: the rows computed before
    a failed Model.simulate() (set by it only)."""

    result: Result

    def __new__(cls, message: str | None = None, status: str | None = None, *args: Any,
                **kwargs: Any) -> Error:
        if cls is Error:
            cls = _BY_STATUS.get(status, Error)
        return super().__new__(cls)

    def __init__(self, message: str | None = None, status: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status

    def __str__(self) -> str:
        return str(self.message)


class FileNotFound(Error, FileNotFoundError):
    """A model file (or run directory) that does not exist; also a FileNotFoundError."""

    def __init__(self, message: str | None = None, status: str | None = "CLINK_ERR_IO",
                 filename: str | None = None) -> None:
        Error.__init__(self, message, status)
        self.filename = filename


class InputError(Error, ValueError):
    """Bad input: a file, an override or an argument clink refuses; also a ValueError."""


class NotFound(Error, LookupError):
    """An unknown name (a body, an input, a law); also a LookupError."""


class StateError(Error, RuntimeError):
    """A call the object's state does not allow (closed, in use, stopped, past its end);
    also a RuntimeError."""


class IOFailure(Error, OSError):
    """A file that cannot be read or written; also an OSError."""

    def __init__(self, message: str | None = None,
                 status: str | None = "CLINK_ERR_IO") -> None:
        Error.__init__(self, message, status)


class SolverError(Error, ArithmeticError):
    """The integration or a linear solve failed; also an ArithmeticError."""


_BY_STATUS = {
    "CLINK_ERR_ARG": InputError, "CLINK_ERR_RANGE": InputError,
    "CLINK_ERR_PARSE": InputError, "CLINK_ERR_MODEL": InputError,
    "CLINK_ERR_NOT_FOUND": NotFound, "CLINK_ERR_STATE": StateError,
    "CLINK_ERR_IO": IOFailure, "CLINK_ERR_SOLVER": SolverError,
    "CLINK_ERR_LINSOLVE": SolverError, "CLINK_ERR_SINGULAR": SolverError,
    "CLINK_ERR_ASSEMBLY": SolverError, "CLINK_ERR_NONFINITE": SolverError,
    "CLINK_ERR_NO_CONVERGENCE": SolverError,
}
