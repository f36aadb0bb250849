#!/bin/sh
# dpsi review fixes: the cgroup v2 mount found as dwho finds it (a tree
# without proc/self/mountinfo has it at sys/fs/cgroup, and only such a
# tree), and -C ranking by the first resource of -r.
. "${0%/*}/lib.sh"

TREE=$FIX/dwho/cgroups-root-004

# ---- the v2 mount: one lookup for dpsi and dwho ----
dpsi -R "$TREE" -C -r io -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-C on a tree without mountinfo: exit 0"
is "$(grep -c . "$TRASH/err")" 0 "-C on a tree without mountinfo: no message"
is "$(awk -F'\t' '$2 == "/init.scope" && $4 == "some" { print $8 }' "$TRASH/out")" \
    "$(awk '/^some/ { sub("total=", "", $5); print $5 }' "$TREE/sys/fs/cgroup/init.scope/io.pressure")" \
    "-C: init.scope io some total equals the file's"
is "$(cut -f2 "$TRASH/out" | sort -u | grep -c .)" \
    "$(cd "$TREE/sys/fs/cgroup" && find . -name io.pressure | wc -l)" \
    "-C: every cgroup with io.pressure"
# A tree that has a mount table without cgroup2: no fallback.
M=$TRASH/m
mkdir -p "$M/proc/self"
cp -R "$TREE/sys" "$M/sys"
echo '22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' >"$M/proc/self/mountinfo"
test_must_fail 1 dpsi -R "$M" -C 2>"$TRASH/err"
is "$?" 0 "mount table without cgroup2: exit 1"
ok "mount table without cgroup2: says so" grep -q "no cgroup2 mount" "$TRASH/err"
test_must_fail 1 dwho -R "$M" -g -G iostat 2>"$TRASH/err"
is "$?" 0 "dwho: the same lookup, the same answer"
ok "dwho: says so" grep -q "^dwho: -G iostat: no cgroup v2 mount" "$TRASH/err"
