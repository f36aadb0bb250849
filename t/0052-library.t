#!/bin/sh
# What doc/libdiskstat.3 promises of lib/libdiskstat.a, checked on the
# archive itself: no writable globals, never prints or exits on its own,
# no NSS, every exported name starts with ds_; and the installed
# header at most 900 lines, naming no tool, usable alone.
. "${0%/*}/lib.sh"
need_cmd nm objdump
A=$TOP/lib/libdiskstat.a
[ -f "$A" ] || skip_all "lib/libdiskstat.a not built"

# Writable data: symbols in .data or .bss (not .data.rel.ro), or common.
# Not ASan's: a SANITIZE=1 build gives each exported object a one-byte
# __odr_asan.NAME indicator, the sanitizer's, not the library's data.
rw() {
	objdump -t "$1" | awk '$3 != "d" && ($0 ~ /[ \t]\.(data|bss)[ \t.]/ || $0 ~ /\*COM\*/) &&
	    $0 !~ /\.data\.rel\.ro/ && $NF !~ /^__odr_asan\./'
}
is "$(rw "$A")" "" "no writable global or static data"
if command -v cc >/dev/null; then
	printf 'int g; static int c; int h = 1; int f(void) { return c++ + g + h; }\n' >"$TRASH/bad.c"
	cc -c -fcommon -o "$TRASH/bad.o" "$TRASH/bad.c" && ar rcs "$TRASH/libbad.a" "$TRASH/bad.o"
	is "$(rw "$TRASH/libbad.a" | wc -l)" 3 "control: the check finds a common, a static and an initialized global"
fi

nm "$A" | awk '$1 == "U" { print $2 }' | sort -u >"$TRASH/undef"
is "$(grep -xE '(v?f?printf|puts|putchar|perror|v?errx?|v?warnx?|v?errc|v?warnc|exit|_exit|_Exit|abort|stdout|stderr|getpw(uid|nam|ent)(_r)?|getgr(gid|nam|ent)(_r)?|getgrouplist|syslog)' "$TRASH/undef" | tr '\n' ' ')" "" \
    "no call that prints, exits or uses NSS (only the caller's streams)"
ok "the library does use the caller's stream (fwrite)" grep -qx fwrite "$TRASH/undef"

nm -g --defined-only "$A" | awk 'NF == 3 { print $3 }' | grep -v -e '^ds_' -e '^__odr_asan\.ds_' | sort -u >"$TRASH/names"
is "$(cat "$TRASH/names" | tr '\n' ' ')" "" "every exported name starts with ds_"

# lib/internal.h is the library's own: no tool includes it, and no tool
# calls what it alone declares (the undefined symbols of each tool's
# object, compiled here, against the functions internal.h declares).
is "$(grep -l 'internal\.h' "$TOP"/cmd/*/*.[ch] 2>/dev/null | tr '\n' ' ')" "" \
    "no file of cmd/ includes lib/internal.h"
grep -v '^[[:space:]/*#]' "$TOP/lib/internal.h" | grep -o '\<ds_[a-z0-9_]*(' | tr -d '(' |
    sort -u >"$TRASH/internal"
ok "lib/internal.h declares functions (the check below has names to look for)" \
    test "$(wc -l <"$TRASH/internal")" -gt 50
if command -v cc >/dev/null; then
	: >"$TRASH/calls"
	for c in "$TOP"/cmd/*/*.c; do
		o=$TRASH/$(basename "$c" .c).o
		cc -std=c11 -D_GNU_SOURCE -I"$TOP/lib" -I"$TOP/cmd" -c -o "$o" "$c" 2>/dev/null ||
		    echo "build failed: $c" >>"$TRASH/calls"
		nm -u "$o" 2>/dev/null | awk '{ print $NF }' >>"$TRASH/calls"
	done
	sort -u "$TRASH/calls" -o "$TRASH/calls"
	is "$(grep -v '^ds_' "$TRASH/calls" | grep 'build failed' | tr '\n' ' ')" "" "every tool's source compiles for the check"
	is "$(comm -12 "$TRASH/calls" "$TRASH/internal" | tr '\n' ' ')" "" \
	    "no tool calls a function of lib/internal.h"
	ok "control: the tools' calls are found (ds_writer_init among them)" grep -qx ds_writer_init "$TRASH/calls"
fi

# The installed header is the API a C programmer reads: short, and
# naming no tool (what the tools need beyond it is in lib/suite.h).
H=$TOP/lib/diskstat.h
n=$(wc -l <"$H")
ok "lib/diskstat.h is at most 900 lines ($n)" test "$n" -le 900
TOOLRE='\<(dxstat|dpsi|dwho|dqueue|ddeleted|dlat|dtriage)\>'
is "$(grep -nE "$TOOLRE" "$H" | tr '\n' ' ')" "" "lib/diskstat.h names no tool"
# A capture's members capture/dlat.0 and .1 are file names, not dlat.
is "$(sed 's,capture/dlat\.[01],capture/-,g' "$TOP/lib/suite.h" |
    grep -nE "$TOOLRE" | grep -v '/var/lib/dxstat' | tr '\n' ' ')" "" \
    "lib/suite.h names no tool (but the old directory's path, members)"
printf '/* dxstat */\n' >"$TRASH/named.h"
ok "control: a tool's name is found" grep -qE "$TOOLRE" "$TRASH/named.h"
is "$(grep -l '"suite\.h"\|"internal\.h"' "$H")" "" "lib/diskstat.h includes neither suite.h nor internal.h"
if command -v cc >/dev/null; then
	mkdir -p "$TRASH/inc"
	cp "$H" "$TRASH/inc/"
	printf '#include <diskstat.h>\nint main(void) { return 0; }\n' >"$TRASH/alone.c"
	ok "lib/diskstat.h compiles alone (-std=c11 -pedantic -Werror)" \
	    cc -std=c11 -Wall -Wextra -pedantic -Werror -I"$TRASH/inc" -c -o "$TRASH/alone.o" "$TRASH/alone.c"
fi
