/* The rewriter's calls into codeobj's reader (elf_view.h, kernels.h): failures as hs_status. */
#include "hs_internal.h"

#include <errno.h>

#include "elf_isa.h"

/* Room for the longest message hs_fail keeps, so nothing is cut where it was not before. */
#define WHY_SIZE 512

/* A failure of codeobj's (-EINVAL: a bad object, -ENOMEM, else libelf) with its reason. */
static enum hs_status failed(int rc, const char *why)
{
	return hs_fail(rc == -EINVAL   ? HS_INVALID_ARGUMENT
	               : rc == -ENOMEM ? HS_OUT_OF_RESOURCES
	                               : HS_ERROR,
	               "%s", why);
}

enum hs_status hs_elf_check_header(const uint8_t *b, size_t size)
{
	char why[WHY_SIZE];

	if (cob_elf_header_check(b, size, why, sizeof(why)) < 0)
		return hs_fail(HS_INVALID_ARGUMENT, "%s", why);
	return HS_OK;
}

enum hs_status hs_elf_open(struct cob_elf *e, const void *in, size_t size)
{
	char why[WHY_SIZE];
	int rc = cob_elf_open(e, in, size, why, sizeof(why));

	return rc ? failed(rc, why) : HS_OK;
}

enum hs_status hs_kernels_find(const struct cob_elf *e, struct cob_kernels *ks)
{
	char why[WHY_SIZE];
	int rc = cob_kernels_find(e, ks, why, sizeof(why));

	return rc ? failed(rc, why) : HS_OK;
}
