# SPDX-License-Identifier: BSD-3-Clause
"""The type aliases of the package's annotations (PEP 484; docs/python.md, "Type hints").

Annotations only: nothing here is called. The package's modules write
`from __future__ import annotations`, so these names are looked up only by a type
checker (mypy) or by typing.get_type_hints(), which finds them in each module's globals.
"""

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Union

import numpy as np
import numpy.typing as npt

# a file or directory name, as os.fspath() takes it
StrPath = Union[str, os.PathLike[str]]
# an array of doubles (the arrays the package fills: SI units, docs/python.md)
FloatArray = npt.NDArray[np.float64]
# an array of impact records (the structured dtype of Result.impacts)
RecordArray = npt.NDArray[np.void]
# an override's value: a number, a vector of numbers, or a keyword
OverrideValue = Union[float, str, Sequence[float], npt.NDArray[np.float64]]
# the overrides of load() and loads(): {PATH: value} or ["PATH=VALUE", ...]
Overrides = Union[Mapping[str, OverrideValue], Iterable[str], None]
# a setting given to Model.start() or Model.simulate(): a number, a keyword, or None (the
# model's own)
SettingValue = Union[float, str, None]
# an impact callback: on_impact(record), record a dict (docs/python.md, "Step by step")
ImpactCallback = Callable[[dict[str, Any]], object]
# a user force: force(t, q, v) -> (bodies, 3) generalised forces (N, N m)
UserForce = Callable[[float, FloatArray, FloatArray], npt.ArrayLike]
# its Jacobian: jacobian(t, q, v) -> (df/dq, df/dv)
UserJacobian = Callable[[float, FloatArray, FloatArray], tuple[npt.ArrayLike, npt.ArrayLike]]
# a table (read_sweep, sweep) or a run's series (read_run): a pandas DataFrame, or a dict of
# NumPy arrays keyed by column when pandas cannot be imported
Table = Any

__all__ = ["StrPath", "FloatArray", "RecordArray", "OverrideValue", "Overrides",
           "SettingValue", "ImpactCallback", "UserForce", "UserJacobian", "Table"]
