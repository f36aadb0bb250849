/* loopctl add|remove N: LOOP_CTL_ADD / LOOP_CTL_REMOVE of loop N. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	int fd, r, tries;

	if (argc != 3)
		return 2;
	if ((fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) < 0) {
		perror("/dev/loop-control");
		return 1;
	}
	if (strcmp(argv[1], "add") == 0) {
		r = ioctl(fd, LOOP_CTL_ADD, atoi(argv[2]));
	} else {
		/* udev may still hold it open for a moment after detach */
		for (tries = 0; tries < 50; tries++) {
			r = ioctl(fd, LOOP_CTL_REMOVE, atoi(argv[2]));
			if (r >= 0 || errno != EBUSY)
				break;
			usleep(50000);
		}
	}
	if (r < 0) {
		fprintf(stderr, "loopctl %s %s: %s\n", argv[1], argv[2],
		    strerror(errno));
		return errno == EEXIST ? 3 : 1;
	}
	return 0;
}
