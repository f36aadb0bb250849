#!/bin/sh
# dwho live, against the truth: a dd oflag=direct writer's kB_wr/s
# against its own /proc/PID/io growth; hit% of a cached and of a cold
# read; a process named with a tab and a newline; a fork storm.
. "${0%/*}/lib.sh"
need_loop
need_cmd mkfs.ext4 jq

dev=$(mkloop 256) || skip_all "losetup failed"
mkfs.ext4 -q -F "/dev/$dev" >/dev/null 2>&1 || skip_all "mkfs.ext4 failed"
mkdir "$TRASH/mnt"
mount "/dev/$dev" "$TRASH/mnt" || skip_all "mount failed"
at_exit "umount '$TRASH/mnt' 2>/dev/null || umount -l '$TRASH/mnt'"
kids=
at_exit 'for k in $kids; do kill $k 2>/dev/null; done'

# -- a direct writer at a steady pace: 512 KiB every 50 ms
# (head fails once dd is gone, which ends the loop)
(while head -c 524288 /dev/zero; do sleep 0.05; done) |
    sh -c 'echo $$ >"$1"; exec dd of="$2" bs=64k iflag=fullblock oflag=direct 2>/dev/null' \
    sh "$TRASH/ddpid" "$TRASH/mnt/w" &
kids="$kids $!"
sleep 0.5
ddpid=$(cat "$TRASH/ddpid")
kids="$kids $ddpid"
ok "writer running" test -n "$ddpid"
wb() { sed -n 's/^write_bytes: //p' "/proc/$ddpid/io"; }
t0=$(date +%s%N)
b0=$(wb)
dwho -p "$ddpid" -o tsv 2 1 >"$TRASH/out" 2>"$TRASH/err"
st=$?
b1=$(wb)
t1=$(date +%s%N)
is "$st" 0 "dwho -p exits 0"
got=$(awk -F'\t' 'NR == 2 { print $6 }' "$TRASH/out")
want=$(echo "$b0 $b1 $t0 $t1" | awk '{ printf "%.2f", ($2 - $1) / 1024 / (($4 - $3) / 1e9) }')
echo "# kB_wr/s dwho $got, /proc/$ddpid/io $want"
ok "kB_wr/s within 10% of the writer's write_bytes growth" \
    awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 1000 && g > w * 0.9 && g < w * 1.1) }'
kill $kids 2>/dev/null
wait 2>/dev/null
kids=

# -- hit%: a cached re-read, then a cold one (the file's pages dropped)
dd if=/dev/urandom of="$TRASH/mnt/r" bs=1M count=32 2>/dev/null
sync
# reader N: cat the file (its counters go to the shell at wait()), say
# so, and stay alive as the same process
reader() {
	sh -c 'cat "$1" >/dev/null; : >"$2"; exec sleep 30' sh "$TRASH/mnt/r" "$TRASH/done$1" &
	kids="$kids $!"
	i=0
	while [ ! -e "$TRASH/done$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
dd if="$TRASH/mnt/r" iflag=nocache count=0 2>/dev/null
reader 1
cold=$!
reader 2
hot=$!
dwho -p "$hot,$cold" -o tsv >"$TRASH/out" 2>/dev/null
h=$(awk -F'\t' -v p="$hot" '$2 == p { print $12 }' "$TRASH/out")
c=$(awk -F'\t' -v p="$cold" '$2 == p { print $12 }' "$TRASH/out")
echo "# hit% cached $h, cold $c"
ok "cached re-read: hit% near 100" awk -v v="$h" 'BEGIN { exit !(v != "" && v >= 95) }'
ok "cold read: hit% near 0" awk -v v="$c" 'BEGIN { exit !(v != "" && v <= 5) }'
kill $kids 2>/dev/null
wait 2>/dev/null
kids=

# -- a name with a tab and a newline, doing I/O
sh -c 'printf "io\tna\nme" >/proc/$$/comm; while :; do cat "$1" >/dev/null; done' sh "$TRASH/mnt/r" &
kids="$kids $!"
hostile=$!
sleep 0.3
dwho -o tsv 0.5 2 >"$TRASH/tsv" 2>/dev/null
ok "TSV: every row has the header's field count" fields_ok "$TRASH/tsv"
ok "TSV: the name escaped" grep -q "	io\\\\tna\\\\nme	" "$TRASH/tsv"
dwho -p "$hostile" -o json 0.5 1 >"$TRASH/json" 2>/dev/null
ok "JSON valid" json_ok "$TRASH/json"
is "$(jq -r .command "$TRASH/json")" "$(printf 'io\tna\nme')" "JSON command holds the tab and newline"
kill $kids 2>/dev/null
wait 2>/dev/null
kids=

# -- a fork storm while sampling: processes vanish mid-scan
for i in 1 2 3; do
	sh -c 'while :; do /bin/true & /bin/true; wait; done' &
	kids="$kids $!"
done
dwho -a -t -l -o tsv 0.2 5 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "fork storm: exit 0"
# Only the two notes may appear (delay accounting off, unreadable io).
grep -v -e 'delay accounting is off' -e 'I/O counters of [0-9]* process' "$TRASH/err" >"$TRASH/other"
is "$(cat "$TRASH/other")" "" "fork storm: no error lines"
ok "fork storm: rows written" test "$(wc -l <"$TRASH/out")" -gt 10
ok "fork storm: TSV intact" fields_ok "$TRASH/out"
