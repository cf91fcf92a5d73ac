/* DPP: a source read from another lane of the row before the operation (raise_valu.h). */
#include "raise_valu.h"

#define B (r->B)

/*
 * DPP: src0 comes from another lane of the row (DPP16) or of the group of 8 (DPP8), through
 * the cross-lane readlane hook with a per-lane index; lanes whose source is outside the row or
 * inactive read 0 with bound_ctrl, else keep their result; row_mask/bank_mask disable writes.
 */
int vx_dpp(struct rz *r, const struct isa_inst *in, const struct vops *o)
{
	LLVMValueRef lane = r->lane, row = LLVMBuildAnd(B, lane, c32(r, ~15u), ""), src, valid;
	LLVMValueRef in_row = LLVMBuildAnd(B, lane, c32(r, 15), ""), writeok, args[3], exec;
	unsigned ctl = in->mods.dpp_ctrl;

	if (!o->ns)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "DPP without a source");
	valid = LLVMConstInt(r->i1, 1, 0);
	if (in->dpp == 8) {
		LLVMValueRef sh =
		    LLVMBuildMul(B, LLVMBuildAnd(B, lane, c32(r, 7), ""), c32(r, 3), "");
		LLVMValueRef sel = LLVMBuildAnd(
		    B, LLVMBuildLShr(B, c32(r, in->mods.dpp8_sel), sh, ""), c32(r, 7), "");
		src = LLVMBuildOr(B, LLVMBuildAnd(B, lane, c32(r, ~7u), ""), sel, "");
	} else if (ctl <= 0xff) {
		LLVMValueRef sh =
		    LLVMBuildMul(B, LLVMBuildAnd(B, lane, c32(r, 3), ""), c32(r, 2), "");
		LLVMValueRef sel =
		    LLVMBuildAnd(B, LLVMBuildLShr(B, c32(r, ctl), sh, ""), c32(r, 3), "");
		src = LLVMBuildOr(B, LLVMBuildAnd(B, lane, c32(r, ~3u), ""), sel, "");
	} else if (ctl >= 0x101 && ctl <= 0x10f) { /* row_shl */
		LLVMValueRef t = LLVMBuildAdd(B, in_row, c32(r, ctl & 15), "");
		valid = LLVMBuildICmp(B, LLVMIntULE, t, c32(r, 15), "");
		src = LLVMBuildOr(B, row, LLVMBuildAnd(B, t, c32(r, 15), ""), "");
	} else if (ctl >= 0x111 && ctl <= 0x11f) { /* row_shr */
		valid = LLVMBuildICmp(B, LLVMIntUGE, in_row, c32(r, ctl & 15), "");
		src = LLVMBuildOr(
		    B, row,
		    LLVMBuildAnd(B, LLVMBuildSub(B, in_row, c32(r, ctl & 15), ""), c32(r, 15), ""),
		    "");
	} else if (ctl >= 0x121 && ctl <= 0x12f) { /* row_ror */
		src = LLVMBuildOr(
		    B, row,
		    LLVMBuildAnd(B, LLVMBuildSub(B, in_row, c32(r, ctl & 15), ""), c32(r, 15), ""),
		    "");
	} else if (ctl == 0x140) { /* row_mirror */
		src = LLVMBuildOr(B, row, LLVMBuildSub(B, c32(r, 15), in_row, ""), "");
	} else if (ctl == 0x141) { /* row_half_mirror */
		src = LLVMBuildOr(
		    B, LLVMBuildAnd(B, lane, c32(r, ~7u), ""),
		    LLVMBuildSub(B, c32(r, 7), LLVMBuildAnd(B, lane, c32(r, 7), ""), ""), "");
	} else if (r->arch != ISA_ARCH_GFX1250 && (ctl == 0x130 || ctl == 0x138)) {
		/* GFX9 wave_shl:1 / wave_shr:1: the next / previous lane of the wave */
		LLVMValueRef t = ctl == 0x130 ? LLVMBuildAdd(B, lane, c32(r, 1), "")
		                              : LLVMBuildSub(B, lane, c32(r, 1), "");
		valid = LLVMBuildICmp(B, LLVMIntULT, t, c32(r, r->wave), "");
		src = LLVMBuildAnd(B, t, c32(r, r->wave - 1), "");
	} else if (r->arch != ISA_ARCH_GFX1250 && (ctl == 0x134 || ctl == 0x13c)) {
		/* GFX9 wave_rol:1 / wave_ror:1 */
		LLVMValueRef t = ctl == 0x134 ? LLVMBuildAdd(B, lane, c32(r, 1), "")
		                              : LLVMBuildSub(B, lane, c32(r, 1), "");
		src = LLVMBuildAnd(B, t, c32(r, r->wave - 1), "");
	} else if (r->arch != ISA_ARCH_GFX1250 && (ctl == 0x142 || ctl == 0x143)) {
		/* GFX9 row_bcast:15 (lane 15 of each row into the next row) / row_bcast:31 (lane 31
		 * into rows 2 and 3) */
		if (ctl == 0x142) {
			valid = LLVMBuildICmp(B, LLVMIntUGE, lane, c32(r, 16), "");
			src = LLVMBuildSub(B, row, c32(r, 1), "");
		} else {
			valid = LLVMBuildICmp(B, LLVMIntUGE, lane, c32(r, 32), "");
			src = c32(r, 31);
		}
		src = LLVMBuildAnd(B, src, c32(r, r->wave - 1), "");
	} else if (r->arch != ISA_ARCH_GFX1250 && ctl >= 0x150) {
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "DPP control 0x%x", ctl);
	} else if (ctl >= 0x150 && ctl <= 0x15f) { /* row_share */
		src = LLVMBuildOr(B, row, c32(r, ctl & 15), "");
	} else if (ctl >= 0x160 && ctl <= 0x16f) { /* row_xmask */
		src = LLVMBuildOr(B, row, LLVMBuildXor(B, in_row, c32(r, ctl & 15), ""), "");
	} else {
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "DPP control 0x%x", ctl);
	}
	exec = rz_load_exec(r);
	if (!in->mods.fi)
		valid = LLVMBuildAnd(
		    B, valid,
		    LLVMBuildTrunc(
		        B, LLVMBuildLShr(B, exec, r->wave == 64 ? vx_zx(r, src, r->i64) : src, ""),
		        r->i1, ""),
		    "");
	{
		struct isa_operand plain = *o->s[0];
		plain.flags &= (uint8_t) ~(ISA_OPF_NEG | ISA_OPF_ABS);
		args[0] = rz_src(r, &plain, 32, 0);
	}
	args[1] = src;
	args[2] = c32(r, rz_pc(r) * 4 + 2);
	r->dpp_val = LLVMBuildSelect(B, valid, rz_call(r, HOOK_READLANE, args, 3), c32(r, 0), "");
	r->dpp_op = o->s[0];
	/* row_mask / bank_mask, and lanes without a valid source unless bound_ctrl */
	writeok = LLVMConstInt(r->i1, 1, 0);
	if (in->dpp == 16) {
		LLVMValueRef rowbit =
		    LLVMBuildTrunc(B,
		                   LLVMBuildLShr(B, c32(r, in->mods.row_mask),
		                                 LLVMBuildLShr(B, lane, c32(r, 4), ""), ""),
		                   r->i1, "");
		LLVMValueRef bankbit = LLVMBuildTrunc(
		    B,
		    LLVMBuildLShr(
		        B, c32(r, in->mods.bank_mask),
		        LLVMBuildAnd(B, LLVMBuildLShr(B, lane, c32(r, 2), ""), c32(r, 3), ""), ""),
		    r->i1, "");
		writeok = LLVMBuildAnd(B, rowbit, bankbit, "");
		if (!in->mods.bound_ctrl)
			writeok = LLVMBuildAnd(B, writeok, valid, "");
	}
	r->active = LLVMBuildAnd(B, rz_active(r), writeok, "");
	rz_mod_used(r, RZ_MOD_DPP); /* its control, row/bank masks, bound_ctrl and fi, above */
	return 0;
}
