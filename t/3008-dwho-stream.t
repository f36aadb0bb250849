#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# dwho makes its rows as each process is read (all but -g).  In pid
# order they are written at once; -s pid keeps them and sorts them
# instead: both give exactly the same rows, on a hand-made tree, on a
# copy of this machine's /proc, live, and across an interval (exact
# figures); -n keeps a heap: the first rows of the full sort.  PID/stat and PID/io
# take one read each on procfs; a stat file larger than the first read
# buffer is read on to its end; FIFOs still give a row without bytes.
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"

# The time column out: TSV's first field, JSON's first member, the
# table's first column (HH:MM:SS: two runs may straddle a second).
untime() {
	cut -f2- | sed -e 's/^{"time":[0-9.]*,/{/' -e 's/^ *[0-9][0-9:.]*  //'
}

# same NAME ARGS...: written-at-once and kept-and-sorted rows are equal
# (the time column and JSON's "time" member aside).
same() {
	_n=$1
	shift
	dwho "$@" 2>"$TRASH/err.s" | untime >"$TRASH/s"
	dwho -s pid "$@" 2>"$TRASH/err.p" | untime >"$TRASH/p"
	if cmp -s "$TRASH/s" "$TRASH/p" && cmp -s "$TRASH/err.s" "$TRASH/err.p" &&
	    [ -s "$TRASH/s" ]; then
		pass "$_n: written at once = sorted ($(wc -l <"$TRASH/s") lines)"
	else
		fail "$_n: written at once = sorted"
		diff "$TRASH/p" "$TRASH/s" | head -5 | sed 's/^/# /'
		diff "$TRASH/err.p" "$TRASH/err.s" | head -3 | sed 's/^/# /'
	fi
}

# top NAME ARGS...: for -s of each column and -n 1, 3 and 1000, the rows
# of -n (kept in a heap as they are read) are the first of the full sort.
top() {
	_n=$1
	shift
	_bad=
	for _c in pid kB_rd/s kB_wr/s kB_rchar/s kB_wchar/s syscr/s syscw/s hit% %iodelay; do
		dwho "$@" -a -H -o tsv -s $_c 2>/dev/null | untime >"$TRASH/all"
		for _k in 1 3 1000; do
			head -n $_k "$TRASH/all" >"$TRASH/p"
			dwho "$@" -a -H -o tsv -s $_c -n $_k 2>/dev/null | untime >"$TRASH/s"
			cmp -s "$TRASH/s" "$TRASH/p" || _bad="$_bad $_c/-n$_k"
		done
	done
	is "$_bad" "" "$_n: -n rows are the first of the full sort"
}

# ---- a hand-made tree --------------------------------------------------
R=$TRASH/t
P=$R/proc
mkdir -p "$P/sys/kernel" "$R/etc"
echo "tester:x:$(id -u):0::/:/bin/sh" >"$R/etc/passwd"
echo "1000.00 1500.00" >"$P/uptime"
echo 1 >"$P/sys/kernel/task_delayacct"
mkproc "$P" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$P" 200 idle 50000 0 0 0 0 0 0 0 0
# stat of exactly 8191 bytes: the first read fills the 8 KiB buffer
# (less its NUL), so the one that returns 0 must follow.
mkproc "$P" 300 x 50000 0 512000 0 0 1024000 0 100 0
n=$(wc -c <"$P/300/stat")
mkproc "$P" 300 "$(head -c $((8191 - n + 1)) /dev/zero | tr '\0' x)" 50000 0 512000 0 0 1024000 0 100 0
is "$(wc -c <"$P/300/stat")" 8191 "pid 300: stat of 8191 bytes"
# stat of 20,000 bytes: three reads, the buffer grown twice.
mkproc "$P" 301 y 50000 0 1024000 0 0 1024000 0 100 0
n=$(wc -c <"$P/301/stat")
mkproc "$P" 301 "$(head -c $((20000 - n + 1)) /dev/zero | tr '\0' y)" 50000 0 1024000 0 0 1024000 0 100 0
is "$(wc -c <"$P/301/stat")" 20000 "pid 301: stat of 20000 bytes"
mkproc "$P" 400 fifoio 50000 100 0 0 0 0 0 0 0
rm "$P/400/io"
mkfifo "$P/400/io"
mkproc "$P" 500 fifostat 50000 0 0 0 0 0 0 0 0
rm "$P/500/stat"
mkfifo "$P/500/stat"
name=$(printf 'tab\there\nnl) (x')
mkproc "$P" 600 "$name" 90000 0 0 102400 0 0 0 0 0

