#!/bin/sh
# Every tool built in cmd/, pointed with -R at hostile trees: files that
# are directories, FIFOs (one with a writer that never writes), files
# cut in half, NUL bytes and a one-megabyte line, a 20,000-device
# diskstats with hostile names, and an empty tree.  Whatever a tool
# reads, it must end promptly (no hang on a FIFO), exit 0 or 1 (never a
# signal or a sanitizer report), say what is wrong as "tool: ..." lines,
# and keep its output well formed: TSV field counts, JSON lines.
. "${0%/*}/lib.sh"
need_cmd jq timeout

tools=
for f in "$TOP"/cmd/*/main.c; do
	n=${f%/main.c}
	n=${n##*/}
	# dcapture reads only the live system (no -R, no -o): the
	# captures it writes are hostile input in t/0034.
	[ "$n" = dcapture ] && continue
	[ -x "$TOP/cmd/$n/$n" ] && tools="$tools $n"
done
[ -n "$tools" ] || skip_all "no tool built yet"

base=$FIX/generic/tree
files=$(cd "$base" && find . -type f | sed 's|^\./||' | sort)

# A tree like the fixture with every file replaced by what $1 makes.
mktree() {
	_dir=$TRASH/$1
	mkdir -p "$_dir"
	for _f in $files; do
		mkdir -p "$_dir/${_f%/*}"
		case $1 in
		dirs) mkdir -p "$_dir/$_f" ;;
		fifos) mkfifo "$_dir/$_f" ;;
		cut) _n=$(wc -c <"$base/$_f")
		     head -c $((_n / 2)) "$base/$_f" >"$_dir/$_f" ;;
		nul) { head -c 40 "$base/$_f"; printf '\0\0x\0'; tail -c +41 "$base/$_f"; } >"$_dir/$_f" ;;
		long) { cat "$base/$_f"; head -c 1048576 /dev/zero | tr '\0' 7; echo; cat "$base/$_f"; } >"$_dir/$_f" ;;
		esac
	done
}

for k in dirs fifos cut nul long; do
	mktree $k
done
mkdir -p "$TRASH/empty"

# A FIFO with a writer that never writes: reads would block without
# O_NONBLOCK.  The holder keeps it open read-write until the end.
mkdir -p "$TRASH/heldfifo/proc"
cp -R "$base/." "$TRASH/heldfifo/"
for f in proc/diskstats proc/uptime proc/pressure/io; do
	rm -f "$TRASH/heldfifo/$f"
	mkfifo "$TRASH/heldfifo/$f"
	sleep 600 <>"$TRASH/heldfifo/$f" &
	at_exit "kill $! 2>/dev/null"
done

# 20,000 devices with names a shell, TSV or JSON could trip on.
mkdir -p "$TRASH/many/proc"
cp -R "$base/." "$TRASH/many/"
awk 'BEGIN {
	for (i = 0; i < 20000; i++)
		printf "%4d %7d %s%d %d 0 %d 4 5 6 7 8 0 9 10 0 0 0 0 11 12\n",
		    7, i, (i % 4 == 0) ? "q\"b\\s\377x" : "loop", i, i, i * 8
}' >"$TRASH/many/proc/diskstats"

for t in $tools; do
	for tree in empty dirs fifos heldfifo cut nul long many; do
		for fmt in tsv json; do
			d="$t -o $fmt -R $tree"
			timeout 60 "$t" -o "$fmt" -R "$TRASH/$tree" \
			    >"$TRASH/out" 2>"$TRASH/err"
			st=$?
			case $st in
			0|1) pass "$d: exit $st" ;;
			124) fail "$d: ended (timed out after 60 s)" ;;
			*) fail "$d: exit $st"; sed 's/^/# /' "$TRASH/err" | head -5 ;;
			esac
			bad=$(grep -vc "^$t: " "$TRASH/err")
			is "$bad" 0 "$d: every message starts with '$t: '"
			[ "$bad" -eq 0 ] || grep -v "^$t: " "$TRASH/err" | head -3 | sed 's/^/# /'
			if [ "$st" -eq 1 ]; then
				ok "$d: exit 1 says why" test -s "$TRASH/err"
			fi
			if [ -s "$TRASH/out" ]; then
				if [ "$fmt" = tsv ]; then
					ok "$d: TSV field counts" fields_ok "$TRASH/out"
				else
					ok "$d: JSON lines" json_ok "$TRASH/out"
				fi
			fi
		done
	done
done
