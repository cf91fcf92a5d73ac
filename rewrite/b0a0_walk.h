/*
 * The B0->A0 pass's walk over .text (pass_b0a0.c) and the placement of its sites
 * (b0a0_place.c): the sites waiting for a place, the walk's state, and what the two share.
 * Inside libhotswap_rewrite only.
 */
#ifndef HOTSWAP_B0A0_WALK_H
#define HOTSWAP_B0A0_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "b0a0_encode.h"
#include "b0a0_scan.h"
#include "pass.h"

/*
 * A site waiting for its place: a growing one needs the sleds, known only after the whole
 * sweep; an in-place one waits too, so every edit reaches the plan in .text order.
 */
struct pending {
	uint64_t off;  /* .text offset */
	bool in_place; /* body: the site's new 4 bytes */
	size_t size, kernel, region;
	const char *mnem;
	enum hs_count applied, declined;
	uint64_t vgpr_need; /* .vgpr_count the body needs (0: none) */
	int64_t granules;   /* RSRC1 VGPR granule field it needs (-1: as it is) */
	size_t len;         /* body bytes */
	uint8_t body[HS_ADDTID_SIZE > HS_DS2_SPLIT_SIZE ? HS_ADDTID_SIZE : HS_DS2_SPLIT_SIZE];
};

/* One call's walk over .text. */
struct walk {
	const struct hs_pass_ctx *c;
	struct hs_plan *p;
	struct hs_b0a0_scan s;
	struct pending *pend;
	size_t n_pend, cap_pend;
	uint64_t *sled_pos; /* per sled: the next free .text offset in it */
	bool *far_charged;  /* per kernel: charged a far jump's pair already */
};

/* The kernel's name for messages ("(no kernel)" for SIZE_MAX). */
const char *b0a0_kname(const struct walk *w, size_t k);
/* A required site that cannot be placed: counted and declined, or HS_ERROR under STRICT. */
enum hs_status b0a0_decline(struct walk *w, enum hs_count kind, uint64_t off, size_t k,
                            const char *mnem, const char *why);
/* Places every queued site, in .text order (deterministic). */
enum hs_status b0a0_place_all(struct walk *w);

#endif
