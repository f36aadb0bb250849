#!/bin/sh
# Issue 15, 8 and 9: names from trees, processes and file systems reach
# a terminal or a pipe escaped.  A device directory "ESC[31mRED" in a
# message, a file name with a newline in a warning, U+202E in table
# output, a NUL in a comm in TSV; and an empty sys/block (a container, a
# captured tree) is no undefined behaviour.
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"

esc=$(printf '\033')
rlo=$(printf '\342\200\256')	# U+202E RIGHT-TO-LEFT OVERRIDE
lri=$(printf '\342\201\246')	# U+2066 LEFT-TO-RIGHT ISOLATE
raw_ctl() { LC_ALL=C grep -q "[$(printf '\001-\010\013-\037\177')]" "$1"; }

# ---- messages: a device directory with ESC[31m ---------------------------
T=$TRASH/t
dev="${esc}[31mRED"
mkdir -p "$T/sys/block/$dev/queue"
echo "[none]" >"$T/sys/block/$dev/queue/scheduler"
echo "many" >"$T/sys/block/$dev/queue/read_ahead_kb"
test_must_fail 1 dqueue -R "$T" -o tsv >/dev/null 2>"$TRASH/err"
is "$?" 0 "dqueue: a malformed value under a crafted device name: exit 1"
ok "dqueue: no raw control byte on stderr" sh -c '! LC_ALL=C grep -q "$(printf "\033")" "$1"' sh "$TRASH/err"
is "$(cat "$TRASH/err")" 'dqueue: \x1b[31mRED: read_ahead_kb: not a number' \
   "dqueue: the name escaped as backslash x1b, on one line"
test_must_fail 1 dqueue -R "$T" "sd${esc}]0;owned${esc}\\" >/dev/null 2>"$TRASH/err"
is "$(cat "$TRASH/err")" 'dqueue: sd\x1b]0;owned\x1b\\: no such block device' \
   "dqueue: an operand echoed back escaped too"

# ---- messages: a file name with a newline, bidi controls -------------------
test_must_fail 1 ddeleted -s "$TRASH/no
such" >/dev/null 2>"$TRASH/err"
# (Without root a second line says whose descriptors could not be read.)
is "$(grep -v ': not root: ' "$TRASH/err" | wc -l)" 1 "ddeleted: a name with a newline: the warning stays one line"
ok "ddeleted: the newline shown as backslash n" grep -q 'no\\nsuch' "$TRASH/err"
test_must_fail 1 ddeleted -s "$TRASH/a${rlo}gpj.exe" >/dev/null 2>"$TRASH/err"
ok "ddeleted: U+202E in a message escaped" sh -c '! grep -q "$(printf "\342\200\256")" "$1" && grep -q "a\\\\xe2\\\\x80\\\\xaegpj.exe" "$1"' sh "$TRASH/err"

# ---- table output: bidi controls; TSV: NUL ------------------------------------
P=$TRASH/p
mkdir -p "$P/proc"
echo "1000.00 2000.00" >"$P/proc/uptime"
mkproc "$P/proc" 77 "a${rlo}b" 100 0 4096 0 0 0 0 0 0
mkproc "$P/proc" 78 "c${lri}d" 100 0 4096 0 0 0 0 0 0
dwho -R "$P" -o table >"$TRASH/out" 2>/dev/null
ok "dwho table: U+202E and U+2066 not written raw" \
    sh -c '! grep -q -e "$(printf "\342\200\256")" -e "$(printf "\342\201\246")" "$1"' sh "$TRASH/out"
ok "dwho table: shown as backslash-x bytes" \
    sh -c 'grep -q "a\\\\xe2\\\\x80\\\\xaeb" "$1" && grep -q "c\\\\xe2\\\\x81\\\\xa6d" "$1"' sh "$TRASH/out"
dwho -R "$P" -o json >"$TRASH/out" 2>/dev/null
ok "dwho json: still valid UTF-8 text (the name kept, JSON-escaped or as is)" grep -q '"a' "$TRASH/out"
# A comm with a NUL, as a crafted tree can hold it.
printf '79 (x\000y) S 1 79 79 0 -1 4194304 0 0 0 0 5 6 0 0 20 0 1 0 100 1000 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n' \
    >"$TRASH/stat79"
