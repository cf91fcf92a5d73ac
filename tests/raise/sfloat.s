// gfx12's scalar float ops (SOP1, SOP2, SOPC), one wave of 32, with the arguments in, out and
// a pointer to COUNT (a dword).  sfloat loops over COUNT records of
// 8 dwords in `in`: a, b, c (f32), A, B, C (an f16 each in the low half, anything in the high
// half, which the ops must not read), i (an integer), one unused; each record's inputs are
// loaded into SGPRs with s_load, every op writes an SGPR, and the 40 SGPRs go to the record's
// 40 dwords of `out` through v_mov_b32 and global_store (every lane stores the same).  Dword k
// of a record's output is:
//    0 add_f32(a, b)     1 sub_f32(a, b)     2 mul_f32(a, b)     3 min_num_f32(a, b)
//    4 max_num_f32(a, b) 5 cvt_f16_f32(b)    6 cvt_f32_f16(B)    7 fmac_f32: fma(a, b, c)
//    8 fmaak_f32: fma(a, b, 1.5)             9 fmamk_f32: fma(a, -2.5, c)
//   10 ceil_f32(a)      11 floor_f32(a)     12 trunc_f32(a)     13 rndne_f32(a)
//   14 cvt_f16_f32(a)   15 cvt_pk_rtz_f16_f32(a, b)             16 cvt_f32_f16(A)
//   17 cvt_hi_f32_f16 of B's f16 in the high half (C's in the low half)
//   18 add_f16(A, B)    19 sub_f16(A, B)    20 mul_f16(A, B)    21 max_num_f16(A, B)
//   22 min_num_f16(A, B) 23 fmac_f16: fma(A, B, C), C's high half in the destination
//   24 ceil_f16(A)      25 floor_f16(A)     26 trunc_f16(A)     27 rndne_f16(A)
//   28 cvt_i32_f32(a)   29 cvt_u32_f32(a)   30 cvt_f32_i32(i)   31 cvt_f32_u32(i)
//   32 bit k set iff s_cmp_<cond k>_f32(a, b), conds lt eq le gt lg ge o u nge nlg ngt nle neq nlt
//   33 the same for s_cmp_<cond k>_f16(A, B)
//   34 1 | 2: SCC kept by s_add_f32 when 1 (bit 0) and by s_mul_f16 when 0 (bit 1 clear: 2 set)
//   35 add_f16(0.5, A)  36 mul_f32(-4.0, b)  37 max_num_f16(A, 1.5 as a literal)
//   38 sub_f16(B, 2.0)  39 bit 0: s_cmp_lt_f32(a, 0.5), bit 1: s_cmp_gt_f16(A, 1.0)
// sfloat_ieee (the same arguments) stores 8 dwords a record: minimum_f32(a, b), maximum_f32(a, b),
// minimum_f32(b, a), maximum_f32(b, a), then the same of A and B at f16: IEEE 754-2019 minimum
// and maximum (a NaN wins).
// tests/integration/emulate_sfloat.sh computes what each should be.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel sfloat vgprs=44 sgprs=64 args=3 workgroup=32
	.amdhsa_float_denorm_mode_32 3 // denormals kept, as the inputs need
	.amdhsa_float_denorm_mode_16_64 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	s_load_b64 s[8:9], s[0:1], 0x10      // where COUNT is
	v_mov_b32 v40, 0
	s_wait_kmcnt 0
	s_load_b32 s3, s[8:9], 0x0
	s_wait_kmcnt 0
