#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# prometheus/diskstat-rules.yml: promtool check rules passes, and each
# alert fires, with its labels and text, and stays silent where it must,
# under "promtool test rules" on series the tools wrote: dxstat on pairs
# of snapshots, dqueue on a sys tree, dpsi on a tree a minute apart each,
# ddeleted on tmpfs mounts of our own holding a deleted file, dlat on a
# loop device of our own, fast and then throttled, each run with -o prom
# -w, their files turned into one-minute test series by
# t/fixtures/prom/promseries.py.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
. "${0%/*}/dlat-lib.sh"
need_cmd python3
PROMTOOL=$(command -v promtool) || skip_all "needs promtool (package prometheus)"
fleet_tools
RULES=$TOP/prometheus/diskstat-rules.yml
SER=$FIX/prom/promseries.py
P=$TRASH/prom
mkdir "$P"
have() { case " $tools " in *" $1 "*) return 0 ;; esac; return 1; }

"$PROMTOOL" check rules "$RULES" >"$TRASH/out" 2>&1
st=$?
n=$(grep -c '^ *- \(record\|alert\): ' "$RULES")
is "$st:$(sed -n 's/^ *SUCCESS: //p' "$TRASH/out")" "0:$n rules found" "promtool check rules: $n rules"

# The converter on a known input: values in expanding notation, the
# collector's series, stale and broken segments.
printf '# HELP a_x X.\n# TYPE a_x gauge\na_x{d="s\\"q"} 1.50\na_x{d="b"} 2\n' >"$TRASH/one.prom"
printf '# HELP a_x X.\n# TYPE a_x gauge\na_x{d="s\\"q"} 1.5\n' >"$TRASH/two.prom"
mkdir "$TRASH/c"
cp "$TRASH/two.prom" "$TRASH/c/one.prom"
cat >"$TRASH/expect.ser" <<'EOF'
  - series: 'a_x{d="b",instance="h",job="j"}'
    values: '2x1 stale _x3'
  - series: 'a_x{d="s\"q",instance="h",job="j"}'
    values: '1.5x5'
  - series: 'node_textfile_mtime_seconds{file="/tf/one.prom",instance="h",job="j"}'
    values: '0 60 120 180x2'
  - series: 'node_textfile_scrape_error{instance="h",job="j"}'
    values: '0x4 1'
EOF
python3 "$SER" --labels instance=h,job=j --dir /tf --indent 2 \
    2:"$TRASH/one.prom" 2:"$TRASH/c/one.prom" 1:stale 1:broken >"$TRASH/got.ser"
is "$?" 0 "promseries.py: exit 0"
ok "promseries.py: series as expected" test_cmp "$TRASH/expect.ser" "$TRASH/got.ser"
printf 'a_x 1 1700000000\n' >"$TRASH/ts.prom"
test_must_fail 1 python3 "$SER" 1:"$TRASH/ts.prom" 2>/dev/null
is "$?" 0 "promseries.py: a timestamp is an error"

# series SEGMENT...: the input_series of a test, indented for it.
series() {
	python3 "$SER" --indent 6 "$@" || echo "      - promseries.py failed"
}
# run NAME: promtool test rules on $TRASH/NAME.yml.
run() {
	"$PROMTOOL" test rules "$TRASH/$1.yml" >"$TRASH/$1.out" 2>&1
	st=$?
	if [ $st -eq 0 ]; then
		pass "$2"
	else
		fail "$2"
		sed 's/^/# /' "$TRASH/$1.out" | head -40
	fi
	return $st
}
head_yml() {
	printf 'rule_files:\n  - %s\nevaluation_interval: 1m\ntests:\n' "$RULES"
}

