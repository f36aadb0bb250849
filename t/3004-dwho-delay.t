#!/bin/sh
# make check: alone (it switches kernel.task_delayacct, which other tests read)
# %iodelay summed over threads: a process whose worker thread (not the
# leader) does direct reads waits on block I/O; pidstat -d, reading the
# leader's field 42 only, shows 0 for it.  Then as nobody: other users'
# io is unreadable, their delays still shown, one note.
# Delay accounting is switched on for the test and restored after.
. "${0%/*}/lib.sh"
need_loop
need_cmd cc sysctl

old=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null) ||
    skip_all "no kernel.task_delayacct"
cc -O2 -pthread -o "$TRASH/dioreader" "$FIX/dwho/dioreader.c" ||
    skip_all "cannot build the helper"
dev=$(mkloop 64) || skip_all "losetup failed"
# a loop device's contents come from its file: fill it so reads are real
dd if=/dev/urandom of="/dev/$dev" bs=1M count=64 oflag=direct 2>/dev/null
at_exit "sysctl -q kernel.task_delayacct=$old"
sysctl -q kernel.task_delayacct=1 || skip_all "cannot enable delay accounting"
kids=
at_exit 'for k in $kids; do kill $k 2>/dev/null; done'

# started after enabling, as the kernel documentation asks
"$TRASH/dioreader" "/dev/$dev" 8 &
pid=$!
kids="$kids $pid"
sleep 0.5
dwho -p "$pid" -o tsv 2 1 >"$TRASH/out" 2>"$TRASH/err" &
if command -v pidstat >/dev/null 2>&1; then
	LC_ALL=C pidstat -d -p "$pid" 2 1 >"$TRASH/pidstat" 2>&1
fi
wait $!
is "$?" 0 "dwho exits 0"
is "$(cat "$TRASH/err")" "" "no note with delay accounting on"
d=$(awk -F'\t' 'NR == 2 { print $13 }' "$TRASH/out")
echo "# dwho %iodelay $d"
ok "%iodelay well above 0 (worker thread's wait summed)" \
    awk -v d="$d" 'BEGIN { exit !(d != "" && d != "-" && d >= 10) }'
lead=$(awk '{ print $42 }' "/proc/$pid/stat")
is "$lead" 0 "the leader's own field 42 stays 0"
if [ -s "$TRASH/pidstat" ]; then
	sed 's/^/# pidstat: /' "$TRASH/pidstat"
	# time UID PID kB_rd/s kB_wr/s kB_ccwr/s iodelay Command
	is "$(awk -v p="$pid" '$1 != "Average:" && $3 == p { print $7 }' "$TRASH/pidstat")" 0 \
	    "pidstat -d shows iodelay 0 for it"
else
	skip "pidstat -d shows iodelay 0 for it" "no pidstat"
fi
dwho -t -p "$pid" -H -o tsv 1 1 >"$TRASH/out" 2>/dev/null
is "$(wc -l <"$TRASH/out")" 1 "-t: only the worker thread moved"
ok "-t: the row is the worker (tid != pid) with the delay" \
    awk -F'\t' -v p="$pid" '$2 == p && $3 != p && $14 >= 10 { f = 1 } END { exit !f }' "$TRASH/out"

# -- as nobody
have_prog setpriv || skip_all "as nobody: no setpriv"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
    "$TOP/cmd/dwho/dwho" -p "$pid" -o tsv 1 1 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "as nobody: exit 0"
ok "as nobody: one note with the count" \
    grep -qx 'dwho: I/O counters of 1 process are unreadable (other users.*' "$TRASH/err"
is "$(grep -c . "$TRASH/err")" 1 "as nobody: one line"
ok "as nobody: bytes -, %iodelay shown" \
    awk -F'\t' 'NR == 2 && $5 == "-" && $12 == "-" && $13 >= 10 { f = 1 } END { exit !f }' "$TRASH/out"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
    "$TOP/cmd/dwho/dwho" -a -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "as nobody, all processes: exit 0"
ok "as nobody, all: the note" grep -q 'dwho: I/O counters of [0-9]* processes are unreadable' "$TRASH/err"
ok "as nobody, all: delays are numbers" \
    awk -F'\t' 'NR > 1 && $13 !~ /^[0-9.]+$/ { bad = 1 } END { exit bad }' "$TRASH/out"
