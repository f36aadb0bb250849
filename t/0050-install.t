#!/bin/sh
# make install into a DESTDIR: the files expected and nothing else, with
# their modes; a program builds against the installed header and
# library through pkg-config and runs; the installed tools run;
# make uninstall leaves nothing but directories.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd make pkg-config cc
fleet_tools
VERSION=$(sed -n 's/^#define DS_VERSION "\(.*\)"/\1/p' "$TOP/lib/diskstat.h")
D=$TRASH/root

# A file of someone else's in the same directories: uninstall must leave it.
mkdir -p "$D/usr/bin" "$D/usr/share/man/man1"
echo other >"$D/usr/bin/other-tool"
echo other >"$D/usr/share/man/man1/other-tool.1"
make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr >"$TRASH/log" 2>&1
st=$?
is "$st" 0 "make install DESTDIR PREFIX=/usr"
[ $st -eq 0 ] || sed 's/^/# /' "$TRASH/log"

{
	for t in $tools; do
		echo "0755 usr/bin/$t"
		echo "0644 usr/share/bash-completion/completions/$t"
	done
	echo "0644 usr/include/diskstat.h"
	echo "0644 usr/lib/libdiskstat.a"
	echo "0644 usr/lib/pkgconfig/libdiskstat.pc"
	for m in "$TOP"/doc/*.1; do
		[ -f "$m" ] && echo "0644 usr/share/man/man1/${m##*/}"
	done
	for m in "$TOP"/doc/*.3; do
		[ -f "$m" ] && echo "0644 usr/share/man/man3/${m##*/}"
	done
} | sort -k2 >"$TRASH/expect"
(cd "$D" && find . ! -type d ! -name 'other-tool*' -printf '%#m %P\n') | sort -k2 >"$TRASH/got"
ok "installed files and modes are exactly the expected ones" test_cmp "$TRASH/expect" "$TRASH/got"
ok "installed header is the tree's" cmp -s "$TOP/lib/diskstat.h" "$D/usr/include/diskstat.h"
for m in "$TOP"/doc/*.[13]; do
	[ -f "$m" ] || continue
	s=${m##*.}
	ok "man page ${m##*/} installed as is" cmp -s "$m" "$D/usr/share/man/man$s/${m##*/}"
done

cat >"$TRASH/expect.pc" <<PC
prefix=/usr
libdir=/usr/lib
includedir=/usr/include

Name: libdiskstat
Description: Linux block-layer, PSI and process I/O accounting
Version: $VERSION
Libs: -L\${libdir} -ldiskstat
Cflags: -I\${includedir}
PC
ok "libdiskstat.pc names the install prefix and version" \
    test_cmp "$TRASH/expect.pc" "$D/usr/lib/pkgconfig/libdiskstat.pc"

PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
export PKG_CONFIG_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
is "$(pkg-config --modversion libdiskstat)" "$VERSION" "pkg-config --modversion"
flags=$(pkg-config --cflags --libs libdiskstat)
is "$(echo $flags)" "-I$D/usr/include -L$D/usr/lib -ldiskstat" "pkg-config --cflags --libs"

# A user's program: strict C11 without _GNU_SOURCE, warnings are errors.
cp "$T/0050-install.c" "$TRASH/prog.c"
san=
grep -q fsanitize "$TOP/.flags" 2>/dev/null && san="-fsanitize=address,undefined"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror -pedantic $san $(pkg-config --cflags libdiskstat) \
    -o "$TRASH/prog" "$TRASH/prog.c" $(pkg-config --libs libdiskstat) 2>"$TRASH/cc.err"
st=$?
is "$st" 0 "a C11 program builds against the installed header and library"
[ $st -eq 0 ] || sed 's/^/# /' "$TRASH/cc.err"
cp "$T/0050-install.expect" "$TRASH/expect.out"
"$TRASH/prog" "$TRASH" >"$TRASH/prog.out"
is "$?" 0 "the program runs"
ok "the program's figures: 3 disks, the bad line found, ms as seconds" \
    test_cmp "$TRASH/expect.out" "$TRASH/prog.out"

for t in $tools; do
	is "$("$D/usr/bin/$t" --version)" "$t (diskstat) $VERSION" "installed $t --version"
	traces_until_signal "$t" && continue
	if [ "$t" = dcapture ]; then
		# No report: a one-sample capture.
		"$D/usr/bin/dcapture" -w "$TRASH/cap" 0 2>/dev/null
		is "$?:$(tar -xOf "$TRASH/cap" capture/meta 2>/dev/null | awk '$1 == "samples" { print $2 }')" \
		    "0:1" "installed dcapture runs (a one-sample capture)"
		continue
	fi
	# dtriage: half a second of window; its 3 (a finding at warn, which
	# a shared machine can have at any time) is a report written too.
	w=
	[ "$t" = dtriage ] && w=0.5
	# shellcheck disable=SC2086
	"$D/usr/bin/$t" -o tsv $w >"$TRASH/out" 2>/dev/null
	st=$?
	[ "$t:$st" != dtriage:3 ] || st=0
	# shellcheck disable=SC2086
	is "$st:$(head -1 "$TRASH/out")" "0:$("$t" -o tsv $w 2>/dev/null | head -1)" "installed $t runs (same header as the tree's)"
done

make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr >"$TRASH/log" 2>&1
is "$?" 0 "make uninstall"
is "$(cd "$D" && find . ! -type d | sort | tr '\n' ' ')" "./usr/bin/other-tool ./usr/share/man/man1/other-tool.1 " \
    "uninstall leaves nothing but directories (and the files it did not install)"

# Another prefix: the .pc follows it (it is not a stale file).
make -s -C "$TOP" install DESTDIR="$TRASH/opt" PREFIX=/opt/ds >/dev/null 2>&1
is "$(sed -n 's/^prefix=//p' "$TRASH/opt/opt/ds/lib/pkgconfig/libdiskstat.pc")" /opt/ds \
    "PREFIX=/opt/ds: libdiskstat.pc says prefix=/opt/ds"
ok "PREFIX=/opt/ds: tools in /opt/ds/bin" test -z "$tools" -o -x "$TRASH/opt/opt/ds/bin/${tools##* }"
make -s -C "$TOP" uninstall DESTDIR="$TRASH/opt" PREFIX=/opt/ds >/dev/null 2>&1
is "$(cd "$TRASH/opt" && find . ! -type d | wc -l)" 0 "PREFIX=/opt/ds: uninstall removes all"