# ---- Saturation: dxstat on snapshot pairs, dqueue on a sys tree.
if have dxstat && have dqueue; then
	# The queue limits: sda mq-deadline, 64 requests, 1 hardware queue;
	# nvme0n1 scheduler none, 4 driver tags on each of 2 queues (8).
	Q=$TRASH/qtree/sys/block
	mkdir -p "$Q/sda/queue" "$Q/sda/mq/0" "$Q/nvme0n1/queue" "$Q/nvme0n1/mq/0" "$Q/nvme0n1/mq/1"
	echo 'none [mq-deadline]' >"$Q/sda/queue/scheduler"
	echo 64 >"$Q/sda/queue/nr_requests"
	echo '[none] mq-deadline' >"$Q/nvme0n1/queue/scheduler"
	echo 4 >"$Q/nvme0n1/queue/nr_requests"
	mkdir "$P/q"
	dqueue -R "$TRASH/qtree" -o prom -w "$P/q/dqueue.prom"
	is "$?" 0 "dqueue -o prom -w on the queue tree"
	is "$(grep -E '^dqueue_(nr_requests|nr_hw_queues)' "$P/q/dqueue.prom" | tr '\n' ' ')" \
	    'dqueue_nr_requests{device="nvme0n1"} 4 dqueue_nr_requests{device="sda"} 64 dqueue_nr_hw_queues{device="nvme0n1"} 2 dqueue_nr_hw_queues{device="sda"} 1 ' \
	    "dqueue: nr_requests and nr_hw_queues of both devices"

	# phase NAME SDA NVME: dxstat's report over 60 s between two
	# snapshots, each device given as r/s:await_ms:aqu-sz:util% (reads of
	# 4 KiB; time_in_queue = aqu-sz x 60 s, io_ticks = util x 60 s).
	line() {
		echo "$3" | awk -F: -v maj="$1" -v n="$2" '{
			ios = $1 * 60
			printf "%4d %7d %s %d 0 %d %d 0 0 0 0 %d %d %d 0 0 0 0 0 0\n",
			    maj, 0, n, ios, ios * 8, ios * $2, int($3 + 0.5),
			    $4 * 600, $3 * 60000 }'
	}
	phase() {
		mkdir "$P/$1"
		{
			echo "uptime 1000.00"
			echo "   8       0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
			echo " 259       0 nvme0n1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
		} >"$P/$1/a.snap"
		{
			echo "uptime 1060.00"
			line 8 sda "$2"
			line 259 nvme0n1 "$3"
		} >"$P/$1/b.snap"
		dxstat -f "$P/$1/a.snap" -f "$P/$1/b.snap" -o prom -w "$P/$1/dxstat.prom" &&
		    dxstat -f "$P/$1/a.snap" -f "$P/$1/b.snap" -o tsv -H |
		    awk -F'\t' '{ print $2, $3, $7, $23, $24 }' | tr '\n' ';'
	}
	# quiet: a light load.  busy: one reader back to back on sda (%util
	# 100, queue 1), a queue of 4 on nvme0n1, await as when quiet.  sat:
	# 8 readers on sda, await doubled at a plateau of 400 r/s (the queue
	# inside the device); nvme0n1 at its 8 tags (7.8 of them in flight).
	is "$(phase quiet 20:10:0.2:20 1000:0.1:0.1:10)" \
	    "sda 20.00 10.00 0.20 20.00;nvme0n1 1000.00 0.10 0.10 10.00;" "dxstat: the quiet phase"
	is "$(phase busy 100:10:1:100 40000:0.1:4:100)" \
	    "sda 100.00 10.00 1.00 100.00;nvme0n1 40000.00 0.10 4.00 100.00;" "dxstat: the busy phase"
	is "$(phase sat 400:20:8:100 50000:0.156:7.8:100)" \
	    "sda 400.00 20.00 8.00 100.00;nvme0n1 50000.00 0.16 7.80 100.00;" "dxstat: the saturated phase"

	DQ=$P/q/dqueue.prom
	sat_alert() {
		cat <<EOF
          - exp_labels: {severity: warning, device: $1, instance: host1, job: node}
            exp_annotations:
              summary: '$1 on host1 is saturated: queue $2'
              description: 'The queue is at the request limit, or longer than at quiet times with await over 1.5 times the quiet-time await (rule in diskstat-rules.yml), for 10 minutes. Next: dxstat -z 5, dqueue $1.'
EOF
	}
	{
		head_yml
		cat <<EOF
  - name: two and a half hours quiet, then sda saturated by latency and nvme0n1 at its request limit
    interval: 1m
    input_series:
$(series 150:"$P/quiet/dxstat.prom,$DQ" 30:"$P/sat/dxstat.prom,$DQ")
    promql_expr_test:
      - expr: device:dxstat_await_seconds:quiet_p10_1d
        eval_time: 175m
        exp_samples:
          - labels: 'device:dxstat_await_seconds:quiet_p10_1d{device="nvme0n1",instance="host1",job="node"}'
            value: 0.0001
          - labels: 'device:dxstat_await_seconds:quiet_p10_1d{device="sda",instance="host1",job="node"}'
            value: 0.01
      - expr: device:dxstat_await_seconds:mean
        eval_time: 175m
        exp_samples:
          - labels: 'device:dxstat_await_seconds:mean{device="nvme0n1",instance="host1",job="node"}'
            value: 0.000156
          - labels: 'device:dxstat_await_seconds:mean{device="sda",instance="host1",job="node"}'
            value: 0.02
      - expr: device:dqueue_request_limit:requests
        eval_time: 175m
        exp_samples:
          - labels: 'device:dqueue_request_limit:requests{device="nvme0n1",instance="host1",job="node"}'
            value: 8
          - labels: 'device:dqueue_request_limit:requests{device="sda",instance="host1",job="node"}'
            value: 64
    alert_rule_test:
      - eval_time: 150m
        alertname: DiskstatDeviceSaturated
        exp_alerts: []
      - eval_time: 159m
        alertname: DiskstatDeviceSaturated
        exp_alerts: []
      - eval_time: 175m
        alertname: DiskstatDeviceSaturated
        exp_alerts:
$(sat_alert nvme0n1 7.8)
$(sat_alert sda 8.0)
  - name: two and a half hours quiet, then busy (%util 100) but not saturated
    interval: 1m
    input_series:
$(series 150:"$P/quiet/dxstat.prom,$DQ" 30:"$P/busy/dxstat.prom,$DQ")
    promql_expr_test:
      - expr: dxstat_util_ratio
        eval_time: 175m
        exp_samples:
          - labels: 'dxstat_util_ratio{device="nvme0n1",instance="host1",job="node"}'
            value: 1
          - labels: 'dxstat_util_ratio{device="sda",instance="host1",job="node"}'
            value: 1
    alert_rule_test:
      - eval_time: 175m
        alertname: DiskstatDeviceSaturated
        exp_alerts: []
  - name: half an hour of history (no baseline), then the saturated load
    interval: 1m
    input_series:
$(series 30:"$P/quiet/dxstat.prom,$DQ" 30:"$P/sat/dxstat.prom,$DQ")
    alert_rule_test:
      - eval_time: 55m
        alertname: DiskstatDeviceSaturated
        exp_alerts:
$(sat_alert nvme0n1 7.8)
  - name: two and a half hours quiet, then saturated for 5 minutes only
    interval: 1m
    input_series:
$(series 150:"$P/quiet/dxstat.prom,$DQ" 5:"$P/sat/dxstat.prom,$DQ" 25:"$P/quiet/dxstat.prom,$DQ")
    alert_rule_test:
      - eval_time: 175m
        alertname: DiskstatDeviceSaturated
        exp_alerts: []
EOF
	} >"$TRASH/sat.yml"
	run sat "saturation: fires for sda (latency, queue 8) and nvme0n1 (request limit), silent when busy, without a baseline (sda), and for a short spell"

	# The check can fail: the busy phase said to be saturated.
	{
		head_yml
		cat <<EOF
  - name: control
    interval: 1m
    input_series:
$(series 150:"$P/quiet/dxstat.prom,$DQ" 30:"$P/busy/dxstat.prom,$DQ")
    alert_rule_test:
      - eval_time: 175m
        alertname: DiskstatDeviceSaturated
        exp_alerts:
$(sat_alert sda 1.0)
EOF
	} >"$TRASH/ctl.yml"
	test_must_fail 1 "$PROMTOOL" test rules "$TRASH/ctl.yml" >/dev/null 2>&1
	is "$?" 0 "control: promtool test rules fails when busy is expected to be saturated"
