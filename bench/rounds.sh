#!/bin/sh
# rounds.sh N PATTERN [test binary flags...]: runs the benchmarks matching
# PATTERN in N rounds, each round running every client once, one after the
# other, so that the ratios ratios.py computes compare runs made next to each
# other in time (go test -count N would run one client N times, then the
# next). Example: ./rounds.sh 6 'GetRepository|IssuePage50' | python3 ratios.py
set -eu
n=$1 pattern=$2
shift 2
cd "$(dirname "$0")"
bin=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" .
i=0
while [ "$i" -lt "$n" ]; do
	"$bin" -test.run '^$' -test.bench "$pattern" -test.benchmem "$@"
	i=$((i + 1))
done
