#!/bin/sh
# dqueue on captured trees (-R): the prometheus-procfs sda queue (bfq,
# an old-format scheduler line with "none" last), this host's vda
# (mq-deadline, one hardware queue) and zram0 (bio-based: no scheduler),
# a partition, stacking, damaged files, hostile names, check and set.
. "${0%/*}/lib.sh"
need_cmd jq
D=$FIX/dqueue
E=$D/expect

# mktree NAME: the fixture with the modes and empty directories git
# cannot keep (see PROVENANCE.tsv).
mktree() {
	cp -R "$D/$1" "$TRASH/$1" &&
	(cd "$TRASH/$1" && find sys -type f -exec chmod 0444 {} + &&
	 xargs chmod 0644 <"$D/$1.writable") &&
	if [ -f "$D/$1.dirs" ]; then
		(cd "$TRASH/$1" && xargs mkdir -p <"$D/$1.dirs")
	fi
}
mktree bfq
mktree host
B=$TRASH/bfq
H=$TRASH/host
Q=$B/sys/block/sda/queue

# --- The listing ---------------------------------------------------------
dqueue -R "$B" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "bfq tree: exit 0"
ok "bfq tree: rows as expected" test_cmp "$E/bfq.tsv" "$TRASH/out"
is "$(wc -c <"$TRASH/err")" 0 "bfq tree: nothing on stderr"
# The same figures, taken from the files by the shell.
row=$(sed -n 2p "$TRASH/out")
want="sda	$(cat $Q/rotational)	bfq	mq-deadline kyber bfq none	$(cat $Q/nr_requests)	$(cat $Q/read_ahead_kb)	$(cat $Q/max_sectors_kb)	$(cat $Q/max_hw_sectors_kb)	$(cat $Q/logical_block_size)	$(cat $Q/physical_block_size)	$(cat $Q/minimum_io_size)	$(cat $Q/optimal_io_size)	$(cat $Q/nomerges)	-	$(cat $Q/write_cache)	$(cat $Q/discard_max_bytes)	$(cat $Q/wbt_lat_usec)	$(cat $Q/zoned)	-	-"
is "$row" "$want" "bfq: every value equals its file; no mq/, holders/, slaves/: -"
is "$(cut -f3,4 "$TRASH/out" | sed -n 2p)" "bfq	mq-deadline kyber bfq none" \
   "old-format line (none last): active is the bracketed name, list in kernel order"

dqueue -R "$H" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "host tree: exit 0"
ok "host tree: rows as expected" test_cmp "$E/host.tsv" "$TRASH/out"
is "$(wc -c <"$TRASH/err")" 0 "bio-based zram0: no scheduler is not an error"
is "$(awk -F'\t' '$1 == "zram0" { print $3, $4, $5, $14, $17 }' "$TRASH/out")" "- - - - -" \
   "zram0: scheduler, schedulers, nr_requests, nr_hw_queues, wbt_lat_usec are -"
is "$(awk -F'\t' '$1 == "vda" { print $3 "|" $4 "|" $14 }' "$TRASH/out")" \
   "mq-deadline|none mq-deadline kyber bfq|1" "vda: new-format line, one mq/ directory"
is "$(awk -F'\t' '$1 == "dm-0" { print $19 "|" $20 }' "$TRASH/out")" "|vda1" \
   "dm-0: no holders, slave vda1"

dqueue -R "$H" -o tsv vda1 >"$TRASH/out"
is "$(sed -n 2p "$TRASH/out" | cut -f1,3,5,19)" "vda1	mq-deadline	256	dm-0" \
   "partition vda1: its disk's queue, its own holders"
