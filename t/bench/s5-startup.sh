#!/bin/sh
# Scenario 5: startup.  Each tool's --version against a dynamically
# linked hello world (t/bench/hello.c, same compiler and flags),
# interleaved, 100 ms of CPU per run (about 100 starts each),
# figures per start.
SCEN=startup
. "${0%/*}/lib.sh"

BENCH_MIN_MS=100
for t in dxstat dpsi dwho dqueue ddeleted; do
	have_tool $t || continue
	case_begin "$t --version"
	cmd floor "hello (dynamic)" "$BIN/hello"
	cmd ours "$t --version" "$TOOLDIR/$t" --version
	case_end
done
exit 0
