#!/bin/sh
# dcapture: the archive (tar lists it, mode 0600 whatever the umask),
# its meta, one sample, stdout and the terminal refused, a full disk,
# the secrets test, a deleted-open file read back by ddeleted -R, and
# a capture without root.
. "${0%/*}/lib.sh"

need_prog tar

cd "$TRASH" || exit 1

# The archive, 0600 with umask 000; its meta.
(umask 000; dcapture -w cap 1) 2>err
is "$?" 0 "dcapture -w cap 1 exits 0"
ok "tar lists the archive" sh -c "tar tf cap >/dev/null"
is "$(stat -c %a cap)" 600 "mode 0600 with umask 000"
mkdir x && tar -C x -xf cap
meta() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
is "$(meta format x/capture/meta)" 1 "meta format 1"
is "$(meta samples x/capture/meta)" 2 "meta samples 2"
is "$(meta boot_id x/capture/meta)" "$(cat /proc/sys/kernel/random/boot_id)" \
    "meta boot_id is this boot's"
w=$(meta window_ns x/capture/meta)
case $w in
''|*[!0-9]*) fail "window_ns a number ($w)" ;;
*) [ "$w" -ge 950000000 ] && [ "$w" -le 1050000000 ] &&
    pass "window_ns within 5% of 1 s ($w)" || fail "window_ns $w" ;;
esac
u0=$(meta uptime0 x/capture/meta)
is "$(cut -d' ' -f1 x/0/proc/uptime | tr -d .)" "$u0" \
    "0/proc/uptime is uptime0 to the nanosecond"
ok "sample 1 present" test -s x/1/proc/diskstats
ok "capture/errors present" test -f x/capture/errors
ok "no cmdline, environ" sh -c '! tar tf cap | grep -E "/(cmdline|environ)$"'

# SIGINT ends the window early; the capture is still written.
dcapture -w sig 30 &
cp=$!
sleep 1
kill -INT $cp
wait $cp
is "$?" 0 "SIGINT: exit 0"
mkdir g && tar -C g -xf sig
is "$(meta samples g/capture/meta)" 2 "SIGINT: still two samples"
w=$(meta window_ns g/capture/meta)
[ -n "$w" ] && [ "$w" -lt 5000000000 ] && pass "SIGINT: a shorter window ($w ns)" ||
    fail "SIGINT: window_ns $w"

# One sample: no 1/.
dcapture -w one 0 && mkdir y && tar -C y -xf one
is "$(meta samples y/capture/meta)" 1 "dcapture 0: samples 1"
ok "dcapture 0: no 1/" test ! -e y/1
is "$(meta window_ns y/capture/meta)" 0 "dcapture 0: window_ns 0"

# stdout when not a terminal; a terminal refused.
dcapture 0 >piped
ok "to a pipe or file: an archive" sh -c "tar tf piped >/dev/null"
if have_prog script; then
	script -qec "$TOP/cmd/dcapture/dcapture 0" /dev/null >tty.out 2>&1
	is "$?" 2 "a terminal is refused (usage, exit 2)"
else
	skip "a terminal refused" "no script(1)"
fi

# A full disk: exit 1 and no file.
if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=64k tmpfs full
then
	at_exit "umount '$TRASH/full'"
	test_must_fail 1 dcapture -w full/cap 0 2>full.err
	ok "full disk: nothing under the name" test ! -e full/cap
	is "$(ls -A full | wc -l)" 0 "full disk: no temporary left"
else
	skip "full disk" "needs root to mount a tmpfs"
fi

# Secrets: a process whose command line and environment hold one.
secret=S3cr3t$$$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
if have_prog bash; then
	env DS_SECRET="$secret" bash -c "exec -a $secret sleep 30" &
else
	env DS_SECRET="$secret" sleep 30 "$secret" &
fi
sp=$!
at_exit "kill $sp 2>/dev/null"
sleep 0.3
grep -q "$secret" /proc/$sp/cmdline && pass "the secret is in the cmdline" ||
    fail "the secret is not in the cmdline: test broken"
dcapture -w sec 0
ok "secret not in the archive bytes" sh -c "! grep -aq '$secret' sec"
mkdir s && tar -C s -xf sec
ok "secret not in the extracted tree" sh -c "! grep -raq '$secret' s"
ok "the process itself captured" test -s s/0/proc/$sp/stat
reap $sp

# A deleted-open file: ddeleted -R lists it as live.
head -c 300000 /dev/urandom >held
sleep 30 7<held &
hp=$!
at_exit "kill $hp 2>/dev/null"
rm held
sleep 0.2
ddeleted -a | awk -v p=$hp '$1 == p' >live.rows
dcapture -w del 0 && mkdir dd && tar -C dd -xf del
ddeleted -a -R dd | awk -v p=$hp '$1 == p' >cap.rows
ok "live lists the held file" test -s live.rows
test_cmp live.rows cap.rows
test_must_fail 1 ddeleted -s --du -R dd 2>du.err
ok "--du says a capture has no files" grep -q 'holds no files' du.err
reap $hp

# Without root: what could not be read, said in capture/errors; exit 0.
if [ "$(id -u)" = 0 ] && have_prog setpriv; then
	setpriv --reuid 65534 --regid 65534 --clear-groups \
	    "$TOP/cmd/dcapture/dcapture" 0 >np.cap 2>np.err
	is "$?" 0 "without root: exit 0"
	mkdir npx && tar -C npx -xf np.cap
	ok "without root: errors listed" grep -q 'Permission denied' \
	    npx/capture/errors
	is "$(meta uid npx/capture/meta)" 65534 "meta uid 65534"
else
	skip "without root" "needs root and setpriv"
fi
