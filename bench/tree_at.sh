# Sourced by bench/same_programs.sh and bench/loop5.sh, with their arguments [N] [ROUNDS]
# [COMMIT...] and n_default (N's default) set: sets n, rounds, src (this tree), work ($WORK,
# default /tmp/same_programs), build ($BUILD, default build-release), the positional parameters
# to the COMMITs (default 5c31576), and defines
#   tree_at COMMIT TARGET...   builds TARGETs (Release) of COMMIT's tree, extracted by
#                              `git archive` into $work/src-COMMIT, with this tree's
#                              bench_same_programs.c and bench_loop5.c copied into its bench/
#                              (both build against issue 13's old tree 5c31576 too); a tree
#                              extracted before is built again only where its files changed;
#   alternate FILE FN NAME...  ROUNDS rounds of `FN NAME` for each NAME in turn, each line
#                              "NAME output" printed and kept in FILE;
#   medians FILE FIELD NAME... the median of field FIELD of FILE's lines starting with NAME,
#                              for each NAME.
set -eu
n=${1:-$n_default}
rounds=${2:-5}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- 5c31576
src=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-/tmp/same_programs}
build=${BUILD:-$src/build-release}
mkdir -p "$work"

tree_at() {
	tc=$1
	shift
	td=$work/src-$tc
	if [ ! -f "$td/build/CMakeCache.txt" ]; then
		rm -rf "$td"
		mkdir -p "$td"
		git -C "$src" archive "$tc" | tar -x -C "$td"
		printf '\nif(TARGET bench_same_programs)\n  target_link_options(bench_same_programs PRIVATE -Wl,--wrap=gen_program)\nendif()\n' \
			>>"$td/bench/CMakeLists.txt"
	fi
	cp -p "$src/bench/bench_same_programs.c" "$src/bench/bench_loop5.c" "$td/bench/"
	# (configured again each time: a bench file new to the tree gets its target)
	cmake -S "$td" -B "$td/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$td/build" -j2 --target "$@" >/dev/null
}

alternate() {
	af=$1
	afn=$2
	shift 2
	: >"$af"
	ar=0
	while [ $ar -lt "$rounds" ]; do
		for ac in "$@"; do
			printf '%s %s\n' "$ac" "$("$afn" "$ac")" | tee -a "$af"
		done
		ar=$((ar + 1))
	done
}

medians() {
	mf=$1
	mk=$2
	shift 2
	for mc in "$@"; do
		printf '%s median %s\n' "$mc" \
			"$(grep "^$mc " "$mf" | awk -v k="$mk" '{print $k}' | sort -n |
			   awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
	done
}
