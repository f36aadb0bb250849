#!/bin/sh
# make check: early (about a minute: 650 runs of the tools, two at a time)
# Hostile capture archives through every tool that reads -R (and -f OLD
# -f NEW where the tool takes it): archives cut inside a header or a
# member's data, a wrong checksum, names that climb out or are absolute,
# links out of their sample or through a link, hard links, devices and
# FIFOs, absurd sizes, too many members, names of control bytes and
# invalid UTF-8, a capture/meta edited by hand, window members (format
# in lib/winload.c) with lines out of place or counts too large, and a
# capture whose sample 1/ is gone though meta says 2.  Each must end
# with exit 1 and one message naming the problem (escaped: no raw
# control byte), never a signal or sanitizer report, nothing written
# outside the private extraction directory, and that directory gone.
# The archives are made by t/0034-hostile-captures.c (mktar) from real
# captures that dcapture takes here.
. "${0%/*}/lib.sh"
need_prog cc timeout

cc -std=c11 -O2 -Wall -Wextra -o "$TRASH/mktar" "$T/0034-hostile-captures.c" \
    2>"$TRASH/cc" || { sed 's/^/# /' "$TRASH/cc"; skip_all "cannot build mktar"; }
mktar() { "$TRASH/mktar" "$@"; }
[ -x "$TOP/cmd/dcapture/dcapture" ] || skip_all "dcapture is not built"

# Extractions go to $TRASH/tmp/x, so that "../NAME" would land in
# $TRASH/tmp; $TRASH/canary is the target of absolute links.
mkdir -p "$TRASH/tmp/x" "$TRASH/canary" "$TRASH/a" "$TRASH/o"
TMPDIR=$TRASH/tmp/x
export TMPDIR
A=$TRASH/a
dcapture -w "$A/base2" 1 2>"$TRASH/o/err" &&
    dcapture -w "$A/base1" 0 2>>"$TRASH/o/err" &&
    dcapture -w "$A/base1b" 0 2>>"$TRASH/o/err" ||
    { sed 's/^/# /' "$TRASH/o/err"; skip_all "dcapture cannot take a capture here"; }

# The captures cut down to what the tools need to read them (no
# processes, no cgroups, no loop, zram or other virtual block devices,
# no queue/ settings: dqueue shows "-" for them): a hostile member after
# them is refused after about a hundred good ones were made.  Each run
# extracts them, and making and removing a file costs most of a
# millisecond here: 1,300 members a run (most of them loop devices'
# queue/ files) made the test minutes long.
for c in base2 base1 base1b; do
	mktar "$A/$c.small" copy "$A/$c" '[01]/proc/[0-9]*' '[01]/sys/fs/cgroup/*' \
	    '[01]/sys/devices/virtual/block/*' '[01]/sys/block/loop*' \
	    '[01]/sys/block/zram*' '[01]/sys/block/ram*' \
	    '[01]/sys/devices/*/queue/*' '[01]/sys/devices/*/mq/*'
	mktar "$A/$c.small" end
	if [ "$c" = base2 ]; then
		mv "$A/$c" "$A/$c.full"
	fi
	mv "$A/$c.small" "$A/$c"
done

tools=
for t in dxstat dwho dpsi dqueue ddeleted dlat dtriage; do
	[ -x "$TOP/cmd/$t/$t" ] && tools="$tools $t"
done

# Which tools read captures (-R), and which pair them (-f): those that
# take the good ones.  A tool that refuses every capture (dlat before
# it reads them) is still run: exit 1, nothing written, nothing left.
reads= pairs=
for t in $tools; do
	timeout 60 "$t" -R "$A/base2" >/dev/null 2>&1
	case $? in 0|3) reads="$reads $t" ;; esac
	timeout 60 "$t" -f "$A/base1" -f "$A/base1b" >/dev/null 2>&1
	[ $? -ne 2 ] && pairs="$pairs $t"
