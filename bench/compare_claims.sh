#!/bin/sh
# Claims of two builds side by side: a change meant to cost less must claim exactly the same.
# For every corpus case and for generated programs, diffs the output of `analyze --json` (both
# strategies, and XDP context), of `verify --json --type xdp` and of `loops --json` and
# `loops --dot` (the loop forest: every loop's blocks) between the OLD and NEW binaries.  Prints each program that differs and exits 1 if any does.
#
#   bench/compare_claims.sh OLD_BPFSCEV NEW_BPFSCEV [SEED] [COUNT]
#
# SEED and COUNT choose the generated programs (default 1 and 2000).  JOBS=N in the
# environment compares N programs at a time (default 1: each program is eight short runs, whose
# start-up, not their CPU, takes most of the time on a loaded machine).
set -eu

# One file's outputs under one binary (an error message is output too: it must match).
run() {
	"$1" analyze --json "$2" 2>&1 || true
	"$1" analyze --json --strategy iterate "$2" 2>&1 || true
	"$1" analyze --json --type xdp "$2" 2>&1 || true
	"$1" verify --json --type xdp "$2" 2>&1 || true
	"$1" loops --json "$2" 2>&1 || true
	"$1" loops --dot "$2" 2>&1 || true
}

# --one OLD NEW WORK FILE...: compares these files (a worker of the JOBS runs).
if [ "${1:-}" = --one ]; then
	old=$2 new=$3 work=$4
	shift 4
	o=$(mktemp "$work/old.XXXXXX")
	n=$(mktemp "$work/new.XXXXXX")
	for f; do
		run "$old" "$f" >"$o"
		run "$new" "$f" >"$n"
		if ! cmp -s "$o" "$n"; then
			echo "differs: $f"
			diff "$o" "$n" | head -5
		fi
	done
	rm -f "$o" "$n"
	exit 0
fi

old=$1
new=$2
seed=${3:-1}
count=${4:-2000}
jobs=${JOBS:-1}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/gen"
"$new" gen --seed "$seed" --count "$count" -o "$work/gen" >/dev/null

ls "$top"/corpus/cases/*.case "$work"/gen/*.txt >"$work/files"
n=$(wc -l <"$work/files")
xargs -P "$jobs" -n 16 "$0" --one "$old" "$new" "$work" <"$work/files" | tee "$work/report"
bad=$(grep -c '^differs: ' "$work/report" || true)
echo "$n programs, $bad differ"
[ "$bad" -eq 0 ]
