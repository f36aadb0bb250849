#!/bin/sh
# dcapture: the archive (tar lists it, mode 0600 whatever the umask),
# its meta, one sample, stdout and the terminal refused, a full disk,
# the secrets test, a deleted-open file read back by ddeleted -R, and
# a capture without root; the window and its tracing as meta says.
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

# The window (lib's window API): its ticks and the kernel log always;
# the block-latency snapshots when traced, as meta says, else why not.
ok "capture/window present" test -s x/capture/window
ok "capture/kmsg present" test -s x/capture/kmsg
n=$(awk '$1 == "ticks" { print $2 }' x/capture/window)
case $n in
''|*[!0-9]*) fail "window: ticks a number ($n)" ;;
*) [ "$n" -ge 1 ] && [ "$n" -le 11 ] && pass "window: 1 to 11 ticks in 1 s ($n)" ||
    fail "window: $n ticks in 1 s" ;;
esac
is "$(awk '$1 == "blocked" { print $2 }' x/capture/window)" "$n" \
    "window: procs_blocked at every tick"
why() { sed -n 's/^traced_why //p' "$1"; }
if [ "$(id -u)" = 0 ] && [ ! -x "$TOP/t/unit/bpf" ]; then
	skip "traced as BPF allows" "t/unit/bpf not built: BPF's use unknown"
elif [ "$(id -u)" = 0 ] && "$TOP/t/unit/bpf" count >/dev/null 2>&1 &&
    [ -d /sys/kernel/tracing ]; then
	is "$(meta traced x/capture/meta)" 1 "root, BPF allowed: traced 1"
	is "$(why x/capture/meta)" "" "traced: no traced_why"
	ok "traced: dlat.0 and dlat.1 present" \
	    test -s x/capture/dlat.0 -a -s x/capture/dlat.1
else
	is "$(meta traced x/capture/meta)" 0 "no BPF here: traced 0"
	ok "not traced: traced_why says why" test -n "$(why x/capture/meta)"
	ok "not traced: no dlat.0 nor dlat.1" \
	    test ! -e x/capture/dlat.0 -a ! -e x/capture/dlat.1
fi
dtriage -R cap -o tsv -H >tri.out 2>tri.err
st=$?
[ "$st" = 0 ] || [ "$st" = 3 ] && pass "dtriage -R CAPTURE: judged (exit $st)" ||
    fail "dtriage -R CAPTURE: exit $st: $(cat tri.err)"
ok "dtriage -R CAPTURE: its ticks and looks read back" \
    sh -c '! grep -q "no ticks nor looks" tri.err'
if [ "$(meta traced x/capture/meta)" = 1 ]; then
	ok "dtriage -R CAPTURE: latency from dlat.0 and dlat.1" \
	    sh -c '! cut -f2 tri.out | grep -qx no-latency'
else
	ok "dtriage -R CAPTURE: says latency was not traced" \
	    sh -c 'cut -f2 tri.out | grep -qx no-latency'
fi


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

# A tool reading an archive extracts it into TMPDIR and removes it at
# exit, also when SIGPIPE kills it (a reader gone: "| head").
mkdir rtmp
for t in dxstat dwho dpsi dqueue ddeleted; do
	TMPDIR=$PWD/rtmp "$t" -R one -o tsv 2>/dev/null | (exit 0)
	TMPDIR=$PWD/rtmp "$t" -R one -o tsv >/dev/null 2>&1