done
case " $reads " in *" dxstat "*) ;; *) skip_all "dxstat does not read captures" ;; esac
# A tool that reads the whole capture reads the cut one: else its
# hostile runs would check less (no message), and silently.
for t in $tools; do
	case " $reads " in *" $t "*) continue ;; esac
	timeout 60 "$t" -R "$A/base2.full" >/dev/null 2>&1
	case $? in
	0|3) fail "$t reads the whole capture but not the one cut down" ;;
	esac
done
rm -f "$A/base2.full"
pass "read captures:$reads; pair them:$pairs"

# Nothing may appear or go outside $TRASH/o (the runs' output) and the
# archives: the file list of $TRASH before a run is the one after.
# mktar run lists it after each run (find | sort in the shell cost more
# than most runs of the tools).  The runs are made by $workers shells
# side by side (most of a run is waiting on the file system here, not
# CPU), worker K's extractions in $TRASH/w/K/tmp/x: each watches $TRASH
# but $TRASH/w, and its own $TRASH/w/K; the whole of $TRASH is compared
# once more after all of them.
nl='
'
workers=2
k=0
while [ $k -lt $workers ]; do
	mkdir -p "$TRASH/w/$k/tmp/x"
	k=$((k + 1))
done
listing() {
	_r=$(mktar - run -w "$TRASH" -x "$TRASH/o" -x "$A" -x "$TRASH/w" \
	    -w "$own" true)
	printf '%s' "${_r#*"$nl"}"
}
err=$TRASH/o/err
ls -ld /etc/x /tmp/x /etc/passwd-planted 2>&1 | sort >"$TRASH/o/sys-before"

