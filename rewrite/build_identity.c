/*
 * The build identity: which bytes of the rewriter, its MC library and the translator beside it
 * are doing the work.
 *
 * hs_version() only changes on a release, so a cache keyed on it would serve entries a
 * rebuilt rewriter no longer produces.  Each library's GNU build-id changes with its code,
 * and reading it from the file keeps LLVM unloaded (a cache hit must never pay for it).  The
 * translator's build-id is in it too, so a new translator never serves an old translation; it
 * is read from the file for the same reason (its build_id() would need it loaded).
 */
#include "hs_internal.h"

#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hotswap_contract.h"
#include "hs_mc.h"
#include "object_path.h"

#define BUILD_ID_MAX 64 /* bytes; sha1 is 20, md5 16, uuid 16 */

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static char identity[64 + 3 * 2 * BUILD_ID_MAX];

/* Appends the hex of the NT_GNU_BUILD_ID note in elf's note sections; false when none. */
static bool add_build_id(Elf *elf, char *out, size_t out_size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t pos = 0, name_off, desc_off, next;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		while ((next = gelf_getnote(data, pos, &nh, &name_off, &desc_off)) > 0) {
			const uint8_t *desc = (const uint8_t *)data->d_buf + desc_off;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) &&
			    nh.n_descsz && nh.n_descsz <= BUILD_ID_MAX) {
				size_t len = strlen(out);
				for (size_t i = 0; i < nh.n_descsz && len + 2 < out_size;
				     i++, len += 2)
					snprintf(out + len, out_size - len, "%02x", desc[i]);
				return true;
			}
			pos = next;
		}
	}
	return false;
}

/* " name=<build-id>", or " name=none" when the file cannot be read or carries no build-id. */
static void add_library(const char *name, const char *path)
{
	size_t len = strlen(identity);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;

	snprintf(identity + len, sizeof(identity) - len, " %s=", name);
	if (!elf || !add_build_id(elf, identity, sizeof(identity))) {
		len = strlen(identity);
		snprintf(identity + len, sizeof(identity) - len, "none");
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static void compute_identity(void)
{
	const void *anchor = (const void *)compute_identity;
	const char *self = object_path(anchor);
	char mc[4096], translate[4096];

	snprintf(identity, sizeof(identity), "%s", hs_version());
	if (hs_libelf_init() != HS_OK || !self ||
	    object_sibling_path(anchor, HS_MC_LIBRARY_NAME, mc, sizeof(mc)) < 0 ||
	    object_sibling_path(anchor, HOTSWAP_TRANSLATE_LIB, translate, sizeof(translate)) < 0)
		return; /* the version alone: still correct across releases */
	add_library("rewrite", self);
	add_library("mc", mc);
	add_library("translate", translate);
}

HS_API const char *hs_build_identity(void)
{
	pthread_once(&identity_once, compute_identity);
	return identity;
}
