#!/bin/sh
# Every example command in README is run, as written, and must do what
# the README says.  Each is taken from README itself (so a changed
# example is run as changed); only durations are shortened (10 s to
# 0.3 s, sleep 60 to nothing, -T 3600 to -T 1) and paths under /var
# moved into the scratch directory, by the sed below, so that the run
# takes seconds; the captures the examples name are made first, and the
# history's -a 7 keeps them whatever today's date.  A README example this script does not know fails.
. "${0%/*}/lib.sh"
README=$TOP/README
[ -f "$README" ] || skip_all "no README"

# The examples: indented lines of README that run a tool of the suite
# (or cmd/NAME/NAME), and the commands of the crontab lines.
# (The list of the tools at the top, "dxstat     the device view", is
# not a command.)
sed -n 's/^    //p' "$README" |
    sed -n -e 's/^\(\*[^ ]* \)\{5\} *root  *//p;t' \
    -e '/^\(dxstat\|dpsi\|dwho\|dqueue\|ddeleted\|dlat\|dtriage\)   *[a-z]/d' \
    -e '/^\(make && \)\{0,1\}\(cmd\/[a-z]*\/\)\{0,1\}\(dxstat\|dpsi\|dwho\|dqueue\|ddeleted\|dlat\|dtriage\)\( \|$\)/p' \
    >"$TRASH/examples"
N=35
is "$(wc -l <"$TRASH/examples" | tr -d ' ')" $N "README: the examples found ($N)"

mkdir -p "$TRASH/var/tmp" "$TRASH/var/lib/prometheus/node-exporter"
# dpsi -C lists the cgroups below the top: make one of our own, so that
# the example has a row to print on a host that has none (as root).
CG2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ "$(id -u)" -eq 0 ] && [ -n "$CG2" ] && mkdir "$CG2/diskstat-t0004.$$" 2>/dev/null; then
	at_exit "rmdir '$CG2/diskstat-t0004.$$'"
	CGMADE=1
fi
# The captures the examples read, taken in the order of their names:
# one-sample ones of the history, a pressure one of 1 s.
H=$TRASH/var/lib/diskstat
mkdir -p "$H/captures"
for s in 20261205T000000Z 20261205T030500Z 20261205T031000Z 20261205T060000Z; do
	dcapture -w "$H/$s.cap" 0
	sleep 0.05
done
dcapture -w "$H/captures/20261205T031212Z.cap" 1
# dlat's examples name a disk: this host's first whole disk stands in.
DISK=$(ls /sys/block 2>/dev/null | grep -v '^\(loop\|ram\|zram\)' | head -1)
shorten() {
	sed -e 's/^dtriage\( *#.*\)\{0,1\}$/dtriage 0.3/' \
	    -e 's/^dtriage -H -o tsv 5 /dtriage -H -o tsv 0.3 /' \
	    -e 's/^dtriage -b \([^ ]*\) -o json /dtriage -b \1 -o json 0.3 /' \
	    -e 's/^dlat -H 60 /dlat -H 0.3 1 /' -e "s/ sda 5 1 / ${DISK:-sda} 0.3 1 /" \
	    -e 's/ 10 1\( \|$\)/ 0.3 1\1/g' -e 's/ 5 1\( \|$\)/ 0.3 1\1/g' \
	    -e 's/ 2 1\( \|$\)/ 0.3 1\1/g' -e 's/ 1 3\( \|$\)/ 0.2 2\1/g' \
	    -e 's/ -z 2 3/ -z 0.2 2/' -e 's/ 50 1 *$/ 0.3 1/' \
	    -e 's/sleep 60/:/' -e 's/-T 3600/-T 1/' \
	    -e 's/\(&& dcapture -w [^ ]*\) 10$/\1 1/' -e 's/ -a 7 0$/ -a 36500 0/' \
	    -e "s|/var/|$TRASH/var/|g" -e 's|^make && ||'
}

