#!/usr/bin/env python3
"""Single node scatter from node 0 of the d-cube along a given spanning tree T,
by the rule of Bertsekas et al. (1991), section 3: the root "continuously
send[s] packets to distinct nodes in the subtree (using only links in T),
giving priority to nodes furthest away from s" -- one packet a subtree a slot
under MLA (`all`), one packet a slot in all under SLA (`one`); every relay
forwards a packet in the slot after it arrives. Ties: the smaller node first.

usage: gen_tree_scatter.py D all|one fig4|gray > FILE
  fig4: the Fig. 4 tree (parent = x with its rightmost one cleared), a
        shortest path tree whose subtrees have 2^(i-1) nodes;
  gray: the Gray-code chain 0, g(1), g(2), ... (g(i) = i xor i>>1): the root
        has one neighbour in T and paths are not shortest.
"""
import json, sys

d, mode, kind = int(sys.argv[1]), sys.argv[2], sys.argv[3]
N = 1 << d
if kind == "fig4":
    parent = {x: x & (x - 1) for x in range(1, N)}
elif kind == "gray":
    g = [i ^ (i >> 1) for i in range(N)]
    parent = {g[i]: g[i - 1] for i in range(1, N)}
else:
    sys.exit("tree: fig4 or gray")


def path(x):
    p = [x]
    while p[-1] != 0:
        p.append(parent[p[-1]])
    return p[::-1]


groups = {}
for x in range(1, N):
    groups.setdefault(path(x)[1] if mode == "all" else 0, []).append(x)
ops, sends = [], {}
for nodes in groups.values():
    nodes.sort(key=lambda x: (-(len(path(x)) - 1), x))
    for s, x in enumerate(nodes, 1):
        p = path(x)
        for h in range(len(p) - 1):
            u, v = p[h], p[h + 1]
            tag = sends.get(u, 0)
            sends[u] = tag + 1
            ops.append((u, s + h, {"rank": u, "slot": s + h, "send": {"to": v, "chunks": [x], "tag": tag}}))
            ops.append((v, s + h, {"rank": v, "recv": {"from": u, "chunks": [x], "tag": tag}}))
ops.sort(key=lambda o: (o[0], o[1], "recv" in o[2]))
head = {"format": "commcheck-schedule", "version": 1, "ranks": N,
        "collective": {"name": "scatter", "root": 0}}
lines = ",\n    ".join(json.dumps(o[2]) for o in ops)
text = json.dumps(head, indent=2)[:-2] + ',\n  "ops": [\n    ' + lines + "\n  ]\n}\n"
json.loads(text)
sys.stdout.write(text)
