#!/bin/sh
# What the package ships, checked without building it: debian/changelog
# carries DS_VERSION; systemd-analyze verify passes on each unit (in a
# root holding the units, the tools and systemd's own targets); each
# tool's textfile unit runs the README's cron line on the same schedule;
# the snapshot service's commands name the file weekday-HHMM (UTC), write
# what "dxstat -s" writes, and prune only snapshots older than a week.
. "${0%/*}/lib.sh"
. "$FIX/prom/fleet.sh"
fleet_tools
U=$TOP/systemd
VERSION=$(sed -n 's/^#define DS_VERSION "\(.*\)"/\1/p' "$TOP/lib/diskstat.h")

# The version lives in lib/diskstat.h; debian/changelog must agree (a
# native package: no Debian revision).
cl=$(sed -n '1s/^diskstat (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
is "$cl" "$VERSION" "debian/changelog's version is DS_VERSION ($VERSION)"
if command -v dpkg-parsechangelog >/dev/null 2>&1; then
	is "$(cd "$TOP" && dpkg-parsechangelog -S Version)" "$VERSION" \
	    "dpkg-parsechangelog reads the same version"
	is "$(cd "$TOP" && dpkg-parsechangelog -S Source)" diskstat "source package diskstat"
else
	skip "dpkg-parsechangelog reads the same version" "needs dpkg-dev"
fi
is "$(cat "$TOP/debian/source/format")" "3.0 (native)" "a native source package"

# The units every tool gets: the template instances.
units="diskstat-snapshot.service diskstat-snapshot.timer"
for t in $tools; do
	units="$units diskstat-textfile@$t.service diskstat-textfile@$t.timer"
done

if command -v systemd-analyze >/dev/null 2>&1 && [ -d /lib/systemd/system ]; then
	# A root as the package lays it out.  --root makes verify look for
	# the commands and the units they need (sysinit.target ...) in it.
	R=$TRASH/root
	mkdir -p "$R/usr/bin" "$R/bin" "$R/lib/systemd/system"
	cp /lib/systemd/system/*.target "$R/lib/systemd/system/"
	cp -R "$U"/. "$R/lib/systemd/system/"
	cp /bin/sh "$R/bin/sh"
	cp "$(command -v find)" "$R/usr/bin/find"
	for t in $tools; do cp "$TOP/cmd/$t/$t" "$R/usr/bin/$t"; done
	for u in $units; do
		systemd-analyze --root="$R" --man=no verify "lib/systemd/system/$u" \
		    >"$TRASH/verify" 2>&1
		is "$?:$(cat "$TRASH/verify")" "0:" "systemd-analyze verify $u"
	done
	# The check can fail: a tool missing from the root, a bad directive.
	rm "$R/usr/bin/${tools##* }"
	test_must_fail systemd-analyze --root="$R" --man=no verify \
	    "lib/systemd/system/diskstat-textfile@${tools##* }.service" >/dev/null 2>&1
	is "$?" 0 "control: verify fails when the unit's command is missing"
	printf '[Service]\nType=oneshot\nExecStart=/bin/sh -c true\nRestart=sometimes\n' \
	    >"$R/lib/systemd/system/zz-bad.service"
	systemd-analyze --root="$R" --man=no verify lib/systemd/system/zz-bad.service \
	    >"$TRASH/verify" 2>&1
	ok "control: verify reports a bad value (so its silence above means something)" grep -q "zz-bad.service:4: Failed to parse service restart specifier" "$TRASH/verify"
else
	skip "systemd-analyze verify" "needs systemd (systemd-analyze)"
fi

# Disabled by default: no unit is linked into a target by the package
# (dh_installsystemd --no-enable), and each timer can be enabled.
ok "debian/rules installs the units without enabling or starting them" \
    grep -q '^	dh_installsystemd --no-enable --no-start$' "$TOP/debian/rules"
for u in diskstat-snapshot.timer diskstat-textfile@.timer; do
	is "$(sed -n 's/^WantedBy=//p' "$U/$u")" timers.target "$u: WantedBy=timers.target"
done

# Each tool's textfile unit is the README's cron line: the same arguments
# besides -o prom -w FILE, and the same schedule.
D=/var/lib/prometheus/node-exporter
ok "the template runs TOOL -o prom -w $D/TOOL.prom \$DISKSTAT_ARGS" \
    grep -qx "ExecStart=/usr/bin/%i -o prom -w $D/%i.prom \$DISKSTAT_ARGS" \
    "$U/diskstat-textfile@.service"
for t in $tools; do
	line=$(grep -E "^ *[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ +root $t .*-w $D/$t\.prom" "$TOP/README")
	drop=$U/diskstat-textfile@$t.service.d/args.conf
	if [ "$t" = dtriage ]; then
		# A decision, not a gap: dtriage's findings are for a person (or
		# an alert on the other tools' figures), so no timer writes them
		# (diskstat-textfile@.service says why).
		is "$([ -z "$line" ] && [ ! -e "$U/diskstat-textfile@$t.service.d" ] && echo none)" none \
		    "dtriage: no textfile unit and no cron line, as the template says"
		continue
	fi
	if [ -z "$line" ] && [ ! -f "$drop" ]; then
		skip "$t: textfile unit is the README's cron line" "no cron line and no unit for $t yet"
		continue
	fi
	ok "$t: a cron line in README and a drop-in" test -n "$line" -a -f "$drop"
	want=$(echo "$line" | awk -v f="$D/$t.prom" '{
		out = ""
		for (i = 8; i <= NF; i++) {
			if ($i == "-o" && $(i + 1) == "prom") { i++; continue }
			if ($i == "-w" && $(i + 1) == f) { i++; continue }
			out = out (out == "" ? "" : " ") $i
		}
		print out }')
	got=$(sed -n 's/^Environment="DISKSTAT_ARGS=\(.*\)"$/\1/p' "$drop" 2>/dev/null)
	is "$got" "$want" "$t: DISKSTAT_ARGS is the cron line's \"$want\""
	is "$(sed -n 's/^Documentation=//p' "$drop" 2>/dev/null)" "man:$t(1)" "$t: Documentation=man:$t(1)"
	cron=$(echo "$line" | awk '{ print $1, $2, $3, $4, $5 }')
	sched=$U/diskstat-textfile@$t.timer.d/schedule.conf
	cal=minutely
	[ -f "$sched" ] && cal=$(sed -n 's/^OnCalendar=\(..*\)/\1/p' "$sched")
	case $cron in
	"* * * * *") want=minutely ;;
	"*/5 * * * *") want="*:0/5" ;;
	*) want="cron $cron" ;;
	esac
	is "$cal" "$want" "$t: timer OnCalendar=$want as the cron line's \"$cron\""
	if [ -f "$sched" ]; then
		ok "$t: the drop-in resets the template's OnCalendar first" \
		    grep -qx 'OnCalendar=' "$sched"
	fi
