#!/bin/sh
# doc/diskstat.bash-completion, sourced in bash and driven the way
# readline drives it (COMP_WORDS, COMP_CWORD): formats after -o, options
# from the tool's --help, devices from sys/block (of -R DIR when given).
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd bash
C=$TOP/doc/diskstat.bash-completion
fleet_tools

# comp WORD...: the completions bash would offer for the last word.
comp() {
	bash -c '. "$1" || exit 1; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		f=$(complete -p "$1" 2>/dev/null | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		"${f:-_diskstat}" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' comp "$C" "$@" | sort | tr '\n' ' '
}

ok "bash -n: the script parses" bash -n "$C"
for t in dxstat dpsi dwho dqueue ddeleted; do
	is "$(bash -c '. "$1"; complete -p "$2"' x "$C" "$t" 2>&1)" "complete -F _diskstat $t" \
	    "complete is registered for $t"
done
is "$(comp dxstat -o '')" "json prom table tsv " "dxstat -o <TAB>: the four formats"
is "$(comp dpsi -H -o p)" "prom " "dpsi -H -o p<TAB>: prom"
is "$(comp dxstat --r)" "--root " "dxstat --r<TAB>: --root"
mkdir -p "$TRASH/dirs/alpha" "$TRASH/dirs/beta"
is "$(cd "$TRASH/dirs" && comp dqueue -R a)" "alpha " "-R <TAB>: directories"
is "$(cd "$TRASH/dirs" && comp dcapture -d a)" "alpha " "dcapture -d <TAB>: directories"

# Devices: a tree with known names, then the live /sys/block.
mkdir -p "$TRASH/tree/sys/block/sda" "$TRASH/tree/sys/block/nvme0n1" \
    "$TRASH/tree/sys/block/dm-0"
is "$(comp dqueue -R "$TRASH/tree" '')" "dm-0 nvme0n1 sda " "dqueue -R TREE <TAB>: the tree's devices"
is "$(comp dxstat --root="$TRASH/tree" n)" "nvme0n1 " "dxstat --root=TREE n<TAB>: nvme0n1"
is "$(DISKSTAT_ROOT=$TRASH/tree comp dxstat s)" "sda " "DISKSTAT_ROOT=TREE dxstat s<TAB>: sda"
is "$(comp dpsi -R "$TRASH/tree" '')" "" "dpsi <TAB>: no device names (it takes none)"
first=$(ls /sys/block 2>/dev/null | head -1)
if [ -n "$first" ]; then
	case " $(comp dqueue '') " in
	*" $first "*) pass "dqueue <TAB> lists $first from /sys/block" ;;
	*) fail "dqueue <TAB> lists $first from /sys/block" ;;
	esac
	# Other work adds and removes loop devices: compare against a
	# listing that did not change while the completion ran.
	i=0
	while :; do
		before=$(ls /sys/block | wc -l)
		words=$(comp dxstat '' | wc -w)
		[ "$before" = "$(ls /sys/block | wc -l)" ] || [ $i -ge 5 ] || { i=$((i + 1)); continue; }
		break
	done
	is "$words" "$before" "dxstat <TAB>: every /sys/block entry"
else
	skip "dqueue <TAB> lists a device" "/sys/block is empty here"
fi

# Arguments of tool options.
is "$(comp dpsi -r m)" "memory " "dpsi -r m<TAB>: memory"
is "$(comp dlat -p '')" "d2c q2c q2d " "dlat -p <TAB>: the three phases"
is "$(comp dlat -p d2c,q)" "d2c,q2c d2c,q2d " "dlat -p d2c,q<TAB>: the list goes on"
mkdir -p "$TRASH/tree/sys/block/sda/queue"
: >"$TRASH/tree/sys/block/sda/queue/nr_requests"
: >"$TRASH/tree/sys/block/sda/queue/read_ahead_kb"
is "$(comp dqueue -R "$TRASH/tree" --set nr)" "nr_requests= " "dqueue --set nr<TAB>: nr_requests="
: >"$TRASH/dirs/snap1"
is "$(cd "$TRASH/dirs" && comp dxstat -f s)" "snap1 " "dxstat -f <TAB>: files"