.Lrecord:
	s_load_b256 s[8:15], s[4:5], 0x0     // a b c A B C i -
	s_wait_kmcnt 0
	s_add_f32 s16, s8, s9
	s_sub_f32 s17, s8, s9
	s_mul_f32 s18, s8, s9
	s_min_num_f32 s19, s8, s9
	s_max_num_f32 s20, s8, s9
	s_cvt_f16_f32 s21, s9
	s_cvt_f32_f16 s22, s12
	s_mov_b32 s23, s10
	s_fmac_f32 s23, s8, s9
	s_fmaak_f32 s24, s8, s9, 0x3fc00000
	s_fmamk_f32 s25, s8, 0xc0200000, s10
	s_ceil_f32 s26, s8
	s_floor_f32 s27, s8
	s_trunc_f32 s28, s8
	s_rndne_f32 s29, s8
	s_cvt_f16_f32 s30, s8
	s_cvt_pk_rtz_f16_f32 s31, s8, s9
	s_cvt_f32_f16 s32, s11
	s_pack_ll_b32_b16 s33, s13, s12
	s_cvt_hi_f32_f16 s33, s33
	s_add_f16 s34, s11, s12
	s_sub_f16 s35, s11, s12
	s_mul_f16 s36, s11, s12
	s_max_num_f16 s37, s11, s12
	s_min_num_f16 s38, s11, s12
	s_mov_b32 s39, s13
	s_fmac_f16 s39, s11, s12
	s_ceil_f16 s40, s11
	s_floor_f16 s41, s11
	s_trunc_f16 s42, s11
	s_rndne_f16 s43, s11
	s_cvt_i32_f32 s44, s8
	s_cvt_u32_f32 s45, s8
	s_cvt_f32_i32 s46, s14
	s_cvt_f32_u32 s47, s14
	s_mov_b32 s48, 0
	s_cmp_lt_f32 s8, s9
	s_cselect_b32 s56, 1, 0
	s_or_b32 s48, s48, s56
	s_cmp_eq_f32 s8, s9
	s_cselect_b32 s56, 2, 0
	s_or_b32 s48, s48, s56
	s_cmp_le_f32 s8, s9
	s_cselect_b32 s56, 4, 0
	s_or_b32 s48, s48, s56
	s_cmp_gt_f32 s8, s9
	s_cselect_b32 s56, 8, 0
	s_or_b32 s48, s48, s56
	s_cmp_lg_f32 s8, s9
	s_cselect_b32 s56, 16, 0
	s_or_b32 s48, s48, s56
	s_cmp_ge_f32 s8, s9
	s_cselect_b32 s56, 32, 0
	s_or_b32 s48, s48, s56
	s_cmp_o_f32 s8, s9
	s_cselect_b32 s56, 64, 0
	s_or_b32 s48, s48, s56
	s_cmp_u_f32 s8, s9
	s_cselect_b32 s56, 128, 0
	s_or_b32 s48, s48, s56
	s_cmp_nge_f32 s8, s9
	s_cselect_b32 s56, 256, 0
	s_or_b32 s48, s48, s56
	s_cmp_nlg_f32 s8, s9
	s_cselect_b32 s56, 512, 0
	s_or_b32 s48, s48, s56
	s_cmp_ngt_f32 s8, s9
	s_cselect_b32 s56, 1024, 0
	s_or_b32 s48, s48, s56
	s_cmp_nle_f32 s8, s9
	s_cselect_b32 s56, 2048, 0
	s_or_b32 s48, s48, s56
	s_cmp_neq_f32 s8, s9
	s_cselect_b32 s56, 4096, 0
	s_or_b32 s48, s48, s56
	s_cmp_nlt_f32 s8, s9
	s_cselect_b32 s56, 8192, 0
	s_or_b32 s48, s48, s56
	s_mov_b32 s49, 0
	s_cmp_lt_f16 s11, s12
	s_cselect_b32 s56, 1, 0
	s_or_b32 s49, s49, s56
	s_cmp_eq_f16 s11, s12
	s_cselect_b32 s56, 2, 0
	s_or_b32 s49, s49, s56
	s_cmp_le_f16 s11, s12
	s_cselect_b32 s56, 4, 0
	s_or_b32 s49, s49, s56
	s_cmp_gt_f16 s11, s12
	s_cselect_b32 s56, 8, 0
	s_or_b32 s49, s49, s56
	s_cmp_lg_f16 s11, s12
	s_cselect_b32 s56, 16, 0
	s_or_b32 s49, s49, s56
	s_cmp_ge_f16 s11, s12
	s_cselect_b32 s56, 32, 0
	s_or_b32 s49, s49, s56
	s_cmp_o_f16 s11, s12
	s_cselect_b32 s56, 64, 0
	s_or_b32 s49, s49, s56
	s_cmp_u_f16 s11, s12
	s_cselect_b32 s56, 128, 0
	s_or_b32 s49, s49, s56
	s_cmp_nge_f16 s11, s12
	s_cselect_b32 s56, 256, 0
	s_or_b32 s49, s49, s56
	s_cmp_nlg_f16 s11, s12
	s_cselect_b32 s56, 512, 0
	s_or_b32 s49, s49, s56
	s_cmp_ngt_f16 s11, s12
	s_cselect_b32 s56, 1024, 0
	s_or_b32 s49, s49, s56
	s_cmp_nle_f16 s11, s12
	s_cselect_b32 s56, 2048, 0
	s_or_b32 s49, s49, s56
	s_cmp_neq_f16 s11, s12
	s_cselect_b32 s56, 4096, 0
	s_or_b32 s49, s49, s56
	s_cmp_nlt_f16 s11, s12
	s_cselect_b32 s56, 8192, 0
	s_or_b32 s49, s49, s56
	s_cmp_eq_u32 0, 0                    // SCC = 1
	s_add_f32 s56, s8, s9
	s_cselect_b32 s50, 1, 0
	s_cmp_lg_u32 0, 0                    // SCC = 0
	s_mul_f16 s56, s11, s12
	s_cselect_b32 s56, 0, 2
	s_or_b32 s50, s50, s56
	s_add_f16 s51, 0.5, s11
	s_mul_f32 s52, -4.0, s9
	s_max_num_f16 s53, s11, 0x3e00
	s_sub_f16 s54, s12, 2.0
	s_cmp_lt_f32 s8, 0.5
	s_cselect_b32 s55, 1, 0
	s_cmp_gt_f16 s11, 1.0
	s_cselect_b32 s56, 2, 0
	s_or_b32 s55, s55, s56
	v_mov_b32 v0, s16
	v_mov_b32 v1, s17
	v_mov_b32 v2, s18
	v_mov_b32 v3, s19
	v_mov_b32 v4, s20
	v_mov_b32 v5, s21
	v_mov_b32 v6, s22
	v_mov_b32 v7, s23
	v_mov_b32 v8, s24
	v_mov_b32 v9, s25
	v_mov_b32 v10, s26
	v_mov_b32 v11, s27
	v_mov_b32 v12, s28
	v_mov_b32 v13, s29
	v_mov_b32 v14, s30
	v_mov_b32 v15, s31
	v_mov_b32 v16, s32
	v_mov_b32 v17, s33
	v_mov_b32 v18, s34
	v_mov_b32 v19, s35
	v_mov_b32 v20, s36
	v_mov_b32 v21, s37
	v_mov_b32 v22, s38
	v_mov_b32 v23, s39
	v_mov_b32 v24, s40
	v_mov_b32 v25, s41
	v_mov_b32 v26, s42
	v_mov_b32 v27, s43
	v_mov_b32 v28, s44
	v_mov_b32 v29, s45
	v_mov_b32 v30, s46
	v_mov_b32 v31, s47
	v_mov_b32 v32, s48
	v_mov_b32 v33, s49
	v_mov_b32 v34, s50
	v_mov_b32 v35, s51
	v_mov_b32 v36, s52
	v_mov_b32 v37, s53
	v_mov_b32 v38, s54
	v_mov_b32 v39, s55
	global_store_b128 v40, v[0:3], s[6:7]
	global_store_b128 v40, v[4:7], s[6:7] offset:16
	global_store_b128 v40, v[8:11], s[6:7] offset:32
	global_store_b128 v40, v[12:15], s[6:7] offset:48
	global_store_b128 v40, v[16:19], s[6:7] offset:64
	global_store_b128 v40, v[20:23], s[6:7] offset:80
	global_store_b128 v40, v[24:27], s[6:7] offset:96
	global_store_b128 v40, v[28:31], s[6:7] offset:112
	global_store_b128 v40, v[32:35], s[6:7] offset:128
	global_store_b128 v40, v[36:39], s[6:7] offset:144
	s_add_co_u32 s4, s4, 32
	s_add_co_ci_u32 s5, s5, 0
	s_add_co_u32 s6, s6, 160
	s_add_co_ci_u32 s7, s7, 0
	s_sub_co_u32 s3, s3, 1
	s_cmp_lg_u32 s3, 0
	s_cbranch_scc1 .Lrecord
	s_endpgm
