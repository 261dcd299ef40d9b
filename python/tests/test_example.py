"""examples/python/ring_allreduce.py runs as a user runs it, and says what
its docstring says: contention in rank order, none along the NVLinks."""

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python" / "ring_allreduce.py"


def test_the_ring_allreduce_example_finds_the_contention_and_its_fix():
    done = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    first, second = out.split("== ring along the NVLinks")
    assert "contention-freedom   violated" in first
    assert "two worms share arc cpu0->cpu1" in first
    assert "contention-freedom   holds" in second
    assert "x faster" in second
