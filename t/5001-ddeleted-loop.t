#!/bin/sh
# ddeleted against the truth on a loop-mounted ext4 made for the test:
# a 40 MiB log deleted while a shell and its child hold it, the df/du
# gap it explains, --truncate giving the space back, a file that is
# only mapped, and a process in another mount namespace.
. "${0%/*}/lib.sh"

need_loop
need_cmd mkfs.ext4 mount umount df du cc unshare

MiB=1048576
dev=$(mkloop 200) || skip_all "no loop device"
mkfs.ext4 -q "/dev/$dev" || skip_all "mkfs.ext4 failed"
MNT=$TRASH/mnt
mkdir "$MNT" "$TRASH/bind" "$TRASH/priv"
mount "/dev/$dev" "$MNT" || skip_all "cannot mount"
pids=
# Holders first, and gone, before the filesystem can be unmounted.
cleanup() {
	reap $pids
	umount "$TRASH/sub2" 2>/dev/null
	umount "$MNT" || { sleep 1; umount "$MNT"; }
}
at_exit cleanup
majmin=$(stat -c '%Hd:%Ld' "$MNT")

# The host's bind mount of a subdirectory: rows show it, the summary
# the whole filesystem's mount (so that --du walks all of it).  First,
# so that its row comes first.
mkdir "$MNT/sub" "$TRASH/sub2"
mount --bind "$MNT/sub" "$TRASH/sub2"
echo b >"$TRASH/sub2/b.log"
sleep 1000 3<"$TRASH/sub2/b.log" &
bindp=$!
pids="$pids $bindp"
sleep 0.2

# The emergency: a shell appends 40 MiB through >>, starts a child
# that inherits the descriptor, and the log is removed.
sh -c 'head -c 41943040 /dev/zero; sleep 1000 & echo $! >"$1"; wait' \
    sh "$TRASH/child" >>"$MNT/app.log" &
writer=$!
pids="$pids $writer"
wait_for "$TRASH/child"
child=$(cat "$TRASH/child")
pids="$pids $child"
ino=$(stat -c %i "$MNT/app.log")
alloc=$(($(stat -c %b "$MNT/app.log") * 512))

# Not deleted: a name that only looks deleted, a surviving hard link.
echo t >"$MNT/tricky (deleted)"
echo h >"$MNT/h1"
ln "$MNT/h1" "$MNT/h2"
sleep 1000 3<"$MNT/tricky (deleted)" 4<"$MNT/h1" &
decoy=$!
pids="$pids $decoy"

# Only mapped: two mappings of one file, descriptor closed, unlinked.
cat >"$TRASH/maponly.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int
main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	char *a, *b;

	if (fd < 0 || ftruncate(fd, 1 << 20) < 0)
		return 1;
	a = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	b = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 8192);
	if (a == MAP_FAILED || b == MAP_FAILED)
		return 1;
	memset(a, 1, 1 << 20);
	msync(a, 1 << 20, MS_SYNC);
	if (argc < 3)
		close(fd);
	unlink(argv[1]);
	printf("%d\n", fd);
	fflush(stdout);
	pause();
	return 0;
}
EOF
cc -o "$TRASH/maponly" "$TRASH/maponly.c" || skip_all "cc failed"
"$TRASH/maponly" "$MNT/mapped" >"$TRASH/map.out" &
mapper=$!
pids="$pids $mapper"
"$TRASH/maponly" "$MNT/mapfd" keep >"$TRASH/mapfd.out" &
mapfd=$!
pids="$pids $mapfd"
wait_for "$TRASH/map.out"
wait_for "$TRASH/mapfd.out"
mfd=$(cat "$TRASH/mapfd.out")

# Another mount namespace: the loop fs seen through a bind mount only
# there, and a tmpfs the host does not have.
unshare -m --propagation private sh -c '
	mount --bind "$1" "$2" && mount -t tmpfs none "$3" || exit 1
	echo ns >"$2/ns.log" && echo ns >"$3/priv.log" || exit 1
	exec 5>>"$2/ns.log" 6>>"$3/priv.log"
	rm "$2/ns.log" "$3/priv.log"
	echo ready >"$4"
	exec sleep 1000' sh "$MNT" "$TRASH/bind" "$TRASH/priv" "$TRASH/ns.ready" &
nsp=$!
pids="$pids $nsp"
wait_for "$TRASH/ns.ready"

rm "$MNT/app.log" "$MNT/h1" "$TRASH/sub2/b.log"
sync

# ---- rows ----
ddeleted -a -o tsv >"$TRASH/all" 2>"$TRASH/err"
is "$?" 0 "scan exits 0"
ok "no messages as root" test ! -s "$TRASH/err"
awk -F'\t' -v m="$MNT" 'NR > 1 && $9 == m' "$TRASH/all" >"$TRASH/rows"
is "$(awk -F'\t' -v i=$ino '$8 == i { print $1, $3, $4 }' "$TRASH/rows" | sort -n | tr '\n' ' ')" \
    "$(printf '%s\n' "$writer sh 1" "$child sleep 1" | sort -n | tr '\n' ' ')" \
    "one inode, both holders (the shell and its child), fd 1"
