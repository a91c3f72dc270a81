"""What the build and the store ask of the operating system: the C library's functions
(``libc``), the heap handed back (``heap``), the collector paused (``gc_pause``), a job
run in a forked child (``child``)."""
