#!/bin/sh
# The test helpers themselves: fields_ok refuses an empty file (a tool
# that printed nothing must not pass a field-count check), json_ok judges
# every line, and test_must_fail never takes a sanitizer report for the
# expected failure.
. "${0%/*}/lib.sh"

printf 'a\tb\n1\t2\n' >"$TRASH/good"
ok "fields_ok: two fields on every line" fields_ok "$TRASH/good"
printf 'a\tb\n1\t2\t3\n' >"$TRASH/bad"
test_must_fail fields_ok "$TRASH/bad" >/dev/null
is "$?" 0 "fields_ok: a line with an extra field fails"
: >"$TRASH/empty"
test_must_fail fields_ok "$TRASH/empty" >"$TRASH/msg"
is "$?" 0 "fields_ok: an empty file fails"
is "$(cat "$TRASH/msg")" "# $TRASH/empty: empty" "fields_ok: says the file is empty"
test_must_fail fields_ok "$TRASH/missing" >/dev/null 2>&1
is "$?" 0 "fields_ok: a missing file fails"

# skip_all after some tests ran (a live part after a tree part) is one
# skip for the rest, and the plan counts it: valid TAP, never "planned 0
# but ran N".
cat >"$TRASH/part.t" <<EOS
. "$T/lib.sh"
pass "a first test"
skip_all "needs nothing here"
fail "never reached"
EOS
DS_FAILED= sh "$TRASH/part.t" >"$TRASH/tap" 2>&1
is "$?:$(tr '\n' '|' <"$TRASH/tap")" \
   "0:ok 1 - a first test|ok 2 - the rest of part.t # SKIP needs nothing here|1..2|" \
   "skip_all after a test: one skip for the rest, then the plan"
cat >"$TRASH/none.t" <<EOS
. "$T/lib.sh"
skip_all "needs nothing here"
EOS
DS_FAILED= sh "$TRASH/none.t" >"$TRASH/tap" 2>&1
is "$?:$(cat "$TRASH/tap")" "0:1..0 # SKIP needs nothing here" "skip_all first: a plan of none"

if ! lacks jq "json_ok: the checks that need jq"; then
	printf '{"a":1}\n{"b":"x\\ty"}\n' >"$TRASH/good"
	ok "json_ok: two objects" json_ok "$TRASH/good"
	printf '[1]\n{}\n' >"$TRASH/array-first"
	test_must_fail json_ok "$TRASH/array-first" >/dev/null
	is "$?" 0 "json_ok: an array on line 1 fails even if line 2 is an object"
	printf '{}{}\n' >"$TRASH/two"
	test_must_fail json_ok "$TRASH/two" >/dev/null
	is "$?" 0 "json_ok: two objects on one line fail"
	printf '{"a":\n1}\n' >"$TRASH/spread"
	test_must_fail json_ok "$TRASH/spread" >/dev/null
	is "$?" 0 "json_ok: an object spread over two lines fails"
	printf '{"a":1}\n{"a":\n' >"$TRASH/cut"
	test_must_fail json_ok "$TRASH/cut" >/dev/null
	is "$?" 0 "json_ok: a cut last line fails"
	printf '{"a":"\377"}\n' >"$TRASH/bad-utf8"
	test_must_fail json_ok "$TRASH/bad-utf8" >/dev/null
	is "$?" 0 "json_ok: invalid UTF-8 inside a string fails"
	: >"$TRASH/empty"
	test_must_fail json_ok "$TRASH/empty" >/dev/null
	is "$?" 0 "json_ok: an empty file fails"
fi

test_must_fail 1 sh -c 'exit 1'
is "$?" 0 "test_must_fail 1: exit 1 passes"
test_must_fail 1 sh -c "exit $DS_SANITIZER_STATUS" >/dev/null
is "$?" 1 "test_must_fail 1: the sanitizer status fails"
test_must_fail sh -c "exit $DS_SANITIZER_STATUS" >/dev/null
is "$?" 1 "test_must_fail: the sanitizer status fails with no status given"

# A real sanitizer report, when this tree is built with SANITIZE=1.
case $(cat "$TOP/.flags" 2>/dev/null) in
*fsanitize=address*)
	cat >"$TRASH/overflow.c" <<-'EOC'
	#include <stdlib.h>
	#include <string.h>
	int main(int argc, char **argv) {
		char *p = malloc(4);
		(void)argv;
		memset(p, 'x', (size_t)argc + 4);
		return p[0] == 'x';
	}
	EOC
	# shellcheck disable=SC2046
	if $(cat "$TOP/.flags") -w -o "$TRASH/overflow" "$TRASH/overflow.c" 2>"$TRASH/cc"; then
		test_must_fail 1 "$TRASH/overflow" 2>"$TRASH/asan" >/dev/null
		is "$?" 1 "ASan's heap overflow is not an expected exit 1"
		ok "ASan reported it" grep -q 'heap-buffer-overflow' "$TRASH/asan"
	else
		fail "sanitizer probe builds"
		sed 's/^/# /' "$TRASH/cc"
	fi
	;;
*)
	skip "ASan's heap overflow is not an expected exit 1" "not a SANITIZE=1 build"
	;;
esac
