"""The scale section's sampler sums the memory of a whole process tree, children included."""

import subprocess
import sys

import pytest

from perf.tree_memory import TreeSampler

MB = 2**20
CHILD_HOLDS = 150 * MB
CHILD = f"block = bytearray({CHILD_HOLDS}); import time; time.sleep(1.5)"  # every page touched
PROGRAM = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {CHILD!r}], check=True)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_child_s_memory_counts_in_its_parent_s_tree() -> None:
    process = subprocess.Popen([sys.executable, "-c", PROGRAM])
    with TreeSampler(process.pid, interval=0.05) as sampler:
        assert process.wait(60) == 0
    peak = sampler.peak
    assert peak.processes >= 2
    assert peak.rss >= CHILD_HOLDS and peak.pss >= CHILD_HOLDS
    mine = f"{process.pid} "
    parent = max(rss for name, rss in peak.per_process.items() if name.startswith(mine))
    assert parent < CHILD_HOLDS  # the child's block is not the parent's
    assert peak.timeline and peak.samples == len(peak.timeline)
