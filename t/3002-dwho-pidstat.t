#!/bin/sh
# dwho against pidstat -d on the same fake /proc over one interval:
# dwho reads it with -R, pidstat with the tree bind-mounted over /proc
# in a private mount namespace (pidstat 12.6 reads /proc/uptime,
# /proc/stat and each PID's stat, status, io and schedstat).  The tree
# is a directory of absolute symlinks into "cur", itself a symlink to
# sample A, switched to sample B by one rename between the two samples:
# both tools see the same two snapshots and the same uptime interval.
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"

R=$TRASH/p
# The samples live inside the tree: dwho -R follows no link out of it.
A=$R/s/A
B=$R/s/B
mkdir -p "$A" "$B" "$R"
for s in A B; do
	mkdir -p "$R/s/$s/sys/kernel"
	echo 1 >"$R/s/$s/sys/kernel/task_delayacct"
	printf 'cpu  100 0 100 1000 0 0 0 0 0 0\ncpu0 100 0 100 1000 0 0 0 0 0 0\n' >"$R/s/$s/stat"
done
echo "1000.00 1500.00" >"$A/uptime"
echo "1003.00 1500.00" >"$B/uptime"
mkproc "$A" 100 dd 50000 250 5120000 1024000 0 10240000 1024000 1000 500
mkproc "$B" 100 dd 50000 310 6120001 1524000 4096 10250000 1524000 1010 700
mkproc "$A" 200 x 50000 0 0 0 0 0 0 0 0
mkproc "$B" 200 x 50000 0 1234567 0 333 1234567 0 20 0
# 300 is reused by a process that started in the interval
mkproc "$A" 300 old 50000 0 1000000000 0 0 1000000000 0 9 0
mkproc "$B" 300 new 100050 0 3072 0 0 3072 0 1 0
# 600 was there all along but only now matches the selection (as
# after a setuid): rates since it started, 10 s ago
mkproc "$B" 600 late 99300 0 10240 0 0 10240 0 10 0
# 400 exits, 500 is new
mkproc "$A" 400 gone 50000 0 1000 0 0 0 0 0 0
mkproc "$B" 500 born 100100 5 6144 0 0 6144 0 2 0
mkdir "$R/proc"
# proc/E -> $TRASH/cur/E: for pidstat (the tree mounted over /proc) the
# real $TRASH/cur -> $R/s/cur; for dwho, inside the tree, $R$TRASH/cur
# -> /s/cur.  One link, $R/s/cur, says which sample both see.
ln -s A "$R/s/cur"
ln -s "$R/s/cur" "$TRASH/cur"
mkdir -p "$R$TRASH"
ln -s /s/cur "$R$TRASH/cur"
for e in $( (ls "$A"; ls "$B") | sort -u); do
	ln -s "$TRASH/cur/$e" "$R/proc/$e"
done

# swap: one rename switches every file from sample A to B
swap() {
	ln -s B "$R/s/cur.new" && mv -T "$R/s/cur.new" "$R/s/cur"
}

havepidstat=
if [ "$(id -u)" -eq 0 ] && command -v pidstat >/dev/null 2>&1 &&
    command -v unshare >/dev/null 2>&1; then
	havepidstat=1
	unshare -m sh -c "mount --make-rprivate / && mount --bind '$R/proc' /proc && exec env LC_ALL=C pidstat -d 2 1" \
	    >"$TRASH/pidstat" 2>&1 &
	pspid=$!
fi
dwho -R "$R" -o tsv 2 1 >"$TRASH/dwho" 2>"$TRASH/err" &
dwpid=$!
sleep 1
swap
wait $dwpid
is "$?" 0 "dwho exit 0"
is "$(cat "$TRASH/err")" "" "dwho: no message"
cut -f2-13 "$TRASH/dwho" >"$TRASH/got"
printf '%s\n' \
    'pid	user	command	kB_rd/s	kB_wr/s	kB_ccwr/s	kB_rchar/s	kB_wchar/s	syscr/s	syscw/s	hit%	%iodelay' \
    '100	root	dd	325.52	162.76	1.33	3.26	162.76	3.33	66.67	0.00	20.00' \
    '200	root	x	401.88	0.00	0.11	401.88	0.00	6.67	0.00	0.00	0.00' \
    '300	root	new	1.00	0.00	0.00	1.00	0.00	0.33	0.00	0.00	0.00' \
    '500	root	born	2.00	0.00	0.00	2.00	0.00	0.67	0.00	0.00	1.67' \
    '600	root	late	1.00	0.00	0.00	1.00	0.00	1.00	0.00	0.00	0.00' >"$TRASH/want"
# no etc/passwd in the tree: the owner's uid as a number
sed "s/	root	/	$(id -u)	/" "$TRASH/want" >"$TRASH/w" && mv "$TRASH/w" "$TRASH/want"
ok "interval rates exact; reused pid and new process from their own counters" \
    test_cmp "$TRASH/want" "$TRASH/got"

[ -n "$havepidstat" ] ||
    skip_all "pidstat -d agrees: needs root, pidstat and unshare"
wait $pspid
sed 's/^/# pidstat: /' "$TRASH/pidstat"
# pidstat: time UID PID kB_rd/s kB_wr/s kB_ccwr/s iodelay Command
awk '$1 != "Average:" && ($3 == 100 || $3 == 200) { print $3, $4, $5, $6 }' "$TRASH/pidstat" |
    sort -u >"$TRASH/ps"
awk -F'\t' '$2 == 100 || $2 == 200 { print $2, $5, $6, $7 }' "$TRASH/dwho" >"$TRASH/dw"
is "$(wc -l <"$TRASH/ps")" 2 "pidstat reported both processes"
ok "kB_rd/s kB_wr/s kB_ccwr/s equal to pidstat -d's" test_cmp "$TRASH/ps" "$TRASH/dw"
# pidstat takes the reused pid's counters against the old process's:
# a huge rate where dwho shows the new process's 1.00 kB/s.
ok "pidstat misreads the reused pid (dwho does not)" \
    awk '$1 != "Average:" && $3 == 300 && $4 > 1e9 { f = 1 } END { exit !f }' "$TRASH/pidstat"
