#!/bin/sh
# Churn (issue 8, stage two): while "dwho 1 3", "dwho -a -t" and
# ddeleted (three runs) read /proc, a storm program made here with cc
# forks and reaps thousands of short processes and creates and joins
# thousands of threads, for as long as the tools run (at least 3 s,
# at most 30 s: ddeleted alone can take seconds on a loaded machine).  Every child inherits a deleted
# file the storm holds, so ddeleted meets holders that vanish mid-scan.
# Each tool exits 0, says nothing on stderr but the documented notes
# (listed below), and every row is well formed.
# t/3003-dwho-live.t has a shell fork storm under "dwho -a -t -l 0.2 5";
# this one adds threads, ddeleted, and the C storm's thousands.
. "${0%/*}/lib.sh"
# As root: a normal user's dwho and ddeleted say, rightly, that they
# cannot read other users' processes, and these notes are not checked.
need_root
need_prog cc jq
for t in dwho ddeleted; do
	[ -x "$TOP/cmd/$t/$t" ] || skip_all "$t not built"
done

cp "$T/0032-churn.c" "$TRASH/storm.c"
cc -O2 -pthread -o "$TRASH/storm" "$TRASH/storm.c" 2>"$TRASH/cc" ||
    { sed 's/^/# /' "$TRASH/cc"; skip_all "cannot build the storm program"; }

"$TRASH/storm" 30 "$TRASH/held" "$TRASH/stop" >"$TRASH/counts" &
storm=$!
at_exit "kill $storm 2>/dev/null; wait $storm 2>/dev/null"
i=0
while [ -e "$TRASH/held" ] || [ ! -d /proc/$storm ]; do
	sleep 0.05
	i=$((i + 1))
	[ $i -lt 100 ] || break
done
sleep 0.2

dwho -o tsv 1 3 >"$TRASH/who" 2>"$TRASH/who.err" &
who=$!
dwho -a -t -o json 0.5 6 >"$TRASH/whot" 2>"$TRASH/whot.err" &
whot=$!
for r in 1 2 3; do
	ddeleted -o tsv >"$TRASH/del$r" 2>"$TRASH/del$r.err"
	echo $? >"$TRASH/del$r.st"
	sleep 0.4
done
wait $who
who_st=$?
wait $whot
whot_st=$?
ok "the storm ran through every tool's run" test -d /proc/$storm
touch "$TRASH/stop"
wait $storm

# The storm did what it says.
forks=$(awk '$1 == "forks" { print $2 }' "$TRASH/counts")
threads=$(awk '$1 == "threads" { print $2 }' "$TRASH/counts")
echo "# storm: $forks processes forked and reaped, $threads threads created and joined"
ok "storm: thousands of processes" test "${forks:-0}" -ge 2000
ok "storm: thousands of threads" test "${threads:-0}" -ge 2000

# The notes dwho documents, and nothing else: delay accounting off,
# and io files refused even to root (another namespace's init).
allowed_dwho='^dwho: (delay accounting is off, %iodelay is -: enable it with .sysctl kernel.task_delayacct=1. or the .delayacct. boot option; only tasks started after enabling it are accounted|I/O counters of [0-9]+ process(es)? (is|are) unreadable \(/proc/PID/io refused even to root\): their byte and syscall columns are -)$'

is "$who_st" 0 "dwho 1 3: exit 0"
is "$(grep -Evc "$allowed_dwho" "$TRASH/who.err")" 0 "dwho 1 3: no line on stderr but the documented notes"
grep -Ev "$allowed_dwho" "$TRASH/who.err" | head -3 | sed 's/^/# /'
ok "dwho 1 3: TSV field counts" fields_ok "$TRASH/who"
is "$(awk -F'\t' 'NR > 1 { print $1 }' "$TRASH/who" | sort -u | wc -l)" 3 "dwho 1 3: three reports"
ok "dwho 1 3: every pid a number, every figure a number or -" awk -F'\t' '
	NR == 1 { next }
	$2 !~ /^[0-9]+$/ { bad = 1 }
	{ for (i = 5; i <= NF - 2; i++) if ($i !~ /^(-|[0-9]+\.[0-9][0-9])$/) bad = 1 }
	# carries: a word or -; start: clock ticks
	$(NF - 1) !~ /^(-|loop|flush|journal)$/ || $NF !~ /^[0-9]+$/ { bad = 1 }
	END { exit bad }' "$TRASH/who"

is "$whot_st" 0 "dwho -a -t 0.5 6: exit 0"
is "$(grep -Evc "$allowed_dwho" "$TRASH/whot.err")" 0 "dwho -a -t: no line on stderr but the documented notes"
grep -Ev "$allowed_dwho" "$TRASH/whot.err" | head -3 | sed 's/^/# /'
ok "dwho -a -t: JSON lines" json_ok "$TRASH/whot"
is "$(jq -s 'length > 0 and all(.[]; .pid | type == "number")' "$TRASH/whot")" true \
    "dwho -a -t: every row has a numeric pid"

# ddeleted as root documents no note for a live scan: stderr is empty.
for r in 1 2 3; do
	is "$(cat "$TRASH/del$r.st")" 0 "ddeleted run $r: exit 0"
	is "$(cat "$TRASH/del$r.err")" "" "ddeleted run $r: nothing on stderr"
	ok "ddeleted run $r: TSV field counts" fields_ok "$TRASH/del$r"
	is "$(awk -F'\t' -v p=$storm -v f="$TRASH/held" '$1 == p && $12 == f { print $5 }' "$TRASH/del$r")" 1 \
	    "ddeleted run $r: the storm's held file, size 1"
done
