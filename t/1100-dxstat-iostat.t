#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# dxstat against iostat 12.6 on the same counters: iostat -x -d -p ALL
# is fed crafted and real /proc/diskstats and /proc/uptime through FIFOs
# bind-mounted over the real files (unshare -m), so each of its reports
# sees exactly one sample; dxstat reads the same samples as snapshot
# files.  Every column of every row must print the same two decimals.
. "${0%/*}/lib.sh"
need_root
need_cmd iostat unshare mount mkfifo timeout
echo "1.00 1.00" >"$TRASH/probe"
unshare -m sh -c 'mount --bind "$1" /proc/uptime' sh "$TRASH/probe" 2>/dev/null ||
    skip_all "cannot bind-mount over /proc/uptime in a private mount namespace"

D=$FIX/dxstat
feed=$D/iostat-feed.sh

# snap UPFILE DSFILE > SNAP: the man page's one-liner, on sample files.
snap() {
	echo "uptime $(cut -d' ' -f1 "$1")"
	cat "$2"
}

# iostat_vs NAME "IOSTAT-OPTS" "DXSTAT-OPTS" SKIP UP1 DS1 [UP2 DS2 ...]
# Runs both tools over the samples and compares; SKIP lists report:device
# keys where iostat is wrong on purpose (checked by hand elsewhere).
iostat_vs() {
	name=$1 iopts=$2 dopts=$3 skip=$4
	shift 4
	w=$TRASH/$name
	mkdir -p "$w"
	unshare -m "$feed" "$w" "$w/iostat.out" "$iopts" "$@" 2>"$w/feed.err"
	st=$?
	k=0
	: >"$w/dx.tsv"
	: >"$w/dx.err"
	while [ $# -gt 0 ]; do
		k=$((k + 1))
		snap "$1" "$2" >"$w/snap$k"
		# A device on a damaged line in this sample or the one before
		# is not ours to compare: dxstat skips the line, iostat guesses.
		awk -v k=$k '{ nc = NF - 3 } nc != 4 && nc != 11 && nc != 15 && nc < 17 { printf " %d:%s %d:%s", k, $3, k + 1, $3 }' "$2" >>"$w/skip"
		if [ $k -eq 1 ]; then
			# shellcheck disable=SC2086
			dxstat -o tsv -H -p -a $dopts -f "$w/snap1" 2>>"$w/dx.err"
		else
			# shellcheck disable=SC2086
			dxstat -o tsv -H -p -a $dopts -f "$w/snap$((k - 1))" -f "$w/snap$k" 2>>"$w/dx.err"
		fi | cut -f2- | sed "s/^/$k	/" >>"$w/dx.tsv"
		shift 2
	done
	is "$st" 0 "$name: iostat ran on $k samples"
	awk -v skip="$skip $(cat "$w/skip" 2>/dev/null)" -f "$D/compare.awk" "$w/iostat.out" "$w/dx.tsv" >"$w/cmp"
	cst=$?
	sed -n '$p' "$w/cmp"
	[ $cst -eq 0 ] || head -20 "$w/cmp"
	is "$cst" 0 "$name: every column equal to iostat's"
}

# Crafted: 21 devices and partitions with 11, 15 and 17 counters,
# intervals 0.01 s, 1 s, 300 s, 0.37 s, 2.5 s, 60 s; 32-bit millisecond
# wraps (vdw), a reset (vdr), a device that goes (vdg) and one that
# comes (vdn), one idle in some intervals (vdi), one never used (loop0).
# vdv is a 32-bit kernel whose request and sector counters wrap: iostat
# prints 10^20 r/s there, we don't; see the hand check below.
C=$D/crafted
set --
for k in 1 2 3 4 5 6 7; do set -- "$@" "$C/up$k" "$C/ds$k"; done
iostat_vs crafted "" "" "2:vdv 3:vdv 4:vdv" "$@"
rows=$(awk -F'\t' '$1 > 1' "$TRASH/crafted/dx.tsv" | wc -l)
ok "crafted: all interval rows compared (120 > $rows - 3)" test "$rows" -ge 120
is "$(grep -c . "$TRASH/crafted/dx.err")" 0 "crafted: no message"
is "$(awk -F'\t' '$2 == "sdc" { for (i = 15; i <= 22; i++) if ($i != "-") print }' "$TRASH/crafted/dx.tsv")" "" \
    "11-counter lines: discard and flush columns are null, not zeros"
is "$(awk -F'\t' '$2 == "sdb" && ($15 == "-" || $20 == "-" || $21 != "-" || $22 != "-" || $23 == "-")' "$TRASH/crafted/dx.tsv")" "" \
    "15-counter lines: discards present, flush columns null"
is "$(awk -F'\t' '$1 == 4 && $2 == "vdg"' "$TRASH/crafted/dx.tsv")" "" "a device that went away is dropped"
is "$(awk -F'\t' '$1 == 4 && $2 == "vdn" { print $3 }' "$TRASH/crafted/dx.tsv")" \
    "$(awk '$3 == "vdn" { printf "%.2f", $4 / 300 }' "$C/ds4")" \
    "a new device is reported from its own counters (reads / 300 s)"

# The 32-bit wraps of vdv, by hand: increments modulo 2^32 of the raw
# counters, over the uptime difference, with iostat's formulas.
for k in 2 3 4; do
	awk -v k=$k '
	FNR == 1 { f++ }
	f == 1 || f == 2 { sub(/\./, "", $1); if (f == 1) u0 = $1; else u1 = $1 }
	f == 3 && $3 == "vdv" { for (i = 4; i <= NF; i++) p[i - 3] = $i }
	f == 4 && $3 == "vdv" { for (i = 4; i <= NF; i++) { d[i - 3] = $i - p[i - 3]; if (d[i - 3] < 0) d[i - 3] += 4294967296 }; inflight = $12 }
	END {
		# iostat order of operations: delta / hundredths * 100
		c = u1 - u0
		printf "%d\tvdv\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", k, d[1] / c * 100, d[3] / c * 100 / 2, d[2] / c * 100,
		    d[1] + d[2] ? d[2] / (d[1] + d[2]) * 100 : 0, d[1] ? d[4] / d[1] : 0, d[1] ? d[3] / d[1] / 2 : 0
		printf "\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", d[5] / c * 100, d[7] / c * 100 / 2, d[6] / c * 100,
		    d[5] + d[6] ? d[6] / (d[5] + d[6]) * 100 : 0, d[5] ? d[8] / d[5] : 0, d[5] ? d[7] / d[5] / 2 : 0
		printf "\t-\t-\t-\t-\t-\t-\t-\t-\t%.2f\t%.2f\t%d\n", d[11] / c * 100 / 1000, d[10] / c * 100 / 10, inflight
	}' "$C/up$((k - 1))" "$C/up$k" "$C/ds$((k - 1))" "$C/ds$k"
done >"$TRASH/vdv.want"
awk -F'\t' '$2 == "vdv" && $1 >= 2 && $1 <= 4' "$TRASH/crafted/dx.tsv" >"$TRASH/vdv.got"
ok "32-bit request/sector wraps: dxstat equals the hand computation (iostat: 10^20 r/s)" \
    test_cmp "$TRASH/vdv.want" "$TRASH/vdv.got"
ok "wrap rates are sane" awk -F'\t' '$3 > 1e6 || $9 > 1e6 { exit 1 }' "$TRASH/vdv.got"

# -z: iostat -z and dxstat -z hide the same idle devices.
iostat_vs crafted-z "-z" "-z" "2:vdv 3:vdv 4:vdv" "$@"
is "$(awk -F'\t' '$2 == "vdi" { printf "%s ", $1 }' "$TRASH/crafted-z/dx.tsv")" "1 2 4 7 " \
    "-z: vdi shown only where it did I/O"
is "$(grep -c 'loop0' "$TRASH/crafted-z/dx.tsv")" 0 "-z: never-used loop0 hidden"

# sysstat's own regression trees, stepped through as successive samples
# (devices come and go between them, one line has 14 counters).
S=$D/sysstat
set --
for r in root1 root2 root3 root4 root5; do set -- "$@" "$S/$r/proc/uptime" "$S/$r/proc/diskstats"; done
# sdc gains flush counters from root2 to root3 (an edited tree): iostat
# takes the missing previous values as 0 and prints flushes since boot
# over 31 s; dxstat prints null for counters one of the samples lacks.
iostat_vs sysstat-1-5 "" "" "3:sdc" "$@"
# sds's line of 14 values is read as the 11-value format, as iostat
# reads it (so compared above like every other device), and said.
ok "sysstat trees: the 14-value line read as 11, said" \
    grep -q "^dxstat: sds: 14 values where the kernel prints 11: read as that format" "$TRASH/sysstat-1-5/dx.err"
ok "sysstat trees: sds reported" grep -q "	sds	" "$TRASH/sysstat-1-5/dx.tsv"
is "$(awk -F'\t' '$1 == 3 && $2 == "sdc" { print $21 $22 }' "$TRASH/sysstat-1-5/dx.tsv")" "--" \
    "sysstat trees: flushes null when the previous sample had none"
iostat_vs sysstat-6-7 "" "" "" "$S/root6/proc/uptime" "$S/root6/proc/diskstats" \
    "$S/root7/proc/uptime" "$S/root7/proc/diskstats"

# Since-boot reports of real machines' files.
echo "350735.47 1402941.88" >"$TRASH/uptime"
for f in "$D"/real/*.diskstats "$S/root6b/proc/diskstats"; do
	n=${f#"$D"/}
	n=$(echo "$n" | tr / _)
	iostat_vs "boot-$n" "" "" "" "$TRASH/uptime" "$f"
done