else
	skip "saturation rules" "needs dxstat and dqueue built"
fi

# ---- Pressure: dpsi on one tree a minute, totals growing by the
# minute's share (some 5%, full 1% for 20 minutes, then 30% and 15%).
if have dpsi; then
	some=0
	full=0
	segs=
	k=0
	while [ $k -lt 50 ]; do
		d=$P/psi$k
		mkdir -p "$d/tree/proc/pressure"
		printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=%d\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%d\n' \
		    $some $full >"$d/tree/proc/pressure/io"
		dpsi -R "$d/tree" -o prom -w "$d/dpsi.prom" || break
		segs="$segs 1:$d/dpsi.prom"
		if [ $k -lt 20 ]; then
			some=$((some + 3000000))
			full=$((full + 600000))
		else
			some=$((some + 18000000))
			full=$((full + 9000000))
		fi
		k=$((k + 1))
	done
	is "$k" 50 "dpsi -o prom -w on 50 trees"
	is "$(grep -v '^#' "$P/psi49/dpsi.prom" | grep stall_seconds | tr '\n' ' ')" \
	    "dpsi_io_some_stall_seconds_total 582.000000 dpsi_io_full_stall_seconds_total 273.000000 " \
	    "dpsi: the last tree's totals in seconds"
	{
		head_yml
		# shellcheck disable=SC2086
		cat <<EOF
  - name: I/O pressure, light for 20 minutes then heavy
    interval: 1m
    input_series:
$(series $segs)
    alert_rule_test:
      - eval_time: 19m
        alertname: DiskstatIOPressure
        exp_alerts: []
      - eval_time: 19m
        alertname: DiskstatIOPressureFull
        exp_alerts: []
      - eval_time: 45m
        alertname: DiskstatIOPressure
        exp_alerts:
          - exp_labels: {severity: warning, instance: host1, job: node}
            exp_annotations:
              summary: 'I/O pressure on host1: tasks stalled on I/O 30% of the time'
              description: 'Some task waited for I/O over 20% of the time for 10 minutes. Next: dxstat -z 5 (which device), dwho -s %iodelay 5 1 (who waits).'
      - eval_time: 45m
        alertname: DiskstatIOPressureFull
        exp_alerts:
          - exp_labels: {severity: critical, instance: host1, job: node}
            exp_annotations:
              summary: 'I/O pressure on host1: all tasks stalled on I/O 15% of the time'
              description: 'Every non-idle task waited for I/O at once over 10% of the time for 10 minutes: the host does no work then.'
EOF
	} >"$TRASH/psi.yml"
	run psi "pressure: silent at 5%/1%, fires at 30% (some) and 15% (full)"
