#!/bin/sh
# make check-package, not make check (it builds the packages and installs them on this machine)
# The Debian packages: dpkg-buildpackage -us -uc -b on a copy of the
# tree builds diskstat and libdiskstat-dev at DS_VERSION; lintian finds
# no error or warning; the files are the tools, pages, completion, units
# and rules the tree has; apt-get installs both; each installed tool
# prints the version and the same report as the tree's on a fixture; a
# program builds against the installed library through pkg-config; the
# installed units pass systemd-analyze verify and are disabled; apt-get
# purge removes every file, and nothing of diskstat is left installed.
#
# Installing writes to /usr/bin of this machine: the script refuses when
# diskstat is installed already or a file it would install exists, holds
# a lock so two runs never meet, and purges at exit whatever happens.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_root
need_cmd dpkg-buildpackage dpkg-deb dpkg-query apt-get flock
fleet_tools
[ -n "$tools" ] || skip_all "no tool built yet"
VERSION=$(sed -n 's/^#define DS_VERSION "\(.*\)"/\1/p' "$TOP/lib/diskstat.h")
(cd "$TOP" && dpkg-checkbuilddeps) >"$TRASH/deps" 2>&1 ||
	skip_all "build dependencies missing: $(sed -n 's/.*Unmet build dependencies: //p' "$TRASH/deps")"

exec 9>/tmp/diskstat-9500-package.lock
flock -n 9 || skip_all "another run of this test holds /tmp/diskstat-9500-package.lock"
for p in diskstat libdiskstat-dev; do
	case $(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null) in
	'' | not-installed) ;;
	*) skip_all "$p is installed on this machine: not touching it" ;;
	esac
done

# A copy of the tree as git has it (tracked and new files, nothing
# ignored): dpkg-buildpackage writes its .deb files beside the source.
S=$TRASH/src/diskstat-$VERSION
mkdir -p "$S"
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$TOP" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$S"
else
	(cd "$TOP" && tar --exclude='./t/trash.*' -cf - .) | tar -xf - -C "$S"
	make -s -C "$S" clean >/dev/null 2>&1
fi
# Not the make flags of the run that called us (make check SANITIZE=1
# passes SANITIZE=1 down through MAKEFLAGS, and a variable set on make's
# command line, "make check-package PROVEFLAGS=-v", is in the
# environment too): the package is built as debian/rules says.
(cd "$S" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u PROVEFLAGS \
    dpkg-buildpackage -us -uc -b) >"$TRASH/build.log" 2>&1
st=$?
is "$st" 0 "dpkg-buildpackage -us -uc -b"
[ $st -eq 0 ] || { tail -30 "$TRASH/build.log" | sed 's/^/# /'; exit 1; }
# The compiler's or linker's "file:line:col: warning:", "ld: warning:"
# (a test's name, printed with -v, may say "warning:" too).
ok "the package build printed no compiler warning" sh -c "! grep -qE '^[^ ]+: warning:' '$TRASH/build.log'"
A=$(dpkg-architecture -qDEB_HOST_ARCH)
DEB=$TRASH/src/diskstat_${VERSION}_$A.deb
DEV=$TRASH/src/libdiskstat-dev_${VERSION}_$A.deb
for d in "$DEB" "$DEV"; do
	ok "${d##*/} built" test -f "$d"
	is "$(dpkg-deb -f "$d" Version)" "$VERSION" "${d##*/}: version DS_VERSION"
done
is "$(dpkg-deb -f "$DEV" Depends)" "" "libdiskstat-dev depends on nothing (a static library)"
is "$(dpkg-deb -f "$DEB" Depends | sed 's/ (.*//')" libc6 "diskstat depends on libc6 alone"

if command -v lintian >/dev/null 2>&1; then
	lintian --fail-on error,warning "$DEB" "$DEV" >"$TRASH/lintian" 2>"$TRASH/lintian.err"
	st=$?
	is "$st:$(grep -E '^[EW]: ' "$TRASH/lintian" | head -5)" "0:" "lintian: no error or warning on either package"
else
	skip "lintian: no error or warning" "needs lintian"
fi

