#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# grafana/diskstat.json: valid JSON (python3, and jq when installed), an
# importable dashboard (title, uid, a Prometheus datasource variable used
# by every query), one row per question in order (pressure, devices,
# processes, space), a heat map of dlat's histogram, panels inside the
# grid without overlap; every query parses as PromQL (promtool, on a
# rules file made of them); and every metric a query (or a rule of
# prometheus/diskstat-rules.yml) names is one the tools export: a family
# of some tool's -o prom on the fixture trees, a name in a tool's man
# page, a recording rule of the rules file, or node_exporter's textfile
# collector's own.  dlat's agreed names stand in for its output until it
# lands (then its man page and output decide).
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd python3
fleet_tools
DASH=$TOP/grafana/diskstat.json
NAMES=$FIX/prom/promnames.py
RULES=$TOP/prometheus/diskstat-rules.yml

python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$DASH" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" "0:" "the dashboard is valid JSON (python3)"
if command -v jq >/dev/null 2>&1; then
	jq -e . "$DASH" >/dev/null 2>&1
	is "$?" 0 "the dashboard is valid JSON (jq)"
	jq -r '.panels[] | select(.type == "row") | .title' "$DASH" | cut -d: -f1 | tr '\n' ' ' >"$TRASH/rows"
	is "$(cat "$TRASH/rows")" "Pressure Devices Processes Space Collection " "one row per question, in order"
	is "$(jq -r '[.uid, .title != null, (.templating.list[] | select(.type == "datasource") | .name + ":" + .query)] | join(" ")' "$DASH")" \
	    "diskstat true datasource:prometheus" "uid, title and a Prometheus datasource variable"
	is "$(jq -r '[.panels[] | select(.type != "row") | .datasource.uid, .targets[].datasource.uid] | unique | join(" ")' "$DASH")" \
	    '${datasource}' "every panel and query uses the datasource variable"
	is "$(jq -r '[.panels[] | select(.type == "heatmap") | .targets[] | select(.format == "heatmap") | .expr | test("dlat_latency_seconds_bucket")] | join(" ")' "$DASH")" \
	    true "a heat map of dlat_latency_seconds_bucket (format heatmap)"
	is "$(jq -r '.panels | length as $n | [to_entries[] | select(.value.type == "row") | .key] as $r | [range(0; $r | length) | (($r[. + 1] // $n) - $r[.]) > 1] | all' "$DASH")" \
	    true "every row has panels under it"
else
	skip "the dashboard is valid JSON (jq)" "needs jq"
fi
python3 "$NAMES" layout "$DASH" >"$TRASH/layout"
is "$?:$(head -3 "$TRASH/layout" | tr '\n' ';')" "0:" "ids unique, panels inside 24 columns, none overlapping, each with a query"

# Every query parses: promtool reads them as recording rules.
python3 "$NAMES" exprs "$DASH" >"$TRASH/exprs"
nq=$(wc -l <"$TRASH/exprs")
ok "the dashboard has queries ($nq)" test "$nq" -gt 20
if command -v promtool >/dev/null 2>&1; then
	{
		echo "groups:"
		echo "  - name: dashboard"
		echo "    rules:"
		i=0
		while IFS="$(printf '\t')" read -r id e; do
			i=$((i + 1))
			printf "      - record: q%d\n        expr: '%s'\n" $i "$(printf '%s' "$e" | sed "s/'/''/g")"
		done <"$TRASH/exprs"
	} >"$TRASH/q.yml"
	promtool check rules "$TRASH/q.yml" >"$TRASH/pt" 2>&1
	is "$?:$(sed -n 's/^ *SUCCESS: //p' "$TRASH/pt")" "0:$nq rules found" "every query is valid PromQL (promtool check rules)"
	[ -s "$TRASH/pt" ] && grep -v SUCCESS "$TRASH/pt" | grep -v '^Checking' | head -5 | sed 's/^/# /'
else
	skip "every query is valid PromQL" "needs promtool (package prometheus)"
fi

# The names the tools export.
: >"$TRASH/known"
for t in $tools; do
	# dlat traces until a signal without an interval; dtriage's window
	# is 10 s without one.
	# ddeleted has a filesystem's series when something on it is held
	# deleted or it is named: name one, so the result does not depend on
	# what this machine holds.
	case $t in dlat) live="0.2 1" ;; dtriage) live=0.5 ;; ddeleted) live=$TRASH ;; *) live= ;; esac
	for tree in $(fleet_trees) live; do
		if [ "$tree" = live ]; then
			# shellcheck disable=SC2086
			"$t" -o prom $live 2>/dev/null
		else
			"$t" -R "$tree" -o prom 2>/dev/null
		fi
	done | sed -n 's/^# TYPE \([^ ]*\) \(.*\)/\1 \2/p' >>"$TRASH/known"
