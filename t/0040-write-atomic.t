#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# -w FILE for every tool: the file appears whole, with the umask's mode
# (or the replaced file's mode) and nothing beside it; a failed write (read-only filesystem, full
# filesystem, a directory the user may not write) leaves the old file
# as it was and exits 1 with "tool: file: why"; a collector reading in
# a tight loop never sees a partial file.
. "${0%/*}/lib.sh"
need_cmd python3

tools=
for f in "$TOP"/cmd/*/main.c; do
	n=${f%/main.c}
	n=${n##*/}
	# dcapture writes captures, not reports (no -o): its -w, atomic
	# and 0600, is t/8000's, its -d t/8001's.
	[ "$n" = dcapture ] && continue
	[ -x "$TOP/cmd/$n/$n" ] && tools="$tools $n"
done
[ -n "$tools" ] || skip_all "no tool built yet"

# run TOOL ARGS: the tool as the loops below want it.  dtriage samples
# a 10 s window by default: here its shortest, 0.1 s; its exit 3 (a finding
# at warn, which a shared machine can have at any time) is a report
# written, as 0 is.
run() {
	_t=$1
	shift
	if [ "$_t" = dtriage ]; then
		dtriage "$@" 0.1
		_s=$?
		[ "$_s" -ne 3 ] || _s=0
		return "$_s"
	fi
	"$_t" "$@"
}

# The entries of directory $1, sorted, on one line.
entries() {
	(cd "$1" && ls -A | sort | tr '\n' ' ')
}
# The words given, sorted, on one line: what entries should print.
sorted() {
	printf '%s\n' "$@" | sort | tr '\n' ' '
}

for t in $tools; do
	traces_until_signal "$t" && continue
	d=$TRASH/w.$t
	mkdir "$d"
	# The umask holds (issue 15, 7): a collector running as another
	# user is given its rights by the umask or by the file replaced.
	(umask 022; run "$t" -o prom -w "$d/$t.prom" >"$TRASH/stdout" 2>"$TRASH/err")
	is "$?" 0 "$t -o prom -w: exit 0"
	# Notes (delay accounting off, say) may be printed; nothing about the file.
	is "$(grep -c "$t.prom" "$TRASH/err")" 0 "$t -o prom -w: no message about the file"
	is "$(wc -c <"$TRASH/stdout")" 0 "$t -o prom -w: nothing on stdout"
	is "$(stat -c %a "$d/$t.prom" 2>&1)" 644 "$t -w: mode 0644 under umask 022"
	is "$(entries "$d")" "$t.prom " "$t -w: no temporary file left"
	# tsv always has its header line, so this file is never empty.
	printf 'OLD\n' >"$d/$t.tsv"
	chmod 600 "$d/$t.tsv"
	ino=$(stat -c %i "$d/$t.tsv")
	run "$t" -o tsv -w "$d/$t.tsv" >/dev/null 2>"$TRASH/err"
	is "$?" 0 "$t -o tsv -w over an old file: exit 0"
	is "$(head -1 "$d/$t.tsv")" "$(run "$t" -o tsv 2>/dev/null | head -1)" \
	    "$t -w: the file holds the new report (its header)"
	ok "$t -w: replaced by rename (a new inode)" test "$(stat -c %i "$d/$t.tsv")" != "$ino"
	is "$(stat -c %a "$d/$t.tsv")" 600 "$t -w: the replaced file's mode 0600 kept"
	is "$(tail -c 1 "$d/$t.tsv" | od -An -c | tr -d ' ')" '\n' "$t -w: file ends with a newline"
	is "$(entries "$d")" "$(sorted "$t.prom" "$t.tsv")" "$t -w: still no temporary file"

	test_must_fail 1 run "$t" -o tsv -w "$TRASH/no-such-dir/$t.tsv" >/dev/null 2>"$TRASH/err"
	is "$?" 0 "$t -w into a missing directory: exit 1"
	ok "$t -w into a missing directory: says which and why" \
	    grep -q "^$t: .*/no-such-dir/$t.tsv.*: No such file or directory\$" "$TRASH/err"
done

# Failures that need root: mounts, and a user without write access.
canmount=
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$TRASH/mnt-probe"
	mount -t tmpfs -o size=64k tmpfs "$TRASH/mnt-probe" 2>/dev/null &&
	    umount "$TRASH/mnt-probe" && canmount=1
fi
if [ -z "$canmount" ] || ! command -v setpriv >/dev/null; then
	skip "write failures on read-only, full and forbidden directories" \
	    "needs root allowed to mount tmpfs, and setpriv"
