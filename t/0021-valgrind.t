#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# Every tool built in cmd/ under valgrind: once on the live system and
# once on a fixture tree, with -o tsv and -o json.  Only options every
# tool accepts (-o, -R), so a tool is checked the day it lands.  An
# invalid read or write, use of uninitialised memory or a definite leak
# is exit 99; the tool's own exit status must be what it is without
# valgrind.
. "${0%/*}/lib.sh"
need_cmd valgrind
case $(cat "$TOP/.flags" 2>/dev/null) in
*fsanitize=*) skip_all "ASan build (SANITIZE=1): valgrind cannot run it" ;;
esac

tools=
for f in "$TOP"/cmd/*/main.c; do
	n=${f%/main.c}
	n=${n##*/}
	[ -x "$TOP/cmd/$n/$n" ] && tools="$tools $n"
done
[ -n "$tools" ] || skip_all "no tool built yet"

VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
tree=$FIX/generic/tree

# vg NAME ARGS...: run under valgrind and plainly; compare.
vg() {
	_name=$1
	shift
	timeout 120 "$@" >"$TRASH/plain.out" 2>"$TRASH/plain.err"
	_want=$?
	# shellcheck disable=SC2086
	timeout 300 $VG --log-file="$TRASH/vg.log" "$@" >"$TRASH/vg.out" 2>"$TRASH/vg.err"
	_st=$?
	# Valgrind before 3.22 has no openat2(2) (syscall 437): it says so
	# and returns ENOSYS, and the library walks the path itself.  Nor
	# does it know BPF_MAP_LOOKUP_BATCH (bpf command 24): it warns, and
	# the buffer the kernel fills is zeroed first, so nothing is taken
	# for uninitialised (a real read of one would still be reported).
	grep -v -e 'unhandled amd64-linux syscall: 437' \
	    -e 'WARNING: unhandled eBPF command 24$' \
	    -e 'You may be able to write your own handler' \
	    -e 'README_MISSING_SYSCALL_OR_IOCTL' \
	    -e 'Nevertheless we consider this a bug' \
	    -e 'it at http://valgrind.org/support/bug_reports.html' \
	    "$TRASH/vg.log" >"$TRASH/vg.log2"
	if [ "$_st" -eq 99 ] || [ -s "$TRASH/vg.log2" ]; then
		fail "$_name: valgrind clean"
		sed 's/^/# /' "$TRASH/vg.log2" | head -40
	else
		pass "$_name: valgrind clean"
	fi
	# dtriage's 3 (a finding at warn) can come and go between two live
	# windows on a shared machine: either is a report written.
	case $_name:$_st:$_want in
	dtriage*live*:[03]:[03]) _st=$_want ;;
	esac
	is "$_st" "$_want" "$_name: exit status $_want as without valgrind"
	if [ "$_st" -ne "$_want" ]; then
		sed 's/^/# /' "$TRASH/vg.err" | head -5
	fi
}

for t in $tools; do
	if [ "$t" = dcapture ]; then
		# No report: a one-sample capture into a directory; -m 1
		# prunes the one the run without valgrind wrote.
		vg "dcapture -d DIR -m 1 (live)" "$TOP/cmd/$t/$t" -d "$TRASH/vgcaps" -m 1 0
		continue
	fi
	# dtriage: half a second of window, not its default 10 s; dlat
	# without an interval traces until interrupted: one short one.
	case $t in dtriage) live=0.5 ;; dlat) live="0.2 1" ;; *) live= ;; esac
	for fmt in tsv json; do
		# shellcheck disable=SC2086
		vg "$t -o $fmt (live)" "$TOP/cmd/$t/$t" -o "$fmt" $live
		vg "$t -o $fmt -R tree" "$TOP/cmd/$t/$t" -o "$fmt" -R "$tree"
	done
done
