#!/bin/sh
# dpsi on captured trees: every value equals the file's, rows only for
# the lines a kernel printed, exact u64 totals, the interval share from
# the tree's own proc/uptime, and Prometheus output against node_exporter.
. "${0%/*}/lib.sh"

D=$FIX/dpsi
[ -x "$TOP/cmd/dpsi/dpsi" ] || skip_all "dpsi not built"

# What the files say, in dpsi's row order (io memory cpu irq; some full),
# read with awk: an independent parse to compare against.
from_files() {
	for r in ${2:-io memory cpu irq}; do
		[ -f "$1/proc/pressure/$r" ] || continue
		awk -v r="$r" '{
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			printf "%s\t%s\t%s\t%s\t%s\t%s\t-\n", r, $1, v["avg10"], v["avg60"], v["avg300"], v["total"]
		}' "$1/proc/pressure/$r"
	done
}

for tree in node_exporter/collector/fixtures prometheus-procfs \
    pcp/qa/linux/pressure-root-001 pcp/qa/linux/pressure-root-002 \
    sysstat/tests/root1 crafted/max; do
	dpsi -R "$D/$tree" -o tsv >"$TRASH/out" 2>"$TRASH/err"
	is "$?" 0 "$tree: exit 0"
	cut -f2- "$TRASH/out" >"$TRASH/got"
	{ printf 'resource\tkind\tavg10\tavg60\tavg300\ttotal\tstall%%\n'
	  from_files "$D/$tree"; } >"$TRASH/want"
	ok "$tree: every value is the file's" test_cmp "$TRASH/want" "$TRASH/got"
	is "$(cat "$TRASH/err")" "" "$tree: nothing on stderr"
done

# Kernel differences: no cpu full before 5.13, irq only full.
t=$D/prometheus-procfs
is "$(dpsi -R "$t" -H -r cpu | cut -f2-3 | tr '\t\n' ' ')" "cpu some " \
	"pre-5.13 cpu: only a some row, none invented"
t=$D/pcp/qa/linux/pressure-root-002
is "$(dpsi -R "$t" -H -r irq | cut -f2-3,7 | tr '\t\n' ' ')" \
	"irq full 100648410 " "irq: only full"
is "$(dpsi -R "$t" -H -r cpu | cut -f3,7 | tr '\t\n' ' ')" \
	"some 424932863 full 387245317 " "6.1 cpu: some and full"

# The u64 limit survives every format.
t=$D/crafted/max
is "$(dpsi -R "$t" -H -r io | head -1 | cut -f7)" 18446744073709551615 \
	"tsv total 18446744073709551615"
dpsi -R "$t" -o json -r io >"$TRASH/json"
ok "json total exact" grep -q '"total":18446744073709551615,' "$TRASH/json"
ok "json valid" json_ok "$TRASH/json"
lacks jq "json stall% null without interval" ||
is "$(jq -r '.["stall%"]' "$TRASH/json" | sort -u)" null "json stall% null without interval"
dpsi -R "$t" -o prom -r io >"$TRASH/prom"
ok "prom counter in seconds, exact" grep -qx \
	'dpsi_io_some_stall_seconds_total 18446744073709.551615' "$TRASH/prom"
ok "prom avg10 100.00% is ratio 1" grep -qx 'dpsi_io_some_avg10_ratio 1' "$TRASH/prom"
ok "prom avg300 0.01% is 0.0001" grep -qx 'dpsi_io_some_avg300_ratio 0.0001' "$TRASH/prom"
ok "prom: no interval, no stall_ratio" sh -c "! grep -q stall_ratio '$TRASH/prom'"

# -r selects and orders.
t=$D/node_exporter/collector/fixtures
is "$(dpsi -R "$t" -H -r memory,io | cut -f2-3 | tr '\t\n' ' ')" \
	"memory some memory full io some io full " "-r memory,io: those, in that order"
is "$(dpsi -R "$t" -H -o table -r io | awk '{ print $2, $3, $7 }' | tr '\n' ' ')" \
	"io some 159886802 io full 159229614 " "table rows"