done
# dwho's cgroup figures come with -g (on a captured io.stat: the live
# io controller may be off); ddeleted's --du ones with --du.
have() { case " $tools " in *" $1 "*) return 0 ;; esac; return 1; }
{
	have dwho && dwho -R "$FIX/dwho/cgroups-root-004" -g -o prom
	have ddeleted && ddeleted -s --du -o prom "$TRASH"
} 2>/dev/null | sed -n 's/^# TYPE \([^ ]*\) \(.*\)/\1 \2/p' >>"$TRASH/known"
# Histograms: the family's _bucket, _sum and _count.
awk '$2 == "histogram" { print $1 "_bucket"; print $1 "_sum"; print $1 "_count" } { print $1 }' \
    "$TRASH/known" | sort -u >"$TRASH/exported"
for t in $tools; do
	[ -f "$TOP/doc/$t.1" ] || continue
	mandoc -Tascii "$TOP/doc/$t.1" 2>/dev/null | sed 's/.\x08//g' |
	    grep -o "\b${t}_[a-z0-9_]*[a-z0-9]" >>"$TRASH/man"
done
# A histogram is named once in a page: its series are NAME_bucket,
# NAME_sum and NAME_count.
touch "$TRASH/man"
awk '{ print; print $1 "_bucket"; print $1 "_sum"; print $1 "_count" }' "$TRASH/man" |
    sort -u >"$TRASH/man.all"
mv "$TRASH/man.all" "$TRASH/man"
ok "the tools exported families on the fixtures ($(wc -l <"$TRASH/exported"))" test "$(wc -l <"$TRASH/exported")" -gt 50
sed -n 's/^ *- record: //p' "$RULES" >"$TRASH/recorded"
printf '%s\n' node_textfile_mtime_seconds node_textfile_scrape_error >"$TRASH/node"
# dlat's names come from its own output where it could trace (root, BPF).
if ! grep -q '^dlat_' "$TRASH/known"; then
	# Agreed with dlat's author; replaced by its own output when it lands.
	printf '%s\n' dlat_latency_seconds_bucket dlat_latency_seconds_sum \
	    dlat_latency_seconds_count dlat_missed_events_total | sort >"$TRASH/dlat"
else
	: >"$TRASH/dlat"
fi
sort -u "$TRASH/exported" "$TRASH/man" "$TRASH/recorded" "$TRASH/node" "$TRASH/dlat" >"$TRASH/allowed"

# unknown FILE: the used names (ID<TAB>NAME) not allowed.
unknown() {
	cut -f2 "$1" | sort -u | comm -23 - "$TRASH/allowed" | tr '\n' ' '
}
python3 "$NAMES" names "$DASH" >"$TRASH/used"
n=$(cut -f2 "$TRASH/used" | sort -u | wc -l)
is "$(unknown "$TRASH/used")" "" "every metric the dashboard names is exported ($n names)"
python3 "$NAMES" rules "$RULES" >"$TRASH/rused"
n=$(cut -f2 "$TRASH/rused" | sort -u | wc -l)
is "$(unknown "$TRASH/rused")" "" "every metric the rules name is exported ($n names)"
# Tool metrics, not recording rules, behind every recorded name used.
grep -v ':' "$TRASH/used" | cut -f2 | sort -u | comm -23 - "$TRASH/exported" |
    comm -23 - "$TRASH/node" | comm -23 - "$TRASH/dlat" >"$TRASH/manonly"
is "$(tr '\n' ' ' <"$TRASH/manonly")" "" "no name the dashboard uses is known from a man page only"

# The check can fail: a name no tool writes.
sed 's/dxstat_util_ratio/dxstat_util_percent/' "$DASH" >"$TRASH/bad.json"
python3 "$NAMES" names "$TRASH/bad.json" >"$TRASH/bad"
is "$(unknown "$TRASH/bad")" "dxstat_util_percent " "control: a name the tools do not export is found"
printf '{"panels":[{"id":1,"type":"timeseries","gridPos":{"x":0,"y":0,"w":12,"h":8},"targets":[{"expr":"a"}]},{"id":2,"type":"timeseries","gridPos":{"x":6,"y":4,"w":12,"h":8},"targets":[{"expr":"b"}]}]}' >"$TRASH/overlap.json"
test_must_fail 1 python3 "$NAMES" layout "$TRASH/overlap.json" >"$TRASH/ov"
is "$?:$(cat "$TRASH/ov")" "0:panel 2 overlaps panel 1" "control: overlapping panels are found"
