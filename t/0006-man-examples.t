#!/bin/sh
# Every user's example of the man pages (an EXAMPLES line that begins
# "$ ", with the lines that continue it) is run as written, like
# README's in t/0004: only durations are shortened (10 s to 0.3 s,
# -T 3600 to -T 1), a service's cgroup is one of our own and its file
# goes to the scratch directory.  The root's examples ("# ") change the
# system (--truncate, --set, cp of a held file) and are not run.  A
# new example this script does not know is run and must exit 0.
. "${0%/*}/lib.sh"
DOC=$TOP/doc
[ -d "$DOC" ] || skip_all "no doc/"

# The examples, one a record: roff's \e is a backslash; a command goes
# on until the display's end (.Ed).
for m in "$DOC"/*.1; do
	awk '/^\$ / { on = 1; sub(/^\$ /, ""); c = $0; next }
	     on && /^\.Ed/ { on = 0; print c; printf "\036\n"; next }
	     on { c = c "\n" $0 }' "$m"
done | sed 's/\\e/\\/g' >"$TRASH/examples"
N=13
is "$(grep -c "$(printf '\036')" "$TRASH/examples")" $N "man pages: the user's examples found ($N)"

# dpsi(1)'s service: a cgroup of our own (as root, on cgroup v2).
CG2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
CG=
if [ "$(id -u)" -eq 0 ] && [ -n "$CG2" ] && mkdir "$CG2/diskstat-t0006.$$" 2>/dev/null; then
	at_exit "rmdir '$CG2/diskstat-t0006.$$'"
	CG=diskstat-t0006.$$
fi
shorten() {
	sed -e 's/ 10 1\( \|$\)/ 0.3 1\1/' -e 's/ 5 1\( \|$\)/ 0.3 1\1/' \
	    -e 's/ 2 1\( \|$\)/ 0.3 1\1/' -e 's/ 60 1\( \|$\)/ 0.3 1\1/' \
	    -e 's/^dwho -l -o tsv 1 |/dwho -l -o tsv 0.3 1 |/' -e 's/-T 3600/-T 1/' \
	    -e 's|dcapture -w /var/tmp/ev.cap 10$|dcapture -w ev.cap 1|' \
	    -e "s|-c system.slice/db.service \\(.*\\) 1000 >>events.tsv|-c $CG \\1 -T 1 1 >>$TRASH/events.tsv|"
}

n=0
while IFS= read -r line; do
	if [ "$line" != "$(printf '\036')" ]; then
		ex="${ex:+$ex
}$line"
		continue
	fi
	n=$((n + 1))
	first=$(printf '%s\n' "$ex" | head -1)
	cmd=$(printf '%s\n' "$ex" | shorten)
	ex=
	case $cmd in
	*"| jq "* | *"|
    jq "*) if ! have_prog jq; then skip "man: $first" "needs jq"; continue; fi ;;
	*"-c system.slice/db.service"* | *"-c  -W"*)
		skip "man: $first" "needs root and cgroup v2 (a cgroup of its own)"
		continue ;;
	esac
	(cd "$TRASH" && eval "$cmd") >"$TRASH/out.$n" 2>"$TRASH/err.$n"
	st=$?
	case $first in
	"dpsi -r io -H 60 1 | awk"*)
		# exit 1 is the alarm: io some stall above 5 % (a busy host)
		case $st in
		0|1) pass "man: $first: exit $st" ;;
		*) fail "man: $first"; echo "# exit $st"; sed 's/^/# /' "$TRASH/err.$n" ;;
		esac ;;
	"dpsi --wait"*)
		case $st in
		0) ok "man: $first (event, then a capture dxstat -R reads)" \
		    sh -c "dxstat -R '$TRASH/ev.cap' -o tsv | grep -q ." ;;
		3) is "$(cat "$TRASH/out.$n"):$(grep -c 'timed out' "$TRASH/err.$n"):$(ls "$TRASH/ev.cap" 2>/dev/null)" ":1:" \
		    "man: $first: timeout, no capture taken, said" ;;
		*) fail "man: $first"; echo "# exit $st"; sed 's/^/# /' "$TRASH/err.$n" ;;
		esac ;;
	"dpsi -c system.slice/db.service"*)
		# a timeout (3) or an event (0); the events go to the file
		case $st in
		0|3) pass "man: $first: exit $st, the cgroup read" ;;
		*) fail "man: $first"; echo "# exit $st"; sed 's/^/# /' "$TRASH/err.$n" ;;
		esac ;;
	"dqueue -H --check"*)
		if ls -d /sys/block/nvme* >/dev/null 2>&1; then
			skip "man: $first" "this host has NVMe devices: drift depends on them"
		else
			is "$(cat "$TRASH/out.$n")" "" "man: $first: no drift said without NVMe"
		fi ;;
	*)
		is "$st" 0 "man: $first: exit 0" ;;
	esac
	# A pipe's status is its last command's: the tool before the first
	# pipe is run alone too, and must exit 0 with no usage message.
	tool=$(printf '%s\n' "$cmd" | head -1 | sed 's/ |.*//')
	if [ "$tool" != "$(printf '%s\n' "$cmd" | head -1)" ]; then
		(cd "$TRASH" && eval "$tool") >/dev/null 2>"$TRASH/terr.$n"
		is "$?:$(grep -c '^usage:' "$TRASH/terr.$n")" "0:0" "man: $first: the tool alone exits 0"
	fi
done <"$TRASH/examples"
is "$n" $N "man pages: every example run"

# The awk examples name fields by number: those numbers are the columns
# the examples mean (a column added before them would move them).
field() { "$@" 2>/dev/null | head -1 | tr '\t' '\n' | sed -n "$F"p | tr '\n' ' '; }
F='6p;7p;8'; is "$(field ddeleted -o tsv)" "allocated dev inode " "ddeleted(1) awk: \$6 \$7 \$8 are allocated, dev, inode"
F='1p;3'; is "$(field ddeleted -o tsv)" "pid command " "ddeleted(1) awk: \$1 \$3 are pid, command"
F='3p;8'; is "$(field dpsi -r io -o tsv)" "kind stall% " "dpsi(1) awk: \$3 \$8 are kind, stall%"
F='2p;3'; is "$(field dqueue -o tsv)" "rotational scheduler " "dqueue(1) awk: \$2 \$3 are rotational, scheduler"
F=13; is "$(field dwho -l -o tsv 0.1 1)" "%iodelay " "dwho(1) awk: \$13 is %iodelay"
