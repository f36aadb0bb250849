#!/bin/sh
# make check: alone (the lab's timings need a quiet machine)
# dlat -t and -g against the truth of the lab disk (t/lab.sh).
#
# (a) -t: a 4-slot disk of 1 ms reads whose every 10th request takes 30
# ms more (fusedisk -S 10:30, which counts them); 2 direct random 4 KiB
# psync readers in a cgroup of their own, fewer than the slots, so no
# request waits behind a slow one.  dlat -t 15ms, attached before the
# load and stopped after it, must list exactly the requests the helper
# slowed over the same window (its count, within the events dlat says
# it missed; no faster one: every q2c and d2c from 30 ms up, unless the
# machine was found too busy to keep the lab's time), each with a reader's pid (one of the cgroup's
# processes), comm "fio" and the readers' cgroup path.  (Its missed
# events are shown, not asserted: another tracer on a shared machine
# makes recursion misses of any disk.)
# (b) -g: a reader in one cgroup on a lab disk of 10 ms reads, another
# in a second cgroup on a fast loop device: each cgroup has its own rows,
# of its disk alone, the lab's reads at 10 ms (d2c mean 10 to 12 ms),
# the fast disk's below 2 ms; -o prom -n 1 keeps the cgroup with the
# most requests (the fast one) alone, and promtool (or the suite's
# linter) takes the text.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
. "$T/dlat-lib.sh"
lab_need
need_bpf
need_loop
base=$(bpf_progs)

slow() {
	f=$LAB_DIR/$1
	dlat -o tsv -t 15ms "$LAB_DEV" >"$f.dl" 2>"$f.err" &
	pid=$!
	lab_check_cmd "-t: dlat attached" dlat_attached $pid
	lab_stats >"$f.st1"
	lab_readers "$1" 2 3
	sleep 2
	cat "$LAB_CG/cgroup.procs" >"$f.pids"
	cg=/$LAB_CGNAME
	lab_wait
	_st=$?
	lab_stats >"$f.st2"
	kill -INT $pid
	wait $pid
	lab_check_cmd "-t: fio ran (exit $_st), dlat exited 0 on SIGINT" test "$_st" -eq 0 -a "$?" -eq 0
	n=$(awk 'NR == FNR { a = $7; next } { print $7 - a }' "$f.st1" "$f.st2")
	awk -F'\t' -v d="$LAB_DEV" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["device"] == d' "$f.dl" >"$f.rows"
	rows=$(grep -c . "$f.rows")
	echo "# -t 15ms: the helper slowed $n requests, dlat listed $rows (events missed, any disk: $(awk -F'\t' 'NR > 1 { m += $12 } END { print m + 0 }' "$f.dl")); first rows:"
	head -3 "$f.rows" | sed 's/^/#   /'
	lab_check "-t: the helper slowed requests" "$n" 10 100000
	late=$(lab_late "$f.st1" "$f.st2" 1)
	m=$(awk -F'\t' 'NR > 1 { m += $12 } END { print m + 0 }' "$f.dl")
	# time device op sector bytes pid comm cgroup q2d d2c q2c missed
	s=$(awk -F'\t' '$10 >= 30000 && $11 >= 30000' "$f.rows" | grep -c .)
	lab_check -p "-t: a row for each request the helper slowed ($n, within the $m missed)" "$s" "$((n - m))" "$n"
	lab_check -p "-t: rows with a d2c or q2c under 30 ms (a faster one; helper $late us late)" \
	    "$(awk -F'\t' '$10 < 30000 || $11 < 30000' "$f.rows" | grep -c .)" 0 0
	lab_check "-t: rows not a 4096-byte read" \
	    "$(awk -F'\t' '$3 != "read" || $5 != 4096' "$f.rows" | grep -c .)" 0 0
	lab_check "-t: rows whose pid is not a reader's, of the cgroup" \
	    "$(awk -F'\t' 'NR == FNR { p[$1] = 1; next } !($6 in p)' "$f.pids" "$f.rows" | grep -c .)" 0 0
	lab_check "-t: rows whose comm is not fio or cgroup not $cg" \
	    "$(awk -F'\t' -v c="$cg" '$7 != "fio" || $8 != c' "$f.rows" | grep -c .)" 0 0
	lab_check_cmd "-t: dlat wrote no message" test ! -s "$f.err"
}