dqueue -R "$H" -o tsv /dev/vda1 >"$TRASH/out2"
ok "/dev/vda1 is vda1" test_cmp "$TRASH/out" "$TRASH/out2"
dqueue -R "$H" -o tsv -H /dev/vda /dev/mapper/vg0-root >"$TRASH/out"
is "$(cut -f1 "$TRASH/out" | tr '\n' ' ')" "vda dm-0 " "/dev/vda, and /dev/mapper/NAME by its dm name"
dqueue -R "$H" -o tsv -H '/dev/mapper/vg0-*' >"$TRASH/out"
is "$(cut -f1 "$TRASH/out" | tr '\n' ' ')" "dm-0 " "a /dev/mapper/ glob matches dm names"
test_must_fail 1 dqueue -R "$H" -o tsv -H vda /dev/mapper/nope >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dqueue: /dev/mapper/nope: no such block device" "/dev/mapper/ name that is not there"
dqueue -R "$H" -o tsv -H 'v*' 'z*' >"$TRASH/out"
is "$(cut -f1 "$TRASH/out" | tr '\n' ' ')" "vda zram0 " "globs match whole disks; -H drops the header"
test_must_fail 1 dqueue -R "$H" -o tsv vda sdz >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "unknown device: exit 1"
is "$(cat "$TRASH/err")" "dqueue: sdz: no such block device" "unknown device: message"
is "$(cut -f1 "$TRASH/out" | tail -1)" vda "unknown device: the others still print"
test_must_fail 1 dqueue -R "$H" 'sd*' >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dqueue: sd*: no device matches" "glob matching nothing: exit 1"

dqueue -R "$H" -o json >"$TRASH/out"
ok "json: valid" json_ok "$TRASH/out"
is "$(jq -c 'select(.device == "zram0") | [.scheduler, .nr_requests, .read_ahead_kb, .holders]' "$TRASH/out")" \
   '[null,null,128,""]' "json: missing is null, numbers are numbers, empty list is \"\""

