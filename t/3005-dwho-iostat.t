#!/bin/sh
# dwho -g from cgroup v2 io.stat on a captured tree (PCP's
# cgroups-root-004, with hand-made sysfs links: dm-0..2 on sda2):
# exact totals per cgroup and device, the "all" row counting each byte
# once (the top of each stack), and over an interval: rates, a recreated
# cgroup starting over, a vanished device.
. "${0%/*}/lib.sh"
need_cmd jq

TREE=$FIX/dwho/cgroups-root-004
CG=$TREE/sys/fs/cgroup

dwho -R "$TREE" -g -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "exit 0"
is "$(cat "$TRASH/err")" "dwho: -g: per-cgroup figures from io.stat under /sys/fs/cgroup" \
    "stderr says the source"
ok "TSV field counts" fields_ok "$TRASH/out"
# every device row equals its io.stat line, field for field
for f in $(cd "$CG" && find . -name io.stat | sort); do
	cg=${f#.}
	cg=${cg%/io.stat}
	while read -r dev rest; do
		[ -n "$dev" ] || continue
		echo "$cg $dev $(echo "$rest" | sed 's/[a-z]*=//g')"
	done <"$CG/$f"
done | sed 's/ 8:0 / sda /; s/ 253:\([0-9]\) / dm-\1 /' | sort >"$TRASH/want"
awk -F'\t' 'NR > 1 && $3 != "all" { print $2, $3, $4, $5, $6, $7, $8, $9 }' "$TRASH/out" |
    sort >"$TRASH/got"
ok "device rows: the files' exact totals" test_cmp "$TRASH/want" "$TRASH/got"
is "$(wc -l <"$TRASH/got")" 15 "15 device rows"

# all = dm-0 + dm-1 + dm-2 (sda, which they sit on, left out)
awk '$2 ~ /^dm-/ { for (i = 3; i <= 8; i++) s[$1, i] += $i; c[$1] = 1 }
    END { for (k in c) { printf "%s all", k; for (i = 3; i <= 8; i++) printf " %.0f", s[k, i]; print "" } }' \
    "$TRASH/want" | sort >"$TRASH/wantall"
awk -F'\t' 'NR > 1 && $3 == "all" { print $2, $3, $4, $5, $6, $7, $8, $9 }' "$TRASH/out" |
    sort >"$TRASH/gotall"
ok "all rows: the stacked devices once, not their disk too" test_cmp "$TRASH/wantall" "$TRASH/gotall"
is "$(awk -F'\t' '$2 == "/user.slice" && $3 == "all" { print $4 }' "$TRASH/out")" 201841401856 \
    "/user.slice all rbytes"
is "$(grep -c 'libpod' "$TRASH/out")" 0 "cgroups with empty io.stat: hidden"
is "$(dwho -R "$TREE" -g -a -o tsv 2>/dev/null | grep -c 'libpod.*	all	0	0	0	0	0	0	-$')" 2 \
    "-a: empty io.stat gives an all row of zeros"

dwho -R "$TREE" -G iostat -o json >"$TRASH/json" 2>/dev/null
ok "JSON valid" json_ok "$TRASH/json"
is "$(jq -r 'select(.cgroup == "/system.slice" and .device == "dm-1") | .wbytes' "$TRASH/json")" 39386140672 \
    "JSON numbers exact"
dwho -R "$TREE" -g -o prom >"$TRASH/prom" 2>/dev/null
ok "prom well formed" awk '
	/^# HELP dwho_cgroup_[a-z_]+_total / { next }
	/^# TYPE dwho_cgroup_[a-z_]+_total counter$/ { next }
	/^dwho_cgroup_[a-z_]+_total\{cgroup="[^"]*",device="[^"]*"\} [0-9]+$/ { n++; next }
	{ print "# bad: " $0; bad = 1 }
	END { exit bad || n != 114 }' "$TRASH/prom"
ok "prom counter" grep -qx 'dwho_cgroup_write_bytes_total{cgroup="/user.slice",device="dm-1"} 2229451759616' "$TRASH/prom"
is "$(dwho -R "$TREE" -g -s wbytes -n 2 -H -o tsv 2>/dev/null | cut -f2,3 | tr '\t\n' ': ')" \
    "/user.slice:sda /user.slice:all " "-s wbytes -n 2"
test_must_fail 2 dwho -R "$TREE" -G iostat -p 1 >/dev/null 2>&1
is "$?" 0 "-G iostat with -p: usage"
test_must_fail 2 dwho -R "$TREE" -G nosuch >/dev/null 2>&1
is "$?" 0 "-G unknown source: usage"
# One set of sort keys on both sources: kB_rd/s is rkB/s here.
dwho -R "$TREE" -g -s kB_rd/s -o tsv >"$TRASH/s1" 2>/dev/null
dwho -R "$TREE" -g -s rkB/s -o tsv >"$TRASH/s2" 2>/dev/null
dwho -R "$TREE" -g -s read -o tsv >"$TRASH/s3" 2>/dev/null
is "$(cut -f2- "$TRASH/s1")" "$(cut -f2- "$TRASH/s2")" "-s kB_rd/s with io.stat: the same order as rkB/s"
is "$(cut -f2- "$TRASH/s3")" "$(cut -f2- "$TRASH/s2")" "-s read with io.stat: the same order as rkB/s"
test_must_fail 2 dwho -R "$TREE" -G iostat -s hit >/dev/null 2>"$TRASH/err"
is "$?" 0 "-G iostat -s hit (not in io.stat): usage"
ok "-G iostat -s hit: says why" grep -q "^dwho: -s 'hit': not in io.stat" "$TRASH/err"

# -- two samples of a copy: swap files between them (by rename)
T=$TRASH/t
cp -a "$TREE" "$T"
mkdir -p "$T/proc"
echo "100.00 100.00" >"$T/proc/uptime"
dwho -R "$T" -g -o tsv 3 1 >"$TRASH/out" 2>"$TRASH/err" &
dw=$!
sleep 1
u=$T/sys/fs/cgroup/user.slice/io.stat
# user.slice: 4 MiB more read on dm-1 and sda over 4 s
awk '$1 == "253:1" || $1 == "8:0" { sub(/rbytes=[0-9]+/, sprintf("rbytes=%.0f", substr($2, 8) + 4194304)) } { print }' "$u" >"$u.new"
mv "$u.new" "$u"
# system.slice recreated: a new directory (inode) with small counters
# (made before the old one goes, so its inode differs)
mkdir "$T/sys/fs/cgroup/new.slice"
echo "253:0 rbytes=8192 wbytes=0 rios=2 wios=0 dbytes=0 dios=0" >"$T/sys/fs/cgroup/new.slice/io.stat"
rm -rf "$T/sys/fs/cgroup/system.slice"
mv "$T/sys/fs/cgroup/new.slice" "$T/sys/fs/cgroup/system.slice"
# machine.slice: a device with no sysfs entry appears
m=$T/sys/fs/cgroup/machine.slice/io.stat
{ cat "$m"; echo "259:9 rbytes=0 wbytes=4096 rios=0 wios=1 dbytes=0 dios=0"; } >"$m.new"
mv "$m.new" "$m"
echo "104.00 100.00" >"$T/proc/uptime.new"
mv "$T/proc/uptime.new" "$T/proc/uptime"
wait $dw
is "$?" 0 "interval: exit 0"
cut -f2- "$TRASH/out" >"$TRASH/got"
printf '%s\n' \
    'cgroup	device	rkB/s	wkB/s	r/s	w/s	dkB/s	d/s	limit' \
    '/machine.slice	259:9	0.00	1.00	0.00	0.25	0.00	0.00	-' \
    '/system.slice	all	2.00	0.00	0.50	0.00	0.00	0.00	-' \
    '/system.slice	dm-0	2.00	0.00	0.50	0.00	0.00	0.00	-' \
    '/user.slice	all	1024.00	0.00	0.00	0.00	0.00	0.00	-' \
    '/user.slice	sda	1024.00	0.00	0.00	0.00	0.00	0.00	-' \
    '/user.slice	dm-1	1024.00	0.00	0.00	0.00	0.00	0.00	-' >"$TRASH/want"
ok "interval: rates; recreated cgroup from its own counters; vanished device MAJ:MIN and not in all" \
    test_cmp "$TRASH/want" "$TRASH/got"

# malformed lines: noted, the rest read
printf 'junk\n8:0 rbytes=7\n' >"$T/sys/fs/cgroup/system.slice/io.stat"
dwho -R "$T" -g -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "malformed io.stat: exit 0"
ok "malformed io.stat: the good line" grep -q '^[0-9.]*	/system.slice	sda	7	' "$TRASH/out"
is "$(cat "$TRASH/err" | grep -v 'figures from io.stat')" "dwho: 1 malformed io.stat line skipped" "malformed io.stat: noted"

# io.max beside the rate: the limit of the row's cgroup on its device,
# and every device's on the all row, as io.max writes them.
L=$TRASH/limit
cp -R "$TREE" "$L"
printf '8:0 rbps=max wbps=1048576 riops=50 wiops=max\n' >"$L/sys/fs/cgroup/user.slice/io.max"
dwho -R "$L" -g -o tsv 2>/dev/null >"$TRASH/out"
is "$(awk -F'\t' '$2 == "/user.slice" && ($3 == "sda" || $3 == "all" || $3 == "dm-1") { print $3 "=" $NF }' "$TRASH/out" | sort | paste -sd' ' -)" \
    "all=8:0 wbps=1048576 riops=50 dm-1=- sda=wbps=1048576 riops=50" \
    "io.max: the limit on sda beside its rate, every device's on all, none on dm-1"
