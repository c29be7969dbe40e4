#!/bin/bash
# Builds an outside set for bench/outside.sh: every program file of the Linux kernel's BPF
# selftests (tools/testing/selftests/bpf/progs, from Debian's linux-source package) that clang 14
# compiles, into DIR/obj/loops (loop-relevant files), DIR/obj/verifier (the other verifier_*
# tests) and DIR/obj/selftests (the rest).  Nothing of the kernel's sources enters this
# repository: they are extracted under DIR/src.  Files clang 14 cannot compile (inline asm it
# refuses, kernel structs that changed since the selftests were written) are listed in
# DIR/fail.txt with clang's first error.  Session 28 built 785 objects (3,353 programs) this way
# from linux-source-6.12 against a 6.18 kernel; docs/BENCHMARKS.md "Outside set, session 28".
#
#   bench/outside_build.sh DIR          then: bench/outside.sh -o OUT.csv DIR/obj
#
# Needs: the linux-source-X.Y package (/usr/src/linux-source-X.Y.tar.xz; the newest one there is
# taken), bpftool (a vmlinux.h of the running kernel), clang-14, python3 (the helper
# declarations, generated as libbpf's Makefile does).  As root on Debian:
#   apt-get install linux-source bpftool clang-14 python3
set -u
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1" && top=$(cd "$1" && pwd) || exit 2
tar=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1)
[ -n "$tar" ] || { echo "$0: no /usr/src/linux-source-*.tar.xz (apt-get install linux-source)" >&2; exit 2; }
command -v bpftool >/dev/null || { echo "$0: bpftool is not installed (apt-get install bpftool)" >&2; exit 2; }
command -v clang-14 >/dev/null || { echo "$0: clang-14 is not installed" >&2; exit 2; }
ver=$(basename "$tar" .tar.xz)
src=$top/src/$ver
if [ ! -d "$src/tools/testing/selftests/bpf/progs" ]; then
	mkdir -p "$top/src"
	tar -C "$top/src" -xJf "$tar" --wildcards \
		"$ver/tools/testing/selftests/bpf/progs/*" "$ver/tools/testing/selftests/bpf/*.h" \
		"$ver/tools/lib/bpf/*.h" "$ver/tools/include/*" "$ver/scripts/bpf_doc.py" \
		"$ver/include/uapi/linux/bpf.h" || exit 1
fi
st=$src/tools/testing/selftests/bpf
gen=$top/gen
mkdir -p "$gen/bpf"
# the BPF-side headers of the libbpf in the same tree (bpf_for, __arg_*, ...)
for h in bpf_helpers.h bpf_tracing.h bpf_core_read.h bpf_endian.h usdt.bpf.h; do
	ln -sfn "$src/tools/lib/bpf/$h" "$gen/bpf/$h"
done
[ -s "$gen/bpf/bpf_helper_defs.h" ] ||
	python3 "$src/scripts/bpf_doc.py" --header --file "$src/tools/include/uapi/linux/bpf.h" \
		>"$gen/bpf/bpf_helper_defs.h" || exit 1
[ -s "$gen/vmlinux.h" ] ||
	bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$gen/vmlinux.h" || exit 1
clang_inc=$(clang-14 -print-resource-dir)/include
flags=(-g -O2 --target=bpf -mcpu=v3 -D__TARGET_ARCH_x86 -w "-I$gen" "-I$st" "-I$st/progs"
       "-I$src/tools/include/uapi" -idirafter "$clang_inc" -idirafter /usr/include
       -idirafter /usr/include/x86_64-linux-gnu)

suite() {
	case $1 in
	loop[0-9]*|*bounded_loop*|bpf_loop*|iters*|cb_*|*iterating_callbacks*|verifier_may_goto*|\
	pyperf*|strobemeta*|*_loop*|*iter*) echo loops ;;
	verifier_*) echo verifier ;;
	*) echo selftests ;;
	esac
}

: >"$top/fail.txt"
build_one() {
	local f=$1 b s err
	b=$(basename "$f" .c)
	s=$(suite "$b")
	err=$top/tmp.$b.err
	mkdir -p "$top/obj/$s"
	if ! clang-14 "${flags[@]}" -c "$f" -o "$top/obj/$s/$b.o" 2>"$err"; then
		rm -f "$top/obj/$s/$b.o"
		echo "$s/$b: $(grep -m1 'error:' "$err")" >>"$top/fail.txt"
	fi
	rm -f "$err"
}

for f in "$st"/progs/*.c; do
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done	# two compilers at once
	build_one "$f" &
done
wait
echo "built: $(find "$top/obj" -name '*.o' | wc -l) objects in $top/obj; not compiled: $(wc -l <"$top/fail.txt") (see $top/fail.txt)"
