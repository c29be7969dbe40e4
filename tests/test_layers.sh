#!/bin/sh
# The layers hold at link level: no library refers to a symbol that only a library above it, or
# beside it, defines.  In particular the judges (oracle/) never link the analyzer they judge
# (scev/), and neither of them links triage/ or the campaign.  Run by ctest with the build
# directory as $1 and the source directory as $2; nm reads the static archives.
#
# The sources are checked too: no file includes a header of a layer above it or beside it (the
# judges never see the analyzer's headers, nor the analyzer theirs), and the include graph of the
# source files (.c, .h, .inc; "dir/file.h" includes) has no cycle, neither between files nor
# between modules (a .c with its .h and private header; include_cycles below).
set -u
dir=$1
src=${2:-}
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found"; exit 77; }
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for lib in util bpf claims casefile scev oracle gen triage fuzz; do
	nm --defined-only "$dir/libbpfscev_$lib.a" 2>/dev/null |
		awk 'NF == 3 && $2 ~ /[TDBRC]/ { print $3 }' | sort -u > "$tmp/$lib.d"
	nm -u "$dir/libbpfscev_$lib.a" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u \
		> "$tmp/$lib.u"
done
# lib: the libraries it must not use
check() {
	lib=$1
	shift
	[ -f "$dir/libbpfscev_$lib.a" ] || { echo "FAIL: $dir/libbpfscev_$lib.a missing"; fail=1; return; }
	for other in "$@"; do
		bad=$(comm -12 "$tmp/$lib.u" "$tmp/$other.d" | tr '\n' ' ')
		if [ -n "$bad" ]; then
			echo "FAIL: $lib uses $other: $bad"
			fail=1
		fi
	done
}
check util bpf claims casefile scev oracle gen triage fuzz
check bpf claims casefile scev oracle gen triage fuzz
check claims casefile scev oracle gen triage fuzz
check casefile claims scev oracle gen triage fuzz
check scev casefile oracle gen triage fuzz
check oracle casefile scev gen triage fuzz
check gen casefile scev oracle triage fuzz
check triage casefile gen fuzz

# Includes: folder -> the folders whose headers it must not include.
includes() {
	lib=$1
	shift
	for other in "$@"; do
		bad=$(grep -rln "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$other/" "$src/$lib" \
			--include='*.c' --include='*.h' --include='*.inc' 2>/dev/null | sed "s#^$src/##" |
			tr '\n' ' ')
		if [ -n "$bad" ]; then
			echo "FAIL: $lib includes headers of $other: $bad"
			fail=1
		fi
	done
}
# The include graph: an edge from each file to each header it includes; a cycle is a failure.
# With "modules", the same for modules: a module is a file's path without its extension (x.c
# and x.h are module x), a private header x_internal.h belongs to x and a folder's internal.h
# to the module named after the folder (scev/internal.h is scev/scev's): two modules that
# include each other's headers, directly or around a longer cycle, are a failure.
include_cycles() {
	(cd "$src" && find util bpf claims casefile scev oracle generators triage fuzz cli \
		\( -name '*.[ch]' -o -name '*.inc' \) | sort | while read -r f; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r inc; do echo "$f $inc"; done
	done) | awk -v modules="${1:-}" '
	function module(f,   d) {
		sub(/\.(c|h|inc)$/, "", f)
		sub(/_internal$/, "", f)
		if (f ~ /\/internal$/) {
			d = f
			sub(/\/internal$/, "", d)
			f = d "/" (d ~ /\// ? substr(d, match(d, /[^\/]*$/)) : d)
		}
		return f
	}
	modules { $1 = module($1); $2 = module($2) }
	$1 != $2 && !(($1, $2) in seen) { seen[$1, $2] = 1; adj[$1] = adj[$1] " " $2 }
	{ nodes[$1] = 1; nodes[$2] = 1 }
	function dfs(u,   i, n, k, vs, v, cyc) {
		state[u] = 1
		stack[++sp] = u
		n = split(adj[u], vs, " ")
		for (i = 1; i <= n; i++) {
			v = vs[i]
			if (state[v] == 1) {
				cyc = v
				for (k = sp; k >= 1 && stack[k] != v; k--)
					cyc = stack[k] " -> " cyc
				print "FAIL: " (modules ? "module" : "include") " cycle: " v " -> " cyc
				bad = 1
			} else if (!state[v]) {
				dfs(v)
			}
		}
		state[u] = 2
		sp--
	}
	END { for (u in nodes) if (!state[u]) dfs(u); exit bad }' || fail=1
}
if [ -n "$src" ] && [ -d "$src/oracle" ]; then
	includes util bpf claims casefile scev oracle generators triage fuzz cli
	includes bpf claims casefile scev oracle generators triage fuzz cli
	includes claims casefile scev oracle generators triage fuzz cli
	includes casefile claims scev oracle generators triage fuzz cli
	includes scev casefile oracle generators triage fuzz cli
	includes oracle casefile scev generators triage fuzz cli
	includes generators casefile scev oracle triage fuzz cli
	includes triage casefile generators fuzz cli
	includes fuzz cli
	include_cycles
	include_cycles modules
else
	echo "FAIL: no source directory given (\$2): the includes are not checked"
	fail=1
fi
[ $fail -eq 0 ] && echo "layers: util < bpf < claims < {scev, oracle, generators} < triage < fuzz," \
	"bpf < casefile < fuzz hold" \
	"(archives and includes), no include cycle between files or modules"
exit $fail
