#!/bin/sh
# Two snapshot files are read along each other, the second reported as
# it is read: devices removed, added, moved or damaged between them must
# each still meet their own earlier line.  The oracle: every device
# reported alone, from a pair of one-line files.
. "${0%/*}/lib.sh"

# line NAME SEED: a 17-counter diskstats line, counters from the seed.
gen() {
	awk -v names="$1" -v seed="$2" 'BEGIN {
		n = split(names, a, " ")
		for (i = 1; i <= n; i++) {
			s = seed * 7919 + i * 104729
			printf "%4d %7d %s", 259, i, a[i]
			for (k = 1; k <= 17; k++)
				printf " %d", (k == 9) ? k % 3 : s * k + (s % 977) * k * k
			printf "\n"
		}
	}'
}

all=""
i=0
while [ $i -lt 300 ]; do
	all="$all d$i"
	i=$((i + 1))
done
# The later sample: d0 and d150 gone, new0 first, new1 in the middle,
# d10 and d11 swapped, d299 gone, new2 last.
new=$(echo "$all" | awk '{
	printf "new0"
	for (i = 1; i <= NF; i++) {
		if ($i == "d0" || $i == "d150" || $i == "d299" || $i == "d11")
			continue
		if ($i == "d10") { printf " d11 d10"; continue }
		if ($i == "d200") printf " new1"
		printf " %s", $i
	}
	printf " new2\n"
}')
{ echo "uptime 1000.00"; gen "$all" 1; } >"$TRASH/a"
{ echo "uptime 1010.00"; gen "$new" 2; } >"$TRASH/b"
# Damage in both, at different places.
sed -i '40a\
8 0 broken 1 2 x' "$TRASH/a"
sed -i '70a\
not a diskstats line at all' "$TRASH/b"

dxstat -f "$TRASH/a" -f "$TRASH/b" -p -a -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "moved devices: exit 0"
is "$(wc -l <"$TRASH/out")" 300 "moved devices: one row per device of the later file"
is "$(sort "$TRASH/err" | tr '\n' '|')" \
    "dxstat: $TRASH/a: line 41: not a diskstats line (1 line skipped)|dxstat: $TRASH/b: line 71: not a diskstats line (1 line skipped)|" \
    "moved devices: the damaged line of each file said"

# Oracle: each device alone.
: >"$TRASH/expect"
for d in $new; do
	{ echo "uptime 1000.00"; grep " $d " "$TRASH/a"; } >"$TRASH/a1"
	{ echo "uptime 1010.00"; grep " $d " "$TRASH/b"; } >"$TRASH/b1"
	dxstat -f "$TRASH/a1" -f "$TRASH/b1" -p -a -o tsv -H >>"$TRASH/expect"
done
ok "moved devices: every row as the device alone" \
    test_cmp "$TRASH/expect" "$TRASH/out"
is "$(grep -c . "$TRASH/expect")" 300 "oracle: 300 rows"

# The figures themselves for a moved and a new device.
# d10: reads 1 -> 2 of seed*7919 + 11*104729 per counter k=1; r/s =
# (b - a) / 10 s.
ra=$(grep ' d10 ' "$TRASH/a" | awk '{print $4}')
rb=$(grep ' d10 ' "$TRASH/b" | awk '{print $4}')
is "$(awk -F'\t' '$2 == "d10" {print $3}' "$TRASH/out")" \
    "$(awk -v a="$ra" -v b="$rb" 'BEGIN {printf "%.2f", (b - a) / 10}')" \
    "d10 moved: r/s from its own earlier line"
rn=$(grep ' new1 ' "$TRASH/b" | awk '{print $4}')
is "$(awk -F'\t' '$2 == "new1" {print $3}' "$TRASH/out")" \
    "$(awk -v b="$rn" 'BEGIN {printf "%.2f", b / 10}')" \
    "new1 added: counted from zero over the interval"

# Same order, nothing moved: the earlier file is never stored; the
# figures equal the oracle on a sample of devices.
{ echo "uptime 1010.00"; gen "$all" 2; } >"$TRASH/c"
dxstat -f "$TRASH/a" -f "$TRASH/c" -p -a -o tsv -H 2>/dev/null >"$TRASH/out2"
is "$(wc -l <"$TRASH/out2")" 300 "same order: 300 rows"
{ echo "uptime 1000.00"; grep ' d123 ' "$TRASH/a"; } >"$TRASH/a1"
{ echo "uptime 1010.00"; grep ' d123 ' "$TRASH/c"; } >"$TRASH/c1"
is "$(grep '	d123	' "$TRASH/out2")" \
    "$(dxstat -f "$TRASH/a1" -f "$TRASH/c1" -p -a -o tsv -H)" \
    "same order: d123 as alone"

# The earlier file from stdin, the later reversed: every lookup moves.
tac "$TRASH/c" | grep -v '^uptime' >"$TRASH/rev"
{ echo "uptime 1010.00"; cat "$TRASH/rev"; } >"$TRASH/c2"
dxstat -f - -f "$TRASH/c2" -p -a -o tsv -H <"$TRASH/a" 2>/dev/null |
    sort >"$TRASH/out3"
sort "$TRASH/out2" >"$TRASH/out2s"
ok "reversed, earlier from stdin: the same rows" \
    test_cmp "$TRASH/out2s" "$TRASH/out3"

