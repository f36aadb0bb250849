#!/bin/sh
# Issue 15, 3 to 5: dqueue --set proves what it claims.  On a loop
# device made here: a later write's side effect on an earlier setting
# is seen and fails the set (max_sectors_kb raises read_ahead_kb), the
# jiffies tunables hold within their rounding for --set and --check
# alike, nothing is written when any setting is invalid, -n writes
# nothing, a value already there is said as such; --set then --check
# with the same arguments agree.  Every value changed is restored.
. "${0%/*}/lib.sh"

# ---- On a tree (no root needed): validation before the first write ----
B=$TRASH/t
mkdir -p "$B/sys/block/sda/queue"
Q=$B/sys/block/sda/queue
echo "[none] mq-deadline" >"$Q/scheduler"
echo 128 >"$Q/read_ahead_kb"
echo 64 >"$Q/nr_requests"
echo 512 >"$Q/logical_block_size"
chmod 444 "$Q/logical_block_size"
echo "write back" >"$Q/write_cache"
snap() { cat "$Q/read_ahead_kb" "$Q/nr_requests" "$Q/scheduler" "$Q/write_cache" | tr '\n' '|'; }
before=$(snap)
for bad in 'nosuchattr=5' 'nr_requests=many' 'scheduler=noop' 'logical_block_size=4096' \
    'write_cache=sometimes' 'iosched/read_expire=5'; do
	test_must_fail 1 dqueue -R "$B" --allow-tree --set "read_ahead_kb=1024,$bad" sda \
	    >"$TRASH/out" 2>"$TRASH/err"
	is "$?:$(snap):$(wc -c <"$TRASH/out")" "0:$before:0" \
	   "--set read_ahead_kb=1024,$bad: exit 1, nothing written, no rows"
	ok "--set ...,$bad: ends with 'nothing was written'" \
	    sh -c 'tail -1 "$1" | grep -qx "dqueue: nothing was written"' sh "$TRASH/err"
done
is "$(head -1 "$TRASH/err")" "dqueue: sda: iosched/read_expire: no such attribute" \
   "a tunable of a scheduler not asked for: no such attribute"
test_must_fail 1 dqueue -R "$B" --allow-tree --set read_ahead_kb=1024 sda nosuch >/dev/null 2>&1
is "$?:$(snap)" "0:$before" "--set with an unknown device: nothing written"
# A tunable of the scheduler the same request switches to is known.
dqueue -R "$B" -o tsv -n --set read_expire=250,scheduler=mq-deadline sda >"$TRASH/out" 2>"$TRASH/err"
printf 'device\tattribute\told\tnew\tstatus\nsda\tscheduler\tnone\tmq-deadline\twould-set\nsda\tread_expire\t-\t250\twould-set\n' >"$TRASH/want"
ok "-n: the scheduler first, its tunable before it exists, nothing written" \
    test_cmp "$TRASH/want" "$TRASH/out"
is "$(snap)" "$before" "-n: the tree unchanged"
dqueue -R "$B" -o tsv --dry-run --set read_ahead_kb=128,nr_requests=32 sda >"$TRASH/out"
printf 'device\tattribute\told\tnew\tstatus\nsda\tread_ahead_kb\t128\t128\talready\nsda\tnr_requests\t64\t32\twould-set\n' >"$TRASH/want"
ok "--dry-run: already there is 'already', the rest 'would-set'" test_cmp "$TRASH/want" "$TRASH/out"
dqueue -R "$B" --allow-tree -o tsv --set read_ahead_kb=128 sda >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(sed -n 2p "$TRASH/out"):$(cat "$TRASH/err")" "0:sda	read_ahead_kb	128	128	already:" \
   "--set of a value already there: said as 'already', not a change"
test_must_fail 2 dqueue -R "$B" -n sda 2>/dev/null
is "$?" 0 "-n without --set: usage"

# ---- Live, on a loop device of ours ----------------------------------------
need_loop
mkloop 8 >"$TRASH/loop" || skip_all "losetup failed"
L=$(cat "$TRASH/loop")
Q=/sys/block/$L/queue
[ -w "$Q/read_ahead_kb" ] || skip_all "no writable $Q"
for a in scheduler nr_requests read_ahead_kb max_sectors_kb; do
	v=$(cat "$Q/$a")
	[ "$a" = scheduler ] && v=$(sed 's/.*\[\(.*\)\].*/\1/' "$Q/$a")
	at_exit "echo '$v' >$Q/$a 2>/dev/null"
