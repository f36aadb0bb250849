#!/bin/sh
# dqueue on a loop device made for this test: values equal /sys, and
# the kernel's own answers to --set (refusal, quiet change, read-only)
# are reported as the issue asks.  Everything changed is restored.
. "${0%/*}/lib.sh"
need_loop
# Not L=$(mkloop 8): in a subshell, mkloop's at_exit (the detach) is lost.
mkloop 8 >"$TRASH/loop" || skip_all "losetup failed"
L=$(cat "$TRASH/loop")
echo "# $L over $TRASH/loop*.img"
Q=/sys/block/$L/queue
[ -d "$Q" ] || skip_all "no $Q"
# Restore (run before the detach mkloop registered, as at_exit stacks).
for a in scheduler nr_requests read_ahead_kb nomerges max_sectors_kb; do
	v=$(cat "$Q/$a")
	[ "$a" = scheduler ] && v=$(sed 's/.*\[\(.*\)\].*/\1/' "$Q/$a")
	at_exit "echo '$v' >$Q/$a 2>/dev/null"
done
active() { sed 's/.*\[\(.*\)\].*/\1/' "$Q/scheduler"; }
avail() { tr -d '[]' <"$Q/scheduler" | sed 's/ *$//'; }

# --- Values equal /sys -------------------------------------------------------
dqueue -o tsv "$L" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "live row: exit 0, quiet"
want="$L"
for a in rotational scheduler schedulers nr_requests read_ahead_kb max_sectors_kb \
    max_hw_sectors_kb logical_block_size physical_block_size minimum_io_size \
    optimal_io_size nomerges nr_hw_queues write_cache discard_max_bytes \
    wbt_lat_usec zoned holders slaves; do
	case $a in
	scheduler) v=$(active) ;;
	schedulers) v=$(avail) ;;
	nr_hw_queues) v=$(ls /sys/block/$L/mq | wc -l) ;;
	holders|slaves) v=$(ls /sys/block/$L/$a | paste -sd, -) ;;
	*) v=$(cat "$Q/$a" 2>/dev/null || echo -) ;;
	esac
	want="$want	$v"
done
is "$(sed -n 2p "$TRASH/out")" "$want" "live row: every column equals /sys"
dqueue -a -o tsv "$L" >"$TRASH/out"
is "$(($(wc -l <"$TRASH/out") - 1))" "$(find "$Q" -maxdepth 2 -type f | wc -l)" \
   "-a: one row per file of queue/ and iosched/"
is "$(awk -F'\t' '$2 == "logical_block_size" { print $4 } $2 == "nr_requests" { print $4 }' "$TRASH/out" | sort | tr '\n' ' ')" \
   "0 1 " "-a: nr_requests writable, logical_block_size not"

# Loop devices opt out of the default scheduler (BLK_MQ_F_NO_SCHED_BY_DEFAULT).
[ "$(active)" = none ] || echo none >"$Q/scheduler"
is "$(active)" none "loop device: scheduler none"

# --- Check ---------------------------------------------------------------
dqueue --check scheduler=none "$L" >"$TRASH/out"
is "$?:$(wc -c <"$TRASH/out")" "0:0" "--check scheduler=none on a none device: exit 0, silent"
test_must_fail 3 dqueue -o tsv --check scheduler=mq-deadline "$L" >"$TRASH/out"
is "$?" 0 "--check scheduler=mq-deadline: exit 3"
is "$(sed -n 2p "$TRASH/out")" "$L	scheduler	mq-deadline	none" "--check: device attr want got"

# --- Set: the kernel's answers ---------------------------------------------
test_must_fail 1 dqueue --set scheduler=noop "$L" >/dev/null 2>"$TRASH/err"
is "$?" 0 "--set scheduler=noop: exit 1"
is "$(head -1 "$TRASH/err")" "dqueue: $L: scheduler: noop: Invalid argument (available: $(avail))" \
   "--set scheduler=noop: errno text and the available list"
is "$(active)" none "--set scheduler=noop: nothing changed"

# The kernel takes the write but stores something else: the device did
# change, so that is said, and counted as applied (not reverted).
was=$(cat "$Q/nr_requests")
test_must_fail 1 dqueue -o tsv --set nr_requests=0 "$L" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "--set nr_requests=0: exit 1"
got=$(cat "$Q/nr_requests")
printf 'dqueue: %s: nr_requests: wrote 0, read back %s (was %s): the kernel changed the value\ndqueue: stopped after applying: %s nr_requests=%s (asked 0)\n' \
    "$L" "$got" "$was" "$L" "$got" >"$TRASH/want"
