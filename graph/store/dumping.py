"""The process that writes one dump of a generation's Oxigraph store (``graph.store.files``).

``python -m graph.store.dumping GENERATION FORMAT BASE OUT``: the store in the folder
GENERATION, opened read-only (it may be serving), written in the format named FORMAT to the
file OUT by ``graph.export.store_dump``, Turtle and TriG declaring the prefixes of the data's
base IRI BASE. Exit code 0 once OUT is whole and on disk; a system error is written on
standard error, with exit code 1, or ``graph.store.writing.NO_SPACE`` for a full disk; so is a
graph the format cannot hold (RDF/XML refuses some IRIs as element names).

A fresh interpreter, not a forked child, for the reason ``graph.store.writing`` gives: a
process that has run RocksDB leaves its threads behind in the children it forks later, and a
server forks its query processes' zygotes.
"""

import os
import sys

import pyoxigraph as ox

from graph.export import prefixes_for
from graph.export.formats import FormatError, format_named
from graph.export.store_dump import write_dump
from graph.store.writing import exit_code


def main(arguments: list[str]) -> int:
    generation, name, base, out = arguments
    try:
        store = ox.Store.read_only(generation)
        with open(out, "wb") as handle:
            write_dump(store, format_named(name), handle, prefixes_for(base))
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        print(error, file=sys.stderr)
        return exit_code(error)
    except FormatError as error:  # a graph the format cannot hold (RDF/XML's element names)
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