x63=$(head -c 63 /dev/zero | tr '\0' x)
y63=$(head -c 63 /dev/zero | tr '\0' y)
timeout 20 dwho -R "$R" -a -H -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "tree: exit 0"
cut -f2-13 "$TRASH/out" >"$TRASH/got"
printf '%s\n' \
    '100	tester	dd	10.00	2.00	0.00	20.00	2.00	2.00	1.00	50.00	0.50' \
    '200	tester	idle	0.00	0.00	0.00	0.00	0.00	0.00	0.00	-	0.00' \
    "300	tester	$x63	1.00	0.00	0.00	2.00	0.00	0.20	0.00	50.00	0.00" \
    "301	tester	$y63	2.00	0.00	0.00	2.00	0.00	0.20	0.00	0.00	0.00" \
    '400	tester	fifoio	-	-	-	-	-	-	-	-	0.20' \
    '600	tester	tab\there\nnl) (x	0.00	1.00	0.00	0.00	0.00	0.00	0.00	-	0.00' \
    >"$TRASH/want"
ok "tree: rows in pid order, exact; long stat files read whole; FIFO io a row of -" \
    test_cmp "$TRASH/want" "$TRASH/got"
is "$(cat "$TRASH/err")" "dwho: 2 malformed proc/PID/stat or io files (first: pid 400): shown as - or skipped" \
    "tree: the FIFOs noted once, after the rows"

for f in tsv json prom table; do
	same "tree -a -o $f" -R "$R" -a -o $f
done
same "tree (active only)" -R "$R" -o tsv
same "tree -l" -R "$R" -a -l -o tsv
same "tree -u" -R "$R" -a -u tester -o tsv
same "tree -c" -R "$R" -a -c '^[dx]' -o tsv
same "tree -p" -R "$R" -a -p 600,100,301 -o json
top "tree" -R "$R"
dwho -R "$R" -a -o tsv -w "$TRASH/w.tsv" 2>/dev/null
dwho -R "$R" -a -o tsv 2>/dev/null >"$TRASH/stdout.tsv"
ok "tree -w: the file holds the rows stdout gets" \
    test_cmp "$(cut -f2- "$TRASH/stdout.tsv" >"$TRASH/a"; echo "$TRASH/a")" \
    "$(cut -f2- "$TRASH/w.tsv" >"$TRASH/b"; echo "$TRASH/b")"
ok "tree: TSV field counts" fields_ok "$TRASH/out"
dwho -R "$R" -a -o json 2>/dev/null >"$TRASH/json"
ok "tree: JSON valid" json_ok "$TRASH/json"

