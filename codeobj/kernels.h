/*
 * The kernels of a code object by descriptor address (libmirage_codeobj): one per <name>.kd
 * symbol of .symtab and .dynsym (a .symtab/.dynsym pair is one kernel; one name at two
 * addresses is ambiguous and refused), sorted by descriptor address so nothing that reads them
 * depends on symbol order.  Each descriptor lies whole inside an allocated section of the file
 * and is decoded by kd.h; its entry lies in an executable section.  Joined to the merged
 * metadata (meta_merge.h) by .symbol, as the HSA runtime joins them.
 */
#ifndef MIRAGE_CODEOBJ_KERNELS_H
#define MIRAGE_CODEOBJ_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "elf_view.h"
#include "kd.h"
#include "meta_merge.h"

struct cob_kernel {
	char *name; /* symbol name without ".kd", owned */
	uint64_t kd_vaddr;
	uint64_t kd_off;     /* file offset of the descriptor */
	uint8_t kd[KD_SIZE]; /* its bytes */
	struct kd desc;      /* ... decoded: every field read by name */
	uint64_t entry;      /* entry vaddr (the descriptor's address plus its entry offset) */
	size_t entry_sec;    /* the executable section holding it (checked) */
	uint64_t entry_off;  /* its file offset */
	int meta;            /* its merged metadata kernel (cob_kernels_join), -1 if none */
};

struct cob_kernels {
	struct cob_kernel *k;
	size_t n;
};

/* Finds every kernel of e: 0, or with the reason in err (ks then empty) -EINVAL for a bad
 * descriptor symbol, -ENOMEM. */
int cob_kernels_find(const struct cob_elf *e, struct cob_kernels *ks, char *err, size_t err_size);
void cob_kernels_free(struct cob_kernels *ks);
/*
 * Sets each kernel's meta to the first kernel of m (NULL: none) whose .symbol is <name>.kd, -1
 * when there is none; a metadata kernel without a .symbol string joins nothing.  0 or -ENOMEM.
 */
int cob_kernels_join(struct cob_kernels *ks, const struct cob_meta *m);

#endif
