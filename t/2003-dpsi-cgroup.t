#!/bin/sh
# dpsi on live cgroups: a cgroup made under the v2 mount (found from the
# mount table) running a synchronous direct-I/O writer comes first in
# -C -c TOP by io stall share (TOP is this script's own parent cgroup:
# other work on the machine may stall more) and is a row of -C over the
# whole tree; -c PATH reads it, -c with -w arms its trigger;
# cgroup.pressure 0 is a clear message.  Everything made is removed.
. "${0%/*}/lib.sh"

[ -x "$TOP/cmd/dpsi/dpsi" ] || skip_all "dpsi not built"
need_root
need_cmd dd awk
[ -r /proc/pressure/io ] || skip_all "no /proc/pressure/io (PSI off)"

# The v2 mount from the mount table (hybrid hosts: /sys/fs/cgroup/unified).
V2=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -1)
[ -n "$V2" ] || skip_all "no cgroup2 mount"
top=dpsi-test.$$
name=$top/w
idle=$top/idle
CG=$V2/$name
mkdir "$V2/$top" && mkdir "$CG" "$V2/$idle" || skip_all "cannot make a cgroup under $V2"
# Cleanup: stop the writer, move anything left back to the root, rmdir.
at_exit "touch '$TRASH/stop'; [ -n \"\$writer\" ] && kill \$writer 2>/dev/null; wait 2>/dev/null;
	for p in \$(cat '$CG/cgroup.procs' 2>/dev/null); do echo \$p >'$V2/cgroup.procs' 2>/dev/null; done;
	rmdir '$CG' '$V2/$idle' '$V2/$top' 2>/dev/null"
ok "cgroups made under $V2" test -d "$CG"

target=$TRASH/f
if ! dd if=/dev/zero of="$target" bs=4k count=1 oflag=direct,dsync 2>/dev/null; then
	need_loop
	target=/dev/$(mkloop 64) || skip_all "no loop device"
fi
sh -c '
	echo $$ >"$1/cgroup.procs" || exit 1
	while [ ! -e "$2/stop" ]; do
		dd if=/dev/zero of="$3" bs=4k count=64 oflag=direct,dsync 2>/dev/null
	done' writer "$CG" "$TRASH" "$target" &
writer=$!
sleep 1
ok "the writer runs in $name" grep -qx "$writer" "$CG/cgroup.procs"

dpsi -C -r io -o tsv -H 2 1 >"$TRASH/all" 2>"$TRASH/err"
is "$?" 0 "dpsi -C -r io 2 1: exit 0"
ok "-C: the writer's cgroup is a row, its io some stall% non-zero" awk -F'\t' -v c="/$name" \
	'$2 == c && $4 == "some" && $9 + 0 > 0 { f = 1 } END { exit !f }' "$TRASH/all"
ok "-C: the root is not a row (it is the system)" sh -c "! cut -f2 '$TRASH/all' | grep -qx /"
ok "-C: sorted by share" awk -F'\t' '$4 == "some" { if (n++ && $9 > last) bad = 1; last = $9 } END { exit bad }' "$TRASH/all"

dpsi -C -c "$top" -r io -o tsv -H 2 1 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dpsi -C -c $top -r io 2 1: exit 0"
is "$(head -1 "$TRASH/out" | cut -f2-4)" "$(printf '/%s\tio\tsome' "$name")" \
	"-C: the writer's cgroup first by io stall share"
ok "-C: its io some stall% is non-zero" awk -F'\t' 'NR == 1 { exit !($9 + 0 > 0) }' "$TRASH/out"
is "$(cut -f2 "$TRASH/out" | sort -u | tr '\n' ' ')" "/$idle /$name " \
	"-C -c $top: only the cgroups below it, not itself"
is "$(awk -F'\t' -v c="/$idle" '$2 == c && $4 == "some" { print $9 }' "$TRASH/out")" 0.00 \
	"-C: the idle cgroup's share is 0.00"
is "$(dpsi -C -c "$top" -n 1 -r io -H 1 1 | cut -f2 | sort -u)" "/$name" "-C -n 1: only the top one"

# -c PATH: the cgroup's own file, exact.
dpsi -c "$name" -r io -H >"$TRASH/out"
want=$(awk '/^some/ { sub("total=", "", $5); print $5 }' "$CG/io.pressure")
got=$(awk -F'\t' '$4 == "some" { print $8 }' "$TRASH/out")
ok "-c $name: total read from its io.pressure" awk -v w="$want" -v g="$got" 'BEGIN { exit !(g > 0 && g <= w) }'

# Wait mode on the cgroup's file.
dpsi -c "$name" -W io:some:50ms/2s -T 30 -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-c $name -W io:some:50ms/2s: fired"
is "$(cut -f2-4 "$TRASH/out" | head -1)" "$(printf '/%s\tio\tsome' "$name")" "-c -w: the cgroup's row"
test_must_fail 3 dpsi -c "$idle" -W io:some:500ms/2s -T 1 >/dev/null 2>&1
is "$?" 0 "-c idle cgroup -w: no stall, -T 1 exits 3"

# cgroup.pressure 0: the files vanish.
if [ -e "$V2/$idle/cgroup.pressure" ] && echo 0 >"$V2/$idle/cgroup.pressure"; then
	test_must_fail 1 dpsi -c "$idle" >/dev/null 2>"$TRASH/err"
	is "$?" 0 "cgroup.pressure 0: exit 1"
	ok "cgroup.pressure 0: says so" grep -qx "dpsi: cgroup /$idle: pressure accounting is off for this cgroup: echo 1 > cgroup.pressure" "$TRASH/err"
	ok "cgroup.pressure 0: -C skips it quietly" sh -c "! dpsi -C -r io 2>&1 | grep -q '/$idle'"
	test_must_fail 1 dpsi -c "$idle" -W io:some:1s/2s -T 1 >/dev/null 2>"$TRASH/err"
	is "$?" 0 "cgroup.pressure 0, -w: exit 1"
	ok "cgroup.pressure 0, -w: says so" grep -qx "dpsi: cgroup /$idle: pressure accounting is off for this cgroup: echo 1 > cgroup.pressure" "$TRASH/err"
else
	skip "cgroup.pressure 0" "no cgroup.pressure (before 6.1)"
fi

# Cleanup works: stop the writer and remove both, then check.
touch "$TRASH/stop"
wait $writer 2>/dev/null
writer=
rmdir "$CG" "$V2/$idle" "$V2/$top"
ok "cgroups removed" test ! -e "$V2/$top"
