#!/bin/sh
# Scenario 5: startup.  Each tool's --version against a dynamically
# linked hello world (t/bench/hello.c, same compiler and flags), 200
# starts per run, figures per start.
SCEN=startup
. "${0%/*}/lib.sh"

K=200
for t in dxstat dpsi dwho dqueue ddeleted; do
	have_tool $t || continue
	measure "$t --version" floor "hello (dynamic)" -k $K -- "$BIN/hello"
	measure "$t --version" ours "$t --version" -k $K -- "$TOP/cmd/$t" --version
done
exit 0
