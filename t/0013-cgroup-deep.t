#!/bin/sh
# make check: alone (its live cgroup tree is deeper than other tests' walks allow)
# Issue 15, 6: a cgroup tree nested deeper than 512 levels (any user
# with a delegated subtree can make one), or one that runs the walk out
# of descriptors, must not blind dpsi -C and dwho -g: the subtree is
# skipped with a warning naming it, the rest reported, exit 0.  On a
# tree (-R), so no root is needed; live too when cgroup v2 is writable.
. "${0%/*}/lib.sh"

T=$TRASH/t
C=$T/sys/fs/cgroup
mkdir -p "$C/box"
echo io >"$C/cgroup.controllers"
stat_line='8:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0'
psi='some avg10=0.00 avg60=0.00 avg300=0.00 total=5
full avg10=0.00 avg60=0.00 avg300=0.00 total=3'
echo "$stat_line" >"$C/box/io.stat"
echo "$psi" >"$C/box/io.pressure"
# /deep and 520 levels of /d below it, each a cgroup with its files.
perl -e '
	my ($top, $stat, $psi) = @ARGV;
	chdir $top or die;
	for my $i (0 .. 520) {
		my $n = $i ? "d" : "deep";
		mkdir $n or die; chdir $n or die;
		open F, ">io.stat" or die; print F "$stat\n"; close F;
		open F, ">io.pressure" or die; print F "$psi\n"; close F;
	}' "$C" "$stat_line" "$psi" || skip_all "cannot make the deep tree"
deepest=/deep$(printf '/d%.0s' $(seq 512))

dpsi -R "$T" -C -r io -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dpsi -C on a 521-deep tree: exit 0"
is "$(cut -f2 "$TRASH/out" | sort -u | wc -l)" 513 \
   "dpsi -C: /box and the 512 levels the walk goes into"
ok "dpsi -C: /box reported" grep -q "	/box	" "$TRASH/out"
is "$(cat "$TRASH/err")" "dpsi: cgroup $deepest: subtree skipped: nested deeper than 512 levels" \
   "dpsi -C: one warning naming the skipped subtree"

dwho -R "$T" -g -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dwho -g on a 521-deep tree: exit 0"
is "$(cut -f2 "$TRASH/out" | sort -u | wc -l)" 513 "dwho -g: /box and the 512 levels"
is "$(grep skipped "$TRASH/err")" "dwho: cgroup $deepest: subtree skipped: nested deeper than 512 levels" \
   "dwho -g: one warning naming the skipped subtree"

# Out of descriptors mid-walk: the subtree where it happened is skipped.
(ulimit -n 48 && dpsi -R "$T" -C -r io -o tsv -H) >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dpsi -C with 48 descriptors: exit 0"
ok "dpsi -C, EMFILE: /box still reported" grep -q "	/box	" "$TRASH/out"
is "$(grep -c . "$TRASH/err")" 1 "dpsi -C, EMFILE: one warning"
ok "dpsi -C, EMFILE: it names the subtree and says why" \
    grep -q "^dpsi: cgroup /deep/d.*: subtree skipped: Too many open files$" "$TRASH/err"
(ulimit -n 48 && dwho -R "$T" -g -o tsv -H) >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "dwho -g with 48 descriptors: exit 0"
ok "dwho -g, EMFILE: /box still reported" grep -q "	/box	" "$TRASH/out"
ok "dwho -g, EMFILE: names the subtree and says why" \
    grep -q "^dwho: cgroup /deep/d.*: subtree skipped: Too many open files$" "$TRASH/err"

# ---- Live: a deep chain under the cgroup v2 mount --------------------------
[ "$(id -u)" = 0 ] || skip_all "live part needs root"
[ -r /proc/pressure/io ] || skip_all "live part: PSI off"
V2=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -1)
[ -n "$V2" ] || skip_all "live part: no cgroup2 mount"
L=$V2/ds-deep.$$
mkdir "$L" 2>/dev/null || skip_all "live part: cannot make a cgroup under $V2"
at_exit "find '$L' -depth -type d -exec rmdir {} + 2>/dev/null; rmdir '$L' 2>/dev/null"
perl -e 'chdir $ARGV[0] or die; for (1 .. 515) { mkdir "d" or die; chdir "d" or die }' "$L" ||
    skip_all "live part: the kernel refused a deep chain"
dpsi -C -r io -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "live dpsi -C with a 516-deep chain: exit 0"
ok "live dpsi -C: rows of the chain (down to 512 levels)" \
    grep -q "	/ds-deep.$$/d/d	" "$TRASH/out"
ok "live dpsi -C: the skipped subtree named" \
    grep -q "^dpsi: cgroup .*/ds-deep.$$/d.*: subtree skipped: nested deeper than 512 levels$" "$TRASH/err"