# ---- read calls: one per stat and io on procfs, on to the end in a tree ----
if command -v strace >/dev/null 2>&1; then
	sleep 60 &
	sl=$!
	at_exit "kill $sl 2>/dev/null"
	strace -o "$TRASH/st" -y -e trace=read dwho -a -p "$sl,$$" -o tsv >/dev/null 2>&1
	is "$(grep -c "^read([0-9]*</proc/$sl/stat>" "$TRASH/st")" 1 "live: one read of PID/stat"
	is "$(grep -c "^read([0-9]*</proc/$sl/io>" "$TRASH/st")" 1 "live: one read of PID/io"
	is "$(grep -c "^read([0-9]*</proc/$$/stat>" "$TRASH/st")" 1 "live: one read of the shell's stat"
	strace -o "$TRASH/st" -y -e trace=read dwho -R "$R" -a -p 100,300,301 -o tsv >/dev/null 2>&1
	is "$(grep -c "/proc/100/stat>" "$TRASH/st")" 1 "tree: one read of a short stat"
	is "$(grep -c "/proc/300/stat>" "$TRASH/st")" 2 "tree: a full first read is read on to the 0"
	ok "tree: 20000-byte stat read on to its end" \
	    test "$(grep -c "/proc/301/stat>" "$TRASH/st")" -ge 3
	ok "tree: the last read of it returns 0" \
	    sh -c "grep '/proc/301/stat>' '$TRASH/st' | tail -1 | grep -q '= 0\$'"
	kill $sl 2>/dev/null
else
	skip "strace not installed" 8
fi

# ---- a copy of this machine's /proc ----------------------------------------
C=$TRASH/c
mkdir -p "$C/proc/sys/kernel" "$C/etc"
cp /etc/passwd "$C/etc/passwd"
cat /proc/uptime >"$C/proc/uptime"
cat /proc/sys/kernel/task_delayacct >"$C/proc/sys/kernel/task_delayacct" 2>/dev/null
for d in /proc/[0-9]*; do
	p=${d#/proc/}
	mkdir -p "$C/proc/$p"
	for f in stat io cmdline; do
		cat "$d/$f" >"$C/proc/$p/$f" 2>/dev/null
	done
	[ -s "$C/proc/$p/stat" ] || rm -rf "$C/proc/$p"
done
ok "copy: many processes" test "$(ls "$C/proc" | wc -l)" -gt 10
for f in tsv json prom; do
	same "copy -a -o $f" -R "$C" -a -o $f
done
same "copy (active only)" -R "$C" -o tsv
same "copy -l" -R "$C" -a -l -o tsv
top "copy" -R "$C"
dwho -R "$C" -a -H -o tsv 2>/dev/null | cut -f2 >"$TRASH/pids"
sort -n "$TRASH/pids" >"$TRASH/sorted"
ok "copy: pids ascending" test_cmp "$TRASH/sorted" "$TRASH/pids"

# ---- live: idle processes, whose counters hold still ----------------------
kids=
for i in 1 2 3 4 5 6 7 8; do
	sleep 60 &
	kids="$kids${kids:+,}$!"
done
at_exit "kill $(echo "$kids" | tr ',' ' ') 2>/dev/null"
same "live -o prom (counters)" -a -o prom -p "$kids"
dwho -a -H -o tsv -p "$kids" 2>/dev/null | cut -f2,4 | tr '\t\n' ': ' >"$TRASH/live"
is "$(cat "$TRASH/live")" "$(echo "$kids" | tr ',' '\n' | sed 's/$/:sleep/' | tr '\n' ' ')" \
    "live -p: every sleeper, in pid order"
dwho -a -H -o tsv 2>/dev/null | cut -f2 >"$TRASH/pids"
sort -n "$TRASH/pids" >"$TRASH/sorted"
ok "live: all processes, pids ascending" test_cmp "$TRASH/sorted" "$TRASH/pids"
for k in $(echo "$kids" | tr ',' ' '); do
	grep -qx "$k" "$TRASH/pids" || fail "live: sleeper $k missing"
done
kill $(echo "$kids" | tr ',' ' ') 2>/dev/null

# ---- an interval: the tree changes between the two samples ----------------
# proc is a symlink turned from A to B (rename: atomic) between samples
# taken 3 s apart; uptime says 10 s passed.
I=$TRASH/i
mkdir -p "$I/etc" "$I/A/sys/kernel" "$I/B/sys/kernel"
echo "tester:x:$(id -u):0::/:/bin/sh" >"$I/etc/passwd"
echo "1000.00 1500.00" >"$I/A/uptime"
echo "1010.00 1510.00" >"$I/B/uptime"
echo 1 >"$I/A/sys/kernel/task_delayacct"
echo 1 >"$I/B/sys/kernel/task_delayacct"
mkproc "$I/A" 100 steady 50000 0 1024000 0 0 2048000 0 100 0
mkproc "$I/B" 100 steady 50000 100 1126400 20480 0 2252800 0 200 50
mkproc "$I/A" 200 gone 50000 0 0 0 0 0 0 0 0
# 300: the pid reused by a process started 5 s before the second sample
mkproc "$I/A" 300 old 60000 0 4096 4096 0 8192 0 1 1
mkproc "$I/B" 300 new 100500 0 51200 0 0 51200 0 10 0
# 400: not in A, 510 s old: rates since it started
mkproc "$I/B" 400 oldnew 50000 0 1044480 0 0 1044480 0 510 0
# 500: new in the interval: rates over the interval
mkproc "$I/B" 500 young 100800 0 10240 0 0 20480 0 10 0
# 600: io damaged in A: its byte figures unknown in B
mkproc "$I/A" 600 garbled 50000 0 0 0 0 0 0 0 0
echo garbage >"$I/A/600/io"
echo garbage >"$I/A/600/task/600/io"
mkproc "$I/B" 600 garbled 50000 50 1024 0 0 1024 0 1 0
# 700: a hostile name, writing 1 kB/s
mkproc "$I/A" 700 "$name" 50000 0 0 0 0 0 0 0 0
mkproc "$I/B" 700 "$name" 50000 0 0 10240 0 0 0 0 0
# 800-804: idle, names and command lines equal to the one before or
# not: two kernel threads (no command line), one with one, a process of
# another name with the same command line, another with its own
for d in A B; do
	for pid in 800 801 802; do
		mkproc "$I/$d" $pid kw 50000 0 0 0 0 0 0 0 0
	done
	: >"$I/$d/800/cmdline"
	: >"$I/$d/801/cmdline"
	mkproc "$I/$d" 803 kw2 50000 0 0 0 0 0 0 0 0
	cp "$I/$d/802/cmdline" "$I/$d/803/cmdline"
	mkproc "$I/$d" 804 kw2 50000 0 0 0 0 0 0 0 0
done
ln -s A "$I/proc"
for v in stream stored sprom pprom topn threads cmdline scmdline json sjson sel; do
	case $v in
	stream)	set -- -o tsv ;;
	cmdline) set -- -o tsv -l ;;
	scmdline) set -- -o tsv -l -s pid ;;
	json)	set -- -o json ;;
	sjson)	set -- -o json -s pid ;;
	sel)	set -- -o tsv -c '^(steady|young|tab)' ;;
	threads) set -- -o tsv -t ;;
	topn)	set -- -o tsv -n 2 ;;
	stored)	set -- -o tsv -s pid ;;
	sprom)	set -- -o prom ;;
	pprom)	set -- -o prom -s pid ;;
	esac
	timeout 30 dwho -R "$I" -a "$@" 3 1 >"$TRASH/$v" 2>"$TRASH/$v.err" &
	eval "pid_$v=\$!"
