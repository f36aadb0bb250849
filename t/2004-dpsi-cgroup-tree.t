#!/bin/sh
# dpsi's cgroups on hand-made trees: the cgroup v2 mount found as dwho
# finds it (a tree without proc/self/mountinfo has it at sys/fs/cgroup,
# and only such a tree), and -C ranking by the first resource of -r.
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

# ---- -C ranks by the first resource of -r, kind some ----
# Two cgroups: a has more cpu pressure (50 %), b more io (30 %).  The
# second sample's files are put in place between the two samples; the
# tree's proc/uptime says 10 s passed.
T=$TRASH/rank
psi() {	# file some-total full-total
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%s\n' \
	    "$2" "$3" >"$1.new"
	mv "$1.new" "$1"
}
mkdir -p "$T/proc/pressure" "$T/sys/fs/cgroup/a" "$T/sys/fs/cgroup/b"
echo "100.00 150.00" >"$T/proc/uptime"
for c in a b; do
	for r in io cpu memory; do
		psi "$T/sys/fs/cgroup/$c/$r.pressure" 0 0
	done
done
swap() {
	sleep 1
	psi "$T/sys/fs/cgroup/a/cpu.pressure" 5000000 0
	psi "$T/sys/fs/cgroup/a/io.pressure" 1000000 0
	psi "$T/sys/fs/cgroup/b/cpu.pressure" 1000000 0
	psi "$T/sys/fs/cgroup/b/io.pressure" 3000000 0
	echo "110.00 150.00" >"$T/proc/uptime.new"
	mv "$T/proc/uptime.new" "$T/proc/uptime"
}
reset() {
	for c in a b; do
		for r in io cpu; do
			psi "$T/sys/fs/cgroup/$c/$r.pressure" 0 0
		done
	done
	echo "100.00 150.00" >"$T/proc/uptime"
}
swap &
dpsi -R "$T" -C -n 2 -o tsv -H 2 1 >"$TRASH/out" 2>"$TRASH/err"
wait
is "$(awk -F'\t' '$4 == "some" { print $2, $3, $9 }' "$TRASH/out" | tr '\n' ':')" \
    "/b io 30.00:/b memory 0.00:/b cpu 10.00:/a io 10.00:/a memory 0.00:/a cpu 50.00:" \
    "-C default: ranked by io some (b first), not by the busiest resource (cpu)"
reset
swap &
dpsi -R "$T" -C -n 2 -r cpu,io -o tsv -H 2 1 >"$TRASH/out" 2>"$TRASH/err"
wait
is "$(awk -F'\t' '$4 == "some" { print $2, $3, $9 }' "$TRASH/out" | tr '\n' ':')" \
    "/a cpu 50.00:/a io 10.00:/b cpu 10.00:/b io 30.00:" \
    "-C -r cpu,io: ranked by cpu some (a first)"
