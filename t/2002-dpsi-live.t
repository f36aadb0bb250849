#!/bin/sh
# dpsi on this kernel while a writer does synchronous direct I/O: the
# io some share over an interval is Δtotal/Δt, and wait mode's kernel
# trigger fires (exit 0) or times out (exit 3).
. "${0%/*}/lib.sh"

[ -x "$TOP/cmd/dpsi/dpsi" ] || skip_all "dpsi not built"
[ -r /proc/pressure/io ] || skip_all "no /proc/pressure/io (PSI off)"
need_cmd dd awk

# The writer: O_DIRECT|O_DSYNC 4 KiB writes wait on the device, which is
# what io pressure counts.  A file in $TRASH, or a loop device when the
# scratch filesystem has no O_DIRECT (tmpfs).
target=$TRASH/f
if ! dd if=/dev/zero of="$target" bs=4k count=1 oflag=direct,dsync 2>/dev/null; then
	need_loop
	target=/dev/$(mkloop 64) || skip_all "no loop device"
fi
(
	while [ ! -e "$TRASH/stop" ]; do
		dd if=/dev/zero of="$target" bs=4k count=64 oflag=direct,dsync 2>/dev/null
	done
) &
writer=$!
at_exit "touch '$TRASH/stop'; kill $writer 2>/dev/null; wait $writer 2>/dev/null"
sleep 1

total() { awk '/^some/ { sub("total=", "", $5); print $5 }' /proc/pressure/io; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# Two reports 2 s apart, bracketed by our own reads.
b_total=$(total)
b_up=$(uptime_s)
dpsi -r io -o tsv -H 2 2 >"$TRASH/out"
is "$?" 0 "dpsi -r io 2 2: exit 0"
a_total=$(total)
a_up=$(uptime_s)
grep '	io	some	' "$TRASH/out" >"$TRASH/some"
is "$(wc -l <"$TRASH/some")" 2 "two io some rows"
ok "io some stall% non-zero under the writer" \
	awk -F'\t' '{ if ($8 == "-" || $8 + 0 <= 0) exit 1 }' "$TRASH/some"
# The second report: stall% = (total2 - total1) / (time2 - time1).
ok "stall% = Δtotal/Δt of dpsi's own rows (±0.5)" awk -F'\t' '
	NR == 1 { t = $1; v = $7; next }
	{ want = ($7 - v) / 1e6 / ($1 - t) * 100; if (want > 100) want = 100
	  d = $8 - want; printf "# stall%% %s, Δtotal/Δt %.2f\n", $8, want
	  exit !(d <= 0.5 && d >= -0.5) }' "$TRASH/some"
ok "totals between our own before/after reads" awk -F'\t' -v b="$b_total" -v a="$a_total" '
	{ if ($7 < b || $7 > a) bad = 1 } END { exit bad }' "$TRASH/some"
# Our reads span a little more than dpsi's: the shares are close.
ok "stall% close to our own Δtotal/Δt over the run" awk -F'\t' \
    -v b="$b_total" -v a="$a_total" -v bu="$b_up" -v au="$a_up" '
	{ s += $8; n++ }
	END { outer = (a - b) / 1e4 / (au - bu); mean = s / n
	      printf "# dpsi mean %.2f, ours %.2f\n", mean, outer
	      d = mean - outer; exit !(d < 15 && d > -15) }' "$TRASH/some"

dpsi -r io -o prom 1 1 >"$TRASH/prom"
ok "prom with an interval: stall_ratio gauge 0..1" awk '
	$1 == "dpsi_io_some_stall_ratio" { found = 1; if ($2 < 0 || $2 > 1) bad = 1 }
	END { exit !(found && !bad) }' "$TRASH/prom"

# Wait mode on the kernel's trigger.
start=$(date +%s)
dpsi -W io:some:50ms/2s -T 30 -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
st=$?
end=$(date +%s)
is "$st" 0 "-W io:some:50ms/2s: fired, exit 0"
ok "-w: within a few windows" test $((end - start)) -le 10
is "$(cut -f2,3 "$TRASH/out" | tr '\t\n' ' ')" "io some io full " "-w: the io rows"
is "$(cat "$TRASH/err")" "" "-w: the kernel trigger, no fallback message"
ok "-w: the event's stall% is non-zero" awk -F'\t' 'NR == 1 { exit !($8 + 0 > 0) }' "$TRASH/out"

test_must_fail 3 dpsi -W io:some:2s/2s -T 1 >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-W io:some:2s/2s -T 1: impossible within 1 s, exit 3"
is "$(wc -c <"$TRASH/out")" 0 "timeout: no rows"

dpsi -W io:some:50ms/2s -T 30 -H 2 >"$TRASH/out"
is "$?" 0 "-w with a count of 2: exit 0"
is "$(grep -c '	io	some	' "$TRASH/out")" 2 "two events reported"

# io full needs every non-idle task stalled at once: on a machine shared
# with busy neighbours it may not happen, so the json check uses some.
dpsi -W io:some:100ms/2s -T 30 -o json >"$TRASH/json"
is "$?" 0 "-W io:some:100ms/2s -o json: fired"
ok "wait mode json valid" json_ok "$TRASH/json"
lacks jq "wait mode json: io rows" ||
is "$(jq -r .resource "$TRASH/json" | sort -u)" io "wait mode json: io rows"

# Without CAP_SYS_RESOURCE the kernel wants a multiple of 2 s: say so.
if command -v setpriv >/dev/null 2>&1 &&
    setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource true 2>/dev/null; then
	test_must_fail 1 setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource \
		dpsi -W io:some:50ms/1s -T 5 >/dev/null 2>"$TRASH/err"
	is "$?" 0 "unprivileged 1 s window: exit 1"
	ok "unprivileged 1 s window: explained" grep -qx \
		'dpsi: io:some:50ms/1s: without CAP_SYS_RESOURCE the kernel takes only windows that are a multiple of 2s' "$TRASH/err"
	setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource \
		dpsi -W io:some:50ms/2s -T 30 >/dev/null 2>"$TRASH/err"
	is "$?" 0 "unprivileged 2 s window: armed and fired"
else
	skip "unprivileged trigger rules" "no setpriv or cannot drop capabilities"
fi