else
	skip "pressure rules" "needs dpsi built"
fi

# ---- Deleted files: ddeleted on two tmpfs mounts of our own, each with
# a deleted 1 MiB file held open: 8 MiB (12.5%: fires), 64 MiB (1.6%).
if have ddeleted && [ "$(id -u)" -eq 0 ] && mkdir "$TRASH/small" "$TRASH/big" &&
    mount -t tmpfs -o size=8m tmpfs "$TRASH/small" 2>/dev/null; then
	at_exit "umount '$TRASH/small' 2>/dev/null"
	mount -t tmpfs -o size=64m tmpfs "$TRASH/big"
	at_exit "umount '$TRASH/big' 2>/dev/null"
	pd=
	setpriv --help 2>/dev/null | grep -q pdeathsig && pd="setpriv --pdeathsig TERM"
	head -c 1048576 /dev/zero >"$TRASH/small/held"
	head -c 1048576 /dev/zero >"$TRASH/big/held"
	$pd sleep 600 3<"$TRASH/small/held" 4<"$TRASH/big/held" &
	holder=$!
	at_exit "kill $holder 2>/dev/null; wait $holder 2>/dev/null"
	i=0
	until [ "$(readlink /proc/$holder/fd/4 2>/dev/null)" = "$TRASH/big/held" ] ||
	    [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	rm "$TRASH/small/held" "$TRASH/big/held"
	mkdir "$P/dd"
	ddeleted -o prom -w "$P/dd/ddeleted.prom" "$TRASH/small" "$TRASH/big"
	is "$?" 0 "ddeleted -o prom -w on our two mounts"
	is "$(grep -E '^ddeleted_(held|size)_bytes' "$P/dd/ddeleted.prom" | sort | tr '\n' ' ')" \
	    "ddeleted_held_bytes{mount=\"$TRASH/big\",fstype=\"tmpfs\"} 1048576 ddeleted_held_bytes{mount=\"$TRASH/small\",fstype=\"tmpfs\"} 1048576 ddeleted_size_bytes{mount=\"$TRASH/big\",fstype=\"tmpfs\"} 67108864 ddeleted_size_bytes{mount=\"$TRASH/small\",fstype=\"tmpfs\"} 8388608 " \
	    "ddeleted: 1 MiB held on each, sizes 64 MiB and 8 MiB"
	{
		head_yml
		cat <<EOF
  - name: a deleted file held on a small and on a large filesystem
    interval: 1m
    input_series:
$(series 25:"$P/dd/ddeleted.prom")
    alert_rule_test:
      - eval_time: 14m
        alertname: DiskstatDeletedSpaceHeld
        exp_alerts: []
      - eval_time: 20m
        alertname: DiskstatDeletedSpaceHeld
        exp_alerts:
          - exp_labels: {severity: warning, mount: '$TRASH/small', fstype: tmpfs, instance: host1, job: node}
            exp_annotations:
              summary: 'Deleted files still open hold 12.5% of $TRASH/small on host1'
              description: 'df counts this space, du does not. Next: ddeleted $TRASH/small (the holders), ddeleted -s --du $TRASH/small.'
EOF
	} >"$TRASH/dd.yml"
	run dd "deleted space: fires for 12.5% of a filesystem after 15 minutes, silent for 1.6%"
else
	skip "deleted-space rule" "needs ddeleted built, root and tmpfs"
fi

# ---- The textfiles: each tool with a textfile unit writes its file for
# 10 minutes, then nothing for 20 (the timers stopped), then the
# collector finds a broken file beside them.
files=
stale=
for t in $tools; do
	[ -d "$TOP/systemd/diskstat-textfile@$t.service.d" ] || continue
	mkdir -p "$P/tf"
	if tree=$(fleet_tree "$t"); then
		"$t" -R "$tree" -o prom -w "$P/tf/$t.prom" 2>/dev/null
	else
		# dlat traces until a signal without an interval.
		case $t in dlat) live="0.2 1" ;; *) live= ;; esac
		# shellcheck disable=SC2086
		"$t" -o prom -w "$P/tf/$t.prom" $live 2>/dev/null
	fi
	[ -s "$P/tf/$t.prom" ] || continue
	files="$files,$P/tf/$t.prom"
	stale="$stale
          - exp_labels: {severity: warning, file: /var/lib/prometheus/node-exporter/$t.prom, instance: host1, job: node}
            exp_annotations:
              summary: '/var/lib/prometheus/node-exporter/$t.prom on host1 not written for 19m 0s'
              description: 'Its timer (systemctl status diskstat-textfile@TOOL.timer) or cron job stopped; the figures scraped are old.'"