# check DESC REGEX WANT CMD...: CMD exits WANT (1; "ok": as on a good
# capture), says REGEX in a "TOOL: " line (not for "ok"), escapes what
# it says, writes nothing and leaves no extraction behind.  mktar run
# runs CMD as timeout 120 would and reports its status, the raw bytes
# of its messages, whether a line matched, and $TRASH's file list.
check() {
	_d=$1 _re=$2 _want=$3
	shift 3
	_r=$(mktar - run -t 120 -e "$err" -m "^$1: .*$_re" \
	    -w "$TRASH" -x "$TRASH/o" -x "$A" -x "$TRASH/w" -w "$own" "$@")
	_l=${_r%%"$nl"*} _after=${_r#*"$nl"}
	_st=${_l%% *} _l=${_l#* }
	_raw=${_l%% *} _says=${_l#* }
	case $_want.$_st in
	1.1|ok.0|ok.3) pass "$_d: exit $_st" ;;
	*.124) fail "$_d: timed out" ;;
	*) fail "$_d: exit $_st, not $_want"; sed 's/^/# /' "$err" | head -5 ;;
	esac
	if [ "$_want" = 1 ]; then
		if [ "$_says" = 1 ]; then
			pass "$_d: says $_re"
		else
			fail "$_d: says $_re"
			sed 's/^/# /' "$err" | head -5
		fi
	fi
	# Every byte a message holds printable ASCII: control bytes and
	# invalid UTF-8 escaped.
	is "$_raw" 0 "$_d: no raw control or 8-bit byte in its messages"
	if [ "$_after" = "$before" ]; then
		pass "$_d: nothing written, no extraction left"
	else
		fail "$_d: nothing written, no extraction left"
		printf '%s\n' "$before" >"$err.before"
		printf '%s\n' "$_after" >"$err.after"
		diff "$err.before" "$err.after" | sed 's/^/# /' | head -5
		rm -rf "$TRASH/canary"/* "$TMPDIR"/* "$TMPDIR/../"[!x]*
		before=$(listing)
	fi
}

# The cases are recorded in $TRASH/o/jobs as they are made, a line
# each: KIND, NAME, NOPAIR, NOPAIR_TOOL and REGEX apart by ^A; the
# workers run them once all the archives exist.
sep=$(printf '\001')
job() { printf '%s\001%s\001%s\001%s\001%s\n' "$@" >>"$TRASH/o/jobs"; }
: >"$TRASH/o/jobs"

# hostile NAME REGEX: every tool -R NAME; -f NAME -f base1b and -f base1
# -f NAME where the tool pairs.  A tool that reads no capture says
# something of its own: only the exit, the escaping and the writes.
hostile() { job hostile "$1" "${nopair:-}" "${nopair_tool:-}" "$2"; }
run_hostile() {
	for t in $tools; do
		case " $reads " in
		*" $t "*) check "$t -R $1" "$2" 1 "$t" -R "$A/$1" ;;
		*) check "$t -R $1" "" 1 "$t" -R "$A/$1" ;;
		esac
		case " $pairs " in *" $t "*)
			if [ -n "${nopair:-}" ] &&
			    { [ -z "${nopair_tool:-}" ] || [ "$nopair_tool" = "$t" ]; }; then
				skip "$t -f with $1" "$nopair"
				continue
			fi
			check "$t -f $1 -f good" "$2" 1 "$t" -f "$A/$1" -f "$A/base1b"
			check "$t -f good -f $1" "$2" 1 "$t" -f "$A/base1" -f "$A/$1"
		esac
	done
}

# An archive: base1's members (a whole capture of one sample, 45 or so
# members) or base2's for mk2 (two samples: what the captures edited,
# the window members and the strange name need to be read as a whole),
# but DROP's, then what the commands add.  The reader refuses a member
# the moment it reads its header, whatever came before: base1 is
# enough of a capture to be made, and undone, before the refusal, at
# a third of the cost of base2 per run.
# mk NAME [DROP...] then mktar calls, then end NAME.
mk() {
	_n=$1
	shift
	rm -f "$A/$_n"
	mktar "$A/$_n" copy "$A/${base:-base1}" "$@"
}
mk2() { base=base2 mk "$@"; base=; }
add() { _n=$1; shift; mktar "$A/$_n" "$@"; }
end() { mktar "$A/$1" end; }

# Cut inside a header, then inside a member's data.
mk cut
L=$(wc -c <"$A/cut")
printf '%02000d' 0 >"$TRASH/o/data"
add cut file 0/proc/cut "$TRASH/o/data"
end cut
head -c $((L + 100)) "$A/cut" >"$A/cut-header"
head -c $((L + 512 + 700)) "$A/cut" >"$A/cut-data"
hostile cut-header 'truncated header'
hostile cut-data 'truncated \(the archive ends inside it\)'
head -c 300 "$A/base2" >"$A/cut-first"
hostile cut-first 'not a ustar archive \(shorter than one header\)'

mk sum; end sum; mktar "$A/sum" sum 3
hostile sum 'member 3: header checksum wrong'
printf 'format 1\nsamples 1\n' >"$A/text"
# dxstat -f reads a file that is no archive as a snapshot file.
nopair="dxstat -f takes snapshot files too" nopair_tool=dxstat
hostile text 'not a ustar archive|not a snapshot|is not'
: >"$A/empty"
hostile empty 'not a capture|is not'
nopair= nopair_tool=
# One zero block, then more: what follows an end is refused.
mk trailer; head -c 512 /dev/zero >>"$A/trailer"; printf 'x' >>"$A/trailer"
hostile trailer 'data after the end-of-archive block'

# Names out of the sample.
mk abs; add abs hdr /etc/x 0 0; end abs
hostile abs 'member [0-9]+ \(/etc/x\): an absolute name'
mk dotdot; add dotdot hdr ../x 0 0; end dotdot
hostile dotdot 'member [0-9]+ \(\.\./x\): a name with "\.\."'
mk updown; add updown hdr 0/a/../../x 0 0; end updown
hostile updown 'a name with "\.\."'
mk aupdown; add aupdown hdr a/../../x 0 0; end aupdown
hostile aupdown '\(a/\.\./\.\./x\): not in a sample'
mk topfile; add topfile hdr x 0 0; end topfile
hostile topfile 'not in a sample'

# Links out of their sample, and a write through a link.
mk linkup; add linkup hdr 0/proc/x 2 0 ../../../etc/passwd; end linkup
hostile linkup '\(0/proc/x\): a link out of its sample \(to \.\./\.\./\.\./etc/passwd\)'
mk linkup2; add linkup2 hdr 1/sys/block/sda 2 0 ../../../sda; end linkup2
hostile linkup2 'a link out of its sample'
mk linkabs; add linkabs hdr 0/x 2 0 "$TRASH/canary"
add linkabs file 0/x/planted "$TRASH/o/data"; end linkabs
hostile linkabs '\(0/x/planted\): a path through the link 0/x'
mk linkpw; add linkpw hdr 0/pw 2 0 /etc/passwd
add linkpw file 0/pw "$TRASH/o/data"; end linkpw
hostile linkpw '\(0/pw\): a second member of this name'
mk linkcap; add linkcap hdr capture/x 2 0 meta; end linkcap
hostile linkcap 'a link in capture/'

# Types other than file, link and directory.
mk hard; add hard hdr 0/h 1 0 0/proc/uptime; end hard
hostile hard "type '1' \\(a hard link\\)"
mk chr; add chr hdr 0/dev/null 3 0; end chr
hostile chr "type '3' \\(a character device\\)"
mk blk; add blk hdr 0/dev/sda 4 0; end blk
hostile blk "type '4' \\(a block device\\)"
mk fifo; add fifo hdr 0/fifo 6 0; end fifo
hostile fifo "type '6' \\(a FIFO\\)"
mk pax; add pax hdr 0/pax x 0; end pax
hostile pax "type 'x' \\(a pax extended header\\)"

# Absurd sizes: 1 TiB (base-256), 64 GiB - 1 (twelve octal digits),
# one byte over the member limit, a directory with data, and more than
# 2 GiB in all (33 members of 64 MiB, holes in the archive).
mk tib; add tib hdr 0/big 0 1099511627776; end tib
hostile tib 'size in base-256'
mk gib64; add gib64 hdr 0/big 0 68719476735; end gib64
hostile gib64 '68719476735 bytes: more than 64 MiB'
mk over; add over zeros 0/big 67108865; end over
hostile over '67108865 bytes: more than 64 MiB'
mk dirdata; add dirdata hdr 0/d 5 10; end dirdata
hostile dirdata 'a directory with data'
# These two write and read 2.5 GB: minutes on a small machine, so only
# with DS_TEST_LONG=1 (.ci/run sets it), not in every make check.  The
# limits cannot be reached more cheaply: the reader counts the sizes of
# the members it has extracted (2 GiB of them, each at most 64 MiB) and
# the headers it has read (512 bytes each); a header that claims more
# than it holds is refused as truncated before any limit is met.
if [ "${DS_TEST_LONG:-0}" = 1 ]; then
	mk total
	i=0
	while [ $i -lt 32 ]; do
		add total zeros 0/z$i 67108864
		i=$((i + 1))
	done
	add total zeros 0/z32 67108864; end total
	# 2 GiB extracted before the refusal: one tool, not every one.
	job one total "" "" "more than 2 GiB in all"

	# Too many members: a million "./" headers (512 MB): one tool.
	mk many; add many many 1000000; end many
	job one many "" "" 'more than 1000000 members'

else
	skip "dxstat -R total (2 GiB in all)" "DS_TEST_LONG=1 runs it (.ci/run does)"
	skip "dxstat -R many (a million members)" "DS_TEST_LONG=1 runs it (.ci/run does)"
fi

# Names of control bytes, escapes and invalid UTF-8: refused ones are
# said escaped; accepted ones are read as any other file.
bad=$(printf '0/\t\n\033[2J\377\376/../../x')
mk ctl; add ctl hdr "$bad" 0 0; end ctl
hostile ctl 'a name with "\.\."'
odd=$(printf '0/proc/we\tird\n\033[31m\377name')
mk2 odd; add odd file "$odd" "$TRASH/o/data"; end odd
job odd odd "" "" ""

# A capture/meta edited by hand.
mktar - get "$A/base2" capture/meta >"$TRASH/o/meta"
# A pair checks each side's meta as -R does.
meta() {
	mk2 "$1" capture/meta
	sed "$2" "$TRASH/o/meta" >"$TRASH/o/m"
	add "$1" file capture/meta "$TRASH/o/m"
	end "$1"
	hostile "$1" "$3"
}
meta samples7 's/^samples .*/samples 7/' 'capture/meta: samples 7: a capture has 1 or 2'
meta samples0 's/^samples .*/samples 0/' 'capture/meta: samples 0: a capture has 1 or 2'
meta samples1 's/^samples .*/samples 1/' 'capture/meta: samples 1, but the capture has a sample 1/ too'
meta winhuge 's/^window_ns .*/window_ns 99999999999999999999999/' 'capture/meta: line [0-9]+: window_ns "9+": not a number'
meta winlong 's/^window_ns .*/window_ns 18446744073709551615/' 'capture/meta: window_ns 18446744073709551615: longer than the [0-9]+ ns between the samples'
meta nosamples '/^samples/d' 'capture/meta: no samples line'
meta noformat '/^format/d' 'capture/meta: no format line'
meta format2 's/^format .*/format 2/' 'capture/meta: format 2: this version reads format 1'
meta nonnum 's/^uptime1 .*/uptime1 12x/' 'capture/meta: line [0-9]+: uptime1 "12x": not a number'
meta negative 's/^time0 .*/time0 -5/' 'capture/meta: line [0-9]+: time0 "-5": not a number'
meta twice 's/^samples .*/samples 2\nsamples 1/' 'capture/meta: line [0-9]+: samples a second time'
meta backward 's/^uptime1 .*/uptime1 1/' 'capture/meta: uptime1 not after uptime0'
meta ctlmeta "s/^uid .*/uid 1$(printf '\033[2J\377')/" 'capture/meta: line [0-9]+: uid "1\\x1b\[2J\\xff": not a number'

# Sample 1/ gone though meta says 2.
mk2 no1 1/; end no1
hostile no1 'capture/meta: samples 2, but the capture has no sample 1/'

# Window members with lines out of place or counts too large: read by
# the tools that judge the window (dtriage, dlat); the others read the
# samples alone and take the capture as a good one.
window() {
	mk2 "$1" "capture/$2"
	printf "$3" >"$TRASH/o/w"
	add "$1" file "capture/$2" "$TRASH/o/w"
	end "$1"
	job window "$1" "" "" "$4"
}
run_window() {
	for t in $tools; do
		case " $reads " in *" $t "*) ;; *) continue ;; esac
		case $t in
		dtriage|dlat) check "$t -R $1" "$2" 1 "$t" -R "$A/$1" ;;
		*) check "$t -R $1 (a window member: not read)" "" ok "$t" -R "$A/$1" ;;
		esac
	done
}
window w-order window 'window 1\ndisk sda 1 2\nticks 2\n' 'capture/window: line 2: a disk before the ticks line'
window w-ticks window 'window 1\nticks 36003\n' 'capture/window: line 2: word 2: too large'
window w-count window 'window 1\nticks 2\ndisk sda 1 2 3\nblocked 2 0 0\nlooks 0\n' 'capture/window: line 3: 3 values, not 2'
window w-blocked window 'window 1\nticks 1\nblocked 99999999999 0\nlooks 0\n' 'capture/window: line 3: word 2: too large'
window w-task window 'window 1\nticks 1\nblocked 1 0\nlooks 1 0\ntask 5 1 1 1 0 x\n' 'capture/window: line 5: word 2: too large'
window w-cut window 'window 1\nticks 1\nblocked 1 0\n' 'capture/window: line 0: cut short \(no looks line\)'
window w-ctl window 'window 1\nticks 1\ndisk \033[2J\377 0\n' 'capture/window: line 3: word 2: an unescaped byte'
window d-order dlat.0 'dlat 1\nrow 8 1 0 1 1 1 0 0\nrow 8 0 0 1 1 1 0 0\n' 'capture/dlat.0: line 3: rows out of order'
window d-format dlat.1 'dlat 9\n' 'capture/dlat.1: line 1: format 9'
window d-bucket dlat.0 'dlat 1\nrow 8 0 0 1 1 1 0 999\n' 'capture/dlat.0: line 2: word 9: too large'
window k-unknown kmsg 'kmsg 1\nbogus 1\n' 'capture/kmsg: line 2: unknown line "bogus"'
window k-error kmsg 'kmsg 1\nerror 4096\n' 'capture/kmsg: line 2: word 2: too large'
window k-nul kmsg 'kmsg 1\n\000\n' 'capture/kmsg: line 0: a NUL byte'

