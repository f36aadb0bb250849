#!/bin/sh
# No privileges (issue 8, stage two): every tool run on the live system
# as nobody (setpriv --reuid=nobody --regid=nogroup --clear-groups),
# from a world-readable directory.  Each exits 0, shows what nobody can
# see, and says what it cannot in exactly the documented notes, one line
# each.  dtriage (when built) says what it could not see in rows of its
# own: unreadable (other users' I/O and open files) and no-latency (no
# privilege to trace), and exits 0 or 3 (a finding at warn, which a
# shared machine can have at any time).
. "${0%/*}/lib.sh"
need_root
need_cmd setpriv jq
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
getent group nogroup >/dev/null 2>&1 || skip_all "no group nogroup"
for t in dxstat dpsi dwho dqueue ddeleted; do
	[ -x "$TOP/cmd/$t/$t" ] || skip_all "$t not built"
done

NP="setpriv --reuid=nobody --regid=nogroup --clear-groups"
# $TRASH is 0700: open it to others for the directory nobody works in.
chmod 0711 "$TRASH"
mkdir -m 0777 "$TRASH/nobody"
# The tools, copied where nobody can reach them (the tree may not be).
BIN=$TRASH/bin
mkdir -m 0755 "$BIN"
for t in dxstat dpsi dwho dqueue ddeleted dtriage; do
	[ -x "$TOP/cmd/$t/$t" ] || continue
	cp "$TOP/cmd/$t/$t" "$BIN/"
	chmod 0755 "$BIN/$t"
done
ok "nobody can run the tools from $BIN" sh -c "cd / && $NP '$BIN/dxstat' -h >/dev/null"

# np TOOL ARGS...: run as nobody in $TRASH/nobody; out, err, st.
np() {
	_t=$1
	shift
	(cd "$TRASH/nobody" && $NP "$BIN/$_t" "$@") >"$TRASH/out" 2>"$TRASH/err"
	st=$?
}

# -- dxstat: /proc/diskstats is world-readable: rows, no note.
disk=$(awk '$3 ~ /^(vd|sd|nvme|xvd|hd)[a-z]*(n[0-9]+)?$/ && $4 > 0 { print $3; exit }' /proc/diskstats)
np dxstat -o tsv
is "$st" 0 "dxstat as nobody: exit 0"
is "$(cat "$TRASH/err")" "" "dxstat as nobody: nothing on stderr"
ok "dxstat as nobody: TSV field counts" fields_ok "$TRASH/out"
if [ -n "$disk" ]; then
	ok "dxstat as nobody: a row for $disk with a number for r/s" \
	    awk -F'\t' -v d="$disk" '$2 == d && $3 ~ /^[0-9]+\.[0-9][0-9]$/ { f = 1 } END { exit !f }' "$TRASH/out"
else
	skip "dxstat as nobody: a disk's row" "no disk with reads here"
fi
np dxstat -o json
ok "dxstat as nobody: JSON lines" json_ok "$TRASH/out"

# -- dpsi: /proc/pressure/* are world-readable.
if [ -r /proc/pressure/io ]; then
	np dpsi -o tsv
	is "$st" 0 "dpsi as nobody: exit 0"
	is "$(cat "$TRASH/err")" "" "dpsi as nobody: nothing on stderr"
	is "$(awk -F'\t' '$2 == "io" { print $3 }' "$TRASH/out" | tr '\n' ' ')" "some full " \
	    "dpsi as nobody: io some and io full rows"
	ok "dpsi as nobody: io some total a number" \
	    awk -F'\t' '$2 == "io" && $3 == "some" && $7 ~ /^[0-9]+$/ { f = 1 } END { exit !f }' "$TRASH/out"
else
	skip "dpsi as nobody" "PSI off"
fi

# -- dqueue: sysfs queue attributes, world-readable: as root sees them.
if [ -n "$disk" ]; then
	np dqueue -o tsv "$disk"
	is "$st" 0 "dqueue as nobody: exit 0"
	is "$(cat "$TRASH/err")" "" "dqueue as nobody: nothing on stderr"
	dqueue -o tsv "$disk" >"$TRASH/root.dq" 2>/dev/null
	ok "dqueue as nobody: $disk's row is root's, column for column" test_cmp "$TRASH/root.dq" "$TRASH/out"
	ok "dqueue as nobody: a scheduler shown" \
	    awk -F'\t' -v d="$disk" '$1 == d && $3 != "" && $3 != "-" { f = 1 } END { exit !f }' "$TRASH/out"
fi
np dqueue -o json
is "$st" 0 "dqueue as nobody, every device: exit 0"
ok "dqueue as nobody: JSON lines" json_ok "$TRASH/out"

