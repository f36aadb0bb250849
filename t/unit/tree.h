/*
 * A made-up tree for the unit tests that read files: a temporary
 * directory, files and directories put in it, a directory below it
 * opened, and the whole removed at the end.
 */
#ifndef TREE_H
#define TREE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tree[128];

/* The tree made as /tmp/NAME.XXXXXX; exits when it cannot be. */
static inline void
tree_make(const char *name)
{
	snprintf(tree, sizeof(tree), "/tmp/%s.XXXXXX", name);
	if (mkdtemp(tree) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
}

/* A file holding text at rel, or with text NULL a directory. */
static inline void
put(const char *rel, const char *text)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	if (text == NULL) {
		mkdir(p, 0755);
		return;
	}
	fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		perror(p);
	if (fd >= 0)
		close(fd);
}

/* The directory rel of the tree opened, or -1. */
static inline int
dir(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	return open(p, O_RDONLY | O_DIRECTORY);
}

/* The tree removed: 0, or -1 (said) when it could not be. */
static inline int
tree_remove(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	if (system(cmd) != 0) {
		printf("# could not remove %s\n", tree);
		return -1;
	}
	return 0;
}

#endif
