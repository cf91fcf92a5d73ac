// The VGPR banks (v256 and up) as LLVM 22's gfx1250 code sets them: s_set_vgpr_msb, and an
// s_setreg_imm32_b32 of MODE, which writes the banks from imm32[19:12] in MODE's order (dst,
// src0, src1, src2 from bit 12 up) whatever field it names; LLVM folds the banks into the
// kernel prologue's MODE write so.  A write of another hwreg leaves them.  One wave of 32;
// lane t stores three dwords at 12t: v2 (v257 + v1 = 5 + 7), v3 (11), v5 (v259 = 9).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel k_banks vgprs=264 sgprs=8 args=1 workgroup=32
	s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 25, 1), 0x1001 // MODE[13:12] = 1: dst bank 1
	v_mov_b32 v1, 5                     // v257
	s_set_vgpr_msb 0x4000
	v_mov_b32 v1, 7                     // v1
	s_set_vgpr_msb 0x0001
	v_mov_b32 v2, v1                    // v2 = v257
	s_set_vgpr_msb 0x0100
	v_add_nc_u32 v2, v2, v1             // v2 = 5 + 7
	s_set_vgpr_msb 0x0040
	s_setreg_imm32_b32 hwreg(HW_REG_WAVE_SCHED_MODE, 0, 2), 0x1002 // not MODE: banks kept
	v_mov_b32 v3, 9                     // v259
	s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 0, 4), 0 // MODE[19:12] = 0: every bank 0
	v_mov_b32 v3, 11                    // v3
	s_set_vgpr_msb 0x0001
	v_mov_b32 v5, v3                    // v5 = v259
	s_set_vgpr_msb 0x0100
	s_load_b64 s[2:3], s[0:1], 0x0
	v_mul_u32_u24 v4, 12, v0
	s_wait_kmcnt 0
	global_store_b32 v4, v2, s[2:3]
	global_store_b32 v4, v3, s[2:3] offset:4
	global_store_b32 v4, v5, s[2:3] offset:8
	s_endpgm