# --- Prometheus ----------------------------------------------------------
dqueue -R "$H" -o prom >"$TRASH/out"
ok "prom: as expected" test_cmp "$E/host.prom" "$TRASH/out"
is "$(grep -vc -e '^# HELP dqueue_[a-z_]* .' -e '^# TYPE dqueue_[a-z_]* gauge$' \
     -e '^dqueue_[a-z_]*{[a-z_]*="[^"]*"\(,[a-z_]*="[^"]*"\)*} [0-9.]*$' "$TRASH/out")" 0 \
   "prom: every line well formed"
# Each family's samples follow its own HELP/TYPE, never interleaved.
is "$(grep -v '^#' "$TRASH/out" | sed 's/{.*//' | uniq | sort | uniq -d)" "" \
   "prom: families not interleaved"
is "$(grep -c '^# TYPE' "$TRASH/out")" "$(grep -v '^#' "$TRASH/out" | sed 's/{.*//' | sort -u | wc -l)" \
   "prom: one TYPE per family"
is "$(grep '^dqueue_info{device="vda"' "$TRASH/out")" \
   'dqueue_info{device="vda",scheduler="mq-deadline",schedulers="none mq-deadline kyber bfq",rotational="1",write_cache="write back",zoned="none",holders="",slaves=""} 1' \
   "prom: info carries the text settings"
is "$(grep -c 'device="vda",' "$TRASH/out")" 1 "prom: gauges carry only the device label"
is "$(grep '^dqueue_read_ahead_bytes{device="vda"}' "$TRASH/out")" 'dqueue_read_ahead_bytes{device="vda"} 8388608' \
   "prom: read_ahead_kb 8192 is 8388608 bytes"
is "$(grep '^dqueue_wbt_latency_seconds{device="vda"}' "$TRASH/out")" 'dqueue_wbt_latency_seconds{device="vda"} 0.075000' \
   "prom: wbt_lat_usec 75000 is 0.075 s"
is "$(grep -c 'device="zram0"} ' "$TRASH/out")" 10 "prom: zram0 has no sample for what it lacks"

dqueue -R "$H" -o prom -w "$TRASH/dqueue.prom" >"$TRASH/out"
is "$?:$(wc -c <"$TRASH/out")" "0:0" "prom -w: nothing on stdout"
ok "prom -w: both families in the file" test_cmp "$E/host.prom" "$TRASH/dqueue.prom"
DISKSTAT_ROOT=$H dqueue -o prom >"$TRASH/out"
ok "DISKSTAT_ROOT is -R" test_cmp "$E/host.prom" "$TRASH/out"

# --- Long form -----------------------------------------------------------
dqueue -R "$B" -a -o tsv >"$TRASH/out"
ok "-a: rows as expected" test_cmp "$E/bfq-a.tsv" "$TRASH/out"
is "$(($(wc -l <"$TRASH/out") - 1))" "$(find "$Q" -type f | wc -l)" "-a: one row per file of queue/ and iosched/"
is "$(awk -F'\t' '$4 == 1 { print "sys/block/sda/queue/" $2 }' "$TRASH/out" | sort)" "$(sort "$D/bfq.writable")" \
   "-a: writable exactly where the mode allows"
is "$(awk -F'\t' '$2 == "iosched/slice_idle_us" { print $3 }' "$TRASH/out")" 8000 "-a: bfq tunable value"
is "$(awk -F'\t' '$2 == "scheduler" { print $3 }' "$TRASH/out")" "mq-deadline kyber [bfq] none" "-a: the raw line"
dqueue -R "$H" -a -o tsv zram0 >"$TRASH/out"
is "$(grep -c iosched "$TRASH/out")" 0 "-a: bio-based zram0 has no iosched/"
is "$(awk -F'\t' 'NR > 1 && $1 != "zram0"' "$TRASH/out" | wc -l)" 0 "-a: only the device asked for"
dqueue -R "$H" -a -o prom vda >"$TRASH/out"
is "$(grep 'attribute="nr_requests"' "$TRASH/out")" 'dqueue_attribute_writable{device="vda",attribute="nr_requests"} 1' \
   "-a -o prom: writability gauge"

# --- Damaged files ---------------------------------------------------------
cp -R "$H" "$TRASH/bad"
BQ=$TRASH/bad/sys/block/vda/queue
chmod 0644 "$BQ/nr_requests" "$BQ/read_ahead_kb" "$BQ/scheduler" "$BQ/max_sectors_kb"
echo abc >"$BQ/nr_requests"
: >"$BQ/read_ahead_kb"
echo 'none [mq-deadline kyber' >"$BQ/scheduler"
printf '99999999999999999999\n' >"$BQ/max_sectors_kb"
rm "$BQ/rotational"
test_must_fail 1 dqueue -R "$TRASH/bad" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "damaged files: exit 1"
cat >"$TRASH/want" <<'EOT'
dqueue: vda: scheduler: malformed scheduler line
dqueue: vda: nr_requests: not a number
dqueue: vda: max_sectors_kb: not a number
EOT
# The empty read_ahead_kb is what cp leaves of a refused read: "-".
ok "damaged files: one clear message each (a missing or empty file is not one)" test_cmp "$TRASH/want" "$TRASH/err"
is "$(awk -F'\t' '$1 == "vda" { print $2, $3, $4, $5, $6, $7, $8 }' "$TRASH/out")" "- - - - - - 2147483647" \
   "damaged files: - for them, the good values still print"
is "$(grep -c '^zram0' "$TRASH/out")" 1 "damaged files: other devices still print"

# A regular file where queue/ should be: one message for the device, not
# one per attribute; the row still prints, so do the other devices.
cp -R "$H" "$TRASH/noq"
rm -rf "$TRASH/noq/sys/block/vda/queue"
echo x >"$TRASH/noq/sys/block/vda/queue"
test_must_fail 1 dqueue -R "$TRASH/noq" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "queue/ a regular file: exit 1"
is "$(cat "$TRASH/err")" "dqueue: vda: queue: Not a directory" "queue/ a regular file: one message"
is "$(awk -F'\t' '$1 == "vda" { print $2, $3, $5, $14 }' "$TRASH/out")" "- - - 1" \
   "queue/ a regular file: - for its values, mq/ still counted"
is "$(grep -c '^zram0' "$TRASH/out")" 1 "queue/ a regular file: other devices still print"
test_must_fail 1 dqueue -R "$TRASH/noq" -a vda >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dqueue: vda: queue: Not a directory" "queue/ a regular file: -a says it once"

# A FIFO for the scheduler reads as nothing: no scheduler, and said so.
cp -R "$H" "$TRASH/fifo"
rm "$TRASH/fifo/sys/block/vda/queue/scheduler"
mkfifo "$TRASH/fifo/sys/block/vda/queue/scheduler"
test_must_fail 1 dqueue -R "$TRASH/fifo" -o tsv vda >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "FIFO scheduler: exit 1"
is "$(cat "$TRASH/err")" "dqueue: vda: scheduler: malformed scheduler line" "FIFO scheduler: one message"
is "$(sed -n 2p "$TRASH/out" | cut -f3,4,5)" "-	-	256" "FIFO scheduler: scheduler and schedulers both -"
dqueue -R "$TRASH/fifo" -o json vda >"$TRASH/out" 2>/dev/null
is "$(jq -c '[.scheduler, .schedulers]' "$TRASH/out")" '[null,null]' "FIFO scheduler: JSON null, not \"\""

# --check against a damaged scheduler line is an error, not a difference.
echo '[mq-deadline] [bfq]' >"$BQ/scheduler"
test_must_fail 1 dqueue -R "$TRASH/bad" -o tsv --check scheduler=bfq vda >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "--check on a malformed scheduler line: exit 1, not 3"
is "$(cat "$TRASH/err")" "dqueue: vda: scheduler: malformed scheduler line" "--check: says malformed"
is "$(wc -c <"$TRASH/out")" 0 "--check: no difference row for it"

# --- Hostile names ---------------------------------------------------------
mkdir -p "$TRASH/hostile/sys/block"
for n in "tab	x" "new
line" "$(printf 'bad\377utf')" 'quo"te\'; do
	mkdir -p "$TRASH/hostile/sys/block/$n/queue"
	echo 1 >"$TRASH/hostile/sys/block/$n/queue/rotational"
	echo '[none] mq-deadline' >"$TRASH/hostile/sys/block/$n/queue/scheduler"
done
dqueue -R "$TRASH/hostile" -o tsv >"$TRASH/out"
ok "hostile names: TSV field counts kept" fields_ok "$TRASH/out"
is "$(wc -l <"$TRASH/out")" 5 "hostile names: one line per device"
dqueue -R "$TRASH/hostile" -o json >"$TRASH/out"
ok "hostile names: JSON valid" json_ok "$TRASH/out"
is "$(jq -r 'select(.device | startswith("new")) | .device' "$TRASH/out")" "new
line" "hostile names: newline survives JSON"
dqueue -R "$TRASH/hostile" -o prom >"$TRASH/out"
is "$(grep -c '^dqueue_info{' "$TRASH/out")" 4 "hostile names: prom, one info sample per device"
is "$(grep -vc -e '^#' -e '^dqueue_[a-z_]*{device="\([^"\\]\|\\.\)*"[^}]*} [0-9.]*$' "$TRASH/out")" 0 \
   "hostile names: prom lines well formed"
dqueue -R "$TRASH/hostile" -a -o tsv >"$TRASH/out"
ok "hostile names: -a TSV field counts kept" fields_ok "$TRASH/out"

# --- Check ---------------------------------------------------------------
dqueue -R "$B" --check scheduler=bfq,nr_requests=64 sda >"$TRASH/out"
is "$?:$(wc -c <"$TRASH/out")" "0:0" "--check holds: exit 0, silent"
dqueue -R "$B" --check ' read_ahead_kb = 0128 ','write_cache=write  back' sda
is "$?" 0 "--check: numbers compare as numbers, blanks are free"
dqueue -R "$H" --check scheduler=deadline vda
is "$?" 0 "--check: deadline is mq-deadline (the kernel's alias)"
dqueue -R "$B" --check scheduler=bfq --check back_seek_max=16384 sda
is "$?" 0 "--check: --check repeats; a tunable by its bare name"
test_must_fail 3 dqueue -R "$B" -o tsv --check scheduler=kyber,nr_requests=64,nomerges=2 sda >"$TRASH/out"
is "$?" 0 "--check differs: exit 3"
printf 'device\tattribute\twant\tgot\nsda\tscheduler\tkyber\tbfq\nsda\tnomerges\t2\t0\n' >"$TRASH/want"
ok "--check differs: a row per differing setting" test_cmp "$TRASH/want" "$TRASH/out"
test_must_fail 1 dqueue -R "$H" -o tsv --check scheduler=none vda zram0 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "--check: an attribute the device lacks is an error (exit 1), not a difference"
is "$(cat "$TRASH/err")" "dqueue: zram0: scheduler: no such attribute" "--check: says which"
is "$(sed -n 2p "$TRASH/out")" "vda	scheduler	none	mq-deadline" "--check: the other device is still checked"
test_must_fail 1 dqueue -R "$H" --check scheduler=none nosuch >/dev/null 2>&1
is "$?" 0 "--check: unknown device: exit 1"

# --- Set (on plain files: the mechanics; the kernel's answers are live) ----
rm -rf "$B"; mktree bfq
dqueue -R "$B" --allow-tree -o tsv --set 'read_ahead_kb=256, nomerges = 1' sda >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "--set: exit 0"
printf 'device\tattribute\told\tnew\tstatus\nsda\tread_ahead_kb\t128\t256\tset\nsda\tnomerges\t0\t1\tset\n' >"$TRASH/want"
ok "--set: a row per setting, old and new" test_cmp "$TRASH/want" "$TRASH/out"
is "$(cat $Q/read_ahead_kb $Q/nomerges | tr '\n' ' ')" "256 1 " "--set: written, newline-terminated"
test_must_fail 1 dqueue -R "$B" --allow-tree -o tsv --set read_ahead_kb=512,logical_block_size=4096,nomerges=2 sda >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "--set read-only attribute: exit 1"
printf 'dqueue: sda: logical_block_size: read-only attribute\ndqueue: nothing was written\n' >"$TRASH/want"
ok "--set read-only: says so, and that nothing was written" test_cmp "$TRASH/want" "$TRASH/err"
is "$(cat $Q/read_ahead_kb $Q/nomerges $Q/logical_block_size | tr '\n' ' ')" "256 1 512 " \
   "--set: refused before the first write (issue 15, 5)"
is "$(wc -c <"$TRASH/out")" 0 "--set refused: no rows"
test_must_fail 1 dqueue -R "$B" --allow-tree --set no_such_thing=1 sda >/dev/null 2>"$TRASH/err"
is "$(head -1 "$TRASH/err")" "dqueue: sda: no_such_thing: no such attribute" "--set: unknown attribute"
test_must_fail 1 dqueue -R "$B" --allow-tree --set nomerges=0 sda nosuch >/dev/null 2>"$TRASH/err"
is "$(cat $Q/nomerges)" 1 "--set: nothing is written when a device is unknown"
dqueue -R "$B" --allow-tree -o tsv --set nr_requests=32,scheduler=kyber sda >"$TRASH/out"
is "$(cut -f2 "$TRASH/out" | tail -2 | tr '\n' ' ')" "scheduler nr_requests " \
   "--set: the scheduler goes first (changing it resets nr_requests)"

# --- Usage -----------------------------------------------------------------
test_must_fail 2 dqueue -R "$B" --check scheduler=none 2>/dev/null
is "$?" 0 "--check without a device: exit 2"
test_must_fail 2 dqueue -R "$B" --check scheduler=none --set nomerges=0 sda 2>/dev/null
is "$?" 0 "--check with --set: exit 2"
test_must_fail 2 dqueue -R "$B" -a --check scheduler=none sda 2>/dev/null
is "$?" 0 "-a with --check: exit 2"
test_must_fail 2 dqueue -R "$B" --set scheduler sda 2>"$TRASH/err"
is "$?:$(head -1 "$TRASH/err")" "0:dqueue: scheduler: not attr=value" "setting without =: exit 2"
test_must_fail 2 dqueue -R "$B" --set ../../x=1 sda 2>"$TRASH/err"
is "$?:$(head -1 "$TRASH/err")" "0:dqueue: ../../x: not an attribute name" "path in an attribute name: exit 2"
test_must_fail 2 dqueue -R "$B" --set nomerges= sda 2>/dev/null
is "$?" 0 "empty value: exit 2"
test_must_fail 2 dqueue -R "$B" -o prom --check nomerges=0 sda 2>/dev/null
is "$?" 0 "--check -o prom: exit 2"