# Prometheus against node_exporter's expected output on the same files.
dpsi -R "$t" -o prom >"$TRASH/prom"
ne=$D/node_exporter/collector/fixtures/e2e-output.EXCERPT-node_disk-node_pressure-node_textfile.txt
cmp_ne() {
	want=$(awk -v m="$1" '$1 == m { print $2 }' "$ne")
	got=$(awk -v m="$2" '$1 == m { print $2 }' "$TRASH/prom")
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(a != "" && b != "" && (a - b < 1e-9 && b - a < 1e-9)) }'
	_r=$?
	[ $_r -eq 0 ] || echo "# $1=$want $2=$got"
	return $_r
}
ok "io some = node_pressure_io_waiting_seconds_total" \
	cmp_ne node_pressure_io_waiting_seconds_total dpsi_io_some_stall_seconds_total
ok "io full = node_pressure_io_stalled_seconds_total" \
	cmp_ne node_pressure_io_stalled_seconds_total dpsi_io_full_stall_seconds_total
ok "memory full = node_pressure_memory_stalled_seconds_total" \
	cmp_ne node_pressure_memory_stalled_seconds_total dpsi_memory_full_stall_seconds_total
ok "cpu some = node_pressure_cpu_waiting_seconds_total" \
	cmp_ne node_pressure_cpu_waiting_seconds_total dpsi_cpu_some_stall_seconds_total
ok "irq full = node_pressure_irq_stalled_seconds_total" \
	cmp_ne node_pressure_irq_stalled_seconds_total dpsi_irq_full_stall_seconds_total
ok "cpu some printed exactly (node_exporter: 14.036781000000001)" \
	grep -qx 'dpsi_cpu_some_stall_seconds_total 14.036781' "$TRASH/prom"
# Well formed: HELP and TYPE once per family, families not interleaved,
# every sample line "name value" with a name the TYPE line announced.
ok "prom: one HELP per family" sh -c "grep '^# HELP' '$TRASH/prom' | awk '{print \$3}' | sort | uniq -d | grep -q . && exit 1 || exit 0"
ok "prom: families contiguous, samples typed" awk '
	/^# TYPE / { if ($3 in seen) bad = 1; seen[$3] = 1; fam = $3; next }
	/^# HELP / { next }
	{ n = $1; sub(/\{.*/, "", n); if (n != fam || NF != 2 || $2 !~ /^[0-9.e+-]+$/) { bad = 1; print "# " $0 } }
	END { exit bad }' "$TRASH/prom"
is "$(grep -c '^# TYPE .* counter$' "$TRASH/prom")" 7 "prom: 7 counters (7 lines in the files)"
ok "prom: counters end in _total" sh -c "! grep '^# TYPE' '$TRASH/prom' | grep counter | grep -v '_total counter'"
ok "prom: a zero gauge is still exported (cpu full is in the file)" \
	grep -q '^dpsi_cpu_full_avg10_ratio 0$' "$TRASH/prom"
ok "prom: no irq some family (the file has none)" sh -c "! grep -q irq_some '$TRASH/prom'"

# The interval share from the tree's own clock: sysstat's tests/root1,
# then root2 (31.17 s later by their proc/uptime) put in place between
# the two samples dpsi takes 2 s apart.
mkdir -p "$TRASH/tree/proc/pressure"
cp "$D/sysstat/tests/root1/proc/uptime" "$TRASH/tree/proc/"
cp "$D"/sysstat/tests/root1/proc/pressure/* "$TRASH/tree/proc/pressure/"
(
	sleep 1
	for f in cpu io memory; do
		cp "$D/sysstat/tests/root2/proc/pressure/$f" "$TRASH/tree/proc/pressure/.$f"
		mv "$TRASH/tree/proc/pressure/.$f" "$TRASH/tree/proc/pressure/$f"
	done
	cp "$D/sysstat/tests/root2/proc/uptime" "$TRASH/tree/proc/.uptime"
	mv "$TRASH/tree/proc/.uptime" "$TRASH/tree/proc/uptime"
) &
dpsi -R "$TRASH/tree" -o tsv -H 2 1 >"$TRASH/out"
wait
# io some: (96968324 - 96242289) us / 31.17 s = 2.3293 %
cut -f2,3,7,8 "$TRASH/out" >"$TRASH/got"
printf '%s\t%s\t%s\t%s\n' \
	io some 96968324 2.33 \
	io full 93434041 2.25 \
	memory some 16030 0.05 \
	memory full 7200 0.02 \
	cpu some 1481906 0.03 >"$TRASH/want"
ok "stall% = delta total / delta proc/uptime (root1 -> root2)" test_cmp "$TRASH/want" "$TRASH/got"