done
hw=$(cat "$Q/max_hw_sectors_kb")
# A loop device keeps its queue settings across detach: start from none.
echo none >"$Q/scheduler"

# 3: max_sectors_kb raises read_ahead_kb (6.18); the read-back after
# the last write sees it.  Start below so that the write happens.
small=$((hw / 2))
echo "$small" >"$Q/max_sectors_kb"
echo 128 >"$Q/read_ahead_kb"
dqueue -o tsv --set "read_ahead_kb=512,max_sectors_kb=$hw" "$L" >"$TRASH/out" 2>"$TRASH/err"
rc=$?
ra=$(cat "$Q/read_ahead_kb")
if [ "$ra" = 512 ]; then
	is "$rc" 0 "--set read_ahead_kb,max_sectors_kb: this kernel keeps read_ahead_kb; exit 0"
else
	is "$rc" 1 "--set read_ahead_kb=512,max_sectors_kb=$hw: read_ahead_kb is $ra after the last write: exit 1"
	is "$(sed -n 2p "$TRASH/out")" "$L	read_ahead_kb	128	$ra	changed" \
	   "--set: the row says what the kernel made of read_ahead_kb"
	ok "--set: the message names the side effect" \
	    grep -q "read_ahead_kb: wrote 512, read back $ra (was 128)" "$TRASH/err"
fi
dqueue --check "read_ahead_kb=512,max_sectors_kb=$hw" "$L" >/dev/null 2>&1
crc=$?
ok "--set and --check with the same arguments agree (--set exit $rc, --check exit $crc)" \
    sh -c '{ [ "$1" = 0 ] && [ "$2" = 0 ]; } || { [ "$1" = 1 ] && [ "$2" = 3 ]; }' sh "$rc" "$crc"

# 4: jiffies.  read_expire=250 is stored as msecs_to_jiffies; at HZ=250,
# 252 is read back: that holds, for --set and --check alike.
dqueue -o tsv --set scheduler=mq-deadline,read_expire=250 "$L" >"$TRASH/out" 2>"$TRASH/err"
rc=$?
got=$(cat "$Q/iosched/read_expire")
is "$rc:$(cat "$TRASH/err")" "0:" "--set scheduler=mq-deadline,read_expire=250: exit 0 (stored $got)"
if [ "$got" = 250 ]; then
	is "$(sed -n 3p "$TRASH/out")" "$L	read_expire	-	250	set" "read_expire: stored exactly (HZ divides 1000 by 4)"
else
	is "$(sed -n 3p "$TRASH/out")" "$L	read_expire	-	$got	rounded" "read_expire: rounded to jiffies, said"
fi
dqueue --check read_expire=250 "$L" >"$TRASH/out"
is "$?:$(wc -c <"$TRASH/out")" "0:0" "--check read_expire=250 holds at $got"
dqueue -o tsv --set read_expire=250 "$L" >"$TRASH/out"
is "$?:$(sed -n 2p "$TRASH/out")" "0:$L	read_expire	$got	$got	already" "--set read_expire=250 again: already"
test_must_fail 3 dqueue --check read_expire=240 "$L" >/dev/null
is "$?" 0 "--check read_expire=240 on $got: differs (exit 3)"
echo none >"$Q/scheduler"

# 5: nothing written when one setting is wrong; -n writes nothing.
echo 256 >"$Q/read_ahead_kb"
test_must_fail 1 dqueue --set read_ahead_kb=1024,nosuchattr=5 "$L" >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$Q/read_ahead_kb")" "0:256" "--set read_ahead_kb=1024,nosuchattr=5: exit 1, read_ahead_kb untouched"
printf 'dqueue: %s: nosuchattr: no such attribute\ndqueue: nothing was written\n' "$L" >"$TRASH/want"
ok "--set ...,nosuchattr: says which, and that nothing was written" test_cmp "$TRASH/want" "$TRASH/err"
dqueue -o tsv -n --set read_ahead_kb=1024 "$L" >"$TRASH/out"
is "$?:$(cat "$Q/read_ahead_kb"):$(sed -n 2p "$TRASH/out")" "0:256:$L	read_ahead_kb	256	1024	would-set" \
   "-n: says what would be written, writes nothing"
dqueue -o tsv --set read_ahead_kb=256 "$L" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(sed -n 2p "$TRASH/out"):$(cat "$TRASH/err")" "0:$L	read_ahead_kb	256	256	already:" \
   "--set of the value there: 'already', exit 0"
