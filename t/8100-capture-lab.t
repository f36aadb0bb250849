#!/bin/sh
# make check: alone (the lab)
# Issue 31's Done-when: on the lab disk (t/lab.sh: 4 slots, 10 ms a
# read) under a known load, 4 direct random 4 KiB readers (400 reads a
# second, a queue of 4, %util 100), a capture taken during the load and
# read after the load has stopped gives, in every tool, what the same
# tool said live over the same window.  dcapture -w cap W and the live
# tools over W seconds (dxstat -y W 1, dwho W 1, dpsi W 1, dlat W 1 on
# the lab disk, dtriage W) start together, within milliseconds; dqueue
# and ddeleted run live as the window ends (a deleted file of 1 MiB held
# open by a process of ours all along).  Then the load stops and each
# tool reads the capture (-R cap).  Asserted:
#   dxstat: the lab disk's r/s, rkB/s, r_await, aqu-sz, %util within 2%;
#   dwho: the same load processes named (pid and command), each
#     reader's kB_rd/s and syscr/s within 2%;
#   dpsi: io some and full stall%, the system's and the load cgroup's,
#     within 2 points (a share is one figure over two windows that differ
#     by their few ms of start-up at each edge: 2 x 20 ms of a 5 s window
#     is 0.8 points at most);
#   dlat: the read d2c and q2c counts within 2%, p50 within 2%, p99
#     within one bucket (12.5%: an interpolated percentile of 1% of the
#     requests moves by a bucket for a few of them);
#   dtriage: the same exit status, the same verdict (severity, finding,
#     subject), the same findings (finding, subject; a severity near its
#     threshold, procs-blocked's mean of 10 samples a second, may differ
#     between two windows; "load" of the lab disk: a reader of the load,
#     which of the 4 equal ones being a tie; the loads of other disks,
#     the machine's other work, are not compared) but "page-cache", a
#     reader of 1 MiB/s or more from cached files: the machine's other
#     work near that threshold can fall on either side of it in two
#     scans a few ms apart; it is printed when live gave it (t/8000
#     compares it on a reader of its own).  The processes whose I/O counters
#     were refused ("unreadable -", PID 1's io even to root) are
#     compared: capture/refused lists them;
#   dqueue, ddeleted: the same rows as live at the window's end.
# Live tools and dcapture trace with BPF at once (three sessions on the
# same tracepoints).  The differences measured are printed as comments.
. "${0%/*}/lib.sh"
. "$T/lab.sh"
if grep -q fsanitize "$TOP/.flags" 2>/dev/null; then
	skip_all "a sanitizer build: the tools' start-up skews their windows"
fi
lab_need
need_prog jq
W=5
lab_start 4 10 10 || skip_all "lab: $LAB_ERR"
probe=$(dcapture -w "$TRASH/probe" 1 2>&1 >/dev/null; tar -xOf "$TRASH/probe" capture/meta 2>/dev/null)
case $probe in
*"traced 1"*) ;;
*) skip_all "dcapture does not trace here: $(echo "$probe" | sed -n 's/^traced_why //p')" ;;
esac

# A deleted file of 1 MiB held open all along by a process of ours.
mkfifo "$TRASH/go"
(exec 7>"$TRASH/held"; head -c 1048576 /dev/zero >&7; rm -f "$TRASH/held"
    exec sleep 600 <"$TRASH/go") &
hold=$!
at_exit "kill $hold 2>/dev/null"
exec 8>"$TRASH/go"

# near DESC LIVE CAP PCT: CAP within PCT % of LIVE.
near() {
	lab_check "$1 (live $2, capture $3)" "$3" \
	    "$(awk -v v="$2" -v p="$4" 'BEGIN { printf "%.6f", v - (v < 0 ? -v : v) * p / 100 }')" \
	    "$(awk -v v="$2" -v p="$4" 'BEGIN { printf "%.6f", v + (v < 0 ? -v : v) * p / 100 }')"
	echo "# $1: live $2, capture $3 ($(awk -v a="$2" -v b="$3" 'BEGIN {
	    if (a == 0) print "-"; else printf "%+.2f%%", (b - a) / a * 100 }'))"
}
# points DESC LIVE CAP PTS: CAP within PTS of LIVE.
points() {
	lab_check "$1 (live $2, capture $3)" "$3" \
	    "$(awk -v v="$2" -v p="$4" 'BEGIN { print v - p }')" \
	    "$(awk -v v="$2" -v p="$4" 'BEGIN { print v + p }')"
	echo "# $1: live $2, capture $3 ($(awk -v a="$2" -v b="$3" 'BEGIN { printf "%+.2f points", b - a }'))"
}
# same DESC LIVE-FILE CAP-FILE: the two files equal.
same() {
	if cmp -s "$2" "$3"; then
		lab_check_cmd "$1" true
	else
		echo "# $1: live:"; sed 's/^/#   /' "$2"
		echo "# capture:"; sed 's/^/#   /' "$3"
		lab_check_cmd "$1" false
	fi
}
# field FILE LINE COL: a TSV file's field.
field() {
	sed -n "${2}p" "$1" | cut -f"$3"
}

