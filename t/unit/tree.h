/*
 * Scratch trees for the unit tests: a temporary directory (tree_top,
 * made by tree_make or by the test itself), files, directories and
 * symlinks made under it, their parents first, and the whole removed
 * at the end.  A tree that cannot be built ends the test: its checks
 * would mean nothing.
 */
#ifndef TREE_H
#define TREE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tree_top[256];

/* tree_top made as /tmp/NAME.XXXXXX. */
static inline void
tree_make(const char *name)
{
	snprintf(tree_top, sizeof(tree_top), "/tmp/%s.XXXXXX", name);
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
}

/* tree_top removed: 0, or -1 (said) when it could not be. */
static inline int
tree_remove(void)
{
	char cmd[320];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0) {
		printf("# could not remove %s\n", tree_top);
		return -1;
	}
	return 0;
}

/* tree_top/rel into path, and every directory above it made. */
static inline void
tree_path(char *path, size_t size, const char *rel)
{
	char *s;

	if ((size_t)snprintf(path, size, "%s/%s", tree_top, rel) >= size) {
		fprintf(stderr, "tree: %s: path too long\n", rel);
		exit(1);
	}
	for (s = path + strlen(tree_top) + 1; (s = strchr(s, '/')) != NULL;
	    s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
}

/* A file holding len bytes of text (len 0: all of it, up to a NUL). */
static inline void
tree_putn(const char *rel, const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	tree_path(path, sizeof(path), rel);
	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(1);
	}
	fwrite(text, 1, len ? len : strlen(text), f);
	if (fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static inline void tree_dir(const char *rel);

/* A file holding text, or with text NULL a directory. */
static inline void
tree_put(const char *rel, const char *text)
{
	if (text == NULL)
		tree_dir(rel);
	else
		tree_putn(rel, text, 0);
}

static inline void
tree_dir(const char *rel)
{
	char path[4096];

	tree_path(path, sizeof(path), rel);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		perror(path);
		exit(1);
	}
}

static inline void
tree_link(const char *rel, const char *target)
{
	char path[4096];

	tree_path(path, sizeof(path), rel);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(1);
	}
}

/* The directory rel of the tree opened, or -1. */
static inline int
tree_open(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tree_top, rel);
	return open(path, O_RDONLY | O_DIRECTORY);
}

#endif