# The files: what the tree has, from TOOLS and doc/.
{
	for t in $tools; do
		echo "-rwxr-xr-x /usr/bin/$t"
		echo "-rw-r--r-- /usr/share/bash-completion/completions/$t"
	done
	for m in "$TOP"/doc/*.1; do echo "-rw-r--r-- /usr/share/man/man1/${m##*/}.gz"; done
	for u in "$TOP"/systemd/*.service "$TOP"/systemd/*.timer "$TOP"/systemd/*.d/*; do
		echo "-rw-r--r-- /lib/systemd/system/${u#$TOP/systemd/}"
	done
	for f in "$TOP"/prometheus/*.yml; do echo "-rw-r--r-- /usr/share/diskstat/prometheus/${f##*/}"; done
	for f in "$TOP"/grafana/*.json; do echo "-rw-r--r-- /usr/share/diskstat/grafana/${f##*/}"; done
	echo "-rw-r--r-- /usr/share/doc/diskstat/README.gz"
	echo "-rw-r--r-- /usr/share/doc/diskstat/changelog.gz"
	echo "-rw-r--r-- /usr/share/doc/diskstat/copyright"
} | sort -k2 >"$TRASH/expect.files"
dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $1, $6 }' | sort -k2 >"$TRASH/got.files"
ok "diskstat holds exactly the tools, pages, completions, units, rules and dashboard" \
    test_cmp "$TRASH/expect.files" "$TRASH/got.files"
M=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
{
	echo "-rw-r--r-- /usr/include/diskstat.h"
	echo "-rw-r--r-- /usr/lib/$M/libdiskstat.a"
	echo "-rw-r--r-- /usr/lib/$M/pkgconfig/libdiskstat.pc"
	for m in "$TOP"/doc/*.3; do echo "-rw-r--r-- /usr/share/man/man3/${m##*/}.gz"; done
	echo "-rw-r--r-- /usr/share/doc/libdiskstat-dev/changelog.gz"
	echo "-rw-r--r-- /usr/share/doc/libdiskstat-dev/copyright"
} | sort -k2 >"$TRASH/expect.dev"
dpkg-deb -c "$DEV" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $1, $6 }' | sort -k2 >"$TRASH/got.dev"
ok "libdiskstat-dev holds exactly the library, header, .pc and libdiskstat.3" \
    test_cmp "$TRASH/expect.dev" "$TRASH/got.dev"

# Never over someone's files: dpkg would replace a file no package owns,
# and the purge would then remove it.
cat "$TRASH/got.files" "$TRASH/got.dev" | awk '{ print $2 }' >"$TRASH/paths"
while read -r f; do
	[ ! -e "$f" ] ||
	    skip_all "install, run, purge: $f exists on this machine, not installing over it"
done <"$TRASH/paths"
statedir=absent
[ -e /var/lib/diskstat ] && statedir=present

purge() {
	for p in diskstat libdiskstat-dev; do
		case $(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null) in
		'' | not-installed) ;;
		*) apt-get purge -y -q -o DPkg::Lock::Timeout=300 "$p" >>"$TRASH/purge.log" 2>&1 ||
		    dpkg --purge "$p" >>"$TRASH/purge.log" 2>&1 ;;
		esac
	done
}
at_exit purge
apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 "$DEB" "$DEV" \
    >"$TRASH/install.log" 2>&1
st=$?
is "$st" 0 "apt-get install ./diskstat_*.deb ./libdiskstat-dev_*.deb"
[ $st -eq 0 ] || { tail -20 "$TRASH/install.log" | sed 's/^/# /'; exit 1; }
for p in diskstat libdiskstat-dev; do
	is "$(dpkg-query -W -f '${db:Status-Status} ${Version}' "$p")" "installed $VERSION" "$p $VERSION installed"
done

notime() {
	awk -F'\t' -v OFS='\t' 'NR == 1 { t = $1 == "time" } t { $1 = "" } { print }'
}
for t in $tools; do
	is "$(/usr/bin/$t --version)" "$t (diskstat) $VERSION" "installed $t --version"
	if [ "$t" = dcapture ]; then
		# No report: a capture, which the installed dxstat reads.
		/usr/bin/dcapture -d "$TRASH/caps" 0 2>/dev/null
		is "$?:$(ls "$TRASH/caps" 2>/dev/null | grep -c '^[0-9]\{8\}T[0-9]\{6\}Z\.cap$')" "0:1" \
		    "installed dcapture -d DIR 0: one capture"
		/usr/bin/dxstat -R "$TRASH/caps/"*.cap -o tsv >"$TRASH/inst.tsv" 2>/dev/null
		is "$?:$(head -1 "$TRASH/inst.tsv" | cut -f1-2)" "0:$(printf 'time\tdevice')" \
		    "installed dxstat -R reads it"
	elif tree=$(fleet_tree "$t"); then
		# Without the time column: the time of the run, not the tree's.
		"$TOP/cmd/$t/$t" -R "$tree" -o tsv 2>/dev/null | notime >"$TRASH/tree.tsv"
		/usr/bin/$t -R "$tree" -o tsv 2>/dev/null | notime >"$TRASH/inst.tsv"
		ok "installed $t: the report on ${tree#$FIX/} is the tree's ($(($(wc -l <"$TRASH/tree.tsv") - 1)) rows)" \
		    test_cmp "$TRASH/tree.tsv" "$TRASH/inst.tsv"
	else
		# dlat traces until a signal without an interval: one short one;
		# dtriage's window is half a second, and its 3 (a finding at
		# warn, which a shared machine can have) is a report too.
		case $t in dlat) live="0.2 1" ;; dtriage) live=0.5 ;; *) live= ;; esac
		# shellcheck disable=SC2086
		/usr/bin/$t -o tsv $live >"$TRASH/inst.tsv" 2>/dev/null
		st=$?
		[ "$t:$st" != dtriage:3 ] || st=0
		# shellcheck disable=SC2086
		is "$st:$(head -1 "$TRASH/inst.tsv")" "0:$("$TOP/cmd/$t/$t" -o tsv $live 2>/dev/null | head -1)" \
		    "installed $t runs live (same header as the tree's)"
	fi
	if command -v man >/dev/null 2>&1; then
		is "$(man -w "$t" 2>/dev/null)" "/usr/share/man/man1/$t.1.gz" "man -w $t"
	fi
