"""What calling commcheck from Python costs (BENCHMARKS.md): the median
of 300 calls of small checks, whole (`commcheck.check`, the check
included) and through the native module alone (`_native.run`: the
command line's parser, the check, its JSON); the difference is the
Python layer (keyword arguments to words, JSON to objects).

    python3 python/benches/overhead.py
"""

import statistics
import time

import commcheck
from commcheck import _native


def median_us(call, times=300):
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


for algorithm, n in [("sbt", 2), ("nob", 3), ("mnb", 4)]:
    whole = median_us(lambda: commcheck.check(algorithm, n))
    native = median_us(lambda: _native.run([algorithm, str(n)]))
    print(
        f"{algorithm} {n}: commcheck.check {whole:.0f} us, _native.run {native:.0f} us, "
        f"the Python layer {whole - native:.0f} us"
    )
