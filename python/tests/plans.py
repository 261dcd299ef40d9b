"""MSCCL++ execution plans written in plain Python for the tests: every GPU
one thread block, connected to every peer by one memory channel, its
remote buffers its peers' (in rank order), as MSCCL++'s DSL writes them."""

import json
from typing import Any, Callable, Dict, List


def local(buffer: str, index: int) -> Dict[str, Any]:
    return {"type": buffer, "index": index, "size": 1}


def remote(peer: int, index: int) -> Dict[str, Any]:
    """Chunk `index` of the remote buffer of the block's `peer`-th peer."""
    return {"buffer_id": peer, "index": index, "size": 1}


def sync(name: str, peers: int) -> Dict[str, Any]:
    """Signal (or wait on) every memory channel of the block."""
    return {"name": name, "channel_type": "memory", "channel_ids": list(range(peers))}


NOP = {"name": "nop"}


def of(r: int, q: int) -> int:
    """GPU r's index of its peer q (its peers in rank order)."""
    return q - (1 if q > r else 0)


def plan(
    collective: str,
    inplace: bool,
    n: int,
    chunks: List[int],
    remote_type: str,
    ops: Callable[[int], List[Dict[str, Any]]],
) -> Dict[str, Any]:
    gpus = []
    for r in range(n):
        peers = [q for q in range(n) if q != r]
        gpus.append(
            {
                "id": r,
                "input_chunks": chunks[0],
                "output_chunks": chunks[1],
                "scratch_chunks": chunks[2],
                "channels": [{"channel_type": "memory", "connected_to": peers}],
                "remote_buffers": [
                    {"rank": q, "type": remote_type, "access_channel_types": ["memory"]}
                    for q in peers
                ],
                "semaphores": [],
                "threadblocks": [
                    {
                        "id": 0,
                        "ops": ops(r),
                        "channels": [
                            {"channel_type": "memory", "channel_ids": list(range(n - 1))}
                        ],
                        "remote_buffer_refs": [
                            {
                                "access_channel_type": "memory",
                                "remote_buffer_ids": list(range(n - 1)),
                            }
                        ],
                    }
                ],
            }
        )
    return {
        "name": f"test_{collective}",
        "collective": collective,
        "protocol": "Simple",
        "inplace": inplace,
        "reuse_resources": False,
        "num_threads_per_block": 1024,
        "use_double_scratch_buffer": False,
        "buffer_alignment": 16,
        "min_message_size": 0,
        "max_message_size": 2**64 - 1,
        "gpus": gpus,
    }


def allreduce(n: int, drop_signal: bool = False) -> Dict[str, Any]:
    """An allreduce in place, chunk r owned by GPU r: a barrier (nop,
    signal, wait, nop), GPU r sums chunk r of every peer's input into its
    own (rre), a barrier, puts the sum into every peer's chunk r, and a
    last barrier. `drop_signal`: GPU 0's first signal leaves out its last
    peer, whose last wait is then never satisfied (a hang)."""

    def barrier() -> List[Dict[str, Any]]:
        return [dict(NOP), sync("signal", n - 1), sync("wait", n - 1), dict(NOP)]

    def ops(r: int) -> List[Dict[str, Any]]:
        out = barrier()
        if drop_signal and r == 0:
            out[1]["channel_ids"] = list(range(n - 2))
        src = [local("i", r)] + [remote(of(r, q), r) for q in range(n) if q != r]
        out.append(
            {
                "name": "rre",
                "channel_type": "memory",
                "reduce_op": "sum",
                "src_buff": src,
                "dst_buff": [local("i", r)],
            }
        )
        out += barrier()
        for q in range(n):
            if q != r:
                out.append(
                    {
                        "name": "put",
                        "channel_type": "memory",
                        "src_buff": [local("i", r)],
                        "dst_buff": [remote(of(r, q), r)],
                    }
                )
        out += barrier()
        return out

    return plan("allreduce", True, n, [n, n, 0], "i", ops)


class Program:
    """Stands for an MSCCL++ DSL program: what it hands over is to_json()."""

    def __init__(self, plan: Dict[str, Any]) -> None:
        self.plan = plan

    def to_json(self) -> str:
        return json.dumps(self.plan, indent=2)
