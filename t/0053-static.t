#!/bin/sh
# make static: each tool linked statically into cmd/static/, with no
# NSS function inside (user names come from the root's etc/passwd), so
# it runs in an empty chroot: no libc.so, no nsswitch.conf.  It prints
# what the dynamic tool prints, live and on a captured tree.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd make nm readelf
fleet_tools
[ -n "$tools" ] || skip_all "no tool built yet"
[ -f "$(cc -print-file-name=libc.a 2>/dev/null)" ] || skip_all "no static libc (libc6-dev)"
VERSION=$(sed -n 's/^#define DS_VERSION "\(.*\)"/\1/p' "$TOP/lib/diskstat.h")

make -C "$TOP" static >"$TRASH/log" 2>&1
st=$?
is "$st" 0 "make static"
[ $st -eq 0 ] || sed 's/^/# /' "$TRASH/log"
# glibc warns at link time when a static program calls into NSS.
is "$(grep -c 'statically linked applications requires at runtime' "$TRASH/log")" 0 \
    "make static: no NSS warning from the linker"
is "$(cd "$TOP" && grep -nE '\<(getpw(uid|nam|ent)|getgr(gid|nam|ent|ouplist)|getspnam|initgroups|getaddrinfo|gethostby(name|addr)|getservby(name|port)|getlogin)(_r)? *\(' cmd/*/*.c cmd/*/*.h lib/*.c lib/*.h)" "" \
    "no NSS call in cmd/ or lib/"

if [ "$(id -u)" -eq 0 ] && command -v chroot >/dev/null; then
	CH=$TRASH/chroot
	mkdir -p "$CH/bin" "$CH/tree"
else
	CH=
fi
for t in $tools; do
	s=$TOP/cmd/static/$t
	if [ ! -x "$s" ]; then
		fail "cmd/static/$t built"
		continue
	fi
	# Static: no program interpreter, no dynamic section.
	ok "cmd/static/$t is statically linked" \
	    sh -c "! readelf -lW '$s' | grep -q INTERP && ! readelf -dW '$s' | grep -q NEEDED"
	is "$(ldd "$s" 2>&1 | tr -d '\t')" "not a dynamic executable" "ldd: $t has no shared library"
	is "$(nm "$s" 2>/dev/null | grep -cE ' [TtWw] (getpw|getgr|__nss_|_nss_|getaddrinfo|gethostby)')" 0 \
	    "$t: no NSS code linked in"
	is "$("$s" --version)" "$t (diskstat) $VERSION" "static $t --version"
	traces_until_signal "$t" && continue
	if [ "$t" = dcapture ]; then
		# No report: a one-sample capture, which dxstat reads.
		"$s" -w "$TRASH/cap" 0 2>/dev/null
		is "$?:$(tar -xOf "$TRASH/cap" capture/meta 2>/dev/null | awk '$1 == "samples" { print $2 }')" \
		    "0:1" "static dcapture: a one-sample capture"
		ok "static dcapture: dxstat -R reads it" sh -c "dxstat -R '$TRASH/cap' | grep -q ."
		if [ -n "$CH" ]; then
			cp "$s" "$CH/bin/$t"
			is "$(chroot "$CH" "/bin/$t" --version 2>&1)" "$t (diskstat) $VERSION" \
			    "static $t --version in an empty chroot"
		fi
		continue
	fi
	# dtriage: half a second of window; its 3 (a finding at warn, which
	# a shared machine can have at any time) is a report written too.
	w=
	[ "$t" = dtriage ] && w=0.5
	# shellcheck disable=SC2086
	"$s" -o tsv $w >"$TRASH/live.tsv" 2>"$TRASH/err"
	st=$?
	[ "$t:$st" != dtriage:3 ] || st=0
	is "$st" 0 "static $t -o tsv on the live system: exit 0"
	ok "static $t -o tsv: every row has the header's field count" fields_ok "$TRASH/live.tsv"
	# shellcheck disable=SC2086
	is "$(head -1 "$TRASH/live.tsv")" "$("$t" -o tsv $w 2>/dev/null | head -1)" \
	    "static $t -o tsv: same header as the dynamic $t"
	# Same tree, same output (but the time column, which moves).
	if tree=$(fleet_tree "$t"); then
		"$t" -R "$tree" -o json 2>/dev/null | sed 's/"time":[0-9.]*,//' >"$TRASH/dyn"
		"$s" -R "$tree" -o json 2>/dev/null | sed 's/"time":[0-9.]*,//' >"$TRASH/sta"
		ok "static $t on ${tree#$FIX/} prints what the dynamic $t prints" \
		    test_cmp "$TRASH/dyn" "$TRASH/sta"
		if [ -n "$CH" ]; then
			rm -rf "$CH/tree"
			cp -R "$tree" "$CH/tree"
			cp "$s" "$CH/bin/$t"
			chroot "$CH" "/bin/$t" -R /tree -o json 2>"$TRASH/err" |
			    sed 's/"time":[0-9.]*,//' >"$TRASH/chr"
			ok "static $t in an empty chroot (no libc.so, no NSS) prints the same" \
			    test_cmp "$TRASH/dyn" "$TRASH/chr"
		fi
	else
		skip "static $t on a captured tree" "no tree under t/fixtures gives $t rows"
	fi
	if [ -n "$CH" ]; then
		cp "$s" "$CH/bin/$t"
		is "$(chroot "$CH" "/bin/$t" --version 2>&1)" "$t (diskstat) $VERSION" \
		    "static $t --version in an empty chroot"
	fi
done