# -- dwho: every process listed; other users' I/O counters are "-",
# said once; delay accounting off said once (when it is off).
delay_note="dwho: delay accounting is off, %iodelay is -: enable it with 'sysctl kernel.task_delayacct=1' or the 'delayacct' boot option; only tasks started after enabling it are accounted"
np dwho -a -o tsv 0.3 1
is "$st" 0 "dwho as nobody: exit 0"
ok "dwho as nobody: TSV field counts" fields_ok "$TRASH/out"
ok "dwho as nobody: its own row, with numbers" \
    awk -F'\t' '$3 == "nobody" && $4 == "dwho" && $8 ~ /^[0-9]+\.[0-9][0-9]$/ { f = 1 } END { exit !f }' "$TRASH/out"
ok "dwho as nobody: root's processes listed, their counters -" \
    awk -F'\t' '$3 == "root" && $5 == "-" && $8 == "-" { f = 1 } END { exit !f }' "$TRASH/out"
grep -v '^dwho: I/O counters of' "$TRASH/err" >"$TRASH/rest"
if [ "$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)" = 0 ]; then
	is "$(cat "$TRASH/rest")" "$delay_note" "dwho as nobody: the delay accounting note, once, and nothing else"
else
	is "$(cat "$TRASH/rest")" "" "dwho as nobody: no other note"
fi
is "$(grep -c '^dwho: I/O counters of' "$TRASH/err")" 1 "dwho as nobody: one note on unreadable counters"
ok "dwho as nobody: the note is exact, with a count" grep -Eqx \
    "dwho: I/O counters of [0-9]+ process(es)? (is|are) unreadable \(other users' /proc/PID/io needs root\): their byte and syscall columns are -" \
    "$TRASH/err"

# -- ddeleted: nobody's own deleted file is listed; the rest is a note.
(cd "$TRASH/nobody" && $NP sh -c 'echo held >mine; exec 3<mine; rm mine
	exec "$1" -o tsv' sh "$BIN/ddeleted") >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "ddeleted as nobody: exit 0"
ok "ddeleted as nobody: TSV field counts" fields_ok "$TRASH/out"
is "$(awk -F'\t' -v f="$TRASH/nobody/mine" '$12 == f { print $2, $3, $4, $5 }' "$TRASH/out")" \
    "nobody ddeleted 3 5" "ddeleted as nobody: its own held file (user, command, fd 3, 5 bytes)"
is "$(wc -l <"$TRASH/err")" 1 "ddeleted as nobody: one line on stderr"
ok "ddeleted as nobody: the note is exact, with counts" grep -Eqx \
    "ddeleted: not root: the descriptors of [0-9]+ of [0-9]+ processes could not be read; only your own are listed" \
    "$TRASH/err"
ok "ddeleted as nobody: the counts make sense (0 < denied < all)" \
    awk '{ d = $7; a = $9 } END { exit !(d > 0 && d < a) }' "$TRASH/err"

# -- dtriage: what nobody cannot see is said in rows, not left out.
if [ -x "$BIN/dtriage" ]; then
	np dtriage -o tsv 0.5
	ok "dtriage as nobody: exit 0 or 3 (exit $st)" test "$st" -eq 0 -o "$st" -eq 3
	is "$(cat "$TRASH/err")" "" "dtriage as nobody: nothing on stderr"
	ok "dtriage as nobody: TSV field counts" fields_ok "$TRASH/out"
	is "$(awk -F'\t' 'NR == 2 { print $2 }' "$TRASH/out")" verdict "dtriage as nobody: the verdict first"
	ok "dtriage as nobody: other users' I/O unreadable, counted" \
	    awk -F'\t' '$1 == "info" && $2 == "unreadable" && $3 == "-" && $4 ~ /^[1-9][0-9]*$/ &&
	    $5 ~ /could not be read/ && $5 ~ /not counted/ { f = 1 } END { exit !f }' "$TRASH/out"
	ok "dtriage as nobody: other users' open files unreadable, counted" \
	    awk -F'\t' '$1 == "info" && $2 == "unreadable" && $3 == "fd" && $4 ~ /^[1-9][0-9]*$/ &&
	    $5 ~ /deleted files is not counted/ { f = 1 } END { exit !f }' "$TRASH/out"
	ok "dtriage as nobody: no tracing, and why" \
	    awk -F'\t' '$2 == "no-latency" && $5 ~ /needs CAP_BPF and CAP_PERFMON, or root/ { f = 1 }
	    END { exit !f }' "$TRASH/out"
else
	skip "dtriage as nobody" "dtriage not built"
fi
