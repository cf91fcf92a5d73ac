/* The entry state: what the hardware puts in SGPRs and VGPRs before a kernel's first
 * instruction, per family, from its descriptor (docs/raiser.md, "Entry state"). */
#include "raise_internal.h"

/*
 * The user SGPRs, in descriptor order (the same bits on gfx12.5 and gfx9.4): kernarg,
 * dispatch and queue pointers, a dispatch id of 0, preloaded kernargs reloaded from the
 * segment; returns the next SGPR, or -1 refused.
 */
static int seed_user_sgprs(struct rz *r, unsigned user_count)
{
	enum {
		REFUSE = -1,
		DISPATCH_ID = -2
	};
	unsigned s = 0;
	static const struct {
		const char *field; /* kernel_code_properties (codeobj/kd.h) */
		unsigned width;
		int hook; /* the pointer it holds, DISPATCH_ID or REFUSE */
		const char *what;
	} user[] = {{"enable_sgpr_private_segment_buffer", 4, REFUSE, "private segment buffer"},
	            {"enable_sgpr_dispatch_ptr", 2, HOOK_DISPATCH, "dispatch ptr"},
	            {"enable_sgpr_queue_ptr", 2, HOOK_QUEUE, "queue ptr"},
	            {"enable_sgpr_kernarg_segment_ptr", 2, HOOK_KERNARG, "kernarg segment ptr"},
	            {"enable_sgpr_dispatch_id", 2, DISPATCH_ID, "dispatch id"},
	            {"enable_sgpr_flat_scratch_init", 2, REFUSE, "flat scratch init"},
	            {"enable_sgpr_private_segment_size", 1, REFUSE, "private segment size"}};

	for (unsigned i = 0; i < sizeof(user) / sizeof(user[0]); i++) {
		if (!co_kd(r->k, user[i].field))
			continue;
		if (user[i].hook == DISPATCH_ID) { /* one dispatch, number 0 */
			LLVMBuildStore(r->B, rz_const32(r, 0), rz_sgpr_slot(r, s));
			LLVMBuildStore(r->B, rz_const32(r, 0), rz_sgpr_slot(r, s + 1));
			s += 2;
			continue;
		}
		if (user[i].hook == REFUSE)
			return rz_refuse(r, RAISE_ENTRY_SGPR, "the descriptor enables the %s",
			                 user[i].what);
		{
			LLVMValueRef p = rz_call(r, (enum raise_hook)user[i].hook, NULL, 0);
			LLVMBuildStore(r->B, LLVMBuildTrunc(r->B, p, r->i32, ""),
			               rz_sgpr_slot(r, s));
			LLVMBuildStore(r->B,
			               LLVMBuildTrunc(r->B,
			                              LLVMBuildLShr(r->B, p, rz_const64(r, 32), ""),
			                              r->i32, ""),
			               rz_sgpr_slot(r, s + 1));
		}
		s += user[i].width;
	}
	/* Preloaded kernarg SGPRs are reloaded from the kernarg segment at their offsets. */
	{
		unsigned len = co_kd(r->k, "kernarg_preload_spec_length"),
		         from = co_kd(r->k, "kernarg_preload_spec_offset");
		for (unsigned i = 0; i < len; i++) {
			LLVMValueRef base = rz_call(r, HOOK_KERNARG, NULL, 0);
			LLVMValueRef a[3] = {
			    LLVMBuildAdd(r->B, base, rz_const64(r, 4u * (from + i)), ""),
			    rz_const32(r, 4), rz_const32(r, 0)};
			LLVMValueRef p = rz_call(r, HOOK_SMEM, a, 3);
			LLVMBuildStore(r->B, LLVMBuildLoad2(r->B, r->i32, p, ""),
			               rz_sgpr_slot(r, s + i));
		}
		s += len;
	}
	if (s != user_count)
		return rz_refuse(r, RAISE_USER_SGPR_LAYOUT,
		                 "RSRC2 USER_SGPR_COUNT is %u, the enabled user SGPRs need %u",
		                 user_count, s);
	return (int)s;
}

