#!/bin/sh
# CI runs the whole suite twice: as built, and under ASan/UBSan with
# "make check SANITIZE=1" from a clean tree; it installs what the
# valgrind and fuzz tests need; SANITIZE=1 really means the sanitizers.
. "${0%/*}/lib.sh"
CI=$TOP/.ci/run
[ -f "$CI" ] || skip_all "no .ci/run"
"$T/deps" --list >"$TRASH/deps"

# README's test command for root, word for word: what a new user pastes
# is what CI runs.
cmd=$(sed -n 's/^    \(t\/deps && make check.*\)$/\1/p' "$TOP/README")
is "$(printf '%s\n' "$cmd" | wc -l | tr -d ' ')" 1 "README: one test command for root"
ok ".ci/run runs README's test command as written ($cmd)" grep -q "^$cmd ||" "$CI"
ok "README: the same command with sudo" grep -qx "    sudo $cmd" "$TOP/README"
ok ".ci/run runs make check SANITIZE=1" grep -qx 'make check SANITIZE=1' "$CI"
# The sanitizer run starts from a clean tree: nothing built without it.
is "$(awk '/^make check SANITIZE=1$/ { print prev; exit } { prev = $0 }' "$CI")" \
   "make clean >/dev/null" "SANITIZE=1 run follows make clean"
is "$(grep -v '^[[:space:]]*echo' "$CI" | grep -cE '(^| )make check( SANITIZE=1)?( |$)')" 2 \
   "the suite runs exactly twice"
ok ".ci/run stops at the first failure (set -e)" grep -q '^set -e' "$CI"
ok ".ci/run builds everything and refuses a warning" grep -q '^make build-tests' "$CI"
# One list of test-only packages: t/deps has it, .ci/run calls t/deps.
ok ".ci/run keeps no list of its own" test "$(grep -c 'apt-get install' "$CI")" -eq 0
for p in valgrind clang libclang-rt-14-dev jq mandoc sysstat python3; do
	ok "t/deps installs $p" grep -qx "$p" "$TRASH/deps"
done

# What SANITIZE=1 means, read from make's database in a scratch dir
# (make writes .flags while reading the Makefile; not in this tree).
db=$(make -C "$TRASH" -f "$TOP/Makefile" -pn SANITIZE=1 .flags 2>/dev/null)
cflags=$(printf '%s\n' "$db" | sed -n 's/^CFLAGS = //p')
ldflags=$(printf '%s\n' "$db" | sed -n 's/^LDFLAGS = //p')
case $cflags in
*-fsanitize=address,undefined*-fno-sanitize-recover=undefined*) pass "SANITIZE=1 compiles with ASan and UBSan, UBSan fatal" ;;
*) fail "SANITIZE=1 compiles with ASan and UBSan, UBSan fatal"; echo "# CFLAGS = $cflags" ;;
esac
case $ldflags in
*-fsanitize=address,undefined*) pass "SANITIZE=1 links with ASan and UBSan" ;;
*) fail "SANITIZE=1 links with ASan and UBSan"; echo "# LDFLAGS = $ldflags" ;;
esac
# And a build with it would be tested by the replay and libsh tests.
ok "make check replays the fuzz corpora" test -x "$T/0020-fuzz.t"
