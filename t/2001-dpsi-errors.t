#!/bin/sh
# dpsi: PSI off, damaged files, cgroup trees (found from the mount
# table, hostile names, pressure off), usage errors, wait mode on a
# captured tree.  EOPNOTSUPP on read (4.20-5.5, RHEL 8 with psi=0)
# cannot be made with a file: t/unit/psi.c tests its message mapping.
. "${0%/*}/lib.sh"

D=$FIX/dpsi
[ -x "$TOP/cmd/dpsi/dpsi" ] || skip_all "dpsi not built"

# PSI off: no proc/pressure.
test_must_fail 1 dpsi -R "$D/crafted/empty" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "no proc/pressure: exit 1"
is "$(cat "$TRASH/err")" "dpsi: proc/pressure: PSI is disabled in this kernel: boot with psi=1 (or build with CONFIG_PSI=y)" \
	"no proc/pressure: says boot with psi=1"
is "$(wc -c <"$TRASH/out")" 0 "no proc/pressure: no rows invented"

# Damaged files: a message each, the good lines still print, exit 1.
test_must_fail 1 dpsi -R "$D/crafted/damaged" -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "damaged files: exit 1"
is "$(cut -f2,3,7 "$TRASH/out" | tr '\t\n' ' ')" "io full 92732851 cpu some 1473177 " \
	"damaged files: good lines printed, bad ones not"
ok "malformed line named, and why" grep -qx 'dpsi: proc/pressure/io: line 1: total is not a count of microseconds (1 line skipped)' "$TRASH/err"
ok "truncated file named, and what it lacks" grep -qx 'dpsi: proc/pressure/memory: line 1: no avg300 (1 line skipped, no line to report)' "$TRASH/err"

# Each reason a line is refused is named, with the line; the good line
# of the file still prints.
for c in \
	'some avg10=1.109 avg60=0.00 avg300=0.00 total=5|line 1: avg10 has more decimals than the kernel prints (1 line skipped)' \
	'some avg10=0.00 avg60=0.00 avg300=100.01 total=5|line 1: avg300 is not a percentage from 0.00 to 100.00 (1 line skipped)' \
	'some avg10=0.00 avg60=0.00 avg60=0.00 total=5|line 1: avg60 twice (1 line skipped)' \
	'some avg10=0.00|line 1: no avg60 (1 line skipped)' \
	'stalled avg10=0.00 avg60=0.00 avg300=0.00 total=5|line 1: not a some or full line (1 line skipped)'
do
	rm -rf "$TRASH/why" && mkdir -p "$TRASH/why/proc/pressure"
	printf '%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=7\n' "${c%%|*}" >"$TRASH/why/proc/pressure/io"
	test_must_fail 1 dpsi -R "$TRASH/why" -r io -H >"$TRASH/out" 2>"$TRASH/err"
	is "$?" 0 "${c#*|}: exit 1"
	is "$(cat "$TRASH/err")" "dpsi: proc/pressure/io: ${c#*|}" "${c#*|}: the message"
	is "$(cut -f2,3,7 "$TRASH/out" | tr '\t' ' ')" "io full 7" "${c#*|}: the good line printed"
done
# Several bad lines: the first named, the count given.
printf 'some avg10=0.001 avg60=0 avg300=0 total=1\nfull x\nfull y\n' >"$TRASH/why/proc/pressure/io"
test_must_fail 1 dpsi -R "$TRASH/why" -r io -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "no good line: exit 1"
is "$(cat "$TRASH/err")" "dpsi: proc/pressure/io: line 1: avg10 has more decimals than the kernel prints (3 lines skipped, no line to report)" \
	"no good line: the first named, the count given"
is "$(wc -c <"$TRASH/out")" 0 "no good line: no row"

# A resource asked for by name that this kernel lacks.
test_must_fail 1 dpsi -R "$D/prometheus-procfs" -H -r io,irq >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-r irq without irq: exit 1"
is "$(cut -f2 "$TRASH/out" | sort -u)" io "-r io,irq: io rows still print"
ok "-r irq: says why" grep -q 'proc/pressure/irq: not in this kernel (6.1+ with CONFIG_IRQ_TIME_ACCOUNTING)' "$TRASH/err"
is "$(dpsi -R "$D/prometheus-procfs" -H | cut -f2 | sort -u | tr '\n' ' ')" "cpu io memory " \
	"default resources: irq quietly absent"

# cgroups of a captured tree (pcp cgroups-root-004, v2 at sys/fs/cgroup).
C=$D/pcp/qa/linux/cgroups-root-004
dpsi -R "$C" -c system.slice -r io -o tsv >"$TRASH/out"
is "$(cut -f2-8 "$TRASH/out" | tr '\t\n' ' ')" \
	"cgroup resource kind avg10 avg60 avg300 total /system.slice io some 0.00 0.00 0.00 18750538685 /system.slice io full 0.00 0.00 0.00 18720482289 " \
	"-c system.slice: the file's values, cgroup column"