done

# The library through the installed pkg-config file.
if command -v pkg-config >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
	is "$(pkg-config --modversion libdiskstat)" "$VERSION" "pkg-config --modversion libdiskstat"
	cat >"$TRASH/prog.c" <<'C'
#include <stdio.h>
#include <diskstat.h>

/* argv[1]: a root holding proc/diskstats. */
int
main(int argc, char **argv)
{
	struct ds_diskstats s = { 0 };
	struct ds_buf window = { 0 };
	struct ds_root r;
	int e;

	if (argc < 2 || ds_root_open(&r, argv[1]) < 0)
		return 1;
	e = ds_diskstats_read(&r, &window, &s);
	ds_root_close(&r);
	ds_buf_free(&window);
	if (e < 0 || s.n != 1)
		return 1;
	printf("%s %llu %s\n", s.disk[0].name,
	    (unsigned long long)s.disk[0].v[DS_RD_TICKS], DS_VERSION);
	ds_diskstats_free(&s);
	return 0;
}
C
	# shellcheck disable=SC2046
	cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags libdiskstat) -o "$TRASH/prog" \
	    "$TRASH/prog.c" $(pkg-config --libs libdiskstat) 2>"$TRASH/cc.err"
	is "$?" 0 "a program builds against the installed header and library"
	mkdir -p "$TRASH/root/proc"
	echo "   8       0 sda 1 2 3 4 5 6 7 8 0 10 11" >"$TRASH/root/proc/diskstats"
	is "$("$TRASH/prog" "$TRASH/root")" "sda 4 $VERSION" "and runs: the installed library reads diskstats"
fi

# The installed units: verified where they are, with the man pages they
# name, and disabled.
if command -v systemd-analyze >/dev/null 2>&1; then
	man=--man=yes
	command -v man >/dev/null 2>&1 || man=--man=no
	units="diskstat-capture.service diskstat-snapshot.service diskstat-snapshot.timer"
	for t in $prom_tools; do
		units="$units diskstat-textfile@$t.service diskstat-textfile@$t.timer"
	done
	for u in $units; do
		systemd-analyze $man verify "/lib/systemd/system/$u" >"$TRASH/verify" 2>&1
		is "$?:$(cat "$TRASH/verify")" "0:" "installed $u: systemd-analyze verify"
	done
fi
if command -v systemctl >/dev/null 2>&1; then
	for u in diskstat-capture.service diskstat-snapshot.timer diskstat-textfile@dxstat.timer; do
		is "$(systemctl --root=/ is-enabled "$u" 2>/dev/null)" disabled "installed $u is disabled"
	done
fi
if [ $statedir = absent ]; then
	ok "installing made no /var/lib/diskstat (no timer ran)" test ! -e /var/lib/diskstat
fi

purge
for p in diskstat libdiskstat-dev; do
	# A purged package dpkg knew only from a file is forgotten: no status.
	st=$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null)
	is "${st:-not-installed}" "not-installed" "$p purged"
done
left=
while read -r f; do
	[ -e "$f" ] && left="$left $f"
done <"$TRASH/paths"
is "${left# }" "" "apt-get purge removed every file of both packages"
ok "no diskstat unit is left in /lib/systemd/system" sh -c '! ls -d /lib/systemd/system/diskstat* 2>/dev/null | grep -q .'
ok "no /usr/share/diskstat left" test ! -e /usr/share/diskstat
ok "no enablement links left in /etc/systemd/system" sh -c '! find /etc/systemd/system -name "diskstat*" | grep -q .'
