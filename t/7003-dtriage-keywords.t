#!/bin/sh
# dtriage's finding keywords are stable and documented (issue 20):
# every keyword the judgement (lib/triage.c and its rules' files,
# lib/tr*.c) can emit is listed in doc/dtriage.1's
# FINDINGS, and nothing is listed there that the code never emits; each entry of the man page names the
# severity the rule gives and says why (a sentence beyond the rule).
. "${0%/*}/lib.sh"
need_cmd perl

MAN=$TOP/doc/dtriage.1

# The keywords emitted: the third argument of every ds_tr_add(out, SEV,
# "kw"... (split over lines or not).
perl -0ne 'while (/\bds_tr_add\(\s*out\s*,\s*[^,]+,\s*"([a-z][a-z-]*)"/g) { print "$1\n" }' \
    "$TOP"/lib/tr*.c | sort -u >"$TRASH/code"
# The man page's FINDINGS list: its .It Cm entries.
awk '/^\.Sh FINDINGS/ { f = 1; next } /^\.Sh / { f = 0 } f && /^\.It Cm / { print $3 }' \
    "$MAN" | sort >"$TRASH/man"
ok "the code emits at least 20 keywords ($(wc -l <"$TRASH/code"))" \
    test "$(wc -l <"$TRASH/code")" -ge 20
is "$(sort "$TRASH/man" | uniq -d)" "" "doc/dtriage.1: no keyword listed twice"
is "$(comm -23 "$TRASH/code" "$TRASH/man" | paste -sd' ' -)" "" \
    "every keyword the code emits is in doc/dtriage.1"
is "$(comm -13 "$TRASH/code" "$TRASH/man" | paste -sd' ' -)" "" \
    "every keyword of doc/dtriage.1 is one the code emits"
# Each entry: its text up to the next .It or .El.
awk '/^\.Sh FINDINGS/ { f = 1; next } /^\.Sh / { f = 0 }
    f && /^\.It Cm / { k = $3; next } f && /^\.E[lt]/ { k = "" }
    f && k != "" { t[k] = t[k] " " $0 }
    END { for (k in t) print k "\t" t[k] }' "$MAN" | sort >"$TRASH/text"
nosev=$(awk -F'\t' '$1 != "verdict" && $2 !~ /(^|[^a-z-])(ok|info|warn|crit)([^a-z-]|$)/ { print $1 }' \
    "$TRASH/text" | paste -sd' ' -)
is "$nosev" "" "every entry names its severity"
# The why: more than the rule, at least two sentences.
short=$(awk -F'\t' '{ n = gsub(/[.:;] /, "&", $2) + ($2 ~ /[.]$/) } n < 2 { print $1 }' \
    "$TRASH/text" | paste -sd' ' -)
is "$short" "" "every entry has the rule and why (two sentences at least)"
