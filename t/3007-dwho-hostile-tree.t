#!/bin/sh
# dwho on hostile hand-made trees: FIFOs where files belong never
# hang (a note, the entry skipped), -u of an unknown user, damaged
# proc/PID/io noted as malformed, -g naming devices sysfs does not know
# by MAJ:MIN.
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"

R=$TRASH/t
P=$R/proc
mkdir -p "$P/sys/kernel" "$R/etc"
echo "tester:x:$(id -u):0::/:/bin/sh" >"$R/etc/passwd"
echo "1000.00 1500.00" >"$P/uptime"
echo 1 >"$P/sys/kernel/task_delayacct"
mkproc "$P" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$P" 200 fifostat 50000 0 0 0 0 0 0 0 0
rm "$P/200/stat"
mkfifo "$P/200/stat"
mkproc "$P" 300 fifoio 50000 0 0 0 0 0 0 0 0
rm "$P/300/io"
mkfifo "$P/300/io"

# ---- FIFOs: never a hang ----
timeout 10 dwho -R "$R" -a -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "FIFO stat and io: finishes, exit 0"
is "$(cut -f2,4 "$TRASH/out" | tr '\t\n' ': ')" "100:dd 300:fifoio " \
    "FIFO stat: that process skipped; FIFO io: its row without bytes"
is "$(cut -f5 "$TRASH/out" | tr '\n' ' ')" "10.00 - " "FIFO io: bytes are -"
is "$(cat "$TRASH/err")" "dwho: 2 malformed proc/PID/stat or io files (first: pid 200): shown as - or skipped" \
    "FIFOs: noted as malformed"
# A FIFO with a writer that sends nothing: EAGAIN, not a wait.
sleep 30 >"$P/200/stat" &
wr=$!
at_exit "kill $wr 2>/dev/null"
timeout 10 dwho -R "$R" -a -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "FIFO with an idle writer: finishes, exit 0"
ok "FIFO with an idle writer: noted" grep -q "malformed proc/PID/stat or io files (first: pid 200)" "$TRASH/err"
kill $wr 2>/dev/null
wait $wr 2>/dev/null

# -g on io.stat: a FIFO where sysfs has the "partition" marker.
G=$TRASH/g
mkdir -p "$G/sys/fs/cgroup/box" "$G/sys/dev/block" "$G/sys/devices/block/sda/sda1"
echo io >"$G/sys/fs/cgroup/box/cgroup.controllers"
printf '8:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n8:1 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n' \
    >"$G/sys/fs/cgroup/box/io.stat"
ln -s ../../devices/block/sda "$G/sys/dev/block/8:0"
ln -s ../../devices/block/sda/sda1 "$G/sys/dev/block/8:1"
mkfifo "$G/sys/devices/block/sda/sda1/partition"
timeout 10 dwho -R "$G" -g -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-g: FIFO partition marker: finishes, exit 0"
is "$(cut -f2- "$TRASH/out" | tr '\t\n' ' :')" \
    "/box all 4096 8192 1 2 0 0 -:/box sda 4096 8192 1 2 0 0 -:/box sda1 4096 0 1 0 0 0 -:" \
    "-g: rows, the partition not in all"

# -g: devices sysfs does not name are told apart by MAJ:MIN.
N=$TRASH/n
mkdir -p "$N/sys/fs/cgroup/box"
echo io >"$N/sys/fs/cgroup/box/cgroup.controllers"
printf '8:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n8:16 rbytes=8192 wbytes=0 rios=2 wios=0 dbytes=0 dios=0\n' \
    >"$N/sys/fs/cgroup/box/io.stat"
dwho -R "$N" -g -o tsv -H >"$TRASH/out" 2>/dev/null
is "$(cut -f2-5 "$TRASH/out" | tr '\t\n' ' :')" \
    "/box 8:0 4096 0:/box 8:16 8192 0:" \
    "-g: unnamed devices as MAJ:MIN, distinct rows"
dwho -R "$N" -g -o prom >"$TRASH/prom" 2>/dev/null
is "$(grep -v '^#' "$TRASH/prom" | sed 's/ [0-9]*$//' | sort | uniq -d | wc -l)" 0 \
    "-g prom: no duplicate series"
ok "-g prom: device label MAJ:MIN" grep -qx 'dwho_cgroup_read_bytes_total{cgroup="/box",device="8:16"} 8192' "$TRASH/prom"

# ---- -u: an unknown name is an error; uids and known names work ----
test_must_fail 1 dwho -R "$R" -u nosuchuser -o tsv >/dev/null 2>"$TRASH/err"
is "$?" 0 "-u nosuchuser: exit 1"
is "$(cat "$TRASH/err")" "dwho: nosuchuser: no such user" "-u nosuchuser: says so"
is "$(dwho -R "$R" -u tester -H -o tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" "100 " "-u name from the tree's passwd"
is "$(dwho -R "$R" -u "$(id -u)" -H -o tsv 2>/dev/null | cut -f2 | tr '\n' ' ')" "100 " "-u uid"
is "$(dwho -R "$R" -u 4242 -H -o tsv 2>/dev/null | wc -l)" 0 "-u uid not in passwd: no rows, no error"

# ---- proc/PID/io that is a directory or too big: malformed, noted ----
Q=$TRASH/q
mkdir -p "$Q/proc/sys/kernel"
echo "1000.00 1500.00" >"$Q/proc/uptime"
echo 1 >"$Q/proc/sys/kernel/task_delayacct"
mkproc "$Q/proc" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$Q/proc" 400 dirio 50000 0 - 0 0 0 0 0 0
mkdir "$Q/proc/400/io"
mkproc "$Q/proc" 500 bigio 50000 0 - 0 0 0 0 0 0
truncate -s 65M "$Q/proc/500/io"
dwho -R "$Q" -a -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "damaged io: exit 0"
is "$(cut -f2,5 "$TRASH/out" | tr '\t\n' ' :')" "100 10.00:400 -:500 -:" "damaged io: rows with -"
is "$(cat "$TRASH/err")" "dwho: 2 malformed proc/PID/stat or io files (first: pid 400): shown as - or skipped" \
    "damaged io (directory, too big): noted as malformed"