done
sleep 1.5
ln -s B "$I/proc.new"
mv -T "$I/proc.new" "$I/proc"
wait $pid_stream $pid_stored $pid_sprom $pid_pprom $pid_topn $pid_threads \
    $pid_cmdline $pid_scmdline $pid_json $pid_sjson $pid_sel
cut -f2-13 "$TRASH/stream" >"$TRASH/got"
cut -f2-13 "$TRASH/stored" >"$TRASH/got.stored"
printf '%s\n' \
    'pid	user	command	kB_rd/s	kB_wr/s	kB_ccwr/s	kB_rchar/s	kB_wchar/s	syscr/s	syscw/s	hit%	%iodelay' \
    '100	tester	steady	10.00	2.00	0.00	20.00	0.00	10.00	5.00	50.00	10.00' \
    '300	tester	new	5.00	0.00	0.00	5.00	0.00	1.00	0.00	0.00	0.00' \
    '400	tester	oldnew	2.00	0.00	0.00	2.00	0.00	1.00	0.00	0.00	0.00' \
    '500	tester	young	1.00	0.00	0.00	2.00	0.00	1.00	0.00	50.00	0.00' \
    '600	tester	garbled	-	-	-	-	-	-	-	-	5.00' \
    '700	tester	tab\there\nnl) (x	0.00	1.00	0.00	0.00	0.00	0.00	0.00	-	0.00' >"$TRASH/want"
for pid in 800 801 802 803 804; do
	c=kw
	[ $pid -lt 803 ] || c=kw2
	printf '%s\ttester\t%s\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t-\t0.00\n' $pid $c
done >>"$TRASH/want"
ok "interval: streamed rates exact (steady, reused pid, old and young newcomers, damaged baseline, hostile name, repeated names)" \
    test_cmp "$TRASH/want" "$TRASH/got"
sed -e '2,$s/^\([0-9]*\)\t\([^\t]*\)\t\([^\t]*\)\t/\1\t\2\t\3 --flag\t/' \
    -e 's/^\(80[01]\ttester\t\)kw --flag/\1[kw]/' \
    -e 's/^\(803\ttester\t\)kw2 --flag/\1kw --flag/' \
    "$TRASH/want" >"$TRASH/want.l"
is "$(cut -f1,3 "$TRASH/want.l" | tail -5 | tr '\t\n' ':,')" \
    "800:[kw],801:[kw],802:kw --flag,803:kw --flag,804:kw2 --flag," \
    "interval -l: the command lines wanted"
cut -f2-13 "$TRASH/cmdline" >"$TRASH/got"
ok "interval -l: the command lines of the second sample" test_cmp "$TRASH/want.l" "$TRASH/got"
cut -f2-13 "$TRASH/scmdline" >"$TRASH/got"
ok "interval -l -s pid: the same" test_cmp "$TRASH/want.l" "$TRASH/got"
sed -n -e 1p -e '/steady\|young\|tab/p' "$TRASH/want" >"$TRASH/want.c"
cut -f2-13 "$TRASH/sel" >"$TRASH/got"
ok "interval -c: the rows selected" test_cmp "$TRASH/want.c" "$TRASH/got"
ok "interval -o json: valid" json_ok "$TRASH/json"
sed 's/^{"time":[0-9.]*,/{/' "$TRASH/json" >"$TRASH/got"
sed 's/^{"time":[0-9.]*,/{/' "$TRASH/sjson" >"$TRASH/got.s"
ok "interval -o json: the same as -s pid's" test_cmp "$TRASH/got.s" "$TRASH/got"
is "$(grep -c '"pid":' "$TRASH/json")" 11 "interval -o json: eleven rows"
ok "interval -o json: the hostile name escaped" \
    grep -qF '"command":"tab\there\nnl) (x"' "$TRASH/json"
