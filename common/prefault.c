#include "prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void prefault_write(void *buf, size_t size)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)buf + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)buf + size) & ~(page - 1);

	/* Only whole pages inside the buffer: madvise works on pages, malloc hands out bytes. */
	if (size >= PREFAULT_MIN && end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)buf, (void)size;
#endif
}
