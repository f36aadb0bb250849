#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# Issue 15, 1 and 2, as an attacker: a tree given by -R whose files,
# directories and top-level entries are symlinks out of it (absolute,
# and "../.." climbing above the root) into a victim tree.  Every tool
# that reads is run on each, and both write actions; nothing outside
# the root may be read (the victim's marker never shows, no descriptor
# of ours ever names a victim file: strace -y) or written (the victim's
# content and mtime unchanged).
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"

R=$TRASH/r
V=$TRASH/v

# The same small tree for every tool; victim values carry the marker 4242.
tree() {
	_d=$1 _n=$2 _dev=$3
	rm -rf "$_d"
	mkdir -p "$_d/proc/pressure" "$_d/proc/self" "$_d/sys/block/$_dev/queue" \
	    "$_d/sys/fs/cgroup/box"
	printf '   8       0 %s %s 0 800 50 200 0 1600 80 0 120 130\n' "$_dev" "$_n" \
	    >"$_d/proc/diskstats"
	echo "1000.00 2000.00" >"$_d/proc/uptime"
	for r in io cpu memory; do
		printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%s\n' \
		    "$_n" "$_n" >"$_d/proc/pressure/$r"
		cp "$_d/proc/pressure/$r" "$_d/sys/fs/cgroup/box/$r.pressure"
	done
	printf '25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n' \
	    >"$_d/proc/self/mountinfo"
	echo "[none] mq-deadline" >"$_d/sys/block/$_dev/queue/scheduler"
	for a in read_ahead_kb nr_requests max_sectors_kb nomerges; do
		echo "$_n" >"$_d/sys/block/$_dev/queue/$a"
	done
	# dtriage's own inputs, and a -b history of two snapshots.
	mkdir -p "$_d/proc/sys/kernel" "$_d/var/lib/diskstat"
	echo 1 >"$_d/proc/sys/kernel/task_delayacct"
	printf 'cpu  %s 0 1000 160000 38000 0 0 0 0 0\nprocs_running 1\nprocs_blocked %s\n' \
	    "$_n" "$_n" >"$_d/proc/stat"
	for _i in 0 1; do
		printf 'uptime %d.00\ntime %d.000\n   8       0 %s %d 0 %d %d 0 0 0 0 1 %d %d 0 0 0 0 0 0\n' \
		    $((100 + _i * 10)) $((1764400100 + _i * 10)) "$_dev" \
		    $((_i * _n * 10)) $((_i * _n * 80)) $((_i * _n * 10)) \
		    $((_i * 1000)) $((_i * 1000)) >"$_d/var/lib/diskstat/$_i.snap"
	done
	mkproc "$_d/proc" 77 "comm$_n" 100 0 "$_n" "$_n" 0 "$_n" "$_n" 1 1
}

# escape TOOL-ARGS... : with $R/$P replaced by a symlink to $V/$P (the
# kinds: abs, rel), run the tool; its output and its descriptors must
# not come from the victim.  P, KIND set by the caller.
link_out() {
	rm -rf "${R:?}/$P"
	if [ "$KIND" = abs ]; then
		ln -s "$V/$P" "$R/$P"
	else
		# From $R/$P's directory up past the root to $TRASH, then v/P.
		_up=$(dirname "$P" | awk -F/ '{ n = ($0 == ".") ? 0 : NF; s = "../"; for (i = 0; i < n; i++) s = s "../"; print s }')
		ln -s "${_up}v/$P" "$R/$P"
	fi
}

have_strace=0
command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null && have_strace=1

run_tool() {
	if [ $have_strace = 1 ]; then
		# LeakSanitizer cannot run under ptrace: in a SANITIZE=1 build
		# it would add its fatal error to the tool's messages.
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -y -qq -o "$TRASH/trace" -e trace=open,openat,openat2 "$@" \
		    >"$TRASH/out" 2>"$TRASH/err"
	else
		"$@" >"$TRASH/out" 2>"$TRASH/err"
		: >"$TRASH/trace"
	fi
}

# case NAME P... : for each path, both kinds; the tool line in $TOOL.
# With SAME=1 the output must also be the output with P a link to
# nothing inside the tree (for a tool whose figures do not carry the
# victim's marker as it is).
check_case() {
	_name=$1
	shift
	for P in "$@"; do
		if [ "${SAME:-0}" = 1 ]; then
			tree "$R" 11 sda
			rm -rf "${R:?}/$P"
			ln -s nowhere "$R/$P"
			# shellcheck disable=SC2086
			$TOOL >"$TRASH/dangling" 2>/dev/null
		fi
		for KIND in abs rel; do
			tree "$R" 11 sda
			tree "$V" 4242 sda
			link_out
			# shellcheck disable=SC2086
			run_tool $TOOL
			ok "$_name: $P as a $KIND symlink out: nothing of the victim read" \
			    sh -c '! grep -q 4242 "$1" "$2" && ! grep -q "= [0-9]*<$3" "$4"' \
			    sh "$TRASH/out" "$TRASH/err" "$V" "$TRASH/trace"
			[ "${SAME:-0}" = 1 ] &&
			    ok "$_name: $P as a $KIND symlink out: the output of $P a link to nothing" \
				cmp -s "$TRASH/dangling" "$TRASH/out"
		done
	done
}