# Options from each built tool's own --help.
for t in $tools; do
	want=$("$t" --help | tr ' ' '\n' | sed -n 's/^\[\{0,1\}\(-[A-Za-z0-9]\)$/\1/p; s/^\[-\([A-Za-z0-9]*\)\]$/\1/p' |
	    while read -r w; do
		case $w in -*) echo "$w" ;; *) echo "$w" | sed 's/./-&\n/g' | grep . ;; esac
	    done | sort -u)
	got=$(comp "$t" - | tr ' ' '\n')
	missing=
	for w in $want; do
		echo "$got" | grep -qx -- "$w" || missing="$missing $w"
	done
	is "${missing# }" "" "$t -<TAB>: every option of its usage line"
	case " $(comp "$t" --) " in
	*" --help "*"--root "*"--version "*) pass "$t --<TAB>: --help --root --version" ;;
	*) fail "$t --<TAB>: --help --root --version" ;;
	esac
done

# Every long option a tool takes, from its --help (issue 16).
for t in $tools; do
	want=$("$t" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
	got=$(comp "$t" -- | tr ' ' '\n')
	missing=
	for w in $want; do
		echo "$got" | grep -qx -- "$w" || missing="$missing $w"
	done
	is "${missing# }" "" "$t --<TAB>: every long option of its --help"
done

# dqueue --set: only attributes that can be written; --check: all.
mkdir -p "$TRASH/wt/sys/block/vdb/queue"
for f in nr_requests scheduler rotational logical_block_size; do
	: >"$TRASH/wt/sys/block/vdb/queue/$f"
done
echo 'none [mq-deadline] kyber' >"$TRASH/wt/sys/block/vdb/queue/scheduler"
chmod 0444 "$TRASH/wt/sys/block/vdb/queue/logical_block_size"
chmod 0644 "$TRASH/wt/sys/block/vdb/queue/nr_requests" "$TRASH/wt/sys/block/vdb/queue/scheduler" \
    "$TRASH/wt/sys/block/vdb/queue/rotational"
is "$(comp dqueue -R "$TRASH/wt" --set '')" "nr_requests= rotational= scheduler= " \
    "dqueue --set <TAB>: the writable attributes only"
is "$(comp dqueue -R "$TRASH/wt" --check l)" "logical_block_size= " \
    "dqueue --check l<TAB>: read-only ones too"
is "$(comp dqueue -R "$TRASH/wt" --set scheduler=)" "scheduler=kyber scheduler=mq-deadline scheduler=none " \
    "dqueue --set scheduler=<TAB>: the device's schedulers"
is "$(comp dqueue -R "$TRASH/wt" vdb --set 'nr_requests=64,scheduler=k')" "nr_requests=64,scheduler=kyber " \
    "dqueue --set a=1,scheduler=k<TAB>: after a comma too"
is "$(comp dqueue -R "$TRASH/wt" --set scheduler = m)" "mq-deadline " \
    "dqueue --set scheduler = m<TAB> (readline split at =): the schedulers"
# dwho -s: the sort keys, the same on every host.
is "$(comp dwho -s wr)" "write writes " "dwho -s wr<TAB>: write writes"
is "$(comp dwho -s io)" "io iodelay " "dwho -s io<TAB>: io iodelay"
# -O: the tool's own column names.
is "$(comp dxstat -O %u)" "%util " "dxstat -O %u<TAB>: %util"
is "$(comp dwho -O +ca)" "+carries " "dwho -O +ca<TAB>: +carries"
# ddeleted --truncate: PID:FD of deleted files held open.
head -c 4096 /dev/zero >"$TRASH/held"
sleep 1000 7<"$TRASH/held" &
sl=$!
at_exit "kill $sl 2>/dev/null"
sleep 0.2
rm "$TRASH/held"
case " $(comp ddeleted --truncate "$sl:") " in
*" $sl:7 "*) pass "ddeleted --truncate PID:<TAB>: the deleted file's PID:FD" ;;
*) if [ "$(id -u)" -eq 0 ]; then fail "ddeleted --truncate PID:<TAB>"; else
	skip "ddeleted --truncate PID:<TAB>" "not root"; fi ;;
esac
kill $sl