# col FILE DEV PHASE CG NAME: column NAME of FILE's read row.
col() {
	awk -F'\t' -v d="$2" -v p="$3" -v g="$4" -v c="$5" '
	    NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next }
	    $n["device"] == d && $n["op"] == "read" && $n["phase"] == p &&
	    $n["cgroup"] == g { print $n[c] }' "$1"
}

groups() {
	f=$LAB_DIR/$1
	fcg=$(_lab_cg "$LAB_V2" fast) || { lab_check_cmd "-g: a cgroup made" false; return; }
	dlat -o tsv -g "$LAB_DEV" "$fast" 4 1 >"$f.dl" 2>"$f.err" &
	p1=$!
	dlat -o prom -g -n 1 "$LAB_DEV" "$fast" 4 1 >"$f.prom" 2>"$f.perr" &
	p2=$!
	lab_check_cmd "-g: both dlats attached" dlat_attached $p1
	dlat_attached $p2
	lab_readers "$1" 1 2
	lcg=/$LAB_CGNAME
	sh -c 'echo $$ >"$1/cgroup.procs" && exec fio --name=fast --filename="$2" \
	    --direct=1 --rw=randread --bs=4k --ioengine=psync --time_based \
	    --runtime=2 --output=/dev/null' fast "$fcg" "/dev/$fast" &
	fp=$!
	wait $fp
	_fs=$?
	lab_wait
	_st=$?
	wait $p1
	_s1=$?
	wait $p2
	_s2=$?
	rmdir "$fcg" 2>/dev/null
	lab_check_cmd "-g: both fio ran ($_st $_fs), both dlats exited 0" test "$_st$_fs$_s1$_s2" = 0000
	fcg=/${fcg#"$LAB_V2"/}
	sed 's/^/# /' "$f.dl"
	lm=$(col "$f.dl" "$LAB_DEV" d2c "$lcg" mean_us)
	fm=$(col "$f.dl" "$fast" d2c "$fcg" mean_us)
	lab_check -p "-g: the lab reader's cgroup: d2c mean 10-12 ms" "$lm" 10000 12000
	lab_check "-g: the fast reader's cgroup: d2c mean below 2 ms" "$fm" 0 2000
	lab_check "-g: the lab reader's cgroup: hundreds of reads" "$(col "$f.dl" "$LAB_DEV" q2c "$lcg" count)" 100 100000
	lab_check "-g: the fast reader's cgroup has no row of the lab disk" "$(col "$f.dl" "$LAB_DEV" d2c "$fcg" count | grep -c .)" 0 0
	lab_check "-g: the lab reader's cgroup has no row of the fast disk" "$(col "$f.dl" "$fast" d2c "$lcg" count | grep -c .)" 0 0
	_g=$(grep -o 'cgroup="[^"]*"' "$f.prom" | sort -u)
	lab_check_cmd "-g -n 1 -o prom: the cgroup label is $fcg alone (got $(echo $_g))" test "$_g" = "cgroup=\"$fcg\""
	if command -v promtool >/dev/null 2>&1; then
		lab_check_cmd "-g -o prom: promtool check metrics" sh -c 'promtool check metrics <"$1" >"$1.lint" 2>&1' p "$f.prom"
	else
		lab_check_cmd "-g -o prom: the suite's linter" python3 "$FIX/prom/promlint.py" "$f.prom"
	fi
	lab_check_cmd "-g: dlat wrote no message" test ! -s "$f.err" -a ! -s "$f.perr"
}

lab_start 4 1 1 -S 10:30 || skip_all "lab: $LAB_ERR"
lab_queue none - || skip_all "cannot set scheduler none on $LAB_DEV"
lab_try slow t
mkloop_dio 64 >"$TRASH/fast" || skip_all "cannot make a loop device"
fast=$(cat "$TRASH/fast")
echo none >/sys/block/$fast/queue/scheduler 2>/dev/null
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"
lab_queue none - || skip_all "cannot set scheduler none on $LAB_DEV"
lab_try groups g
lab_stop
if progs_back "$base"; then
	pass "nothing left loaded"
else
	skip "nothing left loaded" "other BPF users on a shared machine"
fi