mkproc "$P/proc" 79 xy 100 0 4096 0 0 0 0 0 0
cp "$TRASH/stat79" "$P/proc/79/stat"
cp "$TRASH/stat79" "$P/proc/79/task/79/stat"
dwho -R "$P" -o tsv >"$TRASH/out" 2>/dev/null
is "$(tr -cd '\000' <"$TRASH/out" | wc -c)" 0 "dwho tsv: no raw NUL byte"
ok "dwho tsv: the NUL shown as backslash 0" grep -q 'x\\0y' "$TRASH/out"
dwho -R "$P" -o table >"$TRASH/out" 2>/dev/null
is "$(tr -cd '\000' <"$TRASH/out" | wc -c)" 0 "dwho table: no raw NUL byte"
# TSV reaches a terminal through a pipe ("dwho | grep"): its controls as
# \xHH too; JSON keeps the same text, the controls as \u.
dwho -R "$P" -o tsv >"$TRASH/out" 2>/dev/null
ok "dwho tsv: U+202E and U+2066 not written raw, shown as backslash-x bytes" \
    sh -c '! grep -q -e "$(printf "\342\200\256")" -e "$(printf "\342\201\246")" "$1" &&
	grep -q "a\\\\xe2\\\\x80\\\\xaeb" "$1" && grep -q "c\\\\xe2\\\\x81\\\\xa6d" "$1"' sh "$TRASH/out"
dwho -R "$P" -o json >"$TRASH/out" 2>/dev/null
ok "dwho json: U+202E as \\u202e, U+2066 as \\u2066 (no raw bidi control)" \
    sh -c '! grep -q -e "$(printf "\342\200\256")" -e "$(printf "\342\201\246")" "$1" &&
	grep -q "\"a\\\\u202eb\"" "$1" && grep -q "\"c\\\\u2066d\"" "$1"' sh "$TRASH/out"
if have_prog jq; then
	is "$(jq -r 'select(.pid == 77) | .command' "$TRASH/out")" "a${rlo}b" \
	   "dwho json: the name decodes to its own bytes"
else
	skip "dwho json: the name decodes to its own bytes" "needs jq"
fi
T2=$TRASH/t2
mkdir -p "$T2/sys/block/$dev/queue" "$T2/sys/block/x${rlo}y/queue"
for d in "$dev" "x${rlo}y"; do
	echo "[none]" >"$T2/sys/block/$d/queue/scheduler"
	echo 128 >"$T2/sys/block/$d/queue/read_ahead_kb"
done
dqueue -R "$T2" -o tsv -H >"$TRASH/out" 2>/dev/null
is "$(cut -f1 "$TRASH/out" | sort | tr '\n' ' ')" '\x1b[31mRED x\xe2\x80\xaey ' \
   "dqueue tsv: device names with ESC and U+202E as \\xHH"
ok "dqueue tsv: no raw control byte" sh -c '! raw() { LC_ALL=C grep -q "[$(printf "\001-\010\013-\037\177")]" "$1"; }; ! raw "$1"' sh "$TRASH/out"

# ---- 9: an empty sys/block -----------------------------------------------------
E=$TRASH/e
mkdir -p "$E/sys/block" "$E/proc"
printf '   8       0 sda 1 0 8 1 1 0 8 1 0 2 2\n' >"$E/proc/diskstats"
echo "1000.00 2000.00" >"$E/proc/uptime"
dxstat -R "$E" -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(wc -c <"$TRASH/out")" "0:0" "dxstat on an empty sys/block: exit 0, no whole disk"
dxstat -R "$E" -o tsv -H sda >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cut -f2,7 "$TRASH/out")" "0:sda	1.00" "dxstat sda on an empty sys/block: exit 0, its row (r_await 1.00)"
dqueue -R "$E" -o tsv >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(wc -l <"$TRASH/out")" "0:1" "dqueue on an empty sys/block: exit 0, a header only"
test_must_fail 1 dqueue -R "$E" sda >/dev/null 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:dqueue: sda: no such block device" "dqueue sda on an empty sys/block: no such device"
