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
n_default=3000
. "$(dirname "$0")/tree_at.sh"
names=""
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
run_one() {
	if [ "$1" = this ]; then b=$build/bench/bench_same_programs; else b=$work/src-$1/build/bench/bench_same_programs; fi
	"$b" "$progs" 100000 "$n"
}
uptime
out=$work/runs.txt
alternate "$out" run_one $names this
uptime
medians "$out" 5 $names this	# (CPU seconds)
