#!/bin/sh
# Scenario 7: dtriage's quiet-time history of captures.  The history
# timer keeps one-sample captures of ~1.5 MB every 5 minutes: a week is
# 2016 (BENCH_QUICK: a day, 288), made by t/bench/histgen from one
# capture of this machine, 300 s apart.  dtriage judging a one-sample
# capture with that history against the same with an empty one: the
# difference is the history's reading, which is to stay well under 1 s.
SCEN=history
. "${0%/*}/lib.sh"

have_tool dtriage && have_tool dcapture || exit 0
N=2016
[ "$BENCH_QUICK" = 1 ] && N=288
W=$BENCH_OUT/history
rm -rf "$W"
mkdir -p "$W/week" "$W/empty"
at_exit "rm -rf '$W'"
"$TOOLDIR/dcapture" -w "$W/one.cap" 0 2>/dev/null || die "dcapture failed"
"$BIN/histgen" "$W/one.cap" "$W/week" $N || die "histgen failed"
note "$N captures of $(du -sh "$W/week" | cut -f1) in all, $(tar tf "$W/one.cap" | wc -l) members each"

case_begin "dtriage -b, $N captures"
cmd floor "dtriage, no history" "$TOOLDIR/dtriage" -R "$W/one.cap" -b "$W/empty" -o tsv
cmd ours "dtriage, $N captures" "$TOOLDIR/dtriage" -R "$W/one.cap" -b "$W/week" -o tsv
case_end
exit 0