# Worker K runs jobs K, K + $workers...: its TAP, numbered from 1, to
# $TRASH/o/tapK, renumbered here in the order of the workers.
worker() {
	trap - EXIT
	own=$TRASH/w/$1 TMPDIR=$TRASH/w/$1/tmp/x DS_FAILED= _tap_n=0
	err=$TRASH/o/err$1
	before=$(listing)
	_i=0 _ran=0
	while IFS=$sep read -r _kind _name nopair nopair_tool _re; do
		_i=$((_i + 1))
		[ $((_i % workers)) -eq "$1" ] || continue
		case $_kind in
		hostile) run_hostile "$_name" "$_re" ;;
		window) run_window "$_name" "$_re" ;;
		odd)
			for t in $reads; do
				check "$t -R $_name (a strange name read)" "" ok \
				    "$t" -R "$A/$_name"
			done ;;
		one) check "dxstat -R $_name" "$_re" 1 dxstat -R "$A/$_name" ;;
		esac
		_ran=$((_ran + 1))
	done <"$TRASH/o/jobs"
	echo "$_ran" >"$TRASH/o/ran$1"
}
all_before=$(mktar - run -w "$TRASH" -x "$TRASH/o" -x "$A" true)
k=0
while [ $k -lt $workers ]; do
	( worker $k ) >"$TRASH/o/tap$k" 2>&1 &
	k=$((k + 1))