n=0
while IFS= read -r ex; do
	n=$((n + 1))
	# An example piped into jq needs jq, which build-essential lacks:
	# skipped before the tool's own case (dlat's, dtriage's) is judged.
	case $ex in
	*"| jq "*) if ! have_prog jq; then skip "README: $ex" "needs jq"; continue; fi ;;
	esac
	cmd=$(printf '%s\n' "$ex" | shorten)
	(cd "$TOP" && eval "$cmd") >"$TRASH/out.$n" 2>"$TRASH/err.$n"
	st=$?
	out=$TRASH/out.$n
	case $ex in
	dlat*)
		# Tracing needs root (CAP_BPF, CAP_PERFMON) and BPF.
		if [ "$(id -u)" -ne 0 ]; then
			skip "README: $ex" "needs root (CAP_BPF and CAP_PERFMON)"
		elif [ "$st" -eq 1 ] && grep -q 'nvme0n1' "$TRASH/err.$n"; then
			skip "README: $ex" "this host has no nvme0n1 (and the example traces until ^C)"
		elif [ "$st" -eq 1 ] && grep -qi 'bpf\|lockdown' "$TRASH/err.$n"; then
			skip "README: $ex" "BPF refused here: $(head -1 "$TRASH/err.$n")"
		else
			is "$st" 0 "README: $ex: exit 0"
		fi
		;;
	dtriage*)
		# 3 is a finding at warn or above, which a busy host can have.
		case $st in
		0|3) pass "README: $ex: exit $st" ;;
		*) fail "README: $ex"; echo "# exit $st"; sed 's/^/# /' "$TRASH/err.$n" ;;
		esac
		;;
	"dqueue -H --check"*)
		# exit 1 (no NVMe) or 0 is no drift: nothing printed.
		if ls -d /sys/block/nvme* >/dev/null 2>&1; then
			skip "README: $ex" "this host has NVMe devices: drift depends on them"
		else
			is "$(cat "$out")" "" "README: $ex: no drift said without NVMe"
		fi
		;;
	"dpsi --wait"*)
		f=$TRASH/var/tmp/stall.cap
		case $st in
		0) is "$(stat -c %a "$f" 2>&1)" 600 "README: $ex (event, then a capture, 0600)" ;;
		3) is "$(cat "$out"):$(grep -c 'timed out' "$TRASH/err.$n"):$(ls "$f" 2>/dev/null)" ":1:" \
		    "README: $ex: timeout, said, no capture" ;;
		*) fail "README: $ex"; echo "# exit $st"; sed 's/^/# /' "$TRASH/err.$n" ;;
		esac
		;;
	"ddeleted -s --du /var"*)
		if [ "$(id -u)" -ne 0 ]; then
			skip "README: $ex" "needs root (du of /var)"
		else
			is "$st:$(head -1 "$out" | cut -f1-3)" "0:$(printf 'mount\tfstype\tsize')" \
			    "README: $ex: exit 0, the summary"
		fi
		;;
	*"| jq "*)
		is "$st" 0 "README: $ex: exit 0"
		;;
	*"| awk "*)
		# The awk selects rows; the tool before it must have run
		# (a pipe's status is awk's: run the tool alone too).
		tool=$(printf '%s\n' "$cmd" | sed 's/ |.*//')
		(cd "$TOP" && eval "$tool") >"$TRASH/tool.$n" 2>/dev/null
		is "$?:$st" "0:0" "README: $ex: exit 0"
		case $tool in
		*"dpsi -C"*) if [ -z "$CGMADE" ] && [ "$(wc -l <"$TRASH/tool.$n")" -le 1 ]; then
			skip "README: $ex: the tool wrote tsv rows" "no cgroup below the top to list (needs root to make one)"
			continue
		fi ;;
		esac
		ok "README: $ex: the tool wrote tsv rows" fields_ok "$TRASH/tool.$n"
		;;
	"dcapture -d "*)
		is "$st:$(ls "$H" | grep -c '^[0-9]\{8\}T[0-9]\{6\}Z\.cap$'):$(stat -c %a "$H"/*.cap | sort -u)" \
		    "0:5:600" "README: $ex: exit 0, one more capture named by its time, 0600"
		;;
	*" -w "*)
		f=$(printf '%s\n' "$cmd" | sed 's/.* -w \([^ ]*\).*/\1/')
		is "$st" 0 "README: $ex: exit 0"
		# (ddeleted's is empty when no deleted file is held)
		case $ex in
		ddeleted*) ok "README: $ex: the file written" test -f "$f" ;;
		*) ok "README: $ex: the file written" test -s "$f" ;;
		esac
		;;
	*)
		is "$st" 0 "README: $ex: exit 0"
		;;
	esac
done <"$TRASH/examples"
is "$n" $N "README: every example run"