is "$(dpsi -R "$C" -c /system.slice/ -r cpu -H | cut -f2-4,8 | tr '\t\n' ' ')" \
	"/system.slice cpu some 23371000 " "-c /system.slice/: same cgroup; cpu only some"
is "$(dpsi -R "$C" -C -r io -H | cut -f2 | uniq | tr '\n' ' ')" \
	"/init.scope /machine.slice /machine.slice/machine-libpod_pod_17a0d088e8b115261fa578e09a9260fc8017c7a7219bc9e05013d6ab43521573.slice /machine.slice/machine-libpod_pod_182f9b0428d6ecc2aa915fe667037be8b9028fe24951080c83abecb3c348f1ab.slice /system.slice /user.slice " \
	"-C: every cgroup with pressure files, in path order, top without files skipped"
is "$(dpsi -R "$C" -C -c machine.slice -r memory -H | cut -f2 | uniq | wc -l)" 2 \
	"-c machine.slice -C: the two cgroups below it"
test_must_fail 1 dpsi -R "$C" -c nope 2>"$TRASH/err"
is "$?" 0 "-c missing: exit 1"
ok "-c missing: says so" grep -q '^dpsi: cgroup /nope (under /sys/fs/cgroup): No such file or directory' "$TRASH/err"
test_must_fail 1 dpsi -R "$C" -c ../../proc 2>"$TRASH/err"
is "$?" 0 "-c ..: exit 1"
ok "-c ..: refused" grep -q 'leaves the hierarchy' "$TRASH/err"
test_must_fail 1 dpsi -R "$D/prometheus-procfs" -C 2>"$TRASH/err"
is "$?" 0 "-C without a mount table: exit 1"
ok "-C without a mount table nor sys/fs/cgroup: says so" grep -q '^dpsi: cgroup / (under /sys/fs/cgroup): No such file' "$TRASH/err"

# A made-up hybrid host: v1 tmpfs at sys/fs/cgroup (with a decoy
# io.pressure) and cgroup2 at sys/fs/cgroup/unified.  Names with tab,
# newline and invalid UTF-8; one cgroup with pressure off.
H=$TRASH/hybrid
U=$H/sys/fs/cgroup/unified
mkdir -p "$H/proc/self" "$U"
cat >"$H/proc/self/mountinfo" <<'EOF'
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
EOF
psi() { printf 'some avg10=%s avg60=0.00 avg300=0.00 total=%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%s\n' "$2" "$3" "$4" >"$1/io.pressure"; }
psi "$H/sys/fs/cgroup" 99.00 1 1
psi "$U" 1.00 1000 500
tabname=$(printf 'a\tb')
nlname=$(printf 'c\nd')
badname=$(printf 'bad\377\376')
mkdir "$U/$tabname" "$U/$nlname" "$U/$badname" "$U/off"
psi "$U/$tabname" 5.00 2000 1000
psi "$U/$nlname" 7.00 3000 1000
psi "$U/$badname" 3.00 4000 1000
: >"$U/off/cgroup.procs"
dpsi -R "$H" -c / -H -r io >"$TRASH/out"
is "$(head -1 "$TRASH/out" | cut -f2,5,8)" "$(printf '/\t1.00\t1000')" \
	"hybrid: v2 found at sys/fs/cgroup/unified from the mount table, not sys/fs/cgroup"
dpsi -R "$H" -C -o tsv >"$TRASH/tsv"
ok "hostile names: tsv field counts" fields_ok "$TRASH/tsv"
is "$(wc -l <"$TRASH/tsv")" 7 "hostile names: 3 cgroups x 2 rows + header (not the top, off has none)"
ok "tab escaped in tsv" grep -q '^[^	]*	/a\\tb	io	some' "$TRASH/tsv"
ok "newline escaped in tsv" grep -q '	/c\\nd	io	some' "$TRASH/tsv"
dpsi -R "$H" -C -o json >"$TRASH/json"
ok "hostile names: valid json" json_ok "$TRASH/json"
lacks jq "json: names round-trip (invalid UTF-8 as U+FFFD)" ||
is "$(jq -r 'select(.kind == "some") | .cgroup' "$TRASH/json" | od -An -c | tr -s ' ' | tr -d '\n')" \
	" / a \t b \n / b a d 357 277 275 357 277 275 \n / c \n d \n" \
	"json: names round-trip (invalid UTF-8 as U+FFFD)"
