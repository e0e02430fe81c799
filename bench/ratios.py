#!/usr/bin/env python3
"""Ratios in one run: reads `go test -bench` output of this module and
prints, per benchmark, the median over rounds of each client's ratio to raw
for wall time, CPU time and bytes allocated, with the lowest and highest
round in brackets (each round compares the sub-benchmarks that ran next to
each other: run the rounds with rounds.sh).

The webhook parsers (BenchmarkWebhookParse) compare with go-playground's
instead of raw, and also print forgego's throughput as a multiple of
go-playground's (its CPU time per delivery divided by forgego's).
Benchmarks with no baseline print the median of each metric, with the
lowest and highest round."""
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

def spread(rs, fmt):
    return f" [{min(rs):{fmt}}-{max(rs):{fmt}}]" if len(rs) > 1 else ""

for bench, clients in rows.items():
    base = next((b for b in ('raw', 'goplayground') if b in clients), None)
    if base is None:
        for client, ms in clients.items():
            for unit in ms[0]:
                vs = [x[unit] for x in ms if unit in x]
                print(f"{bench}/{client}: median {unit} = {statistics.median(vs):.4g}{spread(vs, '.4g')}  (rounds: {len(vs)})")
        continue
    for client in ('forgego', 'forgego-nodecode', 'gitea', 'floor'):
        if client not in clients:
            continue
        parts = []
        for unit in ('ns/op', 'cpu-ns/op', 'total-cpu-ns/op', 'B/op', 'allocs/op', 'peak-heap-MiB'):
            if unit == 'allocs/op' and base == 'raw':
                continue
            rs = [a[unit] / b[unit] for a, b in zip(clients[client], clients[base]) if unit in a and unit in b and b[unit]]
            if rs:
                parts.append(f"{unit} {statistics.median(rs):.2f}x{spread(rs, '.2f')}")
        print(f"{bench}: {client} / {base}: " + ", ".join(parts) + f"  (rounds: {len(clients[client])})")
        if base == 'goplayground':
            rs = [b['cpu-ns/op'] / a['cpu-ns/op'] for a, b in zip(clients[client], clients[base]) if a.get('cpu-ns/op') and 'cpu-ns/op' in b]
            if rs:
                print(f"{bench}: {client} throughput = {statistics.median(rs):.2f}x {base}'s{spread(rs, '.2f')}")
        for c in (client, base):
            if client == 'forgego' and all('deliveries/cpu-s' in x for x in clients[c]):
                vs = [x['deliveries/cpu-s'] for x in clients[c]]
                print(f"{bench}/{c}: median deliveries/cpu-s = {statistics.median(vs):.0f}{spread(vs, '.0f')}")