done
sleep 0.2
is "$(ls rtmp)" "" "-R ARCHIVE: no extraction left, SIGPIPE or not"

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
# The child opens held before it runs sleep: not removed before that.
i=0
while [ ! -e /proc/$hp/fd/7 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
rm held
ddeleted -a | awk -v p=$hp '$1 == p' >live.rows
dcapture -w del 0 && mkdir dd && tar -C dd -xf del
ddeleted -a -R dd | awk -v p=$hp '$1 == p' >cap.rows
ok "live lists the held file" test -s live.rows
test_cmp live.rows cap.rows
test_must_fail 1 ddeleted -s --du -R dd 2>du.err
ok "--du says a capture has no files" grep -q 'holds no files' du.err
reap $hp

# What a process leaves: its owner as procfs gives it (capture/owners:
# dwho -R -u finds another user's process), its cgroup as the v2 line
# of its own file, a task/ directory only for more than one thread
# (dwho -t reads the process's files as its one thread's), every
# thread's stat and io otherwise, and PID 1's io, refused even to root,
# said refused and not taken for a process gone.
if [ "$(id -u)" = 0 ] && have_prog setpriv && have_prog cc; then
	setpriv --reuid 65534 --regid 65534 --clear-groups sleep 30 &
	np=$!
	at_exit "kill $np 2>/dev/null"
	cat >thr.c <<-'EOC'
	#include <pthread.h>
	#include <unistd.h>
	static void *idle(void *a) { pause(); return a; }
	int main(void) { pthread_t t; int i;
	for (i = 0; i < 3; i++) pthread_create(&t, NULL, idle, NULL);
	sleep(30); return 0; }
	EOC
	cc -pthread -o thr thr.c
	./thr &
	tp=$!
	at_exit "kill $tp 2>/dev/null"
	sleep 0.3
	dcapture -w own 0 && mkdir o && tar -C o -xf own
	is "$(awk -v p=$np '$1 == p { print $2 }' o/0/capture/owners)" 65534 \
	    "capture/owners: the process of uid 65534"
	is "$(awk -v p=$$ '$1 == p { print $2 }' o/0/capture/owners)" \
	    "$(stat -c %u /proc/$$)" "capture/owners: this shell's, as procfs"
	dwho -a -o tsv -u nobody -p $np -R own 2>/dev/null |
	    awk -F'\t' 'NR > 1 { print $2, $3 }' >own.rows
	is "$(cat own.rows)" "$np nobody" "dwho -R -u nobody: its process"
	is "$(cat o/0/proc/$$/cgroup)" "$(grep '^0::' /proc/$$/cgroup)" \
	    "proc/PID/cgroup: the v2 line of the live file"
	is "$(cat o/0/proc/$np/cgroup)" "$(grep '^0::' /proc/$np/cgroup)" \
	    "proc/PID/cgroup: the v2 line, another process"
	ok "one thread: no task/" test ! -e o/0/proc/$np/task
	is "$(ls o/0/proc/$tp/task | sort -n | tr '\n' ' ')" \
	    "$(ls /proc/$tp/task | sort -n | tr '\n' ' ')" \
	    "four threads: task/ has each"
	n=0
	for t in o/0/proc/$tp/task/*; do
		[ -s "$t/stat" ] && [ -s "$t/io" ] && n=$((n + 1))
	done
	is "$n" 4 "four threads: each thread's stat and io"
	dwho -a -t -o tsv -p $np,$tp -R own 2>/dev/null |
	    awk -F'\t' 'NR > 1 { print $2, $3 }' | sort -n >thr.rows
	dwho -a -t -o tsv -p $np,$tp 2>/dev/null |
	    awk -F'\t' 'NR > 1 { print $2, $3 }' | sort -n >thr.live
	test_cmp thr.live thr.rows
	is "$(wc -l <thr.rows)" 5 "dwho -t -R: one thread and four"
	if ! cat /proc/1/io >/dev/null 2>&1; then
		ok "capture/refused: proc/1/io" grep -qx proc/1/io \
		    o/0/capture/refused
		dwho -a -p 1 -o tsv 2>live1.err >/dev/null
		dwho -a -p 1 -o tsv -R own 2>cap1.err >cap1.rows
		is "$(awk -F'\t' 'NR > 1 { print $2, $5 }' cap1.rows)" "1 -" \
		    "dwho -R: PID 1 listed, its I/O -"
		ok "dwho -R: PID 1's I/O said unreadable, as live" \
		    sh -c "grep -q unreadable live1.err && grep -q unreadable \
		    cap1.err"
	else
		skip "PID 1's io refused" "/proc/1/io is readable here"
	fi
	reap $np
	reap $tp
else
	skip "what a process leaves" "needs root, setpriv and cc"
fi

# The readers dtriage looks at: a capture keeps no descriptor's target,
# so sample 1's capture/procfds counts the descriptors of each process
# that read 1 MiB/s or more, by kind.  A reader of a (sparse, cached)
# file is a page-cache reader read back from the capture; one of
# /dev/zero is not (rchar counts it, no cache serves it).
if have_prog dd && have_prog truncate; then
	truncate -s 100G sparse
	dd if=sparse of=/dev/null bs=64k 2>/dev/null &
	fp=$!
	dd if=/dev/zero of=/dev/null bs=64k 2>/dev/null &
	zp=$!
	at_exit "kill $fp $zp 2>/dev/null"
	sleep 0.3
	dcapture -w pc 2 && mkdir pcx && tar -C pcx -xf pc
	kill $fp $zp
	awk -v p=$fp '$1 == p { print $3 }' pcx/1/capture/procfds >fp.cached
	is "$(cat fp.cached)" 1 "capture/procfds: the file reader, 1 cached"
	is "$(awk -v p=$zp '$1 == p { print $3 }' pcx/1/capture/procfds)" 0 \
	    "capture/procfds: the /dev/zero reader, none cached"
	dtriage -R pc -o tsv >pc.tri 2>/dev/null
	is "$(awk -F'\t' -v s="$fp dd" '$2 == "page-cache" && $3 == s' pc.tri |
	    wc -l)" 1 "dtriage -R: the file reader is a page-cache reader"
	is "$(awk -F'\t' -v s="$zp dd" '$2 == "page-cache" && $3 == s' pc.tri |
	    wc -l)" 0 "dtriage -R: the /dev/zero reader is not"
	ok "no path in capture/procfds" sh -c "! grep -q / pcx/1/capture/procfds"
	reap $fp
	reap $zp
	rm -f sparse
else
	skip "capture/procfds" "needs dd and truncate"
fi

# Without root: what could not be read, said in capture/errors; exit 0.
if [ "$(id -u)" = 0 ] && have_prog setpriv; then
	setpriv --reuid 65534 --regid 65534 --clear-groups \
	    "$TOP/cmd/dcapture/dcapture" 1 >np.cap 2>np.err
	is "$?" 0 "without root: exit 0"
	mkdir npx && tar -C npx -xf np.cap
	ok "without root: errors listed" grep -q 'Permission denied' \
	    npx/capture/errors
	is "$(meta uid npx/capture/meta)" 65534 "meta uid 65534"
	is "$(meta traced npx/capture/meta)" 0 "without root: traced 0"
	ok "without root: traced_why names the capabilities" \
	    sh -c "sed -n 's/^traced_why //p' npx/capture/meta | grep -q CAP_BPF"
	ok "without root: the window, no dlat.N" test -s npx/capture/window \
	    -a ! -e npx/capture/dlat.0 -a ! -e npx/capture/dlat.1
else
	skip "without root" "needs root and setpriv"
fi
