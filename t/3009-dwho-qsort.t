#!/bin/sh
# dwho's orders must not depend on how qsort(3) moves elements.  C11
# 7.22.5p4: a comparison must not depend on where an element sits, and
# equal elements come out in any order.  glibc's mergesort sorts rows of
# more than 32 bytes through pointers and is stable, which hid both a
# comparison through a pointer into the array being sorted (-t, -s and
# -n rows compared by a pid they reached through such a pointer) and
# -g rows that compared equal.  Here a conforming qsort that moves
# elements in place and puts equal ones in reverse (an insertion sort by
# swaps, LD_PRELOADed) must give exactly the orders of the C library's.
. "${0%/*}/lib.sh"
. "$FIX/dwho/mkproc.sh"
need_cmd cc

# An in-place sort that moves every element: the array reversed, then
# an insertion sort by adjacent swaps.  It compares elements only where
# they lie in the array; equal ones come out in the reverse of their
# order before (allowed: qsort is not stable).  ISORT_LOG names a file
# that gets the number of calls at exit.
cat >"$TRASH/isort.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long calls;

static void
swap(unsigned char *x, unsigned char *y, size_t size)
{
	unsigned char t;
	size_t k;

	for (k = 0; k < size; k++) {
		t = x[k];
		x[k] = y[k];
		y[k] = t;
	}
}

void
qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *a = base;
	size_t i, j;

	calls++;
	for (i = 0; n > 0 && i < n - 1 - i; i++)
		swap(a + i * size, a + (n - 1 - i) * size, size);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; j--)
			swap(a + (j - 1) * size, a + j * size, size);
}

__attribute__((destructor)) static void
report(void)
{
	const char *f = getenv("ISORT_LOG");
	FILE *fp;

	if (f != NULL && (fp = fopen(f, "a")) != NULL) {
		fprintf(fp, "%lu\n", calls);
		fclose(fp);
	}
}
EOC
if ! cc -shared -fPIC -O2 -o "$TRASH/isort.so" "$TRASH/isort.c" 2>"$TRASH/cc.err"; then
	sed 's/^/# /' "$TRASH/cc.err"
	skip_all "cc cannot build a shared object"
fi
# An ASan build wants its runtime first among the libraries loaded.
ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
export ASAN_OPTIONS

# A tree with ties: equal figures, equal start times, and processes of
# several threads (thread stat and io files are the process's).
R=$TRASH/t
P=$R/proc
mkdir -p "$P/sys/kernel" "$R/etc"
echo "tester:x:$(id -u):0::/:/bin/sh" >"$R/etc/passwd"
echo "1000.00 1500.00" >"$P/uptime"
echo 1 >"$P/sys/kernel/task_delayacct"
for pid in 100 105 110 115 120 125 130 135; do
	case $pid in
	11?)	f="0 0 0 0 0 0 0 0" ;;
	13?)	f="0 2048000 0 0 2048000 0 100 0" ;;
	*)	f="0 1024000 0 0 2048000 0 100 0" ;;	# the same figures
	esac
	# shellcheck disable=SC2086
	THREADS=3 mkproc "$P" $pid w$pid 50000 $f
	for tid in $((pid + 1)) $((pid + 2)); do
		mkdir -p "$P/$pid/task/$tid"
		sed "s/^$pid /$tid /" "$P/$pid/stat" >"$P/$pid/task/$tid/stat"
		cp "$P/$pid/io" "$P/$pid/task/$tid/io"
	done
done
# Two cgroups of equal sums for -g: 100 and 105 in /box/a, 110 and 115
# in /box/b; the rest each alone.
for pid in 100 105; do echo 0::/box/a >"$P/$pid/cgroup"; done
for pid in 110 115; do echo 0::/box/b >"$P/$pid/cgroup"; done

# order NAME ARGS...: the same output with and without the preload.
order() {
	_n=$1
	shift
	dwho -R "$R" -H -o tsv "$@" 2>"$TRASH/err.c" | cut -f2- >"$TRASH/c"
	rm -f "$TRASH/log"
	LD_PRELOAD=$TRASH/isort.so ISORT_LOG=$TRASH/log \
	    dwho -R "$R" -H -o tsv "$@" 2>"$TRASH/err.i" | cut -f2- >"$TRASH/i"
	if [ ! -s "$TRASH/log" ] || [ "$(cat "$TRASH/log")" = 0 ]; then
		fail "$_n: the preloaded qsort was called"
	elif cmp -s "$TRASH/c" "$TRASH/i" && cmp -s "$TRASH/err.c" "$TRASH/err.i" &&
	    [ -s "$TRASH/c" ]; then
		pass "$_n: in-place qsort gives the same order ($(wc -l <"$TRASH/c") rows)"
	else
		fail "$_n: in-place qsort gives the same order"
		diff "$TRASH/c" "$TRASH/i" | head -8 | sed 's/^/# /'
	fi
}
# The first column of the last order's rows, on one line.
col() {
	cut -f"${1:-1}" "$TRASH/c" | tr '\n' ' '
}

order "-a -t" -a -t
is "$(col)" \
    "100 100 100 105 105 105 110 110 110 115 115 115 120 120 120 125 125 125 130 130 130 135 135 135 " \
    "-a -t: threads in tid order"
is "$(col 2)" \
    "100 101 102 105 106 107 110 111 112 115 116 117 120 121 122 125 126 127 130 131 132 135 136 137 " \
    "-a -t: tid column ascending"
order "-a -s pid" -a -s pid
is "$(col)" "100 105 110 115 120 125 130 135 " \
    "-a -s pid: pid order"
order "-a -n 5" -a -n 5
is "$(col)" "130 135 100 105 120 " \
    "-a -n 5: the heaviest, ties by pid"
order "-a -n 5 -t" -a -n 5 -t
is "$(col)" "130 130 130 135 135 " \
    "-a -n 5 -t: the heaviest threads, ties by tid"
order "-a -s kB_rd/s" -a -s kB_rd/s
is "$(col)" "130 135 100 105 120 125 110 115 " \
    "-a -s kB_rd/s: ties by pid"
order "-s kB_rchar/s" -s kB_rchar/s
is "$(col)" "100 105 120 125 130 135 " \
    "-s kB_rchar/s (active only): ties by pid"
order "-a -t -s kB_rchar/s" -a -t -s kB_rchar/s
is "$(col 2)" "100 101 102 105 106 107 120 121 122 125 126 127 130 131 132 135 136 137 110 111 112 115 116 117 " \
    "-a -t -s kB_rchar/s: ties by tid"
order "-a -n 3 -s kB_wr/s" -a -n 3 -s kB_wr/s
is "$(col)" "100 105 110 " \
    "-a -n 3 -s kB_wr/s (all equal): the lowest pids"
order "-a -s pid -l" -a -s pid -l
order "-n 4" -n 4
order "-a -t -n 7 -s hit%" -a -t -n 7 -s hit%
is "$(col 2)" "100 101 102 105 106 107 120 " "-a -t -n 7 -s hit%: ties by tid"
order "-g -G proc -a -s kB_rd/s" -g -G proc -a -s kB_rd/s
is "$(col)" "/box/130 /box/135 /box/a /box/120 /box/125 /box/b " \
    "-g -s kB_rd/s: equal cgroups by name"
order "-g -G proc -a -n 3" -g -G proc -a -n 3
is "$(col)" "/box/130 /box/135 /box/a " \
    "-g -n 3: the heaviest cgroups, ties by name"
order "-g -G proc -a" -g -G proc -a
is "$(col)" "/box/120 /box/125 /box/130 /box/135 /box/a /box/b " \
    "-g: cgroups by name"
