#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build of bpfscev's fuzz targets (fuzz/targets/), also runnable
# locally:
#   CC=clang CXX=clang++ CFLAGS=-fsanitize=fuzzer-no-link LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   OUT=/tmp/out .clusterfuzzlite/build.sh
# Honours $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT, and $SRC and $WORK when set
# (the source is $SRC/bpfscev, else the checkout this script is in; the libraries are built in
# $WORK/bpfscev-build, else in a fresh temporary directory).
# The libraries are built by CMake with the caller's compiler and flags (build type None: the
# flags are all the caller's, as OSS-Fuzz expects), then each target is compiled and linked here
# with $LIB_FUZZING_ENGINE, so any engine works (libFuzzer, AFL++'s driver, honggfuzz).
# Writes to $OUT: fuzz_<target>, fuzz_<target>_seed_corpus.zip (corpus/<target>/),
# fuzz_<target>.dict for the text targets, and lib/ with the shared libraries the runner image
# lacks (libz3; libbpf and libelf are linked statically), found through an $ORIGIN rpath.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=${SRC:+$SRC/bpfscev}
[ -n "$src" ] && [ -f "$src/CMakeLists.txt" ] || src=$here
: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}" "${OUT:?set OUT to the output directory}"
work=${WORK:-$(mktemp -d)}/bpfscev-build
mkdir -p "$OUT/lib" "$work"
jobs=$(nproc 2>/dev/null || echo 2)

# Coverage of the oracle is noise for every target but interp_z3 (coverage_ignore.txt); the
# list is a clang SanitizerCoverage option, so only when the engine uses SanitizerCoverage.
libflags=$CFLAGS
if [[ "${FUZZING_ENGINE:-libfuzzer}" = libfuzzer && "$CFLAGS" = *-fsanitize=fuzzer-no-link* ]]; then
	libflags="$CFLAGS -fsanitize-coverage-ignorelist=$src/fuzz/targets/coverage_ignore.txt"
fi

CC=$CC CFLAGS=$libflags cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=None \
	-DBPFSCEV_FUZZ=OFF -DBPFSCEV_SANITIZE=OFF >/dev/null
cmake --build "$work" -j"$jobs" --target bpfscev_fuzz

# the layers, top first (CMakeLists.txt): a static link resolves each against those after it
libs=("$work/libbpfscev_fuzz.a" "$work/libbpfscev_triage.a" "$work/libbpfscev_oracle.a"
      "$work/libbpfscev_gen.a" "$work/libbpfscev_scev.a" "$work/libbpfscev_claims.a"
      "$work/libbpfscev_casefile.a" "$work/libbpfscev_bpf.a" "$work/libbpfscev_util.a")
syslibs=(-Wl,-Bstatic -lbpf -lelf -Wl,-Bdynamic -lz3 -lz -lm -Wl,-rpath,'$ORIGIN/lib')

targets=()
for f in "$src"/fuzz/targets/fuzz_*.c; do
	t=$(basename "$f" .c)
	extra=()
	if [ "$t" = fuzz_interp_z3 ]; then
		[ -f "$src/oracle/z3/smt.h" ] || continue
		# its subject is the oracle: compiled again here, with full coverage
		# (every oracle's folder: oracle/*/*.c, and oracle/*.c)
		for o in "$src"/oracle/*.c "$src"/oracle/*/*.c; do
			[ -f "$o" ] || continue
			rel=${o#"$src"/oracle/}
			obj=$work/$t-${rel//\//-}.o
			$CC $CFLAGS -std=gnu11 -I"$src" -c "$o" -o "$obj"
			extra+=("$obj")
		done
	fi
	$CC $CFLAGS -std=gnu11 -I"$src" -c "$f" -o "$work/$t.o"
	$CXX $CXXFLAGS "$work/$t.o" "${extra[@]}" -o "$OUT/$t" $LIB_FUZZING_ENGINE "${libs[@]}" \
		"${syslibs[@]}"
	name=${t#fuzz_}
	if [ -d "$src/corpus/$name" ]; then
		rm -f "$OUT/${t}_seed_corpus.zip"
		(cd "$src/corpus/$name" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
	fi
	[ -f "$src/fuzz/targets/$name.dict" ] && cp "$src/fuzz/targets/$name.dict" "$OUT/$t.dict"
	targets+=("$t")
done

# the shared libraries the base-runner image does not have, next to the binaries
for l in $(ldd "$OUT/${targets[0]}" | awk '/libz3/ {print $3}'); do
	cp -L "$l" "$OUT/lib/"
done
echo "built ${targets[*]} in $OUT"
