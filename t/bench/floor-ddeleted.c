/*
 * floor-ddeleted: the least a program can do to list the deleted files
 * processes hold open, so the benchmark can say how close ddeleted is
 * to the limit.
 *
 * getdents64 of /proc once; per process openat/getdents64/close of
 * PID/fd and one readlinkat per descriptor.  Only a link ending in
 * " (deleted)" is a candidate: fstatat (following the link) confirms
 * st_nlink == 0, and the holder's comm is read for the row.  Mappings
 * are not looked at: this is the readlinkat floor of the issue.
 *
 * floor-ddeleted -s does it the other way round, one fstatat per
 * descriptor and readlinkat only for those with st_nlink 0, to see
 * which of the two the kernel answers faster.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

struct d64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int
getdents_all(int dfd, char **buf, size_t *cap, size_t *len)
{
	long n;

	*len = 0;
	for (;;) {
		if (*cap - *len < 32768) {
			*cap = *cap ? *cap * 2 : 1 << 16;
			*buf = realloc(*buf, *cap);
		}
		n = syscall(SYS_getdents64, dfd, *buf + *len, *cap - *len);
		if (n <= 0)
			return (int)n;
		*len += (size_t)n;
	}
}

int
main(int argc, char **argv)
{
	static const char suffix[] = " (deleted)";
	static char obuf[1 << 16], link[4096], comm[64];
	char *ents = NULL, *fents = NULL, rel[64];
	size_t cap = 0, len, fcap = 0, flen;
	int proc, bystat = argc > 1 && strcmp(argv[1], "-s") == 0;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0 || getdents_all(proc, &ents, &cap, &len) < 0) {
		perror("/proc");
		return 1;
	}
	fputs("pid\tcommand\tfd\tsize\tallocated\tdev\tinode\tpath\n", stdout);
	for (size_t off = 0; off < len;) {
		struct d64 *d = (struct d64 *)(ents + off);
		int fdd, got = 0;

		off += d->reclen;
		if (d->name[0] < '1' || d->name[0] > '9')
			continue;
		snprintf(rel, sizeof(rel), "%s/fd", d->name);
		fdd = openat(proc, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fdd < 0)
			continue;
		getdents_all(fdd, &fents, &fcap, &flen);
		for (size_t f = 0; f < flen;) {
			struct d64 *e = (struct d64 *)(fents + f);
			struct stat st;
			ssize_t n;

			f += e->reclen;
			if (e->name[0] < '0' || e->name[0] > '9')
				continue;
			if (bystat) {
				/* -s: stat every descriptor, readlink the few */
				if (fstatat(fdd, e->name, &st, 0) < 0 ||
				    st.st_nlink != 0 || !S_ISREG(st.st_mode))
					continue;
				n = readlinkat(fdd, e->name, link,
				    sizeof(link) - 1);
				if (n < (ssize_t)sizeof(suffix))
					continue;
			} else {
				n = readlinkat(fdd, e->name, link,
				    sizeof(link) - 1);
				if (n < (ssize_t)sizeof(suffix) ||
				    memcmp(link + n - (sizeof(suffix) - 1),
				    suffix, sizeof(suffix) - 1) != 0)
					continue;
				if (fstatat(fdd, e->name, &st, 0) < 0 ||
				    st.st_nlink != 0)
					continue;
			}
			if (!got) {
				int cfd;
				ssize_t c;

				snprintf(rel, sizeof(rel), "%s/comm",
				    d->name);
				cfd = openat(proc, rel, O_RDONLY | O_CLOEXEC);
				c = cfd >= 0 ? read(cfd, comm,
				    sizeof(comm) - 1) : -1;
				if (cfd >= 0)
					close(cfd);
				comm[c > 0 ? c - 1 : 0] = '\0';
				got = 1;
			}
			printf("%s\t%s\t%s\t%lld\t%lld\t%u:%u\t%llu\t%.*s\n",
			    d->name, comm, e->name, (long long)st.st_size,
			    (long long)st.st_blocks * 512,
			    major(st.st_dev), minor(st.st_dev),
			    (unsigned long long)st.st_ino,
			    (int)(n - (ssize_t)(sizeof(suffix) - 1)), link);
		}
		close(fdd);
	}
	return fflush(stdout) != 0;
}
