#!/bin/bash
# Runs the OSS-Fuzz / ClusterFuzzLite build script (.clusterfuzzlite/build.sh) locally, the way
# the infrastructure calls it, in directories of its own; checks that every target binary, seed
# corpus zip and dictionary is there, and that each target runs its unzipped seed corpus and
# then a fixed number of mutations from a fixed seed without a finding (a fixed -seed and -runs,
# not a time limit, so the test is the same on every run: open-ended fuzzing is fuzz/run's job).
# Skips (exit 77, one line; ctest reports it as skipped) without clang and libFuzzer or zip.
set -euo pipefail
src=${BPFSCEV_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$probe/t.c"
if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null ||
   ! clang -fsanitize=fuzzer "$probe/t.c" -o "$probe/t" 2>/dev/null; then
	echo "SKIP: clang with libFuzzer (-fsanitize=fuzzer) not found"
	exit 77
fi
command -v zip >/dev/null && command -v unzip >/dev/null ||
	{ echo "SKIP: zip/unzip not found"; exit 77; }

out=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$probe" "$out" "$work"' EXIT
start=$(date +%s)
CC=clang CXX=clang++ CFLAGS=-fsanitize=fuzzer-no-link CXXFLAGS=-fsanitize=fuzzer-no-link \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=$out WORK=$work SRC=/nonexistent \
	bash "$src/.clusterfuzzlite/build.sh" >"$work/build.log" 2>&1 ||
	{ tail -40 "$work/build.log"; echo "FAIL: build.sh"; exit 1; }
echo "build.sh: $(( $(date +%s) - start )) s"

fails=0
for f in "$src"/fuzz/targets/fuzz_*.c; do
	t=$(basename "$f" .c) name=${t#fuzz_}
	if [ "$name" = interp_z3 ] && [ ! -f "$src/oracle/z3/smt.h" ]; then
		continue
	fi
	[ -x "$out/$t" ] || { echo "FAIL: $out/$t missing"; fails=$((fails + 1)); continue; }
	zip=$out/${t}_seed_corpus.zip
	[ -s "$zip" ] || { echo "FAIL: $zip missing"; fails=$((fails + 1)); continue; }
	if [ -f "$src/fuzz/targets/$name.dict" ] && [ ! -f "$out/$t.dict" ]; then
		echo "FAIL: $out/$t.dict missing"
		fails=$((fails + 1))
	fi
	seeds=$work/seeds-$name corpus=$work/corpus-$name
	mkdir -p "$seeds" "$corpus"
	unzip -q "$zip" -d "$seeds"
	n=$(ls "$seeds" | wc -l)
	[ "$n" -eq "$(ls "$src/corpus/$name" | wc -l)" ] ||
		{ echo "FAIL: $zip has $n files, corpus/$name $(ls "$src/corpus/$name" | wc -l)"; fails=$((fails + 1)); }
	dict=()
	[ -f "$out/$t.dict" ] && dict=(-dict="$out/$t.dict")
	# from a directory other than the build's: the rpath must find lib/
	if (cd "$work" && "$out/$t" "${dict[@]}" -seed=1 -runs=500 -timeout=20 \
		-artifact_prefix="$work/$name-" "$corpus" "$seeds") >"$work/$name.log" 2>&1; then
		echo "$t: $n seeds, $(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$work/$name.log" | tail -1)s"
	else
		tail -30 "$work/$name.log"
		echo "FAIL: $t on its seed corpus"
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ] || exit 1
echo "PASS: OSS-Fuzz build script, $(( $(date +%s) - start )) s"
