"""A ring allreduce written in plain Python for an 8-GPU server (a DGX-1,
whose GPUs are joined by NVLinks as a hybrid cube-mesh), checked with
commcheck: in rank order, a hop of each of its two channels crosses the
CPUs' QPI link the same way at once,
and commcheck names the slot, the link and the two worms, and times the
ring in microseconds; laid along a cycle of the NVLinks, it checks clean
and runs about 8 times faster.

    pip install ./python
    python examples/python/ring_allreduce.py
"""

import commcheck

GPUS = 8
SERVER = "dgx1"
BYTES = 62_500  # a chunk: 16 of them make the 1 MB buffer


def ring_allreduce(order):
    """The ring allreduce of len(order) ranks on two channels, as NCCL runs
    it: channel 0 sends each rank's chunks to the next rank of `order`,
    channel 1 to the one before, each channel half of the buffer (n chunks).
    A channel is n - 1 steps of reduce-scatter (a rank adds the chunk it
    receives to its own) then n - 1 of allgather; each step's send and
    receive run at once, after the step before. commcheck's schedule JSON
    (docs/schedules.md)."""
    n = len(order)
    ops = []
    for channel, ring in enumerate([order, order[::-1]]):
        for i, rank in enumerate(ring):
            right, left = ring[(i + 1) % n], ring[(i - 1) % n]
            before = []
            for step in range(2 * (n - 1)):
                reduce = step < n - 1
                if reduce:  # position i ends holding chunk i + 1 whole
                    sent, got = (i - step) % n, (i - step - 1) % n
                else:
                    k = step - (n - 1)
                    sent, got = (i + 1 - k) % n, (i - k) % n
                send, recv = f"c{channel}s{step}", f"c{channel}r{step}"
                base = channel * n
                ops.append({"rank": rank, "label": send, "after": before,
                            "send": {"to": right, "tag": channel, "chunks": [base + sent]}})
                ops.append({"rank": rank, "label": recv, "after": before,
                            "recv": {"from": left, "tag": channel, "chunks": [base + got],
                                     "reduce": reduce}})
                before = [send, recv]
    return {
        "format": "commcheck-schedule",
        "version": 1,
        "ranks": n,
        "collective": {"name": "allreduce", "chunks": 2 * n},
        "ops": ops,
    }


def show(title, report):
    print(f"== {title}")
    for p in report.properties:
        print(f"  {p.name:20} {p.status}")
        if p.counterexample is not None:
            print(f"      {p.counterexample}")
    print(f"  time: {report.time} slots, about {report.cost['time_us']:.1f} us "
          f"under {report.cost['model']}")
    return report


def main():
    options = dict(network=SERVER, switching="wh", cost="alpha-beta", bytes=BYTES)

    # The ring in rank order: 3 -> 4 (channel 0) and 0 -> 7 (channel 1) have
    # no NVLink on a DGX-1: both worms go through the CPUs, QPI one way.
    in_order = show("ring in rank order", commcheck.check_schedule(
        ring_allreduce(list(range(GPUS))), **options))
    contention = in_order["contention-freedom"].counterexample
    assert contention is not None
    print(f"  two worms share {contention.resource} in slot {contention.slot}: "
          f"{' and '.join(contention.transmissions)}")

    # Fixed: the ring along a cycle of NVLinks (0 1 2 3 7 6 5 4).
    fixed = show("ring along the NVLinks", commcheck.check_schedule(
        ring_allreduce([0, 1, 2, 3, 7, 6, 5, 4]), **options))
    assert fixed.ok
    print(f"  {in_order.cost['time_us'] / fixed.cost['time_us']:.1f} x faster")


if __name__ == "__main__":
    main()
