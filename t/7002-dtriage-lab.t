#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# dtriage on the latency lab (t/lab.sh): a 4-slot disk of 10 ms.
#  - 1 reader: %util near 100, busy, never called saturated;
#  - 8 readers, nr_requests left large, with a snapshot directory taken
#    while one reader ran: saturated by latency (about 20 ms against
#    10 ms, the queue 8 against 1), exit 3; the same load without a
#    baseline: a long queue, not saturation;
#  - scheduler none, nr_requests 4 (the slots), 8 readers: saturated at
#    the request limit, the wait before dispatch shown (8 tasks waiting
#    on 4 slots, from delay accounting; with dlat tracing as root, q2c
#    about 20 ms against d2c 10 ms), the fio readers named as the load
#    of the lab disk (dlat's per-device submitters), exit 3.
# Skipped where the lab cannot run (root, FUSE, loop devices, fio).
. "${0%/*}/lib.sh"
[ -f "$T/lab.sh" ] || skip_all "the latency lab (t/lab.sh) is not in this tree"
. "$T/lab.sh"
# Its verdicts rest on timing (in_flight samples, a window's latency)
# that ASan and UBSan slow beyond the lab's budget: judged on the plain
# build, which make check runs first.
if grep -q fsanitize "$TOP/.flags" 2>/dev/null; then
	skip_all "a sanitizer build: dtriage's timing is judged on the plain build"
fi
lab_need
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"

# Delay accounting on for the test (others' tests may switch it too),
# set back at the end.
da=/proc/sys/kernel/task_delayacct
if [ -w "$da" ]; then
	old=$(cat "$da")
	echo 1 >"$da"
	at_exit "echo $old >$da"
fi
mkdir "$TRASH/nobase" "$TRASH/base"

# row FINDING FILE: the rows of FINDING about the lab disk.
row() {
	awk -F'\t' -v f="$1" -v d="$LAB_DEV" '$2 == f && $3 == d' "$2"
}

# triage NAME READERS DIR: dtriage's 3 s window inside a load of READERS.
triage() {
	lab_readers "$1" "$2" 6
	sleep 1.5
	dtriage -o tsv -b "$3" 3 >"$TRASH/out.$1" 2>"$TRASH/out.$1.err"
	echo $? >"$TRASH/out.$1.st"
	lab_wait
	sed -n "/	$LAB_DEV	/s/^/# $1: /p" "$TRASH/out.$1"
}

triage one 1 "$TRASH/nobase"
is "$(row saturated "$TRASH/out.one")" "" "1 reader: not saturated"
if [ -n "$(row busy "$TRASH/out.one")" ]; then
	ok "1 reader: busy, %util near 100" awk -F'\t' -v d="$LAB_DEV" \
	    '$2 == "busy" && $3 == d && $4 >= 0.9 { f = 1 } END { exit !f }' "$TRASH/out.one"
else
	# A loaded machine leaves gaps between one reader's requests.
	skip "1 reader: busy" "%util under 90 here: $(row device-ok "$TRASH/out.one" | cut -f4)"
fi

# The baseline: snapshots a second apart while one reader runs.
lab_readers quiet 1 8
sleep 1.5
for i in 0 1 2 3 4 5; do
	lab_snap "$TRASH/base/s$i.snap"
	sleep 1
done
lab_wait

triage eight 8 "$TRASH/base"
is "$(cat "$TRASH/out.eight.st")" 3 "8 readers with a baseline: exit 3"
ok "8 readers with a baseline: saturated by latency" \
    sh -c "awk -F'\t' -v d='$LAB_DEV' '\$2 == \"saturated\" && \$3 == d' '$TRASH/out.eight' | grep -q 'by latency'"
ok "saturated: await about twice the quiet 10 ms" awk -F'\t' -v d="$LAB_DEV" \
    '$2 == "saturated" && $3 == d && $4 >= 0.018 && $4 <= 0.022 { f = 1 } END { exit !f }' "$TRASH/out.eight"

triage nobase 8 "$TRASH/nobase"
is "$(row saturated "$TRASH/out.nobase")" "" "8 readers, no baseline: not saturated"
ok "8 readers, no baseline: a long queue of about 8" awk -F'\t' -v d="$LAB_DEV" \
    '$2 == "queue-long" && $3 == d && $4 >= 7 && $4 <= 8.5 { f = 1 } END { exit !f }' "$TRASH/out.nobase"

