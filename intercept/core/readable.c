/* How far memory stays readable from a pointer, from the kernel's own list of mappings. */
#include "readable.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

size_t hsi_readable_extent(const void *p)
{
	uintptr_t at = (uintptr_t)p, end = 0;
	char line[512];
	FILE *maps;

	if (!p || !(maps = fopen("/proc/self/maps", "re")))
		return 0;
	/* Ascending order: once p is inside a mapping, adjacent readable ones extend it. */
	while (fgets(line, sizeof(line), maps)) {
		uintptr_t lo, hi;
		char perms[5];
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &lo, &hi, perms) != 3)
			continue;
		/* A line longer than the buffer: skip its rest, which fgets returns next. */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), maps))
			;
		if (end && (lo != end || perms[0] != 'r'))
			break;
		if (perms[0] == 'r' && (end || (at >= lo && at < hi)))
			end = hi;
	}
	fclose(maps);
	return end ? end - at : 0;
}