ok "interval: sorted (-s pid) the same" test_cmp "$TRASH/want" "$TRASH/got.stored"
cut -f2,4-14 "$TRASH/threads" >"$TRASH/got"
ok "interval -t: the same per thread" test_cmp "$TRASH/want" "$TRASH/got"
is "$(cut -f2,3 "$TRASH/threads" | tr '\t\n' ': ')" "pid:tid 100:100 300:300 400:400 500:500 600:600 700:700 800:800 801:801 802:802 803:803 804:804 " \
    "interval -t: tid column"
ok "interval: prom the same on both paths" test_cmp "$TRASH/pprom" "$TRASH/sprom"
ok "interval prom: counters of the second sample" \
    grep -qxE 'dwho_read_bytes_total{pid="100",user="tester",command="steady",start="[0-9]*"} 1126400' "$TRASH/sprom"
is "$(cat "$TRASH/stream.err")" "dwho: 1 malformed proc/PID/stat or io file (first: pid 600): shown as - or skipped" \
    "interval: the damage of the first sample noted"
printf '%s\n' \
    'pid	user	command	kB_rd/s	kB_wr/s	kB_ccwr/s	kB_rchar/s	kB_wchar/s	syscr/s	syscw/s	hit%	%iodelay' \
    '100	tester	steady	10.00	2.00	0.00	20.00	0.00	10.00	5.00	50.00	10.00' \
    '300	tester	new	5.00	0.00	0.00	5.00	0.00	1.00	0.00	0.00	0.00' >"$TRASH/want"
cut -f2-13 "$TRASH/topn" >"$TRASH/got"
ok "interval -n 2: the two heaviest block-layer users" test_cmp "$TRASH/want" "$TRASH/got"

# ---- an interval's rows are written after its scan ------------------------
# A report of an interval is measured from proc/uptime read as its scan
# begins; rows written during the scan would let a slow reader delay
# the reading of the io files after them, and put I/O from beyond the
# interval into their rates.  So no write(1) may fall between the first
# and the last openat of PID/io in the second and third scans of
# "dwho 0.2 2".  A report alone writes its rows as it reads (its rates
# run since each process started): there the rows of 150 sleepers, more
# than stdio's buffer of 4 KiB, come out during the scan.
if command -v strace >/dev/null 2>&1; then
	kids=
	for i in $(seq 150); do
		sleep 120 &
		kids="$kids${kids:+,}$!"
	done
	at_exit "kill $(echo "$kids" | tr ',' ' ') 2>/dev/null"
	# writes_in K: for each scan after the first, of K processes each,
	# the write(1)s between its first and last PID/io openat.
	writes_in() {
		awk -v k="$1" '
		/^openat\(.*"proc\/[0-9]+\/io"/ {
			s = int(c / k) + 1
			c++
			if (!(s in first))
				first[s] = NR
			last[s] = NR
		}
		/^write\(1,/ { w[NR] = 1 }
		END {
			for (s = 1; s <= int((c - 1) / k) + 1; s++) {
				n = 0
				for (i in w)
					if (i + 0 > first[s] && i + 0 < last[s])
						n++
				printf "%d:%d ", s, n
			}
		}' "$TRASH/st"
	}
	strace -o "$TRASH/st" -e trace=openat,write \
	    dwho -a -l -p "$kids" 0.2 2 2>/dev/null | cat >"$TRASH/out"
	is "$(writes_in 150)" "1:0 2:0 3:0 " \
	    "interval: no row written during a scan"
	is "$(grep -c 'sleep 120' "$TRASH/out")" 300 "interval: both reports of every sleeper"
	ok "interval: several writes after the scans" \
	    test "$(grep -c '^write(1,' "$TRASH/st")" -ge 4
	strace -o "$TRASH/st" -e trace=openat,write \
	    dwho -a -l -p "$kids" 2>/dev/null | cat >"$TRASH/out"
	is "$(grep -c 'sleep 120' "$TRASH/out")" 150 "alone: a row per sleeper"
	# Also the proof that the check above can see a write in a scan.
	alone=$(writes_in 150)
	ok "alone: rows written during the scan ($alone)" \
	    test "${alone#1:}" != "0 " -a "${alone#1:}" != "$alone"
	kill $(echo "$kids" | tr ',' ' ') 2>/dev/null
else
	skip "strace not installed" 5
fi
