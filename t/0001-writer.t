#!/bin/sh
# The writer on hostile names: TSV keeps its field count, JSON parses
# with a real parser and round-trips, prom is one sample per line.
. "${0%/*}/lib.sh"
need_cmd jq
W=$TOP/t/unit/writer
[ -x "$W" ] || skip_all "t/unit/writer not built (run make check)"

"$W" tsv >"$TRASH/out.tsv"
is $? 0 "tsv written"
ok "every TSV row has the header's field count" fields_ok "$TRASH/out.tsv"
is "$(wc -l <"$TRASH/out.tsv")" 14 "one line per row plus header"

"$W" json >"$TRASH/out.json"
ok "every JSON line parses" json_ok "$TRASH/out.json"
is "$(jq -s length "$TRASH/out.json")" 13 "13 objects"
is "$(jq -r 'select(.count == 2) | .name' "$TRASH/out.json" | od -An -c | tr -s ' ')" \
   "$(printf 'new\nline\n' | od -An -c | tr -s ' ')" "newline survives the round trip"
is "$(jq -r 'select(.count == 7) | .name' "$TRASH/out.json")" "$(printf 'bad utf8 \357\277\275\357\277\275 \357\277\275( \357\277\275\357\277\275\357\277\275 \357\277\275\357\277\275\357\277\275\357\277\275')" \
   "invalid UTF-8 becomes U+FFFD, one per byte"
is "$(jq -r 'select(.count == 18446744073709551615) | .name' "$TRASH/out.json")" plain \
   "UINT64_MAX is kept as a number jq can select on"
is "$(jq -c '[.[]|select(.rate == null)|.name]' -s "$TRASH/out.json")" '["tab\there"]' "missing value is null"
# python's parser is stricter about integers than jq's doubles.
if command -v python3 >/dev/null; then
	is "$(python3 -c 'import json,sys; print(max(json.loads(l)["count"] for l in sys.stdin))' <"$TRASH/out.json")" \
	   18446744073709551615 "UINT64_MAX exact for an exact parser"
else
	skip "UINT64_MAX exact for python" "no python3"
fi

"$W" prom >"$TRASH/out.prom"
is "$(grep -c '^t_count_total{' "$TRASH/out.prom")" 13 "one prom sample per row"
is "$(grep -vc -e '^#' -e '^t_[a-z_]*{name="[^"\\]*\(\\.[^"\\]*\)*"} [0-9.]*$' "$TRASH/out.prom")" 0 \
   "every prom sample line is well formed"

"$W" table >"$TRASH/out.table"
is "$(wc -l <"$TRASH/out.table")" 14 "table: no row broken by a name"
is "$(tr -d '\n' <"$TRASH/out.table" | tr -dc '\001-\010\013-\037\177' | wc -c)" 0 \
   "table: no control byte reaches the terminal"
