#!/bin/sh
# dcapture -d DIR: captures named YYYYmmddTHHMMSSZ.cap by their first
# sample's time (UTC), unique within a second; DIR made 0700, files 0600
# whatever the umask; the older captures pruned by size (-m) and by the
# age their names say (-a), never a foreign file, a symbolic link or a
# directory; a killed dcapture's temporary files removed once hours
# old, a running one's never; DIR refused when others may write it; a
# full disk leaves nothing and exits 1.
. "${0%/*}/lib.sh"

cd "$TRASH" || exit 1
meta() { tar -xOf "$2" capture/meta | awk -v k="$1" '$1 == k { print $2 }'; }
caps() { ls -A "$1" | grep -E '^[0-9]{8}T[0-9]{6}Z(-[1-9][0-9]*)?\.cap$'; }
stamp() { date -u -d "$1" +%Y%m%dT%H%M%SZ; }
# kept DIR: the regular files named as captures (20201301 is no date).
kept() {
	for _f in $(caps "$1" | grep -v '^20201301T'); do
		[ -f "$1/$_f" ] && [ ! -L "$1/$_f" ] && echo "$_f"
	done
}

# The name, the modes: umask 0277 would make mkdir's 0700 a 0500 and the
# file 0400 if dcapture left them to the umask.
(umask 0277; dcapture -d D 0) 2>err
is "$?" 0 "dcapture -d D 0 exits 0 (umask 0277)"
is "$(stat -c %a D)" 700 "D made 0700 whatever the umask"
f=$(caps D)
is "$(ls -A D)" "$f" "one file in D, named as a capture ($f)"
is "$(stat -c %a "D/$f")" 600 "the capture 0600 whatever the umask"
t0=$(meta time0 "D/$f")
is "$f" "$(date -u -d "@$((t0 / 1000000000))" +%Y%m%dT%H%M%SZ).cap" \
    "named by its time0 in UTC"
is "$(meta samples "D/$f")" 1 "a capture: meta samples 1"
ok "dxstat -R reads it" sh -c "dxstat -R 'D/$f' | grep -q ."

# Unique: three in the same second (or a few) get three names; umask 000.
(umask 000; dcapture -d D 0 && dcapture -d D 0 && dcapture -d D 0) 2>err
is "$?" 0 "three more exit 0"
is "$(caps D | wc -l)" 4 "four captures, four names"
is "$(ls -A D | wc -l)" 4 "and no temporary file left"
is "$(stat -c %a D/* | sort -u)" 600 "every capture 0600 under umask 000"
is "$(stat -c %a D)" 700 "D stays 0700"

