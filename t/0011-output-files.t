#!/bin/sh
# Issue 15, 7: -w FILE in every tool honours the umask for a new file
# and keeps an existing file's mode and owner (ddeleted -w lists every
# user's deleted paths: 0644 regardless was a leak); with stdout closed
# a -w run exits 0 in every tool (stdout unused is not an error), and a
# run that does write to the closed stdout fails.
. "${0%/*}/lib.sh"

W=$TRASH/w
mkdir "$W"
# dtriage on a quiet tree (exit 0, no 10 s window); dlat one 0.1 s
# report, where it may trace.
Q=$TRASH/quiet
mkdir -p "$Q/proc/pressure" "$Q/sys/block/sda/queue"
printf '   8       0 sda 10 0 80 5 20 0 160 8 0 12 13\n' >"$Q/proc/diskstats"
echo "1000.00 2000.00" >"$Q/proc/uptime"
printf 'cpu  1000 0 1000 160000 0 0 0 0 0 0\nprocs_running 1\nprocs_blocked 0\n' >"$Q/proc/stat"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
    >"$Q/proc/pressure/io"
tools="dxstat dpsi dwho dqueue ddeleted dtriage"
if dlat -o tsv 0.1 1 >/dev/null 2>&1; then
	tools="$tools dlat"
else
	skip "dlat -w: the output file checks" "cannot trace here (no root or no BPF)"
fi
# run TOOL ARGS...: the tool with what it needs to end by itself.
run() {
	case $1 in
	dtriage) _t=$1; shift; DISKSTAT_ROOT=$Q "$_t" "$@" ;;
	dlat) shift; dlat "$@" 0.1 1 ;;
	*) "$@" ;;
	esac
}
for t in $tools; do
	if [ "$t" = dpsi ] && [ ! -r /proc/pressure/io ]; then
		skip "dpsi -w: the output file checks" "no /proc/pressure/io"
		continue
	fi
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