done
if [ -n "$files" ]; then
	{
		head_yml
		cat <<EOF
  - name: the textfiles written, then not, then a broken file
    interval: 1m
    input_series:
$(series 10:"${files#,}" 20:stale 10:broken)
    alert_rule_test:
      - eval_time: 9m
        alertname: DiskstatTextfileStale
        exp_alerts: []
      - eval_time: 24m
        alertname: DiskstatTextfileStale
        exp_alerts: []
      - eval_time: 28m
        alertname: DiskstatTextfileStale
        exp_alerts:$stale
      - eval_time: 33m
        alertname: DiskstatTextfileScrapeError
        exp_alerts: []
      - eval_time: 38m
        alertname: DiskstatTextfileScrapeError
        exp_alerts:
          - exp_labels: {severity: warning, instance: host1, job: node}
            exp_annotations:
              summary: 'node_exporter on host1 cannot read a textfile'
              description: 'A file in its textfile directory is unreadable or not valid exposition; its metrics are missing. The exporter log names it.'
EOF
	} >"$TRASH/tf.yml"
	run tf "textfiles: stale after 15 minutes for each tool's file ($(echo "$files" | tr ',' '\n' | sed -n 's|.*/||p' | tr '\n' ' ')), scrape error after 5"
else
	skip "textfile rules" "no tool with a textfile unit wrote a file"
