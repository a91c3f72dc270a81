"""The benchmark page: a catalog entry for one benchmark, from what the store says about it."""
