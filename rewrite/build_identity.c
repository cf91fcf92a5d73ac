/*
 * hs_build_identity: which bytes of the rewriter, its MC library and the translator beside it
 * are doing the work (common/build_identity.h, shared with the intercept core and `mirage
 * cache warm`, which compute the same string without loading this library).
 *
 * hs_version() only changes on a release, so a cache keyed on it would serve entries a
 * rebuilt rewriter no longer produces; each library's GNU build-id changes with its code.
 */
#include "hs_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "build_identity.h"
#include "object_path.h"

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static char identity[BUILD_IDENTITY_MAX];

static void compute_identity(void)
{
	const char *self = object_path((const void *)compute_identity);
	char dir[PATH_MAX];
	const char *slash = self ? strrchr(self, '/') : NULL;

	if (!slash || (size_t)(slash - self) >= sizeof(dir)) {
		build_identity_format(hs_version(), NULL, identity, sizeof(identity));
		return;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - self), self);
	build_identity_format(hs_version(), dir, identity, sizeof(identity));
}

HS_API const char *hs_build_identity(void)
{
	pthread_once(&identity_once, compute_identity);
	return identity;
}
