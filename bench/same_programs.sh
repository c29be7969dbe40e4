#!/bin/sh
# Campaign throughput of several builds on one program set: bench_same_programs (its comment)
# built at each COMMIT from `git archive` (Release, in WORK) and in this tree's build-release,
# all fed the programs the FIRST commit's generator writes (`bpfscev gen --seed 100000 --count N`),
# run alternately ROUNDS times; one line per run, then the medians.  An additional measure beside
# `bpfscev fuzz` (whose programs differ between builds whose generators differ), not a
# replacement.
#
# Usage: bench/same_programs.sh [N] [ROUNDS] [COMMIT...]   (defaults: 3000 5 5c31576)
# Environment: WORK (default /tmp/same_programs), BUILD (this tree's Release build directory,
# default build-release).
set -eu
n=${1:-3000}
rounds=${2:-5}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- 5c31576
src=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-/tmp/same_programs}
build=${BUILD:-$src/build-release}
mkdir -p "$work"
names=""
. "$src/bench/tree_at.sh"
for c in "$@"; do
	tree_at "$c" bpfscev bench_same_programs
	names="$names $c"
done
cmake --build "$build" -j2 --target bench_same_programs >/dev/null
first=$(echo $names | cut -d' ' -f1)
progs=$work/programs-$first-$n
if [ ! -f "$progs/gen-$((100000 + n - 1)).txt" ]; then
	rm -rf "$progs"
	"$work/src-$first/build/bpfscev" gen --seed 100000 --count "$n" -o "$progs" >/dev/null
fi
uptime
out=$work/runs.txt
: >"$out"
r=0
while [ $r -lt "$rounds" ]; do
	for c in $names this; do
		if [ $c = this ]; then b=$build/bench/bench_same_programs; else b=$work/src-$c/build/bench/bench_same_programs; fi
		printf '%s %s\n' "$c" "$("$b" "$progs" 100000 "$n")" | tee -a "$out"
	done
	r=$((r + 1))
done
uptime
for c in $names this; do
	printf '%s median cpu ' "$c"
	grep "^$c " "$out" | awk '{print $5}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
done