done
wait
k=0 ran=0
while [ $k -lt $workers ]; do
	read -r _n <"$TRASH/o/ran$k" && ran=$((ran + _n))
	while IFS= read -r _l; do
		case $_l in
		"not ok "*) _l=${_l#not ok }; fail "${_l#* - }" ;;
		"ok "*" # SKIP "*)
			_l=${_l#ok }; _l=${_l#* - }
			skip "${_l%% # SKIP *}" "${_l#* # SKIP }" ;;
		"ok "*) _l=${_l#ok }; pass "${_l#* - }" ;;
		*) printf '%s\n' "$_l" ;;
		esac
	done <"$TRASH/o/tap$k"
	k=$((k + 1))
done
is "$ran" "$(grep -c . "$TRASH/o/jobs")" "every case run by a worker"
rm -f "$A/total" "$A/many"
ok "nothing written in the trash directory by all the runs" \
    test "$(mktar - run -w "$TRASH" -x "$TRASH/o" -x "$A" true)" = "$all_before"

ls -ld /etc/x /tmp/x /etc/passwd-planted 2>&1 | sort >"$TRASH/o/sys-after"
ok "nothing made in /etc or /tmp" test_cmp "$TRASH/o/sys-before" "$TRASH/o/sys-after"
ls -A "$TRASH/canary" >"$TRASH/o/canary"
is "$(wc -c <"$TRASH/o/canary")" 0 "the canary directory is still empty"
