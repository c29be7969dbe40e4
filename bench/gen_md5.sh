#!/bin/sh
# Whether two builds generate the same programs: for every knob K (bpfscev gen --knobs) and
# seeds 1, 7, 42, 1000, 31337, the md5 of `bpfscev gen --seed S --count 20 --knob K=60` (a knob
# that refuses 60 gives its error, compared all the same), and of the default mix (seed 1, 200
# programs).  For a change meant to leave the generator's output as it was (a refactoring):
#   bench/gen_md5.sh OLD/bpfscev NEW/bpfscev     prints the lines that differ; exit 1 if any
# The knobs are OLD's (a knob NEW adds, default 0, draws nothing and changes no program).
set -e
[ $# -eq 2 ] || { echo "usage: $0 OLD_BPFSCEV NEW_BPFSCEV" >&2; exit 2; }
old=$(mktemp) new=$(mktemp)
trap 'rm -f "$old" "$new"' EXIT
for b in "$1" "$2"; do
	out=$old; [ "$b" = "$2" ] && out=$new
	for k in $("$1" gen --knobs 2>&1 | awk '/^[a-z_0-9]+ +[0-9]+ /{print $1}'); do
		for s in 1 7 42 1000 31337; do
			printf '%s %s %s\n' "$k" "$s" \
				"$("$b" gen --seed $s --count 20 --knob $k=60 2>&1 | md5sum | cut -c1-32)"
		done
	done > "$out"
	printf 'default 1 %s\n' "$("$b" gen --seed 1 --count 200 2>&1 | md5sum | cut -c1-32)" >> "$out"
done
n=$(wc -l < "$old")
if diff "$old" "$new"; then
	echo "gen_md5: $n of $n identical"
else
	echo "gen_md5: differences above (of $n)"
	exit 1
fi
