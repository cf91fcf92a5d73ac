/* PATH's entries in order, the first usable candidate (path_search.h). */
#include "path_search.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int path_search(const struct path_search *search, char *found, char *denied, size_t size)
{
	bool any_denied = false;

	if (!search->path) {
		errno = ENOENT;
		return -1;
	}
	for (const char *entry = search->path;; entry++) {
		size_t n = strcspn(entry, ":");
		int len = -1;

		if (n)
			len = snprintf(found, size, "%.*s/%s", (int)n, entry, search->name);
		else if (search->empty_is_cwd)
			len = snprintf(found, size, "./%s", search->name);
		if (len >= 0 && (size_t)len < size) {
			if (!search->usable(found))
				return 0;
			if ((errno == EACCES || errno == EISDIR) && !any_denied) {
				any_denied = true;
				if (denied)
					memcpy(denied, found, (size_t)len + 1);
			}
		}
		entry += n;
		if (!*entry)
			break;
	}
	errno = any_denied ? EACCES : ENOENT;
	return -1;
}