kernel sfloat_ieee vgprs=12 sgprs=32 args=3 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	.amdhsa_float_denorm_mode_16_64 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	s_load_b64 s[8:9], s[0:1], 0x10      // where COUNT is
	v_mov_b32 v8, 0
	s_wait_kmcnt 0
	s_load_b32 s3, s[8:9], 0x0
	s_wait_kmcnt 0
.Lieee:
	s_load_b256 s[16:23], s[4:5], 0x0    // a b c A B C i -
	s_wait_kmcnt 0
	s_minimum_f32 s24, s16, s17
	s_maximum_f32 s25, s16, s17
	s_minimum_f32 s26, s17, s16
	s_maximum_f32 s27, s17, s16
	s_minimum_f16 s28, s19, s20
	s_maximum_f16 s29, s19, s20
	s_minimum_f16 s30, s20, s19
	s_maximum_f16 s31, s20, s19
	v_mov_b32 v0, s24
	v_mov_b32 v1, s25
	v_mov_b32 v2, s26
	v_mov_b32 v3, s27
	v_mov_b32 v4, s28
	v_mov_b32 v5, s29
	v_mov_b32 v6, s30
	v_mov_b32 v7, s31
	global_store_b128 v8, v[0:3], s[6:7]
	global_store_b128 v8, v[4:7], s[6:7] offset:16
	s_add_co_u32 s4, s4, 32
	s_add_co_ci_u32 s5, s5, 0
	s_add_co_u32 s6, s6, 32
	s_add_co_ci_u32 s7, s7, 0
	s_sub_co_u32 s3, s3, 1
	s_cmp_lg_u32 s3, 0
	s_cbranch_scc1 .Lieee
	s_endpgm
