#!/bin/sh
# mandoc -Tlint is silent on every page in doc/ (only references to
# pages this machine lacks, and its own stale mandoc.db, are let through), every tool has its page,
# and its SYNOPSIS is the tool's usage line.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
need_cmd mandoc
fleet_tools

n=0
for m in "$TOP"/doc/*.1 "$TOP"/doc/*.3; do
	[ -f "$m" ] || continue
	n=$((n + 1))
	# Not the page's fault: a reference to a page this machine lacks,
	# and a stale mandoc.db on this machine.
	mandoc -Tlint "$m" 2>&1 | grep -v -e 'referenced manual not found' \
	    -e 'outdated mandoc.db' >"$TRASH/lint"
	is "$(cat "$TRASH/lint")" "" "mandoc -Tlint ${m#$TOP/}"
done
ok "doc/libdiskstat.3 exists" test -f "$TOP/doc/libdiskstat.3"

for t in $tools; do
	if [ ! -f "$TOP/doc/$t.1" ]; then
		fail "doc/$t.1 exists"
		continue
	fi
	# The rendered SYNOPSIS, joined into one line, against usage:.
	syn=$(mandoc -Tascii -Owidth=500 "$TOP/doc/$t.1" | sed 's/.\x08//g' |
	    sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d' | tr -s ' \n' '  ' |
	    sed 's/^ *//; s/ *$//')
	# usage: and its continuation lines (indented: more options, or
	# another form "       dpsi -w ...").
	use=$("$t" --help | awk '
	    NR == 1 { if (!sub(/^usage: /, "")) exit; print; next }
	    /^  -/ { exit }
	    /^[ \t]/ { print; next }
	    { exit }' | tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//')
	is "$syn" "$use" "doc/$t.1 SYNOPSIS is $t's usage line"
done

# libdiskstat.3 keeps up with the installed header(s), those make
# install copies (lib/suite.h and lib/internal.h are never installed):
# every function they declare has its .Fn (or .Fo) line in the page.
HDRS=$(sed -n 's|.*install -m 0644 \(lib/[a-z_]*\.h\) .*|\1|p' "$TOP/Makefile")
ok "make install copies a header (the check below has one to read)" test -n "$HDRS"
cat /dev/null $(for h in $HDRS; do echo "$TOP/$h"; done) >"$TRASH/api.h"
if [ -f "$TOP/doc/libdiskstat.3" ]; then
	missing=
	for f in $(grep -v '^[[:space:]/*#]' "$TRASH/api.h" |
	    grep -o '\<ds_[a-z0-9_]*(' | tr -d '(' | sort -u); do
		grep -q "^\.F[no] $f\>" "$TOP/doc/libdiskstat.3" || missing="$missing $f"
	done
	is "${missing# }" "" "doc/libdiskstat.3 documents every function of the installed header"
	# and nothing else: lib/suite.h and lib/internal.h are never
	# installed, so what they declare is not in the page.
	extra=
	for f in $(sed -n 's/^\.F[no] \(ds_[a-z0-9_]*\).*/\1/p' "$TOP/doc/libdiskstat.3" |
	    sort -u); do
		grep -v '^[[:space:]/*#]' "$TRASH/api.h" | grep -q "\<$f(" ||
		    extra="$extra $f"
	done
	is "${extra# }" "" "doc/libdiskstat.3 names only functions of the installed header"
fi