is "$(awk -F'\t' -v i=$ino '$8 == i { print $5, $6, $7, $10, $11, $12 }' "$TRASH/rows" | sort -u)" \
    "41943040 $alloc $majmin ext4 disk $MNT/app.log" "log row: size, allocated, dev, type, class, path"
is "$(awk -F'\t' -v p=$decoy '$1 == p' "$TRASH/all" | wc -l)" 0 \
    "'tricky (deleted)' with its name, and a surviving hard link: not listed"
is "$(awk -F'\t' -v p=$mapper '$1 == p { print $4, $5, $6, $11, $12 }' "$TRASH/all")" \
    "mem 1048576 1048576 disk $MNT/mapped" "mapped only: one row, fd mem, two mappings deduplicated"
is "$(awk -F'\t' -v p=$mapfd '$1 == p { print $4, $12 }' "$TRASH/all")" \
    "$mfd $MNT/mapfd" "open and mapped: one row, with its descriptor"
is "$(awk -F'\t' -v p=$nsp '$1 == p { print $4, $9, $11, $12 }' "$TRASH/all" | sort)" \
    "$(printf '%s\n' "5 $MNT disk $TRASH/bind/ns.log" "6 $TRASH/priv memory $TRASH/priv/priv.log")" \
    "other namespace: the host's mount point; a private tmpfs its own"
is "$(awk -F'\t' -v p=$bindp '$1 == p { print $4, $9, $12 }' "$TRASH/all")" \
    "3 $TRASH/sub2 $TRASH/sub2/b.log" "bind mount of a subdirectory: its own mount point"

# ---- summary: held against df and du ----
dfused=$(df -B1 --output=used "$MNT" | tail -1 | tr -d ' ')
duall=$(du -sxB1 "$MNT" | cut -f1)
ddeleted -s --du -o tsv "$MNT" >"$TRASH/sum"
is "$(head -1 "$TRASH/sum")" "$(printf 'mount\tfstype\tsize\tused\tavail\theld\tfiles\tholders\treachable\tunexplained')" "--du header"
is "$(wc -l <"$TRASH/sum")" 2 "one filesystem"
set -- $(tail -1 "$TRASH/sum" | tr '\t' ' ')
is "$1 $2" "$MNT ext4" "mount and type"
is "$4" "$dfused" "used equals df's"
held=$6
is "$7 $8" "5 6" "files: log, ns.log, mapped, mapfd, b.log; holders: 6 processes"
is "$9" "$duall" "reachable equals du -sxB1"
gap=$((dfused - duall))
diff=$((held - gap))
[ $diff -lt 0 ] && diff=$((-diff))
ok "held ($held) = df used - du ($gap) within 1 MiB" test $diff -le $MiB
u=${10}
[ "$u" -lt 0 ] && u=$((-u))
ok "unexplained (${10}) within 1 MiB" test "$u" -le $MiB
ok "held includes the 40 MiB log once" test "$held" -ge $alloc -a "$held" -lt $((alloc + 4 * MiB))

# ---- --truncate ----
test_must_fail 1 ddeleted --truncate $mapfd:$mfd 2>"$TRASH/err"
is "$?" 0 "--truncate a mapped file: refused"
ok "says it is mapped" grep -q "mapped by process $mapfd" "$TRASH/err"
is "$(stat -L -c %s "/proc/$mapfd/fd/$mfd")" 1048576 "refused: nothing done"

ddeleted -o tsv -H --truncate $writer:1 >"$TRASH/tr" 2>"$TRASH/err"
is "$?" 0 "--truncate $writer:1"
ok "warns contents lost" grep -q "contents (41943040 bytes) are lost" "$TRASH/err"
ok "O_APPEND: no sparse-file warning" sh -c "! grep -q O_APPEND '$TRASH/err'"
freed=$(cut -f4 "$TRASH/tr")
is "$freed" "$alloc" "freed = the log's allocation"
sync
dfafter=$(df -B1 --output=used "$MNT" | tail -1 | tr -d ' ')
ok "df used dropped by the bytes freed (within 1 MiB): $dfused -> $dfafter" \
    test $((dfused - dfafter)) -ge $((freed - MiB))
ddeleted -s -o tsv -H "$MNT" >"$TRASH/sum2"
set -- $(tr '\t' ' ' <"$TRASH/sum2")
ok "held dropped by the bytes freed" test $((held - $6)) -eq "$freed"
is "$(awk -F'\t' -v i=$ino '$8 == i { print $5 }' "$TRASH/rows" | head -1)" 41943040 "(before: 40 MiB)"
is "$(ddeleted -o tsv -H "$MNT" | awk -F'\t' -v i=$ino '$8 == i { print $5 }' | sort -u)" 0 \
    "still held by both, now empty"
