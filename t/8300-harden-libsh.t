#!/bin/sh
# The test helpers, stage two: fields_ok refuses an empty file (a tool
# that printed nothing must not pass a field-count check).
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
