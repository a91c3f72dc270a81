"""The files a ``sparql:`` store makes from the engine, made in a process of their own while
the server already answers.

A ``sparql:URL`` store answers pages, named queries and ``/sparql`` from the engine, which
needs nothing but the URL. Search, the faceted lists, the dumps and the validation report's
files need the files made from the data graphs read back (``RemoteStore``), which takes
minutes on a large catalog (perf/decisions/remote-files-made-apart.md). So ``serve`` starts
one child process (``graph.system.child``) that makes them into a folder of its own and gives back
the generation folder it made, or its error. The server's request threads ask whether it is
done, without waiting for it; until it is, what needs the files answers 503 with
``Retry-After``, saying what is being made and for how long (``StorePreparing``).

A process, not a thread: the server then forks its query processes' zygote from the process
that opened the store, and a thread running at a fork leaves the locks it held locked in every
child. The maker belongs to the process that started it: a process forked from that one
neither kills it nor removes its folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from graph.errors import BenchgraphError
from graph.store.errors import StoreError, StorePreparing
from graph.system.child import Child

_WHAT = "the search index and the downloads"


@dataclass
class Preparation:
    """The process ``maker`` making a store's files into ``root``, started by the process
    ``owner``."""

    root: Path
    maker: Child[Path]
    started: float = field(default_factory=time.monotonic)
    owner: int = field(default_factory=os.getpid)
    _made: Path | None = field(default=None, repr=False)
    """The generation folder, once the maker gave it: every request after asks nothing."""

    @classmethod
    def start(cls, make: Callable[[Path], Path]) -> Preparation:
        """Start a process that runs ``make(root)``, which returns the generation folder it
        made in ``root``."""
        root = Path(tempfile.mkdtemp(prefix="benchgraph-remote-"))
        return cls(root, Child.start(partial(make, root), f"the process making {_WHAT}"))

    def folder(self) -> Path:
        """The generation folder, once made. StorePreparing while it is being made,
        StoreError when it could not be."""
        if self._made is None:
            if not self.maker.done():
                seconds = time.monotonic() - self.started
                raise StorePreparing(f"{_WHAT} are being made from the engine ({seconds:.0f} s "
                                     "so far); try again in a few seconds")
            try:
                self._made = self.maker.result()
            except BenchgraphError as error:
                raise StoreError(f"{_WHAT} could not be made from the engine: "
                                 f"{error.message}") from None
        return self._made

    def stop(self) -> None:
        """In the process that started it: stop the maker if it still runs and remove what
        it made. Elsewhere, nothing: the folder is shared."""
        if os.getpid() != self.owner:
            return
        self.maker.kill()
        shutil.rmtree(self.root, ignore_errors=True)


__all__ = ["Preparation", "StorePreparing"]
