#!/bin/sh
# Loop programs nobody here wrote, measured as a new user would meet them: every BPF object
# below DIR is verified by bpfscev and loaded into the running kernel (`verify --kernel --csv`),
# and the report says how many programs the kernel accepts that bpfscev does not call safe (the
# rate docs/BENCHMARKS.md "Outside loop suites" tracks), grouped by reason.  Nothing is fetched:
# compile the suites you want to measure yourself (the kernel's selftests, a peer verifier's
# tests) and point the script at the objects; bench/outside_build.sh DIR builds the kernel's
# selftests from Debian's linux-source package (then: bench/outside.sh DIR/obj).  Needs root (bpf()); python3 for the summary.
#
#   bench/outside.sh [-b BPFSCEV] [-o OUT.csv] [-c BEFORE.csv] DIR...
#
# -b  the bpfscev binary (default: build-release/bpfscev, else build/bpfscev, of this tree)
# -o  keep the CSV report there (default: a temporary file)
# -c  also list what changed against an earlier CSV report (`verify --compare`)
# Where bpftool is installed, the kernel selftests' own expectations (the BTF declaration tags
# __success / __failure leave on each program; __success_unpriv / __failure_unpriv, which are
# about an unprivileged load, are not read) are counted against both verdicts too.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bin=
out=
before=
while getopts b:o:c: opt; do
	case $opt in
	b) bin=$OPTARG ;;
	o) out=$OPTARG ;;
	c) before=$OPTARG ;;
	*) echo "usage: $0 [-b BPFSCEV] [-o OUT.csv] [-c BEFORE.csv] DIR..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	echo "usage: $0 [-b BPFSCEV] [-o OUT.csv] [-c BEFORE.csv] DIR..." >&2
	exit 2
fi
if [ -z "$bin" ]; then
	for b in "$top/build-release/bpfscev" "$top/build/bpfscev"; do
		[ -x "$b" ] && bin=$b && break
	done
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "$0: no bpfscev binary (build it, or -b)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$out" ] || out=$work/report.csv

"$bin" verify "$@" --kernel --csv >"$out"

# The selftests' expectations: program name -> success | failure, from each object's BTF.
: >"$work/expect"
if command -v bpftool >/dev/null 2>&1; then
	find "$@" -name '*.o' -type f | while read -r o; do
		bpftool btf dump file "$o" 2>/dev/null | awk -v obj="$o" '
			/^\[[0-9]+\] FUNC / { id = substr($1, 2, length($1) - 2); gsub("\047", "", $3); fn[id] = $3 }
			# exactly __success / __failure: not __success_unpriv / __failure_unpriv,
			# the expectation of an unprivileged load (the kernel oracle loads as root)
			$2 == "DECL_TAG" && ($3 == "\047comment:test_expect_success\047" ||
					     $3 == "\047comment:test_expect_failure\047") {
				t = $4; sub("type_id=", "", t)
				want[t] = ($3 ~ /success/) ? "success" : "failure" }
			END { for (t in want) if (t in fn) print obj "," fn[t] "," want[t] }'
	done >"$work/expect"
fi

python3 - "$out" "$work/expect" <<'EOF'
import collections, csv, sys

rows = list(csv.DictReader(open(sys.argv[1])))
expect = {}
for line in open(sys.argv[2]):
	obj, prog, want = line.strip().rsplit(",", 2)
	expect[(obj, prog)] = want
cls = collections.Counter(r["class"] for r in rows)
acc = [r for r in rows if r["kernel"] == "accepted"]
gap = [r for r in acc if r["bpfscev"] != "safe"]
print("programs %d: %s" % (len(rows), ", ".join("%s %d" % kv for kv in sorted(cls.items()))))
print("kernel accepts %d; bpfscev does not call %d of them safe (%.1f %%): %d unsafe, %d unsupported"
      % (len(acc), len(gap), 100.0 * len(gap) / max(len(acc), 1),
         sum(r["bpfscev"] == "unsafe" for r in gap), sum(r["bpfscev"] == "unsupported" for r in gap)))
for r in gap:
	print("  %s %s: %s: %s" % (r["object"], r["program"], r["bpfscev"], r["reason"]))
if expect:
	agree = collections.Counter()
	for r in rows:
		want = expect.get((r["object"], r["program"]))
		if want and r["kernel"] in ("accepted", "rejected"):
			k = (r["kernel"] == "accepted") == (want == "success")
			b = (r["bpfscev"] == "safe") == (want == "success")
			agree[(want, k, b)] += 1
	print("selftest annotations (__success/__failure) of %d programs:" % sum(agree.values()))
	for (want, k, b), n in sorted(agree.items()):
		print("  %-7s kernel %s, bpfscev %s: %d" % (want, "agrees" if k else "differs",
							 "agrees" if b else "differs", n))
EOF
if [ -n "$before" ]; then
	"$bin" verify --compare "$before" "$out" || true
fi