done

# The snapshot service's commands, run as systemd would run them (%% is
# %, $$ is $) with the state directory in $TRASH and the tree's dxstat.
S=$TRASH/state
mkdir "$S"
sed -n 's/^ExecStart=//p' "$U/diskstat-snapshot.service" |
    sed -e 's/%%/%/g' -e 's/\$\$/$/g' -e "s|/var/lib/diskstat|$S|g" \
    -e "s|/usr/bin/dxstat|$TOP/cmd/dxstat/dxstat|" >"$TRASH/cmds"
is "$(wc -l <"$TRASH/cmds")" 2 "snapshot service: two commands (snapshot, prune)"
ok "snapshot service: LC_ALL=C TZ=UTC" grep -qx 'Environment=LC_ALL=C TZ=UTC' \
    "$U/diskstat-snapshot.service"
is "$(sed -n 's/^OnCalendar=//p' "$U/diskstat-snapshot.timer")" "*:0/5" "snapshot timer: every five minutes"
tree=$FIX/dxstat/tree
touch -d '-10091 minutes' "$S/Mon-0000.snap"
touch -d '-10085 minutes' "$S/Mon-0005.snap"
touch -d '-20000 minutes' "$S/notes"
before=$(date -u +%a-%H%M)
(
	LC_ALL=C TZ=UTC DISKSTAT_ROOT=$tree
	export LC_ALL TZ DISKSTAT_ROOT
	while read -r c; do eval "$c" || exit 1; done <"$TRASH/cmds"
)
is "$?" 0 "snapshot service: its commands succeed"
after=$(date -u +%a-%H%M)
f=$S/$before.snap
[ -f "$f" ] || f=$S/$after.snap
ok "snapshot named weekday-HHMM in UTC ($before.snap)" test -f "$f"
"$TOP/cmd/dxstat/dxstat" -R "$tree" -s >"$TRASH/expect.snap"
ok "the snapshot is what dxstat -s writes" test_cmp "$TRASH/expect.snap" "$f"
ok "prune: a snapshot a week and 11 minutes old is gone" test ! -e "$S/Mon-0000.snap"
ok "prune: one a week and 5 minutes old stays (ten minutes of grace)" test -e "$S/Mon-0005.snap"
ok "prune: a file not named *.snap stays" test -e "$S/notes"
