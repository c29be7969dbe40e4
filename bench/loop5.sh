#!/bin/sh
# Issue 13 §4's 5-instruction loop (bench_loop5, its comment) for several builds side by side:
# bench_loop5 built at each COMMIT from `git archive` (Release, in WORK: bench/tree_at.sh) and in
# this tree's build-release; the instructions per analysis of each (callgrind, counted in
# scev_analyze only, 201 analyses: deterministic), then ROUNDS alternated runs of N analyses
# each (CPU µs per analysis) and their medians.  Needs valgrind for the instructions.
#
# Usage: bench/loop5.sh [N] [ROUNDS] [COMMIT...]   (defaults: 100000 5 5c31576)
# Environment: WORK (default /tmp/same_programs), BUILD (this tree's Release build directory,
# default build-release).
n_default=100000
. "$(dirname "$0")/tree_at.sh"
names=""
for c in "$@"; do
	tree_at "$c" bench_loop5
	names="$names $c"
done
cmake --build "$build" -j2 --target bench_loop5 >/dev/null
bin() {
	if [ "$1" = this ]; then echo "$build/bench/bench_loop5"; else echo "$work/src-$1/build/bench/bench_loop5"; fi
}
for c in $names this; do
	cg=$work/loop5-$c.callgrind
	valgrind --tool=callgrind --toggle-collect=scev_analyze --callgrind-out-file="$cg" \
		"$(bin "$c")" 201 >/dev/null 2>&1
	printf '%s instructions per analysis %s\n' "$c" \
		"$(awk '/^(summary|totals):/ {print int($2 / 201); exit}' "$cg")"
done
run_one() {
	"$(bin "$1")" "$n"
}
uptime
out=$work/loop5-runs.txt
alternate "$out" run_one $names this
uptime
medians "$out" 4 $names this	# (CPU µs per analysis)
