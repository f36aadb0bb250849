#!/bin/sh
# report.sh RESULTS.tsv: the benchmark table and the targets of issue 9.
# Ratios compare rows of the same case, measured in the same run:
#   xfloor = CPU / CPU of the floor program of the case
#   xours  = CPU / CPU of our tool in the case (a peer's 5.00: five
#            times our CPU)
awk -F '\t' '
function ms(us) { return us / 1000 }
function ratio(a, b) { return (b > 0 && a != "") ? sprintf("%.2f", a / b) : "-" }
function verdict(ok) { return ok ? "met" : "MISSED" }
{
	s = $1; c = $2; k = $3; l = $4
	if (!((s, c) in seen)) {
		seen[s, c] = 1
		cases[s] = cases[s] (cases[s] == "" ? "" : SUBSEP) c
		if (!(s in sseen)) { sseen[s] = 1; scen[++ns] = s }
	}
	n = ++nrow[s, c]
	kind[s, c, n] = k; label[s, c, n] = l; cpu[s, c, n] = $5
	wall[s, c, n] = $6; rss[s, c, n] = $7; sc[s, c, n] = $8
	wr[s, c, n] = $9; rows[s, c, n] = $10
	if (k == "floor") { fcpu[s, c] = $5; fsum[s, c] += $5 }
	if (k == "ours") {
		hasours[s, c] = 1; ocpu[s, c] = $5; orss[s, c] = $7
		osc[s, c] = $8 - $9; olabel[s, c] = l
	}
	if (k == "peer") { pcpu[s, c, l] = $5 }
}
END {
	for (i = 1; i <= ns; i++) {
		s = scen[i]
		printf "== %s\n", s
		printf "%-28s %-30s %9s %9s %7s %8s %7s %6s %7s %7s\n", "case", \
		    "command", "CPU ms", "wall ms", "RSS kB", "syscalls", \
		    "writes", "rows", "xfloor", "xours"
		nc = split(cases[s], cl, SUBSEP)
		for (j = 1; j <= nc; j++) {
			c = cl[j]
			for (r = 1; r <= nrow[s, c]; r++)
				printf "%-28s %-30s %9.3f %9.3f %7d %8s %7s %6s %7s %7s\n", \
				    r == 1 ? c : "", label[s, c, r], \
				    ms(cpu[s, c, r]), ms(wall[s, c, r]), \
				    rss[s, c, r], sc[s, c, r], wr[s, c, r], \
				    rows[s, c, r], \
				    ratio(cpu[s, c, r], fcpu[s, c]), \
				    ratio(cpu[s, c, r], ocpu[s, c])
		}
		printf "\n"
	}

	printf "== targets (issue 9)\n"
	for (i = 1; i <= ns; i++) {
		s = scen[i]
		nc = split(cases[s], cl, SUBSEP)
		first = last = ""
		for (j = 1; j <= nc; j++) {
			c = cl[j]
			if (!((s, c) in hasours))
				continue
			o = ocpu[s, c]; f = fcpu[s, c]; tool = olabel[s, c]
			sub(/ .*/, "", tool)
			lim = 0
			if (s == "dxstat") lim = 1.5
			if (s == "dwho") lim = 2
			if (s == "ddeleted") lim = 1.3
			if (s == "startup") lim = 1.2
			if (lim && f > 0)
				printf "%-9s %-30s CPU %6.2fx %-6s (<= %.1f)  %s\n", \
				    tool, c, o / f, \
				    s == "startup" ? "hello" : "floor", \
				    lim, verdict(o / f <= lim)
			# A capture holds several scans: the sum of the floors.
			if (s == "capture" && fsum[s, c] > 0)
				printf "%-9s %-30s CPU %6.2fx floors (<= 1.3, their sum)  %s\n", \
				    tool, c, o / fsum[s, c], \
				    verdict(o / fsum[s, c] <= 1.3)
			if (s == "files" && f > 0)
				printf "%-9s %-30s CPU %6.2fx floor  (info)\n", \
				    tool, c, o / f
			if (s == "files") {
				for (r = 1; r <= nrow[s, c]; r++)
					if (label[s, c, r] ~ /^cat /)
						printf "%-9s %-30s CPU %6.2fx cat    (<= 1.2, about the same)  %s\n", \
						    tool, c, o / cpu[s, c, r], \
						    verdict(o / cpu[s, c, r] <= 1.2)
			}
			if (s == "dwho" && c ~ /^5000 /)
				for (r = 1; r <= nrow[s, c]; r++)
					if (label[s, c, r] ~ /^pidstat/)
						printf "%-9s %-30s %s uses %6.2fx our CPU (>= 4; floor: %.2fx)  %s\n", \
						    tool, c, "pidstat -d", \
						    cpu[s, c, r] / o, cpu[s, c, r] / f, \
						    verdict(cpu[s, c, r] / o >= 4)
			if (s == "ddeleted")
				for (r = 1; r <= nrow[s, c]; r++)
					if (label[s, c, r] ~ /^lsof/)
						printf "%-9s %-30s %s uses %6.2fx our CPU (>= 5; floor: %.2fx)  %s\n", \
						    tool, c, "lsof +L1", \
						    cpu[s, c, r] / o, cpu[s, c, r] / f, \
						    verdict(cpu[s, c, r] / o >= 5)
			if (s == "dxstat")
				for (r = 1; r <= nrow[s, c]; r++)
					if (label[s, c, r] ~ /^iostat/)
						printf "%-9s %-30s %s uses %6.2fx our CPU (info)\n", \
						    tool, c, "iostat", cpu[s, c, r] / o
			if (s != "capture")
			printf "%-9s %-30s max RSS %5d kB (< 2048)  %s\n", \
			    tool, c, orss[s, c], verdict(orss[s, c] < 2048)
			# dxstat: syscalls per report independent of the
			# device count: compare the smallest and largest scale
			# of each mode (a per-device syscall would add one per
			# line; a growing read buffer adds a few).
			if (s == "dxstat") {
				mode = c; sub(/^[0-9]+ lines /, "", mode)
				nl = c; sub(/ .*/, "", nl)
				if (!(mode in lo) || nl + 0 < lon[mode]) { lo[mode] = osc[s, c]; lon[mode] = nl + 0 }
				if (!(mode in hi) || nl + 0 > hin[mode]) { hi[mode] = osc[s, c]; hin[mode] = nl + 0 }
			}
		}
	}
	for (m in lo)
		if (hin[m] > lon[m])
			printf "%-9s %-30s syscalls but writes: %s at %d lines, %s at %d (growth <= 32)  %s\n", \
			    "dxstat", m, lo[m], lon[m], hi[m], hin[m], \
			    verdict(hi[m] - lo[m] <= 32)
}' "$1"