# The tree itself is read (the test can fail): sda's row is there.
tree "$R" 11 sda
dxstat -R "$R" -o tsv >"$TRASH/out" 2>&1
ok "dxstat reads the clean tree" grep -q "	sda	0.01	" "$TRASH/out"
dqueue -R "$R" -o tsv sda >"$TRASH/out" 2>&1
ok "dqueue reads the clean tree" grep -q "^sda	" "$TRASH/out"

TOOL="dxstat -R $R -o tsv"
check_case dxstat proc proc/diskstats sys sys/block sys/block/sda
TOOL="dxstat -R $R -o tsv -p sda"
check_case "dxstat sda" sys/block/sda
TOOL="dqueue -R $R -o tsv sda"
check_case dqueue sys/block sys/block/sda sys/block/sda/queue \
    sys/block/sda/queue/read_ahead_kb sys/block/sda/queue/scheduler
TOOL="dqueue -R $R -a -o tsv sda"
check_case "dqueue -a" sys/block/sda/queue sys/block/sda/queue/nr_requests
TOOL="dpsi -R $R -o tsv"
check_case dpsi proc proc/pressure proc/pressure/io
TOOL="dpsi -R $R -C -o tsv"
check_case "dpsi -C" proc/self proc/self/mountinfo sys/fs/cgroup \
    sys/fs/cgroup/box sys/fs/cgroup/box/io.pressure
TOOL="dwho -R $R -o tsv"
check_case dwho proc proc/77 proc/77/stat proc/77/io
TOOL="ddeleted -R $R -o tsv"
check_case ddeleted proc proc/77
TOOL="dwho -R $R -g -o tsv"
check_case "dwho -g" proc/self/mountinfo sys/fs/cgroup sys/fs/cgroup/box
TOOL="dqueue -R $R -o tsv sda"
check_case dqueue sys
# dtriage reads all of the above and more: every level of each of its
# inputs.  Besides the descriptors, its report on a link out must be
# its report on a link to nothing (a victim's figures would differ).
TOOL="dtriage -R $R -o tsv"
dtriage_paths="proc proc/diskstats proc/stat proc/uptime proc/pressure
    proc/pressure/io proc/sys proc/sys/kernel/task_delayacct proc/77
    proc/77/stat proc/77/io sys sys/block sys/block/sda
    sys/block/sda/queue sys/block/sda/queue/scheduler var var/lib/diskstat
    var/lib/diskstat/1.snap"
# shellcheck disable=SC2086
SAME=1
check_case dtriage $dtriage_paths
SAME=0
# dlat traces the running kernel: any tree is refused before it reads.
tree "$R" 11 sda
P=sys KIND=abs
link_out
run_tool dlat -R "$R" -o tsv 1 1
is "$(cat "$TRASH/err")" "dlat: $R: dlat traces the running kernel, not a tree" \
   "dlat -R: refused"
ok "dlat -R, sys a symlink out: nothing of the victim opened" \
    sh -c '! grep -q "= [0-9]*<$1" "$2"' sh "$V" "$TRASH/trace"

# ---- ddeleted: a tree's proc/PID pointing into the real /proc ------------
# A process of ours holds a deleted file; the tree names it through a
# symlink to the live /proc.  Nothing of it may be listed.
exec 7>"$TRASH/held-victim-4242"
echo secret >&7
rm "$TRASH/held-victim-4242"
tree "$R" 11 sda
rm -rf "$R/proc/77"
ln -s "/proc/$$" "$R/proc/77"
ddeleted -R "$R" -o tsv >"$TRASH/out" 2>"$TRASH/err"
ok "ddeleted: proc/PID -> /proc/\$\$ (absolute): the live file is not listed" \
    sh -c '! grep -q held-victim "$1" "$2"' sh "$TRASH/out" "$TRASH/err"
rm "$R/proc/77"
mkdir -p "$R/proc/77/fd"
ln -s "/proc/$$/fd/7" "$R/proc/77/fd/3"
ddeleted -R "$R" -o tsv >"$TRASH/out" 2>"$TRASH/err"
ok "ddeleted: proc/PID/fd/N -> /proc/\$\$/fd/7: the live file is not listed" \
    sh -c '! grep -q held-victim "$1" "$2"' sh "$TRASH/out" "$TRASH/err"

# ---- The write actions --------------------------------------------------
# victim_same FILE: content and mtime as recorded by victim_mark.
victim_mark() { stat -c '%y %s' "$1" >"$1.was"; cp "$1" "$1.copy"; }
victim_same() {
	[ "$(stat -c '%y %s' "$1")" = "$(cat "$1.was")" ] && cmp -s "$1" "$1.copy"
}

