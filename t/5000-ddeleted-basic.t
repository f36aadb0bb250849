#!/bin/sh
# ddeleted on the filesystem of the scratch directory: what is listed
# (deleted and held), what is not (a surviving hard link, a file really
# named "x (deleted)"), every column's value, hostile names, memfd,
# filters, refusals of --truncate, and the message without root.
. "${0%/*}/lib.sh"

need_cmd jq stat findmnt

D=$TRASH/d
mkdir "$D" || exit 1
head -c 65536 /dev/zero >"$D/a"
echo h >"$D/h1"
ln "$D/h1" "$D/h2"
echo t >"$D/tricky (deleted)"
echo g >"$D/gone (deleted)"
evil=$(printf 'evil\tname\nline\\back"q\377x')
echo e >"$D/$evil"
sync

exp_blocks=$(stat -c %b "$D/a")
exp_dev=$(stat -c '%Hd:%Ld' "$D/a")
exp_ino=$(stat -c %i "$D/a")
exp_mount=$(findmnt -no TARGET -T "$D")
exp_fstype=$(findmnt -no FSTYPE -T "$D")
case $exp_fstype in
tmpfs|ramfs) exp_class=memory ;;
*) exp_class=disk ;;
esac

# One process holds them all: fd 3 a, 4 h1, 5 tricky, 6 gone, 7 evil.
sleep 1000 3<"$D/a" 4<"$D/h1" 5<"$D/tricky (deleted)" \
    6<"$D/gone (deleted)" 7<"$D/$evil" &
holder=$!
at_exit "kill $holder 2>/dev/null"
sleep 0.2
rm "$D/a" "$D/h1" "$D/gone (deleted)" "$D/$evil"

ddeleted -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "scan exits 0"
is "$(head -1 "$TRASH/out")" "$(printf 'pid\tuser\tcommand\tfd\tsize\tallocated\tdev\tinode\tmount\tfstype\tclass\tpath')" "header"
ok "tsv: every row whole" fields_ok "$TRASH/out"
awk -F'\t' -v p=$holder '$1 == p' "$TRASH/out" >"$TRASH/mine"
is "$(cut -f4 "$TRASH/mine" | tr '\n' ' ')" "3 6 7 " \
    "deleted files listed; surviving hard link and real ' (deleted)' name not"
is "$(awk -F'\t' '$4 == 3' "$TRASH/mine")" \
    "$(printf '%s\t%s\tsleep\t3\t65536\t%s\t%s\t%s\t%s\t%s\t%s\t%s' \
    $holder "$(id -un)" $((exp_blocks * 512)) "$exp_dev" "$exp_ino" \
    "$exp_mount" "$exp_fstype" $exp_class "$D/a")" \
    "row values: size, allocated = st_blocks x 512, dev, inode, mount, class, path"
is "$(awk -F'\t' '$4 == 6 { print $12 }' "$TRASH/mine")" "$D/gone (deleted)" \
    "a deleted 'x (deleted)': one suffix taken off"
is "$(awk -F'\t' '$4 == 7 { print $12 }' "$TRASH/mine")" \
    "$D/$(printf 'evil\\tname\\nline\\\\back"q\\xffx')" \
    "tsv escapes tab, newline, backslash, and an invalid byte as \\xff"

ddeleted -o json >"$TRASH/json"
ok "json valid" json_ok "$TRASH/json"
want=$(printf '%s/evil\tname\nline\\back"q\357\277\275x' "$D")
ok "json: hostile path decodes (invalid byte as U+FFFD)" \
    jq -e -s --arg w "$want" --argjson p $holder \
    '[.[] | select(.pid == $p and .fd == "7")] | length == 1 and .[0].path == $w' "$TRASH/json"
ok "json: numbers are numbers" jq -e -s --argjson p $holder \
    '[.[] | select(.pid == $p and .fd == "3")] | length == 1 and .[0].size == 65536 and .[0].inode == '"$exp_ino" "$TRASH/json"

ddeleted -H -o tsv >"$TRASH/noheader"
ok "-H: no header" sh -c "! grep -q '^pid' '$TRASH/noheader'"
ddeleted -o table >"$TRASH/table"
ok "table: header and our row" sh -c "grep -q '^ *pid  *user' '$TRASH/table' && awk '\$1 == $holder && \$4 == 3 { f = 1 } END { exit !f }' '$TRASH/table'"

