#!/bin/sh
# Every fuzz harness in t/fuzz, built without libFuzzer by the compiler
# and flags of this build (so "make check SANITIZE=1" replays under ASan
# and UBSan), run over its seeds (t/fuzz/corpus/NAME) and over every
# input that once broke it (t/fuzz/regress/NAME).  A harness checks
# properties and aborts when one breaks, so this is a test of the
# parsers, not only of "no crash".
. "${0%/*}/lib.sh"
cd "$TOP" || exit 1
[ -f lib/libdiskstat.a ] && [ -f cmd/util/libutil.a ] ||
    skip_all "lib/libdiskstat.a or cmd/util/libutil.a not built (run make check)"
# .flags is "$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)" of the last build.
cc=$(cat .flags 2>/dev/null)
[ -n "$cc" ] || cc="${CC:-cc} -D_GNU_SOURCE -Ilib"

n=0
for h in t/fuzz/*.c; do
	name=${h##*/}
	name=${name%.c}
	[ "$name" = replay ] && continue
	n=$((n + 1))
	ok "$name: has seeds" test -n "$(ls "t/fuzz/corpus/$name" 2>/dev/null)"
	# shellcheck disable=SC2086
	# cmd/util's archive too: the tools' parsers of option values.
	if $cc -It/fuzz -Icmd -o "$TRASH/$name" t/fuzz/replay.c "$h" t/unit/oracle.c \
	    cmd/util/libutil.a lib/libdiskstat.a >"$TRASH/$name.cc" 2>&1; then
		is "$(grep -c 'warning:' "$TRASH/$name.cc")" 0 "$name: builds without warnings"
	else
		fail "$name: builds"
		sed 's/^/# /' "$TRASH/$name.cc"
		continue
	fi
	"$TRASH/$name" "t/fuzz/corpus/$name" "t/fuzz/regress/$name" \
	    >"$TRASH/$name.out" 2>&1
	st=$?
	runs=$(grep -c '^ok ' "$TRASH/$name.out")
	is "$st" 0 "$name: $runs inputs replayed, every check held"
	if [ "$st" -ne 0 ]; then
		grep -v '^ok ' "$TRASH/$name.out" | tail -20 | sed 's/^/# /'
	fi
done
ok "at least one harness" test "$n" -gt 0