else
	chmod 0711 "$TRASH"
	for t in $tools; do
		traces_until_signal "$t" && continue
		# A filesystem made read-only after the old file was written.
		m=$TRASH/ro.$t
		mkdir "$m"
		mount -t tmpfs -o size=1m tmpfs "$m" || { fail "mount tmpfs"; continue; }
		at_exit "umount '$m' 2>/dev/null"
		printf 'OLD\n' >"$m/$t.tsv"
		mount -o remount,ro "$m"
		test_must_fail 1 run "$t" -o tsv -w "$m/$t.tsv" >/dev/null 2>"$TRASH/err"
		is "$?" 0 "$t -w on a read-only filesystem: exit 1"
		ok "$t -w on a read-only filesystem: message" \
		    grep -q "^$t: $m/$t.tsv: Read-only file system\$" "$TRASH/err"
		is "$(cat "$m/$t.tsv")" OLD "$t -w on a read-only filesystem: old file intact"
		umount "$m"

		# A full filesystem: the temporary file is made, the write
		# fails, the temporary file goes, the old file stays.
		mount -t tmpfs -o size=64k tmpfs "$m" || { fail "mount tmpfs"; continue; }
		printf 'OLD\n' >"$m/$t.tsv"
		dd if=/dev/zero of="$m/fill" bs=4k 2>/dev/null
		for fmt in tsv prom; do
			if [ "$fmt" = prom ] && [ ! -s "$TRASH/w.$t/$t.prom" ]; then
				skip "$t -o prom -w on a full filesystem" "no rows here: nothing to fill it"
				continue
			fi
			test_must_fail 1 run "$t" -o $fmt -w "$m/$t.tsv" >/dev/null 2>"$TRASH/err"
			is "$?" 0 "$t -o $fmt -w on a full filesystem: exit 1"
			ok "$t -o $fmt -w on a full filesystem: message" \
			    grep -q "^$t: $m/$t.tsv: write error: No space left on device\$" "$TRASH/err"
			is "$(cat "$m/$t.tsv")" OLD "$t -o $fmt -w on a full filesystem: old file intact"
			is "$(entries "$m")" "$(sorted fill "$t.tsv")" "$t -o $fmt -w on a full filesystem: temporary file removed"
		done
		umount "$m"

		# A directory the user may not write: run as nobody.
		mkdir "$TRASH/locked.$t"
		printf 'OLD\n' >"$TRASH/locked.$t/$t.tsv"
		chmod 0755 "$TRASH/locked.$t"
		chmod 0644 "$TRASH/locked.$t/$t.tsv"
		test_must_fail 1 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		    "$TOP/cmd/$t/$t" -o tsv -w "$TRASH/locked.$t/$t.tsv" >/dev/null 2>"$TRASH/err"
		is "$?" 0 "$t -w as nobody into root's directory: exit 1"
		ok "$t -w as nobody: message" \
		    grep -q "^$t: $TRASH/locked.$t/$t.tsv: Permission denied\$" "$TRASH/err"
		is "$(cat "$TRASH/locked.$t/$t.tsv")" OLD "$t -w as nobody: old file intact"
		is "$(entries "$TRASH/locked.$t")" "$t.tsv " "$t -w as nobody: nothing created"
	done
fi

# A reader in a tight loop while the file is rewritten: every read is a
# whole file.  The control first: a writer that rewrites in place (open
# with truncation, write half, pause, write the rest) must be caught,
# or the check could not fail.
R=$FIX/prom/reader.py
cat >"$TRASH/inplace.py" <<'PY'
import sys, time
path, data = sys.argv[1], open(sys.argv[2], 'rb').read()
for i in range(100):
    with open(path, 'wb') as f:
        f.write(data[:len(data) // 2])
        f.flush()
        time.sleep(0.003)
        f.write(data[len(data) // 2:])
open(sys.argv[3], 'w').close()
PY
printf '# HELP x_total A count.\n# TYPE x_total counter\nx_total{a="%s"} 1\n' \
    $(seq 1 50) >"$TRASH/sample.prom"
cp "$TRASH/sample.prom" "$TRASH/inplace.prom"
python3 "$TRASH/inplace.py" "$TRASH/inplace.prom" "$TRASH/sample.prom" "$TRASH/inplace.stop" &
res=$(python3 "$R" "$TRASH/inplace.prom" "$TRASH/inplace.stop")
wait
case $res in
*" bad=0"*) fail "control: an in-place writer is caught by the reader ($res)" ;;
*) pass "control: an in-place writer is caught by the reader ($(echo "$res" | head -1))" ;;
esac

for t in $tools; do
	traces_until_signal "$t" && continue
	f=$TRASH/loop.$t.prom
	stop=$TRASH/loop.$t.stop
	run "$t" -o prom -w "$f" 2>/dev/null || { fail "$t: first write"; continue; }
	python3 "$R" "$f" "$stop" >"$TRASH/res" &
	rpid=$!
	# On a loaded machine python can start after a quick writer loop
	# has ended: write only once the reader has read the file once.
	i=0
	while [ ! -e "$stop.ready" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	if "$t" --help | grep -q interval; then
		# 40 rewrites, 50 ms apart.
		run "$t" -o prom -w "$f" 0.05 40 2>/dev/null
		st=$?
	else
		i=0 st=0
		while [ $i -lt 30 ] && [ $st -eq 0 ]; do
			run "$t" -o prom -w "$f" 2>/dev/null
			st=$?
			i=$((i + 1))
		done
	fi
	: >"$stop"
	wait $rpid
	res=$(cat "$TRASH/res")
	is "$st" 0 "$t: rewrites under a reader exit 0"
	case $res in
	*" bad=0"*) pass "$t: reader never saw a partial file (${res%%#*})" ;;
	*) fail "$t: reader never saw a partial file"; echo "# $res" ;;
	esac
	case $res in
	*" changes=0 "*) fail "$t: the reader saw the file being replaced ($res)" ;;
	*) pass "$t: the reader saw the file being replaced" ;;
	esac
	is "$(entries "$TRASH" | tr ' ' '\n' | grep -c "^loop\.$t\.prom\.tmp")" 0 "$t: no temporary file left after the loop"
done
