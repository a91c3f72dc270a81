"""The query runtime of a local store: each query runs in a process of its own
(``executor``), forked from a zygote (``zygote``), held to its limits by a pool (``pool``,
``stops``) and confined (``confinement``)."""
