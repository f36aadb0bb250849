#!/bin/sh
# make check: early (one of the longest: started first, so that it ends with the rest)
# Every tool's -o prom is a valid exposition as diskstat promises it:
# HELP and TYPE once per family, families not interleaved, counters end
# in _total, no timestamps, label values escaped, base units, the
# tool's prefix; promtool agrees when it is installed; every family is
# named in the tool's man page.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd python3
LINT=$FIX/prom/promlint.py

# The linter first: it must reject each of these.
bad() {
	printf "$2" >"$TRASH/bad.prom"
	test_must_fail 1 python3 "$LINT" "$TRASH/bad.prom" >"$TRASH/lint"
	ok "linter rejects $1" grep -q . "$TRASH/lint"
}
H='# HELP x_total A count.\n# TYPE x_total counter\n'
G='# HELP y A gauge.\n# TYPE y gauge\n'
printf "$H"'x_total{a="b\\\\c\\"d\\ne"} 1\n'"$G"'y 0.5\ny{a="1"} NaN\n' >"$TRASH/good.prom"
ok "linter accepts a good file" python3 "$LINT" "$TRASH/good.prom"
bad "a missing final newline" "$H"'x_total 1'
bad "HELP twice" "$H"'# HELP x_total Again.\nx_total 1\n'
bad "TYPE twice" "$H"'# TYPE x_total counter\nx_total 1\n'
bad "a sample before its TYPE" 'x_total 1\n'"$H"
bad "interleaved families" "$H"'x_total{a="1"} 1\n'"$G"'y 1\nx_total{a="2"} 1\n'
bad "a counter without _total" '# HELP x A.\n# TYPE x counter\nx 1\n'
bad "a gauge ending _total" '# HELP x_total A.\n# TYPE x_total gauge\nx_total 1\n'
bad "a timestamp" "$H"'x_total 1 1700000000000\n'
bad "a bad escape in a label value" "$H"'x_total{a="\\t"} 1\n'
bad "an unescaped quote in a label value" "$H"'x_total{a="a"b"} 1\n'
bad "invalid UTF-8 in a label value" "$H"'x_total{a="\377"} 1\n'
bad "a series twice" "$H"'x_total{a="1"} 1\nx_total{a="1"} 2\n'
bad "a label twice" "$H"'x_total{a="1",a="2"} 1\n'
bad "milliseconds (not base units)" '# HELP x_milliseconds_total A.\n# TYPE x_milliseconds_total counter\nx_milliseconds_total 1\n'
bad "a negative counter" "$H"'x_total -1\n'
bad "a comment line" "$H"'# hello\nx_total 1\n'
bad "a bad value" "$H"'x_total one\n'
printf "$H"'x_total 1\n' >"$TRASH/pfx.prom"
test_must_fail 1 python3 "$LINT" --prefix dxstat "$TRASH/pfx.prom" >/dev/null
is "$?" 0 "linter rejects a family without the tool's prefix"

PROMTOOL=$(command -v promtool)
fleet_tools
[ -n "$tools" ] || skip_all "no tool built yet"

for t in $prom_tools; do
	traces_until_signal "$t" && continue
	set -- live
	tree=$(fleet_tree "$t") && set -- live "$tree"
	for src; do
		# dtriage: a short window; exit 3 (a finding at warn, which
		# a shared machine can have at any time) is a report too.
		if [ "$src" = live ] && [ "$t" = dtriage ]; then
			dtriage -o prom 0.5 >"$TRASH/$t.prom" 2>"$TRASH/err"
			st=$?
			[ "$st" -ne 3 ] || st=0
		elif [ "$src" = live ]; then
			"$t" -o prom >"$TRASH/$t.prom" 2>"$TRASH/err"
			st=$?
		else
			"$t" -R "$src" -o prom >"$TRASH/$t.prom" 2>"$TRASH/err"
			st=$?
			src=${src#$FIX/}
		fi
		is "$st" 0 "$t -o prom ($src): exit 0"
		if [ ! -s "$TRASH/$t.prom" ]; then
			skip "$t -o prom ($src) is well formed" "no rows here"
			continue
		fi
		python3 "$LINT" --prefix "$t" "$TRASH/$t.prom" >"$TRASH/lint"
		if [ $? -eq 0 ]; then
			pass "$t -o prom ($src) is well formed ($(grep -c '^# TYPE' "$TRASH/$t.prom") families, $(grep -vc '^#' "$TRASH/$t.prom") samples)"
		else
			fail "$t -o prom ($src) is well formed"
			head -20 "$TRASH/lint" | sed 's/^/# /'
		fi
		if [ -n "$PROMTOOL" ]; then
			"$PROMTOOL" check metrics <"$TRASH/$t.prom" >"$TRASH/pt" 2>&1
			st=$?
			is "$st:$(cat "$TRASH/pt")" "0:" "$t -o prom ($src): promtool check metrics"
		else
			skip "$t -o prom ($src): promtool check metrics" "promtool not installed (package prometheus)"
		fi
		# Stable names, documented: each family in the man page.
		if ! have_prog mandoc; then
			skip "$t ($src): every metric family named in doc/$t.1" "needs mandoc"
		elif [ -f "$TOP/doc/$t.1" ]; then
			# Rendered, without the backspace overstrike of bold.
			mandoc -Tascii "$TOP/doc/$t.1" 2>/dev/null | sed 's/.\x08//g' >"$TRASH/man"
			missing=
			# Names made at run time (dpsi_io_some_...) are written
			# once as a pattern: map/NAME.doc.sed gives that name.
			sedf=$FIX/prom/map/$t.doc.sed
			for fam in $(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$TRASH/$t.prom"); do
				doc=$fam
				[ -f "$sedf" ] && doc=$(echo "$fam" | sed -f "$sedf")
				grep -qF -e "$fam" -e "${fam#${t}_}" -e "$doc" "$TRASH/man" ||
				    missing="$missing $fam"
			done
			is "${missing# }" "" "$t ($src): every metric family named in doc/$t.1"
		else
			fail "$t: doc/$t.1 exists"
		fi
	done
done