dpsi -R "$H" -C -o prom >"$TRASH/prom"
ok "prom: newline in label escaped" grep -qx 'dpsi_io_some_stall_seconds_total{cgroup="/c\\nd"} 0.003000' "$TRASH/prom"
ok "prom: tab kept raw in label" grep -q "^dpsi_io_some_stall_seconds_total{cgroup=\"/a	b\"} 0.002000$" "$TRASH/prom"
is "$(grep -c '^# TYPE dpsi_io_some_stall_seconds_total counter$' "$TRASH/prom")" 1 "prom: one TYPE for the family"
is "$(grep -c "^dpsi_io_some_stall_seconds_total{" "$TRASH/prom")" 3 "prom: one sample per cgroup"
# -n keeps the top N; without an interval by the kernel's avg10.
is "$(dpsi -R "$H" -C -n 2 -H -r io | cut -f2 | uniq | tr '\n' ' ')" '/c\nd /a\tb ' \
	"-C -n 2 without an interval: top 2 by avg10"
test_must_fail 1 dpsi -R "$H" -c off 2>"$TRASH/err"
is "$?" 0 "cgroup.pressure 0: exit 1"
ok "cgroup.pressure 0: says so" grep -qx 'dpsi: cgroup /off: pressure accounting is off for this cgroup: echo 1 > cgroup.pressure' "$TRASH/err"

# Usage errors: exit 2 and a reason.
for args in "-r disk" "-n 3" "-T 1" "-C -n 0" "-W io:some:150ms" "-W io:some:1s/20s" \
    "-W io:some:3s/2s" "-W io:sometimes:1s/2s" "-W io:some:1s/2s -C" "-W io:some:1s/2s -r io" \
    "-W io:some:1s/2s 1 2" "1 2 3"; do
	test_must_fail 2 dpsi $args >/dev/null 2>"$TRASH/err"
	is "$?" 0 "usage error: dpsi $args"
	ok "usage error: dpsi $args: usage printed" grep -q '^usage: dpsi' "$TRASH/err"
done
ok "window out of range explained" sh -c "dpsi -W io:some:1s/20s 2>&1 | grep -q 'the window must be 500ms to 10s'"

# -w FILE is still the common output file; a trigger starts with a resource.
dpsi -R "$D/crafted/max" -o prom -w "$TRASH/dpsi.prom" >"$TRASH/out"
ok "-w FILE writes the file" grep -q '^dpsi_io_some_stall_seconds_total 18446744073709.551615$' "$TRASH/dpsi.prom"
is "$(wc -c <"$TRASH/out")" 0 "-w FILE: nothing on stdout"

# Wait mode on a captured tree: no kernel trigger, so dpsi says it
# samples total instead; -T gives up with 3; a growing total is an event.
T=$TRASH/wait
mkdir -p "$T/proc/pressure"
cp "$D/sysstat/tests/root1/proc/pressure/io" "$T/proc/pressure/io"
test_must_fail 3 dpsi -R "$T" -W io:some:50ms/1s -T 1 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "captured tree, -T 1: exit 3"
ok "says it samples instead" grep -q 'io:some:50ms/1s: not a kernel pressure file (a captured tree): sampling total every 100 ms instead' "$TRASH/err"
is "$(wc -c <"$TRASH/out")" 0 "timeout: no rows"
( sleep 0.5; printf 'some avg10=0.45 avg60=0.34 avg300=0.20 total=96442289\nfull avg10=0.45 avg60=0.33 avg300=0.20 total=92732851\n' \
	>"$T/proc/pressure/.io"; mv "$T/proc/pressure/.io" "$T/proc/pressure/io" ) &
dpsi -R "$T" -W io:some:150ms/1s -T 10 -H >"$TRASH/out" 2>/dev/null
st=$?
wait
is "$st" 0 "200 ms more io some within 1 s: event, exit 0"
is "$(cut -f2,3,7 "$TRASH/out" | tr '\t\n' ' ')" "io some 96442289 io full 92732851 " \
	"the event prints the resource's rows"
test_must_fail 1 dpsi -R "$D/crafted/empty" -W io:some:50ms/1s -T 1 2>"$TRASH/err"
is "$?" 0 "wait without proc/pressure: exit 1"
ok "wait without proc/pressure: psi=1" grep -q 'proc/pressure/io: PSI is disabled in this kernel: boot with psi=1' "$TRASH/err"
test_must_fail 1 dpsi -R "$D/prometheus-procfs" -W cpu:full:1s/2s -T 1 2>"$TRASH/err"
is "$?" 0 "wait on a line the kernel lacks: exit 1"
ok "wait on cpu full before 5.13: says so" grep -q 'cpu full: no such line in proc/pressure/cpu' "$TRASH/err"