ddeleted -o tsv --min-size 1M >"$TRASH/min"
is "$(awk -F'\t' -v p=$holder '$1 == p' "$TRASH/min" | wc -l)" 0 "--min-size 1M hides 64 KiB"
ddeleted -o tsv --min-size 64K >"$TRASH/min"
is "$(awk -F'\t' -v p=$holder '$1 == p { print $4 }' "$TRASH/min")" 3 "--min-size 64K keeps it"
test_must_fail 2 ddeleted --min-size 10X 2>"$TRASH/err"
is "$?" 0 "--min-size 10X: usage error"
ok "--min-size message" grep -q "^ddeleted: --min-size '10X': not a size" "$TRASH/err"

ddeleted -o tsv -H "$exp_mount" >"$TRASH/op"
is "$(cut -f7 "$TRASH/op" | sort -u)" "$exp_dev" "mount operand: only that filesystem"

test_must_fail 1 ddeleted -o tsv -H "$TRASH/nowhere" "$exp_mount" >"$TRASH/op2" 2>"$TRASH/err"
is "$?" 0 "a missing operand: exit 1"
ok "a missing operand: says which" grep -q "^ddeleted: $TRASH/nowhere: No such file or directory" "$TRASH/err"
is "$(awk -F'\t' -v p=$holder '$1 == p { print $4 }' "$TRASH/op2" | tr '\n' ' ')" "3 6 7 " \
    "a missing operand: the others still listed"

ddeleted -s -o tsv "$exp_mount" >"$TRASH/sum"
is "$(head -1 "$TRASH/sum")" "$(printf 'mount\tfstype\tsize\tused\tavail\theld\tfiles\tholders')" "summary header"
ok "summary: held counts our 64 KiB" awk -F'\t' -v m="$exp_mount" -v b=$((exp_blocks * 512)) \
    'NR > 1 && $1 == m && $6 >= b && $7 >= 3 { f = 1 } END { exit !f }' "$TRASH/sum"

ddeleted -o prom "$exp_mount" >"$TRASH/prom"
ok "prom: well formed" awk '
	/^# HELP ddeleted_[a-z_]+ / || /^# TYPE ddeleted_[a-z_]+ (gauge|counter)$/ { next }
	/^ddeleted_[a-z_]+\{mount="[^"]*",fstype="[^"]*"\} -?[0-9]+$/ { next }
	{ print "# bad: " $0; bad = 1 } END { exit bad }' "$TRASH/prom"
ok "prom: ddeleted_held_bytes for the mount" grep -q "^ddeleted_held_bytes{mount=\"$exp_mount\",fstype=\"$exp_fstype\"} [0-9]" "$TRASH/prom"
ok "prom: ddeleted_files for the mount" grep -q "^ddeleted_files{mount=\"$exp_mount\",fstype=\"$exp_fstype\"} [0-9]" "$TRASH/prom"

# memfd: memory, not disk.
if command -v python3 >/dev/null 2>&1; then
	mkfifo "$TRASH/fifo"
	python3 -c '
import os, sys, time
m = os.memfd_create("dsbuf")
os.write(m, b"x" * 10000)
print(m, flush=True)
time.sleep(1000)' >"$TRASH/fifo" &
	py=$!
	at_exit "kill $py 2>/dev/null"
	read -r mfd <"$TRASH/fifo"
	ddeleted -o tsv -a >"$TRASH/mem"
	is "$(awk -F'\t' -v p=$py -v f="$mfd" '$1 == p && $4 == f { print $5, $9, $10, $11, $12 }' "$TRASH/mem")" \
	    "10000 - tmpfs memory /memfd:dsbuf" "memfd: class memory, no mount (-a)"
	ddeleted -o tsv >"$TRASH/mem"
	is "$(awk -F'\t' -v p=$py '$1 == p' "$TRASH/mem" | wc -l)" 0 \
	    "memfd: not in the default view (disk space only)"
	test_must_fail 1 ddeleted --truncate $py:$mfd 2>"$TRASH/err"
	is "$?" 0 "--truncate memfd refused"
	ok "memfd refusal says why" grep -q "memory-backed" "$TRASH/err"
else
	skip "memfd" "no python3"
	skip "memfd refused" "no python3"
	skip "memfd refusal says why" "no python3"
fi

