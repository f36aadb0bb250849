#!/bin/sh
# make check: alone (its live cgroups and processes carry hostile names other tests would list)
# Hostile input end to end, live (issue 8, stage two):
#  - a process whose comm holds a tab, a newline and ")" doing I/O:
#    dwho keeps TSV field counts, JSON parses, the row has its pid;
#  - a cgroup with a space in its name under the cgroup v2 mount (found
#    from /proc/self/mountinfo) with a process in it: dpsi -C and
#    dwho -g name it right in tsv, json and prom.
# The deleted file with a hostile name is t/5000-ddeleted-basic.t (tab,
# newline, backslash, quote, invalid UTF-8; JSON decodes to U+FFFD);
# FIFOs, directories, cut files and one-megabyte lines for every tool
# are t/0030-hostile-trees.t; 20,000 devices through dxstat -f are
# t/1020-dxstat-manydev.t.
. "${0%/*}/lib.sh"
need_root
need_cmd jq
for t in dwho dpsi; do
	[ -x "$TOP/cmd/$t/$t" ] || skip_all "$t not built"
done

kids=
at_exit 'for k in $kids; do kill $k 2>/dev/null; done; wait 2>/dev/null'

# -- comm with tab, newline and ")": shell builtins only, so the reads
# and writes are the hostile process's own.
name=$(printf 'a\tb\nc) (d')
sh -c 'printf "a\tb\nc) (d" >/proc/$$/comm
	while :; do echo xxxxxxxxxxxxxxxx >"$1"; read -r l <"$1"; done' sh "$TRASH/io" &
hostile=$!
kids="$kids $hostile"
sleep 0.3
is "$(cat /proc/$hostile/comm)" "$name" "comm set to tab, newline, ')'"

dwho -o tsv 0.5 2 >"$TRASH/tsv" 2>"$TRASH/err"
is "$?" 0 "dwho 0.5 2: exit 0"
ok "dwho tsv: every row has the header's field count" fields_ok "$TRASH/tsv"
is "$(awk -F'\t' -v p=$hostile '$2 == p { print $4 }' "$TRASH/tsv" | sort -u)" \
    'a\tb\nc) (d' "dwho tsv: the row with pid $hostile, comm escaped, ')' kept"
ok "dwho tsv: its syscalls counted (syscw/s > 0)" \
    awk -F'\t' -v p=$hostile '$2 == p && $11 + 0 > 0 { f = 1 } END { exit !f }' "$TRASH/tsv"
dwho -o json 0.5 1 >"$TRASH/json" 2>/dev/null
ok "dwho json: every line parses" json_ok "$TRASH/json"
is "$(jq -r --argjson p $hostile 'select(.pid == $p) | .command' "$TRASH/json")" \
    "$name" "dwho json: pid $hostile's command decodes to the bytes"
dwho -p $hostile -o prom 0.5 1 >"$TRASH/prom" 2>/dev/null
ok "dwho prom: label escapes the newline, keeps tab and ')'" \
    grep -qF "$(printf 'command="a\tb\\nc) (d"')" "$TRASH/prom"
ok "dwho prom: every sample line well formed" awk '
	/^#/ { next }
	/^[a-z_]+\{pid="[0-9]+",user="[^"]*",command="([^"\\]|\\.)*",start="[0-9]+"\} [-0-9.e+]+$/ { next }
	{ bad = 1; print "# " $0 } END { exit bad }' "$TRASH/prom"
kill $hostile 2>/dev/null

# -- a cgroup with a space in its name, a process in it
V2=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -1 | sed 's/\\040/ /g')
[ -n "$V2" ] || skip_all "a cgroup with a space: no cgroup2 mount"
cgname="h2 sp.$$"
CG=$V2/$cgname
mkdir "$CG" || skip_all "cannot make a cgroup under $V2"
at_exit "for p in \$(cat '$CG/cgroup.procs' 2>/dev/null); do kill \$p 2>/dev/null; echo \$p >'$V2/cgroup.procs' 2>/dev/null; done; sleep 0.2; rmdir '$CG'"
sh -c 'echo $$ >"$1/cgroup.procs" || exit 1
	while :; do echo xxxxxxxxxxxxxxxx >"$2"; read -r l <"$2"; done' sh "$CG" "$TRASH/cgio" &
kids="$kids $!"
sleep 0.3
ok "the process is in '$cgname'" grep -qx "$!" "$CG/cgroup.procs"

if [ -r "$CG/io.pressure" ]; then
	dpsi -C -r io -o tsv >"$TRASH/psi.tsv" 2>"$TRASH/err"
	is "$?" 0 "dpsi -C: exit 0"
	ok "dpsi -C tsv: field counts" fields_ok "$TRASH/psi.tsv"
	is "$(awk -F'\t' -v c="/$cgname" '$2 == c { print $3 "/" $4 }' "$TRASH/psi.tsv" | sort | tr '\n' ' ')" \
	    "io/full io/some " "dpsi -C tsv: '/$cgname' io some and full, space kept"
	dpsi -C -r io -o json >"$TRASH/psi.json" 2>/dev/null
	ok "dpsi -C json: parses" json_ok "$TRASH/psi.json"
	is "$(jq -r --arg c "/$cgname" 'select(.cgroup == $c) | .kind' "$TRASH/psi.json" | sort | tr '\n' ' ')" \
	    "full some " "dpsi -C json: the cgroup's two rows"
	dpsi -C -r io -o prom >"$TRASH/psi.prom" 2>/dev/null
	is "$(grep -c "^dpsi_io_some_stall_seconds_total{cgroup=\"/$cgname\"} [0-9.]*$" "$TRASH/psi.prom")" 1 \
	    "dpsi -C prom: one io some sample labelled '/$cgname'"
else
	skip "dpsi -C on '$cgname'" "no io.pressure in the cgroup (PSI off)"
fi

dwho -g -o tsv 0.5 1 >"$TRASH/g.tsv" 2>"$TRASH/err"
is "$?" 0 "dwho -g: exit 0"
ok "dwho -g tsv: field counts" fields_ok "$TRASH/g.tsv"
is "$(awk -F'\t' -v c="/$cgname" '$2 == c { print $3 }' "$TRASH/g.tsv")" 1 \
    "dwho -g tsv: '/$cgname' with its one process"
ok "dwho -g tsv: its syscalls counted" \
    awk -F'\t' -v c="/$cgname" '$2 == c && $10 + 0 > 0 { f = 1 } END { exit !f }' "$TRASH/g.tsv"
dwho -g -o json 0.5 1 >"$TRASH/g.json" 2>/dev/null
ok "dwho -g json: parses" json_ok "$TRASH/g.json"
is "$(jq -r --arg c "/$cgname" 'select(.cgroup == $c) | .procs' "$TRASH/g.json")" 1 \
    "dwho -g json: the cgroup by name"
dwho -g -o prom 0.5 1 >"$TRASH/g.prom" 2>/dev/null
is "$(grep -c "^dwho_cgroup_processes{cgroup=\"/$cgname\"} 1$" "$TRASH/g.prom")" 1 \
    "dwho -g prom: processes gauge labelled '/$cgname'"
