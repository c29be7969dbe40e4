#!/bin/sh
# Claims of two builds side by side: a change meant to cost less must claim exactly the same.
# For every corpus case and for generated programs, diffs the output of `analyze --json` (both
# strategies, and XDP context) and of `verify --json --type xdp` between the OLD and NEW
# binaries.  Prints each program that differs and exits 1 if any does.
#
#   bench/compare_claims.sh OLD_BPFSCEV NEW_BPFSCEV [SEED] [COUNT]
#
# SEED and COUNT choose the generated programs (default 1 and 2000).
set -eu

old=$1
new=$2
seed=${3:-1}
count=${4:-2000}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/gen"
"$new" gen --seed "$seed" --count "$count" -o "$work/gen" >/dev/null

# One file's outputs under one binary (an error message is output too: it must match).
run() {
	"$1" analyze --json "$2" 2>&1 || true
	"$1" analyze --json --strategy iterate "$2" 2>&1 || true
	"$1" analyze --json --type xdp "$2" 2>&1 || true
	"$1" verify --json --type xdp "$2" 2>&1 || true
}

n=0
bad=0
for f in "$top"/corpus/cases/*.case "$work"/gen/*.txt; do
	n=$((n + 1))
	run "$old" "$f" >"$work/old.out"
	run "$new" "$f" >"$work/new.out"
	if ! cmp -s "$work/old.out" "$work/new.out"; then
		bad=$((bad + 1))
		echo "differs: $f"
		diff "$work/old.out" "$work/new.out" | head -5
	fi
done
echo "$n programs, $bad differ"
[ "$bad" -eq 0 ]