# Pruning by size: three old captures of 1 MiB, foreign files, a link
# and a directory named like captures.  -m the newest capture's size
# plus 2.5 MiB: the oldest old one goes, the other two stay.
rm D/*
for d in 20200101 20200102 20200103; do
	head -c 1048576 /dev/zero >"D/${d}T000000Z.cap"
done
head -c 1048576 /dev/zero >outside
for n in notes 20200101T000000Z.cap.bak 2020-01-01.cap 20200101T000000Z.tar \
    20201301T000000Z.cap .dcapture-abcdefgh; do
	echo foreign >"D/$n"
done
ln -s ../outside D/20190101T000000Z.cap
mkdir D/20190102T000000Z.cap
dcapture -d D 0 2>err
new=$(caps D | grep -v '^20[12][90]')
size=$(stat -c %s "D/$new")
rm "D/$new"
m=$((size + 2621440))
dcapture -d D -m "$m" 0 2>err
is "$?" 0 "dcapture -d D -m $m 0 exits 0"
new=$(caps D | grep -v '^20[12][90]')
is "$(caps D | grep -v "^$new\$" | tr '\n' ' ')" \
    "20190101T000000Z.cap 20190102T000000Z.cap 20200102T000000Z.cap 20200103T000000Z.cap 20201301T000000Z.cap " \
    "-m: the oldest capture removed, the next two kept (link, directory untouched)"
total=$(kept D | sed 's|^|D/|' | xargs stat -c %s | awk '{ t += $1 } END { print t }')
ok "-m: the captures' total ($total) at most $m" test "$total" -le "$m"
# -m 1: only the new one is left, whatever its size.
dcapture -d D -m 1 0 2>err
is "$?" 0 "dcapture -d D -m 1 0 exits 0"
new2=$(caps D | grep -v '^20[12][90]')
is "$(kept D | wc -l):$(echo "$new2" | wc -l)" "1:1" \
    "-m 1: the new capture alone kept (over the limit itself)"
ok "-m 1: the new one is not the one before" test "$new2" != "$new"
for n in notes 20200101T000000Z.cap.bak 2020-01-01.cap 20200101T000000Z.tar \
    20201301T000000Z.cap .dcapture-abcdefgh; do
	is "$(cat "D/$n" 2>&1)" foreign "foreign file $n never removed"
done
ok "a link named like a capture: kept" test -L D/20190101T000000Z.cap
is "$(stat -c %s outside)" 1048576 "and its target untouched"
ok "a directory named like a capture: kept" test -d D/20190102T000000Z.cap

# Pruning by age: what the name says, not the file's time.  Named 8 days
# ago with a new mtime: removed; named 6 days ago with an mtime of 30
# days: kept.  A link named 9 days ago: kept.
rm -f "D/$new2"
o8=$(stamp '-8 days').cap
o6=$(stamp '-6 days').cap
l9=$(stamp '-9 days').cap
echo x >"D/$o8"
echo x >"D/$o6"
touch -d '-30 days' "D/$o6"
ln -s ../outside "D/$l9"
dcapture -d D -a 7 0 2>err
is "$?" 0 "dcapture -d D -a 7 0 exits 0"
ok "-a 7: named 8 days ago (mtime now): removed" test ! -e "D/$o8"
ok "-a 7: named 6 days ago (mtime 30 days ago): kept" test -f "D/$o6"
ok "-a 7: a link named 9 days ago: kept" test -L "D/$l9"
is "$(caps D | grep -v -e '^2019010[12]T' -e '^20201301T' | wc -l)" 3 \
    "-a 7: the new capture, the 6-day one, the link"
is "$(cat D/notes)" foreign "-a 7: foreign file kept"
is "$(stat -c %s outside)" 1048576 "-a 7: the link's target untouched"

# A killed dcapture's temporary files: removed by the next -d when
# regular, ours and unchanged for over two hours; a fresh one (a
# running dcapture's), a link so named and its target left alone.
mkdir K
echo old >K/.dcapture-oldoldol
touch -d '-3 hours' K/.dcapture-oldoldol
echo new >K/.dcapture-newnewne
touch -d '-1 hour' K/.dcapture-newnewne
echo target >ktarget
touch -d '-3 hours' ktarget
ln -s ../ktarget K/.dcapture-linklink
touch -h -d '-3 hours' K/.dcapture-linklink
mkdir K/.dcapture-dirdirdi
touch -d '-3 hours' K/.dcapture-dirdirdi
echo foreign >K/.dcapture
touch -d '-3 hours' K/.dcapture
dcapture -d K 0 2>err
is "$?:$(cat err)" "0:" "-d with stale temporaries: exit 0, nothing said"
ok "a temporary unchanged for 3 hours: removed" test ! -e K/.dcapture-oldoldol
is "$(cat K/.dcapture-newnewne)" new "one of an hour ago (a running dcapture's): kept"
ok "a link so named: kept" test -L K/.dcapture-linklink
is "$(cat ktarget)" target "and its target untouched"
ok "a directory so named: kept" test -d K/.dcapture-dirdirdi
is "$(cat K/.dcapture)" foreign "a name without the temporary's prefix: kept"
is "$(caps K | wc -l)" 1 "and the capture written"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	echo theirs >K/.dcapture-theirsth
	chown nobody K/.dcapture-theirsth
	touch -d '-3 hours' K/.dcapture-theirsth
	dcapture -d K 0 2>err
	is "$(cat K/.dcapture-theirsth)" theirs "another user's temporary: kept"
else
	skip "another user's temporary" "needs root and a user nobody"
fi

# Usage: -d with -w, -m or -a without -d, bad sizes and days.
test_must_fail 2 dcapture -d D -w x 0 2>/dev/null
is "$?" 0 "-d and -w together: usage (2)"
test_must_fail 2 dcapture -m 1M -w x 0 2>/dev/null
is "$?" 0 "-m without -d: usage (2)"
test_must_fail 2 dcapture -a 7 0 >/dev/null 2>&1
is "$?" 0 "-a without -d: usage (2)"
for a in "-m 0" "-m 1X" "-m -1" "-a 0" "-a 1.5" "-a x"; do
	test_must_fail 2 dcapture -d D $a 0 2>/dev/null
	is "$?" 0 "$a: usage (2)"
done
ok "nothing written by the refusals" test ! -e x

# DIR refused when others may write it, or when it is not a directory.
mkdir G && chmod 0770 G
test_must_fail 1 dcapture -d G 0 2>G.err
is "$?" 0 "DIR writable by its group: exit 1"
ok "said so" grep -q 'G: writable by group or others: refused' G.err
is "$(ls -A G | wc -l)" 0 "and nothing written in it"
: >F
test_must_fail 1 dcapture -d F 0 2>/dev/null
is "$?" 0 "DIR a file: exit 1"
test_must_fail 1 dcapture -d nope/D 0 2>/dev/null
is "$?" 0 "DIR's parent missing: exit 1 (no mkdir -p)"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir N && chown nobody N && chmod 0700 N
	test_must_fail 1 dcapture -d N 0 2>N.err
	is "$?" 0 "DIR owned by another user: exit 1"
	ok "said so" grep -q 'N: owned by uid .*, not by this user: refused' N.err
else
	skip "DIR owned by another user" "needs root and a user nobody"
fi

# A full disk: exit 1, no capture, no temporary file, nothing pruned.
if [ "$(id -u)" = 0 ] && mkdir full &&
    mount -t tmpfs -o size=64k,mode=0700 tmpfs full; then
	at_exit "umount '$TRASH/full'"
	echo old >full/20200101T000000Z.cap
	test_must_fail 1 dcapture -d full -m 1 -a 1 0 2>full.err
	is "$?" 0 "full disk: exit 1"
	is "$(ls -A full)" 20200101T000000Z.cap \
	    "full disk: no capture, no temporary, the old one not pruned"
	ok "full disk: said" grep -q 'full: write error' full.err
else
	skip "full disk" "needs root to mount a tmpfs"
fi
