#!/bin/sh
# What the package ships, checked without building it: debian/changelog
# carries DS_VERSION; systemd-analyze verify passes on each unit (in a
# root holding the units, the tools and systemd's own targets); each
# tool's textfile unit runs the README's cron line on the same schedule;
# the snapshot service's command writes a one-sample capture into the
# history directory, 0600 in a 0700 directory, and prunes only captures
# named more than $DAYS days ago; the capture service's loop ends (and
# systemd restarts it a minute later) when dpsi fails, its directory
# 0700.  The capture service under pressure: t/8002.
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

# The units every tool that writes reports gets: the template instances.
units="diskstat-capture.service diskstat-snapshot.service diskstat-snapshot.timer"
for t in $prom_tools; do
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
	for t in $tools; do cp "$TOP/cmd/$t/$t" "$R/usr/bin/$t"; done
	for u in $units; do
		systemd-analyze --root="$R" --man=no verify "lib/systemd/system/$u" \
		    >"$TRASH/verify" 2>&1
		is "$?:$(cat "$TRASH/verify")" "0:" "systemd-analyze verify $u"
	done
	# The check can fail: a tool missing from the root, a bad directive.
	rm "$R/usr/bin/${prom_tools##* }"
	test_must_fail systemd-analyze --root="$R" --man=no verify \
	    "lib/systemd/system/diskstat-textfile@${prom_tools##* }.service" >/dev/null 2>&1
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
for t in $prom_tools; do
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

# The commands a unit's shell runs name only tools of the tree: verify
# checks /bin/sh, not what sh -c runs.
for u in diskstat-capture.service diskstat-snapshot.service; do
	missing=
	for c in $(unit_exec "$U/$u" | grep -o '/usr/bin/[a-z]*' | sort -u); do
		case " $tools " in *" ${c#/usr/bin/} "*) ;; *) missing="$missing $c" ;; esac
	done
	is "${missing# }" "" "$u: every /usr/bin command is a tool of the suite"
done

# The history: one command, a one-sample capture into /var/lib/diskstat,
# kept $DAYS days (7); the directory 0700 and files 0600 by the unit
# (StateDirectoryMode, UMask) and by dcapture itself.  Run as systemd
# would run it, with the state directory in $TRASH and the tree's tools.
S=$TRASH/state
sed -e "s|/var/lib/diskstat|$S|g" -e "s|/usr/bin/|$TOP/cmd/dcapture/|" \
    "$U/diskstat-snapshot.service" >"$TRASH/snapshot.service"
unit_exec "$TRASH/snapshot.service" >"$TRASH/cmds"
is "$(wc -l <"$TRASH/cmds")" 1 "snapshot service: one command"
is "$(unit_exec "$U/diskstat-snapshot.service")" \
    '/usr/bin/dcapture -d /var/lib/diskstat -a $DAYS 0' \
    "snapshot service: dcapture -d /var/lib/diskstat -a \$DAYS 0"
is "$(unit_env "$U/diskstat-snapshot.service")" DAYS=7 "snapshot service: DAYS=7 by default"
for d in StateDirectory=diskstat StateDirectoryMode=0700 UMask=0077; do
	ok "snapshot service: $d" grep -qx "$d" "$U/diskstat-snapshot.service"
done
ok "snapshot service: no .snap written, no find" sh -c "! grep -q 'snap\\|find' '$TRASH/cmds'"
is "$(sed -n 's/^OnCalendar=//p' "$U/diskstat-snapshot.timer")" "*:0/5" "snapshot timer: every five minutes"
mkdir -m 0700 "$S" "$S/captures"
old=$(date -u -d '-8 days' +%Y%m%dT%H%M%SZ).cap
young=$(date -u -d '-6 days' +%Y%m%dT%H%M%SZ).cap
for f in "$old" "$young" captures/"$old" Mon-0000.snap notes; do echo x >"$S/$f"; done
(
	umask 0077
	eval "export $(unit_env "$U/diskstat-snapshot.service")"
	while read -r c; do eval "$c" || exit 1; done <"$TRASH/cmds"
)
is "$?" 0 "snapshot service: its command succeeds"
new=$(ls "$S" | grep -E '^[0-9]{8}T[0-9]{6}Z\.cap$' | grep -v -e "^$old\$" -e "^$young\$")
ok "a capture named YYYYmmddTHHMMSSZ.cap ($new)" test -f "$S/$new"
is "$(stat -c %a "$S/$new" 2>/dev/null)" 600 "the capture 0600"
is "$(tar -xOf "$S/$new" capture/meta 2>/dev/null | awk '$1 == "samples" { print $2 }')" 1 \
    "a one-sample capture (meta samples 1)"
ok "dxstat -R reads it" sh -c "dxstat -R '$S/$new' | grep -q ."
ok "prune: a capture named 8 days ago is gone" test ! -e "$S/$old"
ok "prune: one named 6 days ago stays" test -e "$S/$young"
ok "prune: the pressure captures' directory untouched" test -e "$S/captures/$old"
ok "prune: an old .snap and a foreign file stay" test -e "$S/Mon-0000.snap" -a -e "$S/notes"

# The pressure service: a dpsi --wait loop into its own 0700 directory,
# KEEP in all, one per GAP; a failing dpsi ends the shell with 1 and
# systemd restarts it after a minute, so a host without PSI never spins.
C=$U/diskstat-capture.service
for d in StateDirectory=diskstat/captures StateDirectoryMode=0700 UMask=0077 \
    Restart=on-failure RestartSec=60 Environment=DIR=/var/lib/diskstat/captures \
    'Environment=TRIGGER=io:full:500ms/2s WINDOW=10 GAP=600 KEEP=256M'; do
	ok "capture service: $d" grep -qx "$d" "$C"
done
ok "capture service: WantedBy=multi-user.target" grep -qx WantedBy=multi-user.target "$C"
cmd=$(unit_exec "$C")
case $cmd in
*'dpsi --wait "$TRIGGER"'*'dcapture -d "$DIR" -m "$KEEP" "$WINDOW"'*'sleep "$GAP"'*)
	pass "capture service: dpsi --wait \$TRIGGER, dcapture -d \$DIR -m \$KEEP \$WINDOW, sleep \$GAP" ;;
*) fail "capture service: the loop"; echo "# $cmd" ;;
esac
mkdir "$TRASH/nopsi" "$TRASH/capdir"
start=$(date +%s)
(
	eval "export $(unit_env "$C" | tr '\n' ' ')"
	DIR=$TRASH/capdir DISKSTAT_ROOT=$TRASH/nopsi PATH=$TOP/cmd/dpsi:$TOP/cmd/dcapture:$PATH
	export DIR DISKSTAT_ROOT PATH
	eval "$(printf '%s\n' "$cmd" | sed 's|/usr/bin/||g')"
) >/dev/null 2>"$TRASH/nopsi.err"
st=$?
is "$st:$(ls -A "$TRASH/capdir" | wc -l)" "1:0" \
    "capture service: no PSI: the loop exits 1 at once, nothing captured"
ok "capture service: it did not wait (GAP 600 s) nor loop" test $(($(date +%s) - start)) -le 5
ok "capture service: dpsi said why" grep -q '^dpsi: ' "$TRASH/nopsi.err"