# dlat NAME: dtriage traced the window (no no-latency row).
dlat() {
	[ -s "$TRASH/out.$1" ] && ! grep -q '	no-latency	' "$TRASH/out.$1"
}
# load_fio NAME DESC: the fio readers are the LOAD of the lab disk
# (dlat's per-device submitters), not only among the sufferers.
load_fio() {
	if dlat "$1"; then
		ok "$2: a fio reader is the load of $LAB_DEV (dlat)" \
		    awk -F'\t' -v d="$LAB_DEV" '$2 == "load" && $3 ~ / fio$/ &&
		    index($5, "on " d ":") == 1 { f = 1 } END { exit !f }' "$TRASH/out.$1"
		ok "$2: the verdict names a fio reader as the load" \
		    awk -F'\t' '$2 == "verdict" && $5 ~ /; load: [0-9]+ fio(;|$)/ { f = 1 }
		    END { exit !f }' "$TRASH/out.$1"
	else
		skip "$2: fio named as the load" "no block-latency tracing: $(awk -F'\t' '$2 == "no-latency" { print $5 }' "$TRASH/out.$1")"
		skip "$2: the verdict names fio" "no block-latency tracing"
	fi
}
load_fio eight "8 readers with a baseline"
load_fio nobase "8 readers, no baseline"

lab_queue none 4 || skip_all "cannot set scheduler none and nr_requests 4 on $LAB_DEV"
triage tags 8 "$TRASH/nobase"
is "$(cat "$TRASH/out.tags.st")" 3 "none, 4 tags, 8 readers: exit 3"
sat=$(row saturated "$TRASH/out.tags")
if dlat tags; then
	# 8 readers on 4 slots of 10 ms: each waits for a slot before
	# dispatch.  How long depends on how soon a reader comes back, so
	# q2c is held to fio's own completion latency of the same reads
	# (the peer's clock), and the rule may show the wait either as
	# q2c over d2c or, when q2c is under 1.5 d2c, as threads blocked
	# in blk_mq_get_tag; both convict the disk.
	ok "saturated at the request limit, the wait for a slot shown (dlat)" \
	    sh -c "printf '%s\n' '$sat' | grep -Eq 'at the request limit: in_flight at the limit of 4 .*(; q2c [0-9.]* ms against d2c [0-9.]* ms: requests wait|threads blocked waiting for a request slot)'"
	q2c=$(printf '%s\n' "$sat" | sed -n 's/.*[;(] *q2c \([0-9.]*\) ms against d2c.*/\1/p')
	d2c=$(printf '%s\n' "$sat" | sed -n 's/.* against d2c \([0-9.]*\) ms.*/\1/p')
	clat=$(jq '.jobs[0].read.clat_ns.mean / 1e6' "$LAB_DIR/tags.json" 2>/dev/null)
	echo "# tags: q2c $q2c ms, d2c $d2c ms, fio's clat ${clat:-?} ms"
	# fio's mean spans its whole run, dtriage's window 3 s of it.
	ok "d2c within 25% of 10 ms, q2c within 25% of fio's clat, over d2c" \
	    awk -v q="$q2c" -v d="$d2c" -v c="$clat" 'BEGIN { exit !(q != "" &&
	    d != "" && c != "" && d >= 7.5 && d <= 12.5 && q > d &&
	    q >= 0.75 * c && q <= 1.25 * c) }'
	# Either form: the value is the q2c mean, the latency requests see.
	ok "saturated's value is the q2c mean" awk -F'\t' -v d="$LAB_DEV" -v q="$q2c" \
	    '$2 == "saturated" && $3 == d && ($4 * 1000 - q) ^ 2 < 0.01 { f = 1 } END { exit !f }' "$TRASH/out.tags"
elif [ -n "$sat" ]; then
	skip "q2c against d2c" "no block-latency tracing"
	ok "saturated at the request limit, the hidden wait shown" \
	    sh -c "printf '%s\n' '$sat' | grep -q 'at the request limit: in_flight at the limit of 4 .*tasks waiting on I/O for 4 slots: the rest wait before dispatch'"
elif grep -q '	delayacct-off	' "$TRASH/out.tags" ||
    ! row at-limit "$TRASH/out.tags" | grep -q ' [6-9]\.[0-9] tasks waiting'; then
	# Another test switched delay accounting off in the window.
	skip "saturated at the request limit" "delay accounting was switched during the window"
else
	fail "saturated at the request limit"
	sed 's/^/# /' "$TRASH/out.tags"
fi
load_fio tags "none, 4 tags, 8 readers"
ok "the fio readers are named (load or sufferer)" \
    awk -F'\t' '($2 == "load" || $2 == "sufferer") && $3 ~ / fio$/ { f = 1 } END { exit !f }' "$TRASH/out.tags"
