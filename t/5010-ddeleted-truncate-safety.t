#!/bin/sh
# Issue 15, 2 and 6: ddeleted --truncate acts on the live system only,
# through procfs itself, so its mapping check reads the /proc of the
# file it truncates; -n says what would be freed and frees nothing;
# --du walks an 8,000-deep tree under a 1 MiB stack.  On a loop-mounted
# ext4 made for the test; every process and mount made is removed.
. "${0%/*}/lib.sh"

need_loop
need_cmd mkfs.ext4 mount umount du cc perl

dev=$(mkloop 200) || skip_all "no loop device"
mkfs.ext4 -q "/dev/$dev" || skip_all "mkfs.ext4 failed"
MNT=$TRASH/mnt
mkdir "$MNT"
mount "/dev/$dev" "$MNT" || skip_all "cannot mount"
pids=
cleanup() {
	reap $pids
	umount "$MNT" || { sleep 1; umount "$MNT"; }
}
at_exit cleanup

# A holder that maps its deleted file (1 MiB, descriptor kept) and
# touches the pages again when told: truncated, it dies of SIGBUS.
cat >"$TRASH/mapper.c" <<'EOF'
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
static volatile sig_atomic_t go;
static void on(int s) { (void)s; go = 1; }
int
main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	volatile char *a;
	long i, sum = 0;

	(void)argc;
	if (fd < 0 || ftruncate(fd, 1 << 20) < 0)
		return 1;
	a = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (a == MAP_FAILED)
		return 1;
	memset((char *)a, 1, 1 << 20);
	msync((char *)a, 1 << 20, MS_SYNC);
	unlink(argv[1]);
	signal(SIGUSR1, on);
	printf("%d\n", fd);
	fflush(stdout);
	for (;;) {
		pause();
		if (go)
			for (i = 0; i < 1 << 20; i += 4096)
				sum += a[i];
		go = 0;
		printf("touched %ld\n", sum);
		fflush(stdout);
	}
}
EOF
cc -o "$TRASH/mapper" "$TRASH/mapper.c" || skip_all "cc failed"
"$TRASH/mapper" "$MNT/mapped" >"$TRASH/map.out" &
mapper=$!
pids="$pids $mapper"
wait_for "$TRASH/map.out"
mfd=$(head -1 "$TRASH/map.out")
size() { stat -L -c %s "/proc/$mapper/fd/$mfd"; }
is "$(size)" 1048576 "the mapped, deleted file holds 1 MiB"

# ---- 2: a tree whose proc/PID/fd/N leads into the real /proc ----------
# Its maps says nothing is mapped; the descriptor is the live file.
R=$TRASH/r
mkdir -p "$R/proc/$mapper/fd" "$R/proc/$mapper/fdinfo"
: >"$R/proc/$mapper/maps"
cp "/proc/$mapper/stat" "$R/proc/$mapper/stat"
ln -s "/proc/$mapper/fd/$mfd" "$R/proc/$mapper/fd/$mfd"
test_must_fail 1 ddeleted -R "$R" --truncate "$mapper:$mfd" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:ddeleted: --truncate acts only on the live system, not under $R" \
   "--truncate -R with fd/N -> the real /proc: refused"
is "$(size)" 1048576 "... the live file keeps its 1 MiB"
# DISKSTAT_ROOT is a root too.
test_must_fail 1 env DISKSTAT_ROOT="$R" ddeleted --truncate "$mapper:$mfd" >/dev/null 2>&1
is "$?:$(size)" "0:1048576" "--truncate under DISKSTAT_ROOT: refused, the file intact"
kill -USR1 "$mapper"
sleep 0.3
ok "the holder is alive and reads its pages" sh -c 'kill -0 "$1" && grep -q touched "$2"' sh "$mapper" "$TRASH/map.out"

# Live: the mapping is seen, the truncation refused; -n the same.
test_must_fail 1 ddeleted --truncate "$mapper:$mfd" >/dev/null 2>"$TRASH/err"
is "$?:$(size)" "0:1048576" "--truncate live on a mapped file: refused"
ok "... says who maps it" grep -q "mapped by process $mapper" "$TRASH/err"
test_must_fail 1 ddeleted -n --truncate "$mapper:$mfd" >/dev/null 2>&1
is "$?:$(size)" "0:1048576" "-n --truncate on a mapped file: refused as the real one would be"

# ---- -n: what would be freed, nothing freed -------------------------------
dd if=/dev/zero of="$MNT/log" bs=1M count=4 2>/dev/null
sync
sleep 1000 3<"$MNT/log" &
holder=$!
pids="$pids $holder"
sleep 0.2
alloc=$(( $(stat -c %b "$MNT/log") * 512 ))
rm "$MNT/log"
ddeleted -o tsv -n --truncate "$holder:3" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "-n --truncate: exit 0"
is "$(sed -n 2p "$TRASH/out")" "$holder	3	4194304	$alloc	$MNT/log" \
   "-n: the row says the size and what would be freed ($alloc)"
ok "-n: the message says nothing is done" grep -q "would truncate to 0 bytes.*dry run: nothing done" "$TRASH/err"
is "$(stat -L -c %s "/proc/$holder/fd/3")" 4194304 "-n: the file keeps its 4 MiB"
test_must_fail 2 ddeleted -n >/dev/null 2>&1
is "$?" 0 "-n without --truncate: usage"
ddeleted -o tsv --truncate "$holder:3" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(stat -L -c %s "/proc/$holder/fd/3")" "0:0" "the real --truncate then frees it"
is "$(sed -n 2p "$TRASH/out" | cut -f4)" "$alloc" "... freeing what -n said"

# ---- 6: --du on an 8,000-deep tree under ulimit -s 1024 --------------------
perl -e 'chdir $ARGV[0] or die; for (1 .. 8000) { mkdir "d" or die; chdir "d" or die } open F, ">f" or die; print F "x" x 10000' "$MNT" ||
    skip_all "cannot make the deep tree"
sync
want=$(du -sxB1 "$MNT" | cut -f1)
(ulimit -s 1024 && ddeleted -s --du -o tsv "$MNT") >"$TRASH/sum" 2>"$TRASH/err"
rc=$?
is "$rc" 0 "--du on an 8,000-deep tree, 1 MiB stack: exit 0 (no crash)"
is "$(awk -F'\t' 'NR == 2 { print $9 }' "$TRASH/sum")" "$want" "--du: reachable equals du -sxB1 ($want)"
ok "--du: no messages" test ! -s "$TRASH/err"
