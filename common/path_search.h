/*
 * A program's name looked up in a PATH value: the one walk `mirage run` (execvp's rule, from
 * the workload's directory) and the translator's linker search (ld.lld-22 on PATH) share.
 * Each entry in order is joined with the name, and the first candidate the caller's test
 * accepts wins.  libc only, never allocates, never prints.
 */
#ifndef MIRAGE_PATH_SEARCH_H
#define MIRAGE_PATH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

struct path_search {
	const char *path; /* PATH's value: entries separated by ':'; NULL: none */
	const char *name; /* the program's name, without a '/' */
	/*
	 * true: an empty entry is the current directory ("./name"), as execvp has it; false: it
	 * is skipped, for a library inside another program, which has no business running what
	 * lies in that program's current directory.
	 */
	bool empty_is_cwd;
	/*
	 * 0 when the candidate can be run; else -1 with errno, EACCES or EISDIR for a file that
	 * is there but cannot be run (reported when nothing later is found).
	 */
	int (*usable)(const char *candidate);
};

/*
 * The first usable candidate into found (size bytes): 0.  Else -1 with errno EACCES when some
 * candidate is there but cannot be run (the first such into denied, size bytes, unless NULL),
 * or ENOENT.  A candidate longer than size is skipped, as no exec would take it.
 */
int path_search(const struct path_search *search, char *found, char *denied, size_t size);

#endif
