#!/bin/sh
# The layers hold at link level: no library refers to a symbol that only a library above it, or
# beside it, defines.  In particular the judges (oracle/) never link the analyzer they judge
# (scev/), and neither of them links triage/ or the campaign.  Run by ctest with the build
# directory as $1; nm reads the static archives.
set -u
dir=$1
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found"; exit 77; }
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for lib in util bpf claims scev oracle gen triage fuzz; do
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
check util bpf claims scev oracle gen triage fuzz
check bpf claims scev oracle gen triage fuzz
check claims scev oracle gen triage fuzz
check scev oracle gen triage fuzz
check oracle scev gen triage fuzz
check gen scev oracle triage fuzz
check triage gen fuzz
[ $fail -eq 0 ] && echo "layers: util < bpf < claims < {scev, oracle, generators} < triage < fuzz hold"
exit $fail
