#!/bin/sh
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
for f in "$TOP"/cmd/*.c; do
	n=${f##*/}
	n=${n%.c}
	[ -x "$TOP/cmd/$n" ] && tools="$tools $n"
done
[ -n "$tools" ] || skip_all "no tool built yet"

VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
tree=$FIX/harden/tree

# vg NAME ARGS...: run under valgrind and plainly; compare.
vg() {
	_name=$1
	shift
	timeout 120 "$@" >"$TRASH/plain.out" 2>"$TRASH/plain.err"
	_want=$?
	# shellcheck disable=SC2086
	timeout 300 $VG --log-file="$TRASH/vg.log" "$@" >"$TRASH/vg.out" 2>"$TRASH/vg.err"
	_st=$?
	if [ "$_st" -eq 99 ] || [ -s "$TRASH/vg.log" ]; then
		fail "$_name: valgrind clean"
		sed 's/^/# /' "$TRASH/vg.log" | head -40
	else
		pass "$_name: valgrind clean"
	fi
	is "$_st" "$_want" "$_name: exit status $_want as without valgrind"
	if [ "$_st" -ne "$_want" ]; then
		sed 's/^/# /' "$TRASH/vg.err" | head -5
	fi
}

for t in $tools; do
	# dlat without an interval traces until interrupted: one short one.
	case $t in dlat) live="0.2 1" ;; *) live= ;; esac
	for fmt in tsv json; do
		# shellcheck disable=SC2086
		vg "$t -o $fmt (live)" "$TOP/cmd/$t" -o "$fmt" $live
		vg "$t -o $fmt -R tree" "$TOP/cmd/$t" -o "$fmt" -R "$tree"
	done
done
