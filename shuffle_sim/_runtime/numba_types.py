"""numba argument types written as plain JSON data and read back: the recorded signatures of kernels.

A kernel compiled ahead in another process (``compile_ahead``) must be compiled for exactly the
argument types the command will call it with, or numba's cache will not serve it. Those types are
recorded from a command's own compile (``shuffle-sim bench-startup --record``) and kept as data:
scalars and arrays by numba's own names for them (``"int64"``, ``"array(float64, 2d, C)"``,
``"readonly array(float64, 1d, A)"``), tuples as ``{"tuple": [...]}``, named tuples with their class
(``{"namedtuple": "module:qualname", "of": [...]}``), and any other type (a law, say) as its pickle
in base64, ``{"pickle": "..."}``. Reading gives back types equal to the ones written, so numba's
cache key is the same.
"""

from __future__ import annotations

import base64
import importlib
import pickle
import re
from typing import Any

_ARRAY = re.compile(r"(readonly )?array\((\w+), (\d+)d, ([CFA])\)")


def encode_type(numba_type) -> Any:
    """``numba_type`` as JSON data (module docstring)."""
    from numba.core import types

    named = type(numba_type) is types.Array or isinstance(numba_type, (types.Integer, types.Float, types.Boolean))
    if named and decode_type(str(numba_type)) == numba_type:
        return str(numba_type)
    if isinstance(numba_type, (types.NamedTuple, types.NamedUniTuple)):
        cls = numba_type.instance_class
        return {"namedtuple": f"{cls.__module__}:{cls.__qualname__}", "of": [encode_type(t) for t in numba_type.types]}
    if isinstance(numba_type, types.BaseTuple):
        return {"tuple": [encode_type(t) for t in numba_type.types]}  # type: ignore[attr-defined]
    return {"pickle": base64.b64encode(pickle.dumps(numba_type)).decode("ascii")}


def decode_type(data: Any):
    """The numba type that ``encode_type`` wrote as ``data``."""
    from numba.core import types

    if isinstance(data, str):
        array = _ARRAY.fullmatch(data)
        if array:
            readonly, dtype, ndim, layout = array.groups()
            return types.Array(decode_type(dtype), int(ndim), layout, readonly=bool(readonly))  # type: ignore[arg-type]
        found = getattr(types, data, None)
        if not isinstance(found, types.Type):
            raise ValueError(f"not a numba scalar or array type: {data!r}")
        return found
    if "namedtuple" in data:
        module, _, qualname = data["namedtuple"].partition(":")
        cls: Any = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        return types.BaseTuple.from_types([decode_type(t) for t in data["of"]], cls)
    if "tuple" in data:
        return types.BaseTuple.from_types([decode_type(t) for t in data["tuple"]])
    if "pickle" in data:
        return pickle.loads(base64.b64decode(data["pickle"]))
    raise ValueError(f"not a recorded numba type: {data!r}")


def encode_signature(argument_types) -> list:
    """A kernel's argument types as JSON data."""
    return [encode_type(t) for t in argument_types]


def decode_signature(data: list) -> tuple:
    """The argument types ``encode_signature`` wrote, as the tuple numba compiles for."""
    return tuple(decode_type(t) for t in data)


__all__ = ["decode_signature", "decode_type", "encode_signature", "encode_type"]
