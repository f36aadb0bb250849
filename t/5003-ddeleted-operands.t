#!/bin/sh
# ddeleted's operands and the names it says: relative mountpoint
# operands, live and under -R; FIFOs in a -R tree; and what --truncate
# says and refuses about such files (the real name of a file called
# "x (deleted)", a file another process maps).  The rest of --truncate's
# safety is t/5010-ddeleted-truncate-safety.t.
. "${0%/*}/lib.sh"

need_cmd python3 findmnt

D=$TRASH/d
mkdir "$D" || exit 1

fs=$(findmnt -no FSTYPE -T "$D")
case $fs in
tmpfs|ramfs) disk=0 ;;
*) disk=1 ;;
esac

# ---- --truncate: a mapping by ANOTHER process refuses it ----
# (the processes' maps and fds are read as root: skipped for others)
if [ $disk = 1 ] && [ "$(id -u)" -eq 0 ]; then
	head -c 65536 /dev/zero >"$D/m"
	sleep 1000 3<"$D/m" &
	holder=$!
	at_exit "kill $holder 2>/dev/null"
	mkfifo "$TRASH/ready"
	python3 -c '
import mmap, os, sys, time
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
f.close()
print("ok", flush=True)
time.sleep(1000)
x = m[65535]' "$D/m" >"$TRASH/ready" &
	mapper=$!
	at_exit "kill $mapper 2>/dev/null"
	read -r _ <"$TRASH/ready"
	rm "$D/m"
	test_must_fail 1 ddeleted --truncate $holder:3 2>"$TRASH/err"
	is "$?" 0 "--truncate a file mapped by another process: refused"
	ok "names the mapping process" grep -q "mapped by process $mapper," "$TRASH/err"
	is "$(stat -L -c %s /proc/$holder/fd/3)" 65536 "refused: nothing done"
	ok "the mapping process lives" kill -0 $mapper
	kill $mapper
	wait $mapper 2>/dev/null
	ddeleted -o tsv -H --truncate $holder:3 >"$TRASH/tr" 2>/dev/null
	is "$?" 0 "mapping gone: --truncate acts"
	is "$(stat -L -c %s /proc/$holder/fd/3)" 0 "now empty"
else
	for i in 1 2 3 4 5 6; do
		skip "truncate mapped by another" "needs root and a disk filesystem ($D is $fs)"
	done
fi

# ---- relative mountpoint operands: from the current directory ----
# A tmpfs mounted at $TRASH/mnt holds no deleted file; a relative
# operand must name it, not the root's "/mnt".
if [ "$(id -u)" -eq 0 ] && mkdir "$TRASH/mnt" && mount -t tmpfs -o size=1m dsfix "$TRASH/mnt" 2>/dev/null; then
	at_exit "umount '$TRASH/mnt'"
	exp=$(( $(stat -f -c %b "$TRASH/mnt") * $(stat -f -c %S "$TRASH/mnt") ))
	(cd "$TRASH" && ddeleted -s -o tsv -H mnt) >"$TRASH/rel" 2>"$TRASH/err"
	is "$?" 0 "relative operand: exit 0"
	is "$(cut -f1,2,6,7 "$TRASH/rel")" "$(printf '%s\ttmpfs\t0\t0' "$TRASH/mnt")" \
	    "relative operand: the filesystem under the current directory"
	is "$(cut -f3 "$TRASH/rel")" $exp "relative operand: its size"
else
	skip "relative operand: exit 0" "needs root to mount a tmpfs"
	skip "relative operand: the filesystem" "needs root to mount a tmpfs"
	skip "relative operand: its size" "needs root to mount a tmpfs"
fi
(cd "$TRASH" && test_must_fail 1 ddeleted -s -o tsv -H nowhere-rel) 2>"$TRASH/err"
is "$?" 0 "relative operand that does not exist: exit 1"
ok "relative operand that does not exist: named" grep -q "^ddeleted: nowhere-rel: No such file or directory" "$TRASH/err"

# Under -R, operands are paths inside the tree: "sub" is $tree/sub,
# relative or not, whatever the current directory.
mkdir -p "$TRASH/tree/proc" "$TRASH/tree/sub"
(cd / && ddeleted -R "$TRASH/tree" -s -o tsv -H sub) >"$TRASH/rt" 2>"$TRASH/err"
is "$?" 0 "-R: a relative operand inside the tree"
(cd / && test_must_fail 1 ddeleted -R "$TRASH/tree" -s -o tsv -H sub/none) 2>"$TRASH/err"
is "$?" 0 "-R: operand missing in the tree: exit 1"

# ---- FIFOs in a -R tree: never a hang ----
F=$TRASH/ftree
mkdir -p "$F/proc/42/fd" "$F/proc/43/fd" "$F/proc/self"
mkfifo "$F/proc/42/maps" "$F/proc/42/stat" "$F/proc/self/mountinfo"
printf '7f00-7f01 r--s 00000000 fe:00 5 /x (deleted)\n' >"$F/proc/43/maps"
timeout 10 ddeleted -R "$F" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "FIFO maps, stat, mountinfo: finishes, exit 0"
is "$(wc -l <"$TRASH/out")" 1 "FIFO tree: header only"
timeout 10 ddeleted -R "$F" -s -o tsv -H proc >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "FIFO tree -s: finishes, exit 0"

# ---- --truncate messages: the real name of a file called "x (deleted)" ----
echo t >"$D/tricky (deleted)"
echo h >"$D/h1"
ln "$D/h1" "$D/h2"
sleep 1000 3<"$D/tricky (deleted)" 4<"$D/h1" &
h2=$!
at_exit "kill $h2 2>/dev/null"
sleep 0.2
rm "$D/h1"
test_must_fail 1 ddeleted --truncate $h2:3 2>"$TRASH/err"
is "$?" 0 "--truncate 'tricky (deleted)' that has its name: refused"
is "$(cat "$TRASH/err")" "ddeleted: $h2:3: $D/tricky (deleted): not deleted (1 links); not truncated" \
    "the message shows the real name, suffix and all"
test_must_fail 1 ddeleted --truncate $h2:4 2>"$TRASH/err"
is "$(cat "$TRASH/err")" "ddeleted: $h2:4: $D/h1: not deleted (1 links); not truncated" \
    "a removed hard link whose other name survives: the removed name, suffix off"
