"""The C library's functions this project calls where the system has them: ``malloc_trim``
(glibc: ``graph.system.heap``), ``syncfs`` (Linux: ``graph.store.disk``) and ``prctl`` (Linux:
``graph.store.process.zygote``). Each is looked up once, by ``ctypes``, and is None where the C
library
lacks it; the caller then does without, or the portable thing, and says so."""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def libc_function(name: str, arguments: tuple[Any, ...], result: Any = ctypes.c_int
                  ) -> Callable[..., int] | None:
    """The C library's function ``name``, taking ``arguments`` (ctypes types) and giving
    ``result``, errno kept for ``ctypes.get_errno``; None where there is none."""
    library = ctypes.util.find_library("c")
    if library is None:
        return None
    try:
        function = getattr(ctypes.CDLL(library, use_errno=True), name)
    except (OSError, AttributeError):
        return None
    function.argtypes, function.restype = list(arguments), result
    return function  # type: ignore[no-any-return]


__all__ = ["libc_function"]