fi

# ---- dlat on its own output: two windows traced on a loop device of our
# own, read by 8 direct readers, once as it is (fast: sub-millisecond)
# and once with the reads below it held to 40 a second (slow: each read
# waits about 8/40 s).  The device is loop B over loop A over a file: the
# throttle is set on A in a cgroup of our own, so B's requests, whose
# loop worker reads A in the readers' cgroup, take the wait between their
# issue and their completion (d2c), where dlat's rule looks.  Each window
# is one run of dlat, as the textfile unit runs it; the fast one for 20
# minutes, then the slow one for 20.
dlat_why=
if ! have dlat; then
	dlat_why="needs dlat built"
elif [ "$(id -u)" -ne 0 ]; then
	dlat_why="needs root (CAP_BPF, CAP_PERFMON, loop devices, a cgroup)"
elif ! command -v losetup >/dev/null 2>&1 || [ ! -e /dev/loop-control ]; then
	dlat_why="needs losetup and /dev/loop-control"
elif ! dlat -o prom 0.01 1 >/dev/null 2>"$TRASH/dlat.err"; then
	dlat_why="dlat cannot trace here: $(head -1 "$TRASH/dlat.err")"
fi

# throttled MAJ:MIN IOPS DIR: make DIR a cgroup of our own (v2 with the
# io controller, else v1 blkio) whose reads from MAJ:MIN are held to IOPS
# a second, or (IOPS 0) not held; print its cgroup.procs.  Run in $(),
# so the caller removes DIR at exit.
cg_base=
cg_v=
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)blkio(,|$)/ { print $5; exit }' /proc/self/mountinfo)
if [ -n "$v2" ] && grep -qw io "$v2/cgroup.subtree_control" 2>/dev/null; then
	cg_base=$v2 cg_v=2
elif [ -n "$v2" ] && grep -qw io "$v2/cgroup.controllers" 2>/dev/null &&
    echo +io >"$v2/cgroup.subtree_control" 2>/dev/null; then
	at_exit "echo -io >'$v2/cgroup.subtree_control' 2>/dev/null"
	cg_base=$v2 cg_v=2
elif [ -n "$v1" ] && [ -e "$v1/blkio.throttle.read_iops_device" ]; then
	cg_base=$v1 cg_v=1
fi
[ -n "$dlat_why" ] || [ -n "$cg_base" ] ||
    dlat_why="needs a cgroup with the io (v2) or blkio (v1) controller"
