# Sourced by bench/same_programs.sh and bench/loop5.sh (with $src this tree and $work their work
# directory set): `tree_at COMMIT TARGET...` builds TARGETs (Release) of COMMIT's tree, extracted
# by `git archive` into $work/src-COMMIT, with this tree's bench_same_programs.c and
# bench_loop5.c copied into its bench/ (both build against issue 13's old tree 5c31576 too).  A
# tree extracted before is built again only where its files changed.
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