/*
 * gfx12.5: the user SGPRs (RSRC2 USER_SGPR_COUNT is bits [6:1]); the workgroup ids in
 * ttmp9 (x) and ttmp7 (y | z << 16); v0 the packed workitem id.
 */
static int seed_gfx1250(struct rz *r)
{
	LLVMValueRef args[1], y, z;

	if (!co_kd(r->k, "enable_wavefront_size32") ||
	    (r->k->wavefront_size && r->k->wavefront_size != 32))
		return rz_refuse(r, RAISE_WAVE64, "the descriptor does not enable wave32");
	if (seed_user_sgprs(r, co_kd(r->k, "user_sgpr_count")) < 0)
		return -1;
	args[0] = rz_const32(r, 0);
	LLVMBuildStore(r->B, rz_call(r, HOOK_WG_ID, args, 1), rz_ttmp_slot(r, 9));
	args[0] = rz_const32(r, 1);
	y = rz_call(r, HOOK_WG_ID, args, 1);
	args[0] = rz_const32(r, 2);
	z = rz_call(r, HOOK_WG_ID, args, 1);
	LLVMBuildStore(r->B,
	               LLVMBuildOr(r->B, LLVMBuildAnd(r->B, y, rz_const32(r, 0xffff), ""),
	                           LLVMBuildShl(r->B, z, rz_const32(r, 16), ""), ""),
	               rz_ttmp_slot(r, 7));
	return 0;
}

/*
 * gfx9.4 (gfx942/gfx950, wave64, architected flat scratch): the user SGPRs (USER_SGPR_COUNT
 * is bits [5:1]), then one SGPR per workgroup id RSRC2 TGID_{X,Y,Z}_EN (bits 7..9) enables,
 * then the private segment wave offset when ENABLE_PRIVATE_SEGMENT (bit 0) is set: 0, since
 * scratch instructions address the lane's own window (flat scratch is the hardware's).
 * Workitem ids are packed into v0 (x | y << 10 | z << 20) on gfx90a and later.
 */
static int seed_gfx942(struct rz *r)
{
	static const char *const wg_id[3] = {"enable_sgpr_workgroup_id_x",
	                                     "enable_sgpr_workgroup_id_y",
	                                     "enable_sgpr_workgroup_id_z"};
	int s;

	if (co_kd(r->k, "enable_wavefront_size32") ||
	    (r->k->wavefront_size && r->k->wavefront_size != 64))
		return rz_refuse(r, RAISE_WAVE64, "a gfx9.4 descriptor that is not wave64");
	if (co_kd(r->k, "enable_sgpr_workgroup_info"))
		return rz_refuse(r, RAISE_ENTRY_SGPR,
		                 "RSRC2 enables the workgroup info SGPR (TG_SIZE_EN)");
	s = seed_user_sgprs(r, co_kd(r->k, "user_sgpr_count"));
	if (s < 0)
		return -1;
	for (unsigned d = 0; d < 3; d++)
		if (co_kd(r->k, wg_id[d])) {
			LLVMValueRef arg = rz_const32(r, d);
			LLVMBuildStore(r->B, rz_call(r, HOOK_WG_ID, &arg, 1), rz_sgpr_slot(r, s++));
		}
	if (co_kd(r->k, "enable_private_segment"))
		LLVMBuildStore(r->B, rz_const32(r, 0), rz_sgpr_slot(r, s++));
	return 0;
}

int rz_seed_entry(struct rz *r)
{
	if (r->k->has_cluster_dims)
		return rz_refuse(r, RAISE_CLUSTER, ".cluster_dims is set");
	if (r->arch == ISA_ARCH_GFX1250 ? seed_gfx1250(r) : seed_gfx942(r))
		return -1;
	rz_write_vgpr_raw(r, 0, rz_call(r, HOOK_PACKED_TID, NULL, 0));
	rz_store_exec(r, rz_call(r, r->wave == 64 ? HOOK_ENTRY_EXEC64 : HOOK_ENTRY_EXEC, NULL, 0));
	return 0;
}