throttled() {
	mkdir "$cg_base/$3" || return 1
	if [ "$2" -gt 0 ]; then
		if [ $cg_v = 2 ]; then
			echo "$1 riops=$2" >"$cg_base/$3/io.max" || return 1
		else
			echo "$1 $2" >"$cg_base/$3/blkio.throttle.read_iops_device" || return 1
		fi
	fi
	echo "$cg_base/$3/cgroup.procs"
}
# window NAME PROCS SECONDS: dlat -o prom -w over SECONDS on loop B while
# 8 direct readers in the cgroup PROCS read it; then the readers stopped.
window() {
	mkdir "$P/$1"
	rd=
	k=0
	while [ $k -lt 8 ]; do
		sh -c 'echo $$ >"$1" || exit 1
		    while :; do
			dd if="$2" of=/dev/null bs=4k skip="$3" count=512 iflag=direct status=none || exit 1
		    done' sh "$2" "/dev/$lb" $((k * 2048)) &
		rd="$rd $!"
		k=$((k + 1))
	done
	sleep 0.2
	dlat -o prom -w "$P/$1/dlat.prom" "$lb" "$3" 1 2>"$P/$1/err"
	st=$?
	for pid in $(cat "$2"); do
		kill "$pid" 2>/dev/null
	done
	# shellcheck disable=SC2086
	wait $rd
	return $st
}
# facts FILE: the d2c reads of loop B in FILE, their p99 as
# histogram_quantile computes it (the bucket where rank 0.99 x count
# falls, interpolated linearly), the missed events and whether they are
# over 1% of the d2c completions: "count p99 missed 0|1".
facts() {
	awk -v dev="$lb" '
	$1 ~ "^dlat_latency_seconds_bucket\\{device=\"" dev "\",op=\"read\",phase=\"d2c\"," {
		le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le)
		n++; ub[n] = (le == "+Inf") ? "inf" : le + 0; c[n] = $2 + 0 }
	$1 ~ /^dlat_latency_seconds_count\{/ && $1 ~ /phase="d2c"/ { all += $2 }
	/^dlat_missed_events_total/ { m += $2 }
	END {
		tot = c[n]; rank = 0.99 * tot
		for (b = 1; b < n && c[b] < rank; b++) ;
		if (b == n) q = ub[n - 1]
		else {
			lo = (b > 1) ? ub[b - 1] : 0; cnt = c[b]
			if (b > 1) { cnt -= c[b - 1]; rank -= c[b - 1] }
			q = lo + (ub[b] - lo) * (rank / cnt)
		}
		printf "%d %.17g %d %d\n", tot, q, m, (m > 0.01 * all) }' "$1"
}
# humanize SECONDS: as the template function humanizeDuration prints it.
humanize() {
	awk -v v="$1" 'BEGIN {
		if (v >= 1 && v < 60) { printf "%.4gs\n", v; exit }
		p = ""; split("m u n p", u, " ")
		for (i = 1; i <= 4 && v < 1; i++) { p = u[i]; v *= 1000 }
		printf "%.4g%ss\n", v, p }'
}

if [ -z "$dlat_why" ]; then
	mkloop_dio 64 >"$TRASH/la" || dlat_why="cannot make a loop device"