# --truncate: syntax, refusals, then a real one.
test_must_fail 2 ddeleted --truncate 12 2>/dev/null
is "$?" 0 "--truncate 12: usage error"
test_must_fail 2 ddeleted --truncate 1:x 2>/dev/null
is "$?" 0 "--truncate 1:x: usage error"
test_must_fail 2 ddeleted --truncate 1:2 / 2>/dev/null
is "$?" 0 "--truncate with an operand: usage error"
test_must_fail 1 ddeleted --truncate $holder:5 2>"$TRASH/err"
is "$?" 0 "--truncate on a file that still has its name: refused"
ok "refusal: not deleted" grep -q "not deleted (1 links); not truncated" "$TRASH/err"
test_must_fail 1 ddeleted --truncate $holder:4 2>"$TRASH/err"
is "$?" 0 "--truncate on a surviving hard link: refused"
test_must_fail 1 ddeleted --truncate $holder:99 2>"$TRASH/err"
is "$?" 0 "--truncate on a closed fd: error"
ok "closed fd: says why" grep -q "^ddeleted: $holder:99: No such file or directory" "$TRASH/err"
ddeleted -o tsv -H >/dev/null
is "$(stat -L -c %s /proc/$holder/fd/3)" 65536 "a scan never truncates"
# A real truncation acts on the live system as root only.
if [ "$(id -u)" -eq 0 ]; then
	ddeleted -o tsv --truncate $holder:3 >"$TRASH/tr" 2>"$TRASH/err"
	is "$?" 0 "--truncate $holder:3"
	ok "warns the contents are lost" grep -q "contents (65536 bytes) are lost" "$TRASH/err"
	ok "warns: not O_APPEND, sparse file" grep -q "not opened with O_APPEND.*offset 0, leaving a sparse file" "$TRASH/err"
	is "$(tail -1 "$TRASH/tr")" "$(printf '%s\t3\t65536\t%s\t%s' $holder $((exp_blocks * 512)) "$D/a")" "prints bytes freed"
	is "$(stat -L -c %s:%b /proc/$holder/fd/3)" 0:0 "file now empty"
else
	for d in "--truncate" "warns the contents are lost" "warns: not O_APPEND" \
	    "prints bytes freed" "file now empty"; do
		skip "$d" "needs root"
	done
fi

# A root that does not hold proc, and one whose processes are damaged.
test_must_fail 1 ddeleted -R "$TRASH/d" 2>"$TRASH/err"
is "$?" 0 "root without proc: exit 1"
ok "root without proc: says which" grep -q "^ddeleted: .*proc: No such file or directory" "$TRASH/err"
mkdir -p "$TRASH/tree/proc/42" "$TRASH/tree/proc/43/fd"
printf 'garbage\n' >"$TRASH/tree/proc/42/maps"
printf '(\n' >"$TRASH/tree/proc/42/stat"
printf '7f00-7f01 r--s 00000000 fe:00 5 /x (deleted)\n' >"$TRASH/tree/proc/43/maps"
ddeleted -R "$TRASH/tree" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "damaged tree: exit 0"
is "$(wc -l <"$TRASH/out")" 1 "damaged tree: header only"

# Without root: only your own processes, said on stderr with a count.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$TOP/cmd/ddeleted/ddeleted" -o tsv >"$TRASH/out" 2>"$TRASH/err"
	is "$?" 0 "as nobody: exit 0"
	ok "as nobody: says so with a count" grep -Eq "^ddeleted: not root: the descriptors of [0-9]+ of [0-9]+ processes could not be read" "$TRASH/err"
	is "$(awk -F'\t' -v p=$holder '$1 == p' "$TRASH/out" | wc -l)" 0 "as nobody: root's process not listed"
else
	skip "as nobody" "needs root and setpriv"
fi

# A capture taken without root lacks other users' descriptors: read
# back (by root or not) it names the capturing uid, not the reader.
if [ "$(id -u)" -eq 0 ] && have_prog setpriv &&
    [ -x "$TOP/cmd/dcapture/dcapture" ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$TOP/cmd/dcapture/dcapture" 0 >"$TRASH/np.cap" 2>/dev/null
	ddeleted -R "$TRASH/np.cap" -o tsv >"$TRASH/out" 2>"$TRASH/err"
	is "$?" 0 "capture without root: exit 0"
	ok "capture without root: says the capturing uid" grep -Eq \
	    "^ddeleted: the capture was taken without root \(uid 65534\): the descriptors of [0-9]+ of [0-9]+ processes are not in it; other users' deleted files are missing\$" \
	    "$TRASH/err"
	ok "capture without root: not 'only your own'" \
	    test_must_fail grep -q "only your own" "$TRASH/err"
	is "$(awk -F'\t' -v p=$holder '$1 == p' "$TRASH/out" | wc -l)" 0 \
	    "capture without root: root's deleted file not in it"
else
	skip "capture without root" "needs root, setpriv and dcapture"
fi