# dqueue --set under -R: refused without --allow-tree; with it, every
# level a symlink into the victim tree, whose read_ahead_kb is the victim.
VF=$V/sys/block/sda/queue/read_ahead_kb
for P in sys/block/sda/queue/read_ahead_kb sys/block/sda/queue sys/block/sda \
    sys/block sys; do
	for KIND in abs rel; do
		tree "$R" 11 sda
		tree "$V" 4242 sda
		touch -d '2020-01-01 00:00:00' "$VF"
		victim_mark "$VF"
		link_out
		test_must_fail 1 dqueue -R "$R" --set read_ahead_kb=512 sda >/dev/null 2>&1
		ok "dqueue --set -R, $P a $KIND symlink out: refused (exit 1)" test $? -eq 0
		dqueue -R "$R" --allow-tree --set read_ahead_kb=512 sda >/dev/null 2>&1
		ok "dqueue --set --allow-tree, $P a $KIND symlink out: the victim's content and mtime unchanged" \
		    victim_same "$VF"
	done
done
echo 4096 >"$TRASH/victim-file"
touch -d '2020-01-01 00:00:00' "$TRASH/victim-file"
victim_mark "$TRASH/victim-file"
tree "$R" 11 sda
rm "$R/sys/block/sda/queue/read_ahead_kb"
ln -s "$TRASH/victim-file" "$R/sys/block/sda/queue/read_ahead_kb"
test_must_fail 1 dqueue -R "$R" --set read_ahead_kb=512 sda >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dqueue: --set writes only to the live system, not under $R (--allow-tree to write into the tree, -n to see what would be written)" \
   "dqueue --set -R: refused, and says why"
dqueue -R "$R" --allow-tree --set read_ahead_kb=512 sda >/dev/null 2>&1
ok "dqueue --set --allow-tree, read_ahead_kb -> the victim (absolute): victim unchanged" \
    victim_same "$TRASH/victim-file"
rm "$R/sys/block/sda/queue/read_ahead_kb"
ln -s "../../../../../victim-file" "$R/sys/block/sda/queue/read_ahead_kb"
dqueue -R "$R" --allow-tree --set read_ahead_kb=512 sda >/dev/null 2>&1
ok "dqueue --set --allow-tree, read_ahead_kb -> ../../../../../victim-file: victim unchanged" \
    victim_same "$TRASH/victim-file"
# sys/block/NAME -> a real device (a loop device of ours): not touched.
live=
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 &&
    [ -e /dev/loop-control ] && mkloop 8 >"$TRASH/loop"; then
	live=/sys/block/$(cat "$TRASH/loop")
fi
if [ -n "$live" ] && [ -w "$live/queue/read_ahead_kb" ]; then
	was=$(cat "$live/queue/read_ahead_kb")
	at_exit "echo $was >$live/queue/read_ahead_kb 2>/dev/null"
	tree "$R" 11 sda
	rm -rf "$R/sys/block/sda"
	ln -s "$live" "$R/sys/block/sda"
	dqueue -R "$R" --set "read_ahead_kb=$((was + 4))" sda >/dev/null 2>&1
	dqueue -R "$R" --allow-tree --set "read_ahead_kb=$((was + 4))" sda >/dev/null 2>&1
	is "$(cat "$live/queue/read_ahead_kb")" "$was" \
	   "dqueue --set -R (with and without --allow-tree), sys/block/sda -> $live: the live device unchanged"
else
	skip "dqueue --set -R, sys/block/sda -> a live device: unchanged" \
	    "no loop device to aim at"
fi
tree "$R" 11 sda
dqueue -R "$R" -o tsv -n --set read_ahead_kb=512 sda >"$TRASH/out" 2>&1
is "$(sed -n 2p "$TRASH/out"):$(cat "$R/sys/block/sda/queue/read_ahead_kb")" "sda	read_ahead_kb	11	512	would-set:11" \
   "dqueue -n under -R: a dry run is allowed, says what it would write, writes nothing"

# ddeleted --truncate under -R: refused outright, the file intact.
tree "$R" 11 sda
mkdir -p "$R/proc/77/fd"
ln -s "/proc/$$/fd/7" "$R/proc/77/fd/3"
size=$(stat -L -c %s "/proc/$$/fd/7")
test_must_fail 1 ddeleted -R "$R" --truncate 77:3 >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:ddeleted: --truncate acts only on the live system, not under $R" \
   "ddeleted --truncate -R: refused"
is "$(stat -L -c %s "/proc/$$/fd/7")" "$size" "ddeleted --truncate -R: the live file keeps its $size bytes"
rm -rf "$R/proc/77"
ln -s "/proc/$$" "$R/proc/77"
test_must_fail 1 ddeleted -R "$R" --truncate 77:7 >/dev/null 2>&1
ok "ddeleted --truncate -R, proc/77 -> /proc/\$\$: refused" test $? -eq 0
is "$(stat -L -c %s "/proc/$$/fd/7")" "$size" "... the live file intact"
exec 7>&-
ok "the victim file was never written" victim_same "$TRASH/victim-file"
