/*
 * LD_PRELOAD into a workload: flock(2) fails with ENOLCK, as it does on an NFS mount without a
 * lock manager (integration/intercept_cache_lock: such a cache must cost duplicate work, never
 * a load).
 */
#include <errno.h>

int flock(int fd, int operation);

__attribute__((visibility("default"))) int flock(int fd, int operation)
{
	(void)fd, (void)operation;
	errno = ENOLCK;
	return -1;
}