fi
if [ -z "$dlat_why" ]; then
	la=$(cat "$TRASH/la")
	# B over A; detached first (A then goes when B lets it go).
	lb=$(losetup --direct-io=on -f --show "/dev/$la") && lb=${lb#/dev/}
	{ echo "/dev/$lb"; cat "$TRASH/.loops"; } >"$TRASH/.loops.new" &&
	    mv "$TRASH/.loops.new" "$TRASH/.loops"
	command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
	echo none >"/sys/block/$lb/queue/scheduler" 2>/dev/null
	ma=$(cat "/sys/block/$la/dev")
	at_exit "rmdir '$cg_base/diskstat-9520-fast.$$' '$cg_base/diskstat-9520-slow.$$' 2>/dev/null"
	fastcg=$(throttled "$ma" 0 "diskstat-9520-fast.$$") &&
	    slowcg=$(throttled "$ma" 40 "diskstat-9520-slow.$$") ||
	    dlat_why="cannot make the readers' cgroups under $cg_base"
fi
if [ -z "$dlat_why" ]; then
	window fast "$fastcg" 3
	is "$?" 0 "dlat -o prom -w: the fast window on $lb"
	window slow "$slowcg" 6
	is "$?" 0 "dlat -o prom -w: the slow window on $lb (reads below it held to 40/s)"
	read -r fcount fp99 fmissed fover <<EOF
$(facts "$P/fast/dlat.prom")
EOF
	read -r scount sp99 smissed sover <<EOF
$(facts "$P/slow/dlat.prom")
EOF
	echo "# fast: $fcount reads, p99 $fp99 s, $fmissed missed; slow: $scount reads, p99 $sp99 s, $smissed missed"
	ok "fast window: over 100 reads, p99 under 100 ms" \
	    awk -v n="$fcount" -v q="$fp99" 'BEGIN { exit !(n >= 100 && q < 0.1) }'
	ok "slow window: over 100 reads, p99 over 100 ms" \
	    awk -v n="$scount" -v q="$sp99" 'BEGIN { exit !(n >= 100 && q > 0.1) }'
	ok "the histogram's buckets, _sum and _count in dlat's file" \
	    grep -q "^dlat_latency_seconds_sum{device=\"$lb\",op=\"read\",phase=\"d2c\"} " "$P/slow/dlat.prom"

	# missed WINDOW OVER MISSED: the events-missed alert as expected
	# from the window's own figures (over 1% of its completions or not).
	missed() {
		if [ "$2" -eq 1 ]; then
			cat <<EOF
        exp_alerts:
          - exp_labels: {severity: info, instance: host1, job: node}
            exp_annotations:
              summary: 'dlat on host1 missed $3 events in its last window: its histograms are short of them'
EOF
		else
			echo "        exp_alerts: []"
		fi
	}
	p99_alert() {
		cat <<EOF
          - exp_labels: {severity: warning, device: $lb, op: read, phase: d2c, instance: host1, job: node}
            exp_annotations:
              summary: '$lb on host1: p99 read latency $(humanize "$sp99") (issue to completion)'
              description: 'The 99th percentile of read d2c latency was over 100 ms in every window for 10 minutes. Next: dlat $lb 5 1.'
EOF
	}
	# dlat_yml EXPECTED_AT_38M: the test of the two phases.
	dlat_yml() {
		head_yml
		cat <<EOF
  - name: dlat's own windows, fast for 20 minutes, then slow
    interval: 1m
    input_series:
$(series 20:"$P/fast/dlat.prom" 20:"$P/slow/dlat.prom")
    promql_expr_test:
      - expr: device_op_phase:dlat_latency_seconds:p99_window{device="$lb",op="read",phase="d2c"}
        eval_time: 38m
        exp_samples:
          - labels: 'device_op_phase:dlat_latency_seconds:p99_window{device="$lb",op="read",phase="d2c",instance="host1",job="node"}'
            value: $sp99
    alert_rule_test:
      - eval_time: 19m
        alertname: DiskstatLatencyP99High
        exp_alerts: []
      - eval_time: 27m
        alertname: DiskstatLatencyP99High
        exp_alerts: []
      - eval_time: 38m
        alertname: DiskstatLatencyP99High
$1
      - eval_time: 19m
        alertname: DiskstatLatencyEventsMissed
$(missed fast "$fover" "$fmissed")
      - eval_time: 38m
        alertname: DiskstatLatencyEventsMissed
$(missed slow "$sover" "$smissed")
EOF
	}
	dlat_yml "        exp_alerts:
$(p99_alert)" >"$TRASH/dlat.yml"
	run dlat "dlat's own output: p99 $(humanize "$sp99") fires after 10 minutes of slow windows, silent on fast ones ($(humanize "$fp99")) and before 10 minutes; missed events as the windows say"
	# The check can fail: the slow windows said to be silent.
	dlat_yml "        exp_alerts: []" >"$TRASH/dlatctl.yml"
	test_must_fail 1 "$PROMTOOL" test rules "$TRASH/dlatctl.yml" >/dev/null 2>&1
	is "$?" 0 "control: promtool test rules fails when the slow windows are expected silent"
else
	skip "dlat rules on dlat's own output" "$dlat_why"
fi
