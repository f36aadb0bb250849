#!/bin/sh
# dwho -g live, the /proc fallback: a cgroup made under the v2 mount
# (found from the mount table), a direct writer in it; -g names the
# cgroup with the writer's bytes and says which source it used.  Where
# the io controller is on v2 (so io.stat exists), -G proc forces the
# fallback and -g alone must name io.stat.
. "${0%/*}/lib.sh"
need_root
need_loop
need_cmd mkfs.ext4

mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo | sed 's/\\040/ /g')
[ -n "$mnt" ] || skip_all "no cgroup v2 mount"
cg=$mnt/dwho-test.$$
mkdir "$cg" || skip_all "cannot create a cgroup under $mnt"
kids=
# processes first, then the cgroup
at_exit "rmdir '$cg' 2>/dev/null"
dev=$(mkloop 128) || skip_all "losetup failed"
mkfs.ext4 -q -F "/dev/$dev" >/dev/null 2>&1 || skip_all "mkfs.ext4 failed"
mkdir "$TRASH/mnt"
mount "/dev/$dev" "$TRASH/mnt" || skip_all "mount failed"
at_exit "umount '$TRASH/mnt' 2>/dev/null || umount -l '$TRASH/mnt'"
at_exit 'for k in $kids; do kill $k 2>/dev/null; done; sleep 0.2'

if grep -qw io "$mnt/cgroup.controllers"; then
	opt="-G proc"
	want_note="dwho: -g: summing /proc/PID/io by cgroup (-G proc)"
else
	opt="-g"
	want_note="dwho: -g: io.stat missing (io controller not enabled on cgroup v2 at $mnt): summing /proc/PID/io by cgroup"
fi
# A known amount in the window, not a pace measured from outside (a
# busy machine makes a paced writer's rate uneven): dwho takes its first
# sample, then the writer joins the cgroup, writes 8 MiB direct and
# stays alive (dd blocks on the pipe), so all its bytes fall between
# dwho's samples 3 s apart.
# shellcheck disable=SC2086
dwho $opt -o tsv 3 1 >"$TRASH/out" 2>"$TRASH/err" &
dwpid=$!
sleep 1
sh -c 'echo $$ >"$1/cgroup.procs" || exit 1
	(head -c 8388608 /dev/zero; exec sleep 60) |
	    dd of="$2/w" bs=64k iflag=fullblock oflag=direct 2>/dev/null' \
    sh "$cg" "$TRASH/mnt" &
kids="$kids $!"
sleep 0.5
pids=$(cat "$cg/cgroup.procs")
kids="$kids $pids"
wait $dwpid
st=$?
ok "writer in the cgroup" test -n "$pids"
ddpid=
for p in $pids; do
	[ "$(cat "/proc/$p/comm")" = dd ] && ddpid=$p
done
wb=$(sed -n 's/^write_bytes: //p' "/proc/$ddpid/io")
is "$st" 0 "dwho $opt exits 0"
is "$(grep -e '-g:' "$TRASH/err")" "$want_note" "stderr says the source"
name=${cg#"$mnt"}
row=$(awk -F'\t' -v c="$name" '$2 == c' "$TRASH/out")
ok "the cgroup is named ($name)" test -n "$row"
got=$(echo "$row" | cut -f5)
echo "# cgroup kB_wr/s $got over 3 s; the writer wrote ${wb:-?} bytes"
# dwho divides by the interval it measured, a few hundredths off 3 s.
ok "the cgroup's kB_wr/s x 3 s is the writer's 8 MiB (within 5%)" \
    awk -v g="$got" -v w="${wb:-0}" 'BEGIN { d = g * 3 - w / 1024; if (d < 0) d = -d
    exit !(w == 8388608 && g != "" && d <= 0.05 * 8192) }'
ok "the cgroup's procs count its processes" \
    test "$(echo "$row" | cut -f3)" -ge 3

if grep -qw io "$mnt/cgroup.controllers"; then
	dwho -g -o tsv >/dev/null 2>"$TRASH/err"
	ok "io on v2: -g alone uses io.stat" grep -q 'figures from io.stat' "$TRASH/err"
else
	test_must_fail 1 dwho -G iostat >/dev/null 2>"$TRASH/err"
	is "$?" 0 "-G iostat without the io controller on v2: exit 1"
	ok "-G iostat: says why" grep -q "^dwho: -G iostat: $mnt: no io controller on cgroup v2" "$TRASH/err"
fi
