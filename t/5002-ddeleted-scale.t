#!/bin/sh
# Correctness at scale: 100 processes with 1000 open descriptors each,
# a third of them links that read " (deleted)" without being deleted (a
# hard link whose other name survives) and a third files really named
# "x (deleted)".  One process also holds one deleted file: that file is
# found, and nothing else.
. "${0%/*}/lib.sh"

need_cmd cc

D=$TRASH/d
mkdir "$D" || exit 1
cat >"$TRASH/many.c" <<'EOF'
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

static pid_t kids[1000];
static int nkids;

static void
bye(int sig)
{
	int i;

	(void)sig;
	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	_exit(0);
}

int
main(int argc, char **argv)
{
	int nproc = atoi(argv[2]), nfd = atoi(argv[3]), victim = atoi(argv[4]);
	int i, j, p[2];
	char path[3][4096], vpath[4096], c;
	struct rlimit rl;

	snprintf(path[0], sizeof(path[0]), "%s/plain", argv[1]);
	snprintf(path[1], sizeof(path[1]), "%s/decoy (deleted)", argv[1]);
	snprintf(path[2], sizeof(path[2]), "%s/hl1", argv[1]);
	snprintf(vpath, sizeof(vpath), "%s/victim", argv[1]);
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_max < (rlim_t)nfd + 16)
		return 2;
	rl.rlim_cur = nfd + 16;
	setrlimit(RLIMIT_NOFILE, &rl);
	signal(SIGTERM, bye);
	if (pipe(p) < 0)
		return 1;
	for (i = 0; i < nproc; i++) {
		pid_t pid = fork();
		if (pid < 0)
			bye(0);
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			signal(SIGTERM, SIG_DFL);
			close(p[0]);
			for (j = 0; j < nfd - 4; j++)
				if (open(path[j % 3], O_RDONLY) < 0)
					_exit(1);
			if (i == victim && open(vpath, O_RDONLY) < 0)
				_exit(1);
			write(p[1], "r", 1);
			close(p[1]);
			pause();
			_exit(0);
		}
		kids[nkids++] = pid;
	}
	close(p[1]);
	for (i = 0; i < nproc; i++)
		if (read(p[0], &c, 1) != 1)
			bye(0);
	for (i = 0; i < nproc; i++)
		printf("%d %d\n", i, (int)kids[i]);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
EOF
cc -o "$TRASH/many" "$TRASH/many.c" || skip_all "cc failed"

echo plain >"$D/plain"
echo decoy >"$D/decoy (deleted)"
echo hl >"$D/hl1"
ln "$D/hl1" "$D/hl2"
head -c 123456 /dev/urandom >"$D/victim"

"$TRASH/many" "$D" 100 1000 57 >"$TRASH/pids" &
many=$!
at_exit "kill $many 2>/dev/null; wait $many 2>/dev/null"
i=0
while ! grep -q '^ready$' "$TRASH/pids" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q '^ready$' "$TRASH/pids" || skip_all "holders did not start (ulimit -Hn $(ulimit -Hn))"
victim=$(awk '$1 == 57 { print $2 }' "$TRASH/pids")
rm "$D/victim" "$D/hl1"

ok "process 57 holds 1000 descriptors" test "$(ls /proc/$victim/fd | wc -l)" -ge 1000

start=$(date +%s)
ddeleted -o tsv -H >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "scan exits 0"
end=$(date +%s)
echo "# scan of the whole system took about $((end - start)) s"
awk 'NR == FNR { if ($2 != "") pid[$2] = 1; next } pid[$1]' "$TRASH/pids" \
    "$TRASH/out" >"$TRASH/ours"
is "$(wc -l <"$TRASH/ours")" 1 "exactly one row among the 100 holders"
is "$(cut -f1,3,5,12 "$TRASH/ours")" "$(printf '%s\tmany\t123456\t%s' "$victim" "$D/victim")" \
    "it is the deleted file, in process 57"
is "$(awk -F'\t' -v p=$many '$1 == p' "$TRASH/out" | wc -l)" 0 "the parent holds nothing"