window() {
	d=$LAB_DIR/w
	rm -rf "$d"
	mkdir "$d"
	lab_readers cap 4 $((W + 8))
	sleep 2
	jobs=$(paste -sd, "$LAB_CG/cgroup.procs")
	xcols=device,r/s,rkB/s,r_await,aqu-sz,%util
	wcols=pid,command,kB_rd/s,syscr/s
	dcapture -w "$d/cap" $W 2>"$d/cap.err" &
	c1=$!
	dxstat -y -o tsv -H -O $xcols "$LAB_DEV" $W 1 >"$d/xs.live" 2>&1 &
	c2=$!
	dwho -p "$jobs" -o tsv -H -O $wcols $W 1 >"$d/who.live" 2>/dev/null &
	c3=$!
	dpsi -r io -o tsv -H -O kind,stall% $W 1 >"$d/psi.live" 2>&1 &
	c4=$!
	dpsi -r io -c "$LAB_CGNAME" -o tsv -H -O kind,stall% $W 1 \
	    >"$d/cpsi.live" 2>&1 &
	c5=$!
	dlat -o json "$LAB_DEV" $W 1 >"$d/lat.live" 2>"$d/lat.err" &
	c6=$!
	(dtriage -o tsv -H $W >"$d/tri.live" 2>"$d/tri.err"; echo $? >"$d/tri.st") &
	c7=$!
	wait $c1
	st1=$?
	dqueue -o tsv -H "$LAB_DEV" >"$d/q.live" 2>&1
	ddeleted -o tsv -H | awk -F'\t' -v p="$hold" '$1 == p' >"$d/dd.live"
	wait $c2 $c3 $c4 $c5 $c6 $c7
	# The load stops; the capture is read after it.
	lab_kill
	lab_check_cmd "dcapture -w cap $W: exit 0 ($st1: $(cat "$d/cap.err"))" test "$st1" = 0
	cd "$d" || return

	dxstat -R cap -o tsv -H -O $xcols "$LAB_DEV" >xs.cap 2>&1
	lab_check_cmd "dxstat: one row live and from the capture" \
	    test "$(wc -l <xs.live)" = 1 -a "$(wc -l <xs.cap)" = 1
	for i in 2 3 4 5 6; do
		near "dxstat $(echo $xcols | cut -d, -f$i)" \
		    "$(field xs.live 1 $i)" "$(field xs.cap 1 $i)" 2
	done

	dwho -R cap -p "$jobs" -o tsv -H -O $wcols >who.cap 2>/dev/null
	lab_check_cmd "dwho: the same processes named ($(cut -f1,2 who.live | tr '\t\n' ' '))" \
	    test -n "$(cut -f1,2 who.live)" -a "$(cut -f1,2 who.live | sort)" = "$(cut -f1,2 who.cap | sort)"
	sort who.live >who.live.s
	sort who.cap >who.cap.s
	n=$(wc -l <who.live.s)
	lab_check "dwho: the 4 readers (and fio, when it read)" "$n" 4 5
	# The readers' rates; fio's parent, which reads nothing, makes a
	# few system calls a second, fewer than 2% can resolve over 5 s.
	i=1
	while [ $i -le "$n" ]; do
		if [ "$(field who.live.s $i 3)" != 0.00 ]; then
			near "dwho $(field who.live.s $i 2) $(field who.live.s $i 1) kB_rd/s" \
			    "$(field who.live.s $i 3)" "$(field who.cap.s $i 3)" 2
			near "dwho $(field who.live.s $i 2) $(field who.live.s $i 1) syscr/s" \
			    "$(field who.live.s $i 4)" "$(field who.cap.s $i 4)" 2
		fi
		i=$((i + 1))
	done

	dpsi -R cap -r io -o tsv -H -O kind,stall% >psi.cap 2>&1
	dpsi -R cap -r io -c "$LAB_CGNAME" -o tsv -H -O kind,stall% >cpsi.cap 2>&1
	for k in 1 2; do
		points "dpsi io $(field psi.live $k 1) stall%" \
		    "$(field psi.live $k 2)" "$(field psi.cap $k 2)" 2
		points "dpsi -c the load's cgroup io $(field cpsi.live $k 1) stall%" \
		    "$(field cpsi.live $k 2)" "$(field cpsi.cap $k 2)" 2
	done

	dlat -R cap -o json "$LAB_DEV" >lat.cap 2>lat.caperr
	lab_check_cmd "dlat -R cap: exit 0, nothing said ($(cat lat.caperr))" \
	    test -s lat.cap -a ! -s lat.caperr
	for ph in d2c q2c; do
		q='select(.op == "read" and .phase == "'$ph'") | [.count, .p50_us, .p99_us] | @tsv'
		jq -r "$q" lat.live >lat.live.$ph
		jq -r "$q" lat.cap >lat.cap.$ph
		near "dlat read $ph count" "$(field lat.live.$ph 1 1)" "$(field lat.cap.$ph 1 1)" 2
		near "dlat read $ph p50_us" "$(field lat.live.$ph 1 2)" "$(field lat.cap.$ph 1 2)" 2
		near "dlat read $ph p99_us" "$(field lat.live.$ph 1 3)" "$(field lat.cap.$ph 1 3)" 12.5
	done

	dtriage -R cap -o tsv -H >tri.cap 2>tri.caperr
	echo $? >tri.capst
	echo "# dtriage live (exit $(cat tri.st)): $(cut -f1-3 tri.live | tr '\t\n' ' ')"
	lab_check_cmd "dtriage: the same exit status (live $(cat tri.st), capture $(cat tri.capst))" \
	    test "$(cat tri.st)" = "$(cat tri.capst)"
	awk -F'\t' '$2 == "verdict"' tri.live | cut -f1-3 >tri.live.v
	awk -F'\t' '$2 == "verdict"' tri.cap | cut -f1-3 >tri.cap.v
	lab_check_cmd "dtriage: a verdict ($(tr '\t' ' ' <tri.live.v))" test -s tri.live.v
	same "dtriage: the same verdict (severity, finding, subject)" tri.live.v tri.cap.v
	# The finding not compared (see the top): said, not
	# compared.  "load PID COMM", the load of each disk that did much
	# I/O: of the lab disk, one of 4 equal readers (which one, a tie);
	# of the others, the machine's other work, and live, dcapture
	# writing its archive (after its window): only the load's readers
	# are compared.
	keys() {
		awk -F'\t' -v j=",$jobs," '
		    $2 == "page-cache" { next }
		    $2 == "load" { split($3, w, " ")
			if (index(j, "," w[1] ",") == 0) next
			$3 = "(a reader of the load)" }
		    { print $2 "\t" $3 }' "$1" | sort -u
	}
	keys tri.live >tri.live.k
	keys tri.cap >tri.cap.k
	same "dtriage: the same findings (finding, subject)" tri.live.k tri.cap.k
	awk -F'\t' '$2 == "page-cache" {
	    print "# dtriage live (not compared): " $2 " " $3 }' tri.live

	dqueue -R cap -o tsv -H "$LAB_DEV" >q.cap 2>&1
	same "dqueue: $LAB_DEV's settings as live at the window's end" q.live q.cap
	ddeleted -R cap -o tsv -H | awk -F'\t' -v p="$hold" '$1 == p' >dd.cap
	lab_check_cmd "ddeleted: the held file, live ($(cut -f5,12 dd.live | tr '\t' ' '))" \
	    awk -F'\t' '$5 == 1048576 && $12 ~ /\/held$/ { f = 1 } END { exit !f }' dd.live
	same "ddeleted: the held file as live at the window's end" dd.live dd.cap
	cd "$TRASH" || return
}

lab_try window
exec 8>&-
