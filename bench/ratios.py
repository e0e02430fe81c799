#!/usr/bin/env python3
"""Ratios in one run: reads `go test -bench` output of this module and
prints, per benchmark, the median over rounds of each client's ratio to raw
for wall time, CPU time and bytes allocated, with the lowest and highest
round in brackets (each round compares the sub-benchmarks that ran next to
each other: run the rounds with rounds.sh)."""
import re, sys, statistics
from collections import defaultdict

rows = defaultdict(lambda: defaultdict(list))  # bench -> client -> [metrics]
for line in sys.stdin:
    m = re.match(r'^(Benchmark\S+)/([^/\s]+?)-\d+\s+\d+\s+(.*)$', line)
    if not m:
        continue
    bench, client, rest = m.groups()
    metrics = {unit: float(v) for v, unit in re.findall(r'([\d.]+) (\S+)', rest)}
    rows[bench][client].append(metrics)

for bench, clients in rows.items():
    if 'raw' not in clients:
        for client, ms in clients.items():
            for unit in ms[0]:
                print(f"{bench}/{client}: median {unit} = {statistics.median(x[unit] for x in ms):.4g}")
        continue
    for client in ('forgego', 'forgego-nodecode', 'gitea', 'floor'):
        if client not in clients:
            continue
        parts = []
        for unit in ('ns/op', 'cpu-ns/op', 'total-cpu-ns/op', 'B/op', 'peak-heap-MiB'):
            rs = [a[unit] / b[unit] for a, b in zip(clients[client], clients['raw']) if unit in a and unit in b and b[unit]]
            if rs:
                spread = f" [{min(rs):.2f}-{max(rs):.2f}]" if len(rs) > 1 else ""
                parts.append(f"{unit} {statistics.median(rs):.2f}x{spread}")
        print(f"{bench}: {client} / raw: " + ", ".join(parts) + f"  (rounds: {len(clients[client])})")
