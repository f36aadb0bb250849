#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# A real scrape: Debian's prometheus-node-exporter, textfile collector
# only, on a loopback port.  Each tool writes NAME.prom with -w from a
# captured tree; /metrics must carry every sample with the value the
# tool's -o tsv shows for the same tree (in base units), and
# node_textfile_scrape_error must be 0.  A broken file must make it 1.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd curl python3
EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	skip_all "needs prometheus-node-exporter"
fleet_tools
[ -n "$tools" ] || skip_all "no tool built yet"
CMP=$FIX/prom/promcmp.py

TF=$TRASH/tf
mkdir "$TF"

# A known truth for ddeleted, which reads the live system: a deleted
# 1 MiB file held open on a tmpfs of our own.
DD=
case " $tools " in
*" ddeleted "*)
	if [ "$(id -u)" -eq 0 ] && mkdir "$TRASH/dd" &&
	    mount -t tmpfs -o size=8m tmpfs "$TRASH/dd" 2>/dev/null; then
		at_exit "umount '$TRASH/dd' 2>/dev/null"
		head -c 1048576 /dev/zero >"$TRASH/dd/held"
		pd=
		setpriv --help 2>/dev/null | grep -q pdeathsig && pd="setpriv --pdeathsig TERM"
		$pd sleep 600 3<"$TRASH/dd/held" &
		holder=$!
		at_exit "kill $holder 2>/dev/null; wait $holder 2>/dev/null"
		# The background job opens fd 3 in its own time: remove the
		# name only once the holder really has the file open.
		i=0
		until [ "$(readlink /proc/$holder/fd/3 2>/dev/null)" = "$TRASH/dd/held" ] ||
		    [ $i -ge 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		rm "$TRASH/dd/held"
		DD=$TRASH/dd
	fi
	;;
esac
scraped=
for t in $prom_tools; do
	traces_until_signal "$t" && continue
	if tree=$(fleet_tree "$t"); then
		"$t" -R "$tree" -o tsv >"$TRASH/$t.tsv" 2>"$TRASH/err"
		is "$?" 0 "$t -R ${tree#$FIX/} -o tsv"
		"$t" -R "$tree" -o prom -w "$TF/$t.prom" 2>"$TRASH/err"
		is "$?" 0 "$t -R ${tree#$FIX/} -o prom -w $t.prom"
		python3 "$CMP" tsv "$TOP/cmd/$t" "$t" "$TRASH/$t.tsv" "$TF/$t.prom" >"$TRASH/cmp"
		case $? in
		0) pass "$t: prom file equals tsv in base units ($(head -1 "$TRASH/cmp"))" ;;
		2) skip "$t: prom file equals tsv" "$(head -1 "$TRASH/cmp")" ;;
		*) fail "$t: prom file equals tsv in base units"; sed 's/^/# /' "$TRASH/cmp" ;;
		esac
	else
		# No tree gives rows: the live system still shows the scrape.
		"$t" -o prom -w "$TF/$t.prom" 2>"$TRASH/err"
		is "$?" 0 "$t -o prom -w $t.prom (live: no fixture tree gives rows)"
	fi
	[ -s "$TF/$t.prom" ] && scraped="$scraped $t"
done
[ -n "$scraped" ] || skip_all "no tool wrote any metric"