# A device listed twice in the later file: its earlier line is used up,
# so the second is skipped and said, never counted from zero; whether
# the earlier file can be read again (a file) or not (stdin).
{ echo "uptime 1000"; echo "8 0 sda 100 0 24 100 50 0 32 200 0 300 300 0 0 0 0 0 0"
  echo "8 16 sdb 10 0 24 100 5 0 32 200 0 300 300 0 0 0 0 0 0"; } >"$TRASH/da"
{ echo "uptime 1010"; echo "8 0 sda 200 0 24 100 60 0 32 200 0 300 300 0 0 0 0 0 0"
  echo "8 16 sdb 20 0 24 100 6 0 32 200 0 300 300 0 0 0 0 0 0"
  echo "8 0 sda 200 0 24 100 60 0 32 200 0 300 300 0 0 0 0 0 0"
  echo "8 32 sdc 20 0 24 100 6 0 32 200 0 300 300 0 0 0 0 0 0"; } >"$TRASH/db"
for how in file stdin; do
	if [ $how = file ]; then
		dxstat -f "$TRASH/da" -f "$TRASH/db" -a -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
	else
		dxstat -f - -f "$TRASH/db" -a -o tsv -H <"$TRASH/da" >"$TRASH/out" 2>"$TRASH/err"
	fi
	is "$(cut -f2,3,9 "$TRASH/out" | tr '\t\n' ' |')" \
	    "sda 10.00 1.00|sdb 1.00 0.10|sdc 2.00 0.60|" \
	    "listed twice ($how): sda once, from its earlier line; sdc new"
	is "$(cat "$TRASH/err")" \
	    "dxstat: $TRASH/db: line 4: a device listed again (1 line skipped)" \
	    "listed twice ($how): said"
done

# A read error in the middle of a report (the earlier file past the
# 64 MiB limit, found only when the later file's first device is not
# in its first line): exit 1, and -w leaves no file, temporary or not.
{ echo "uptime 1000"; echo "8 0 sda 100 0 800 100 50 0 400 200 0 300 300"; } >"$TRASH/big"
truncate -s 65M "$TRASH/big"
{ echo "uptime 1010"; echo "8 32 sdc 1 0 8 1 1 0 8 1 0 2 2"
  echo "8 0 sda 200 0 1600 100 60 0 480 200 0 300 300"; } >"$TRASH/b2"
mkdir "$TRASH/w"
test_must_fail 1 dxstat -f "$TRASH/big" -f "$TRASH/b2" -o tsv -w "$TRASH/w/x.tsv" 2>"$TRASH/err"
is "$?" 0 "error mid-report: exit 1"
is "$(cat "$TRASH/err")" "dxstat: $TRASH/big: File too large" "error mid-report: said"
is "$(ls -A "$TRASH/w")" "" "error mid-report: -w leaves nothing behind"
mkdir -p "$TRASH/dir/proc/diskstats"
echo "1000.00 0" >"$TRASH/dir/proc/uptime"
test_must_fail 1 dxstat -R "$TRASH/dir" -o prom -w "$TRASH/w/dx.prom" 2>"$TRASH/err"
is "$?" 0 "diskstats a directory, -w: exit 1"
is "$(ls -A "$TRASH/w")" "" "diskstats a directory, -w: nothing left behind"
rm -f "$TRASH/big"

# Listed twice after a device kept aside (pend), and a new device listed
# twice: once each, the repeats said.
{ echo "uptime 1000"; echo "8 16 sdb 10 0 24 100 5 0 32 200 0 300 300"
  echo "8 0 sda 100 0 24 100 50 0 32 200 0 300 300"; } >"$TRASH/pa"
{ echo "uptime 1010"; echo "8 0 sda 200 0 24 100 60 0 32 200 0 300 300"
  echo "8 16 sdb 20 0 24 100 6 0 32 200 0 300 300"
  echo "8 16 sdb 20 0 24 100 6 0 32 200 0 300 300"
  echo "8 48 sdz 20 0 24 100 6 0 32 200 0 300 300"
  echo "8 48 sdz 20 0 24 100 6 0 32 200 0 300 300"; } >"$TRASH/pb"
dxstat -f "$TRASH/pa" -f "$TRASH/pb" -a -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$(cut -f2,3 "$TRASH/out" | tr '\t\n' ' |')" "sda 10.00|sdb 1.00|sdz 2.00|" \
    "listed twice after pend, and new twice: each once"
is "$(cat "$TRASH/err")" \
    "dxstat: $TRASH/pb: line 4: a device listed again (2 lines skipped)" \
    "listed twice after pend, and new twice: said"
# Standard input that starts past its file's beginning: only what
# follows is the earlier sample.
{ echo "8 99 sdq 1 0 8 1 1 0 8 1 0 2 2"; cat "$TRASH/pa"; } >"$TRASH/pa2"
{ echo "uptime 1010"; echo "8 0 sda 200 0 24 100 60 0 32 200 0 300 300"
  echo "8 99 sdq 5 0 8 1 1 0 8 1 0 2 2"; } >"$TRASH/pb2"
(read -r skip; dxstat -f - -f "$TRASH/pb2" -a -o tsv -H) <"$TRASH/pa2" >"$TRASH/out" 2>"$TRASH/err"
is "$(cut -f2,3 "$TRASH/out" | tr '\t\n' ' |')" "sda 10.00|sdq 0.50|" \
    "stdin past its start: sdq new, not taken from the line before"