ok "--set nr_requests=0: names the value the kernel stored ($got), the old one, and counts it applied" \
   test_cmp "$TRASH/want" "$TRASH/err"
is "$(sed -n 2p "$TRASH/out")" "$L	nr_requests	$was	$got	changed" "--set nr_requests=0: the change is a row"
echo 128 >"$Q/nr_requests"

was=$(cat "$Q/nomerges")
test_must_fail 1 dqueue --set nomerges=3 "$L" >/dev/null 2>"$TRASH/err"
got=$(cat "$Q/nomerges")
printf 'dqueue: %s: nomerges: wrote 3, read back %s (was %s): the kernel changed the value\ndqueue: stopped after applying: %s nomerges=%s (asked 3)\n' \
    "$L" "$got" "$was" "$L" "$got" >"$TRASH/want"
ok "--set nomerges=3: the kernel stores something else ($got), said in full" \
   test_cmp "$TRASH/want" "$TRASH/err"
# Asked again, the kernel turns 3 into what is already there: no change.
test_must_fail 1 dqueue --set nomerges=3 "$L" >"$TRASH/out" 2>"$TRASH/err"
printf 'dqueue: %s: nomerges: wrote 3, read back %s (was %s): the kernel kept the old value\ndqueue: stopped; nothing was applied\n' \
    "$L" "$got" "$got" >"$TRASH/want"
ok "--set nomerges=3 again: the kernel kept the value, nothing applied" test_cmp "$TRASH/want" "$TRASH/err"
echo 0 >"$Q/nomerges"
hw=$(cat "$Q/max_hw_sectors_kb")
test_must_fail 1 dqueue --set max_sectors_kb=$((hw * 4)) "$L" >/dev/null 2>"$TRASH/err"
is "$?" 0 "--set max_sectors_kb above the hardware limit: exit 1"
ok "--set max_sectors_kb: refused or kept, said either way" \
   grep -q -e "max_sectors_kb: $((hw * 4)): Invalid argument" -e "max_sectors_kb: wrote $((hw * 4)), read back" "$TRASH/err"

test_must_fail 1 dqueue --set logical_block_size=4096 "$L" >/dev/null 2>"$TRASH/err"
is "$?:$(head -1 "$TRASH/err")" "0:dqueue: $L: logical_block_size: read-only attribute" \
   "--set on a read-only attribute: exit 1, says read-only"
is "$(cat "$Q/logical_block_size")" 512 "read-only attribute unchanged"

dqueue -o tsv --set scheduler=mq-deadline "$L" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "--set scheduler=mq-deadline: exit 0"
is "$(active)" mq-deadline "--set scheduler=mq-deadline: active"
is "$(sed -n 2p "$TRASH/out")" "$L	scheduler	none	mq-deadline	set" "--set: row device attr old new status"
dqueue -a -o tsv "$L" >"$TRASH/out"
is "$(awk -F'\t' '$2 == "iosched/read_expire" { print $3 "|" $4 }' "$TRASH/out")" "$(cat "$Q/iosched/read_expire")|1" \
   "-a then lists iosched/read_expire, writable"
dqueue --check 'scheduler = deadline ' "$L"
is "$?" 0 "--check: deadline holds on mq-deadline"
dqueue -o tsv --set read_expire=400 "$L" >/dev/null
is "$?:$(cat "$Q/iosched/read_expire")" "0:400" "--set a tunable by its bare name"

# Scheduler first: a new scheduler resets nr_requests.
dqueue -o tsv --set nr_requests=64,scheduler=none "$L" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "--set nr_requests,scheduler: exit 0"
is "$(active) $(cat "$Q/nr_requests")" "none 64" "--set: scheduler applied first, nr_requests kept"

# Stop at the first failure; the applied ones are said.
ra=$(cat "$Q/read_ahead_kb")
test_must_fail 1 dqueue -o tsv --set read_ahead_kb=256,nr_requests=0,nomerges=2 "$L" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "--set with a failure in the middle: exit 1"
is "$(cat "$Q/read_ahead_kb") $(cat "$Q/nomerges")" "256 0" "--set: stopped at the failure"
printf 'dqueue: %s: nr_requests: wrote 0, read back %s (was 64): the kernel changed the value\ndqueue: stopped after applying: %s read_ahead_kb=256, %s nr_requests=%s (asked 0)\n' \
    "$L" "$(cat "$Q/nr_requests")" "$L" "$L" "$(cat "$Q/nr_requests")" >"$TRASH/want"
ok "--set: says what was applied, the kernel's change included" test_cmp "$TRASH/want" "$TRASH/err"
is "$(sed -n 2p "$TRASH/out")" "$L	read_ahead_kb	$ra	256	set" "--set: the applied row"
