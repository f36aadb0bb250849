#!/bin/sh
# Issue 15, 7: -w FILE in every tool honours the umask for a new file
# and keeps an existing file's mode and owner (ddeleted -w lists every
# user's deleted paths: 0644 regardless was a leak); with stdout closed
# a -w run exits 0 in every tool (stdout unused is not an error), and a
# run that does write to the closed stdout fails.  dtriage too: half a
# second of window, and its exit 3 (a finding at warn, which a shared
# machine can have at any time) is a report written, as 0 is.
. "${0%/*}/lib.sh"

# run TOOL ARGS...: the tool; dtriage with a short window, 3 taken as 0.
run() {
	_t=$1
	shift
	if [ "$_t" = dtriage ]; then
		dtriage "$@" 0.5
		_s=$?
		[ "$_s" -ne 3 ] || _s=0
		return "$_s"
	fi
	"$_t" "$@"
}

W=$TRASH/w
mkdir "$W"
for t in dxstat dpsi dwho dqueue ddeleted dtriage; do
	[ "$t" = dpsi ] && [ ! -r /proc/pressure/io ] && continue
	(umask 077 && run "$t" -w "$W/$t.077" 2>/dev/null)
	is "$?:$(stat -c %a "$W/$t.077")" "0:600" "$t -w under umask 077: a new file 0600"
	(umask 022 && run "$t" -w "$W/$t.022" 2>/dev/null)
	is "$(stat -c %a "$W/$t.022")" 644 "$t -w under umask 022: a new file 0644"
	echo old >"$W/$t.keep"
	chmod 640 "$W/$t.keep"
	[ "$(id -u)" = 0 ] && chown 65534:65534 "$W/$t.keep"
	owner=$(stat -c %u:%g "$W/$t.keep")
	(umask 022 && run "$t" -w "$W/$t.keep" 2>/dev/null)
	is "$(stat -c %a:%u:%g "$W/$t.keep")" "640:$owner" "$t -w over an existing 0640 file: mode and owner kept"
	ok "$t -w: the file was replaced" sh -c '! grep -qx old "$1" && test -s "$1"' sh "$W/$t.keep"
	run "$t" -w "$W/$t.closed" >&- 2>"$TRASH/err"
	is "$?" 0 "$t -w FILE with stdout closed: exit 0"
	ok "$t -w FILE with stdout closed: the report is in the file" test -s "$W/$t.closed"
	test_must_fail 1 run "$t" >&- 2>"$TRASH/err"
	is "$?" 0 "$t with stdout closed and no -w: exit 1"
	ok "$t with stdout closed: says write error" grep -q "^$t: write error" "$TRASH/err"
done
ok "no temporary file left behind" sh -c '! ls "$1" | grep -q "\.tmp"' sh "$W"