# The comparison can fail: wrong values are caught.
first=${scraped# }
first=${first%% *}
if [ -f "$TRASH/$first.tsv" ]; then
	awk '!/^#/ { sub(/ [^ ]*$/, " 12345678901") } { print }' \
	    "$TF/$first.prom" >"$TRASH/wrong.prom"
	test_must_fail 1 python3 "$CMP" tsv "$TOP/cmd/$first" "$first" \
	    "$TRASH/$first.tsv" "$TRASH/wrong.prom" >/dev/null
	is "$?" 0 "control: wrong values in the prom file are caught"
fi

# A free loopback port from 19100 up: none listening on it in
# /proc/net/tcp{,6} (local address ...:PORT in hex, state 0A).
listening() {
	awk -v p="$(printf ':%04X' "$1")" \
	    'substr($2, length($2) - 4) == p && $4 == "0A" { f = 1 } END { exit !f }' \
	    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
port=19100
while listening $port; do
	port=$((port + 1))
	[ $port -lt 19200 ] || skip_all "no free port in 19100-19199"
done
# --pdeathsig: the exporter goes with this script even when the script
# is killed before its exit trap runs.
pdeath=
setpriv --help 2>/dev/null | grep -q pdeathsig && pdeath="setpriv --pdeathsig TERM"
$pdeath "$EXPORTER" --web.listen-address="127.0.0.1:$port" \
    --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$TF" \
    >"$TRASH/exporter.log" 2>&1 &
epid=$!
at_exit "kill $epid 2>/dev/null; wait $epid 2>/dev/null"

scrape() {
	curl -sf --max-time 5 "http://127.0.0.1:$port/metrics" >"$1"
}
i=0
until scrape "$TRASH/metrics"; do
	i=$((i + 1))
	if [ $i -ge 100 ] || ! kill -0 $epid 2>/dev/null; then
		fail "node_exporter answers on 127.0.0.1:$port"
		sed 's/^/# /' "$TRASH/exporter.log"
		exit 1
	fi
	sleep 0.1
done
pass "node_exporter answers on 127.0.0.1:$port"

is "$(grep '^node_textfile_scrape_error ' "$TRASH/metrics")" \
    "node_textfile_scrape_error 0" "node_textfile_scrape_error is 0"
for t in $scraped; do
	ok "$t.prom is listed by the textfile collector" \
	    grep -q "^node_textfile_mtime_seconds{file=\"[^\"]*$t.prom\"}" "$TRASH/metrics"
	python3 "$CMP" scraped "$TF/$t.prom" "$TRASH/metrics" >"$TRASH/cmp"
	if [ $? -eq 0 ]; then
		pass "$t: every sample scraped with its value and HELP ($(head -1 "$TRASH/cmp"))"
	else
		fail "$t: every sample scraped with its value and HELP"
		sed 's/^/# /' "$TRASH/cmp"
	fi
	# Scraped directly against the tsv, for the figures a user reads.
	if [ -f "$TRASH/$t.tsv" ]; then
		# The page also holds node_* metrics: compare our families.
		grep "^${t}_\|^# HELP ${t}_" "$TRASH/metrics" >"$TRASH/ours"
		python3 "$CMP" tsv "$TOP/cmd/$t" "$t" "$TRASH/$t.tsv" "$TRASH/ours" float >"$TRASH/cmp"
		case $? in
		0) pass "$t: scraped values equal -o tsv in base units ($(head -1 "$TRASH/cmp"))" ;;
		2) skip "$t: scraped values equal -o tsv" "$(head -1 "$TRASH/cmp")" ;;
		*) fail "$t: scraped values equal -o tsv in base units"; sed 's/^/# /' "$TRASH/cmp" ;;
		esac
	fi
done

# dwho prints rates in tsv but the counters behind them in prom: on our
# tree those are the tree's proc/26231/io, read as they are.
if [ -s "$TF/dwho.prom" ] && grep -q 'pid="26231"' "$TF/dwho.prom"; then
	io=$FIX/prom/tree/proc/26231/io
	for pair in rchar:rchar_bytes_total wchar:wchar_bytes_total \
	    syscr:read_syscalls_total syscw:write_syscalls_total \
	    read_bytes:read_bytes_total write_bytes:write_bytes_total; do
		f=${pair%%:*}
		m=dwho_${pair#*:}
		want=$(sed -n "s/^$f: //p" "$io")
		got=$(sed -n "/^$m{.*pid=\"26231\"/s/.* //p" "$TRASH/metrics")
		ok "scraped $m of pid 26231 is its $f, $want" \
		    python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "$got" "$want"
	done
fi

# ddeleted's figures for our tmpfs: 8 MiB, one deleted file of 1 MiB
# allocated, held by one process.
if [ -n "$DD" ] && [ -s "$TF/ddeleted.prom" ]; then
	for pair in size_bytes:8388608 held_bytes:1048576 files:1 holders:1; do
		m=ddeleted_${pair%%:*}
		want=${pair#*:}
		got=$(grep "^$m{" "$TRASH/metrics" | grep -F "mount=\"$DD\"" | sed 's/.* //')
		ok "scraped $m of our tmpfs is $want" \
		    python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "$got" "$want"
	done
fi

# A broken file: the collector reports it, so the check above can fail.
printf 'broken_metric{label="unclosed 1\n' >"$TF/zz-broken.prom"
scrape "$TRASH/metrics2"
is "$(grep '^node_textfile_scrape_error ' "$TRASH/metrics2")" \
    "node_textfile_scrape_error 1" "a broken .prom file sets node_textfile_scrape_error 1"
rm "$TF/zz-broken.prom"
scrape "$TRASH/metrics3"
is "$(grep '^node_textfile_scrape_error ' "$TRASH/metrics3")" \
    "node_textfile_scrape_error 0" "back to 0 once the broken file is gone"

kill $epid
wait $epid 2>/dev/null
ok "node_exporter stopped" sh -c "! kill -0 $epid 2>/dev/null"
