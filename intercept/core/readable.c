/*
 * How far memory stays readable from a pointer.  A fat binary and its wrapper lie in a loaded
 * object (clang puts them in .hip_fatbin and .hipFatBinSegment), whose readable segments the
 * dynamic linker lists without a system call; anything else (a heap image, a mapped file) is
 * looked up in the kernel's own list of mappings, which costs a read of /proc/self/maps (about
 * a tenth of a millisecond, and the HIP hooks ask twice per fat binary).  A program that
 * made part of its own segment unreadable with mprotect() would fool the first answer; one
 * that does so to its fat binary has already broken its own registration.
 */
#include "readable.h"

#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct segment_query {
	uintptr_t at;
	uintptr_t page;
	uintptr_t end; /* 0 until a readable segment holds at */
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *data)
{
	struct segment_query *q = data;

	(void)size;
	/* The ELF rule: PT_LOAD entries are in ascending vaddr order, so adjacent readable ones
	 * extend the extent as adjacent mappings do. */
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo, hi;
		if (ph->p_type != PT_LOAD)
			continue;
		lo = (info->dlpi_addr + ph->p_vaddr) & ~(q->page - 1);
		hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + q->page - 1) & ~(q->page - 1);
		if (q->end && (lo != q->end || !(ph->p_flags & PF_R)))
			break;
		if ((ph->p_flags & PF_R) && (q->end || (q->at >= lo && q->at < hi)))
			q->end = hi;
	}
	return q->end != 0;
}

size_t hsi_readable_extent_kernel(const void *p)
{
	uintptr_t at = (uintptr_t)p;
	uintptr_t end = 0;
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

size_t hsi_readable_extent(const void *p)
{
	struct segment_query q = {.at = (uintptr_t)p, .page = (uintptr_t)sysconf(_SC_PAGESIZE)};

	if (!p)
		return 0;
	if (dl_iterate_phdr(find_segment, &q))
		return q.end - q.at;
	return hsi_readable_extent_kernel(p);
}
