#!/bin/sh
# Scenario 4: dpsi and dqueue against cat of the same files.  Their
# answer is the content of a few small /proc and /sys files, so they
# should cost about what cat costs.  The files are the ones the tool
# itself opens (strace -y gives each opened path), so cat gets exactly
# the same reads; floor-cat reads them with one open/read/close each
# and writes once.
SCEN=files
. "${0%/*}/lib.sh"

# files TOOL [args]: the regular /proc and /sys files the tool opens.
files() {
	strace -f -y -e trace=openat,open -o "$BENCH_OUT/files.st" \
	    "$TOOLDIR/$1" >/dev/null 2>&1 </dev/null
	sed -n 's/.* = [0-9][0-9]*<\(\/[ps][ry][os][^>]*\)>$/\1/p' \
	    "$BENCH_OUT/files.st" |
	    sed 's|^/proc/[0-9][0-9]*/|/proc/self/|' |
	    while IFS= read -r f; do
		[ -f "$f" ] && printf '%s\n' "$f"
	    done
	rm -f "$BENCH_OUT/files.st"
}

for t in dpsi dqueue; do
	have_tool $t || continue
	set -- $(files $t)
	[ $# -gt 0 ] || { note "$t: opened no /proc or /sys file"; continue; }
	note "$t reads $# files: $(printf '%s ' "$@" | cut -c1-160)"
	c="$t ($# files)"
	case_begin "$c"
	cmd floor "floor-cat FILES" "$BIN/floor-cat" "$@"
	cmd ours "$t" "$TOOLDIR/$t"
	cmd peer "cat FILES" cat "$@"
	case_end
done
exit 0
