#!/usr/bin/env bash
# Every refusal reason of the raiser, triggered by a small kernel assembled here with llvm-mc-22
# (no checked-in binaries): `mirage raise --json` names the reason, offset and mnemonic, the
# text form says it on stderr with exit 1.  Then `mirage raise` on good input (IR, -o, --json
# coverage), and `mirage emulate`'s own errors: a bad launch file (exit 2, the field named), a
# refused kernel and an out-of-bounds store (exit 1, the instruction offset named).
# shellcheck source=lib.sh
source "$TEST_LIB"

cd "$TEST_TMP" || exit 1
[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"

# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"

store='s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_mov_b32 v0, 42; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]'

# refused NAME REASON MNEMONIC DETAIL: mirage raise NAME.co (with $RAISE_ARGS) refuses k for
# REASON.
refused() {
	# shellcheck disable=SC2086  # RAISE_ARGS is a list of options
	run_capture "$MIRAGE_BIN" raise "$1.co" --json ${RAISE_ARGS:-}
	assert_eq "$RUN_STATUS" 1 "$1: raise --json exits 1 for a refused kernel"
	assert_contains "$RUN_STDOUT" "\"reason\":	\"$2\"" "$1: the reason is $2"
	assert_contains "$RUN_STDOUT" "\"mnemonic\":	\"$3\"" "$1: the mnemonic is '$3'"
	assert_contains "$RUN_STDOUT" "$4" "$1: the detail says '$4'"
	# The address is the instruction's as llvm-objdump prints it, not an offset into .text
	# (an unknown or cut-off instruction has no mnemonic there to compare).
	if [ -n "$3" ] && [ "$3" != "<unknown>" ] && [ "$2" != undecodable ] && [ -x "${LLVM_OBJDUMP:-}" ]; then
		local at
		at=$(printf '%s' "$RUN_STDOUT" | python3 -c 'import json,sys; print("%012X" % int(json.load(sys.stdin)["kernels"][0]["offset"], 16))')
		"$LLVM_OBJDUMP" -d "$1.co" | grep "// $at:" | grep -q "^[[:space:]]*$3" &&
			ok "$1: llvm-objdump has $3 at the address given" ||
			fail "$1: llvm-objdump has no $3 at 0x$at"
	fi
	# shellcheck disable=SC2086
	run_capture "$MIRAGE_BIN" raise "$1.co" ${RAISE_ARGS:-}
	assert_eq "$RUN_STATUS" 1 "$1: raise exits 1"
	assert_contains "$RUN_STDERR" "mirage: $1.co: kernel 'k' is refused at 0x" "$1: the message names the kernel and address"
	assert_contains "$RUN_STDERR" ": $2: " "$1: the message names the reason"
	assert_contains "$RUN_STDERR" "hint: \`mirage raise $1.co --json\`" "$1: a hint"
}

kernel unknown "$store; .long 0xbf8f0000; s_endpgm"
refused unknown unknown-instruction "<unknown>" "format SOPP opcode 0xf"
kernel undecodable "$store; s_endpgm; .long 0x7e0002ff"
refused undecodable undecodable v_mov_b32 "truncated by the end of the buffer"
kernel unsupported "$store; buffer_load_b32 v2, v1, s[4:7], s8 offen; s_endpgm"
refused unsupported unsupported-instruction buffer_load_b32 "buffer resources are not raised"
# The LDS transposing loads: which lane gets which bytes is documented nowhere we can check it.
kernel transpose "$store; ds_load_tr8_b64 v[2:3], v1; s_endpgm"
refused transpose undocumented-instruction ds_load_tr8_b64 "the transpose's lane mapping (which lane gets which bytes of which lane's address) is not documented"
kernel omod "$store; v_add_f32_e64 v2, v1, v1 mul:2; s_endpgm"
refused omod unsupported-form v_add_f32 "omod:1 is not modelled"
# The signed 64-bit multiply-add's carry-out has no documented meaning we can check: refused
# unless it is discarded (null, or SGPRs overwritten whole before a read or the wave's end),
# while the unsigned one is bit 64 of the sum.  Read, read by a branch's target, written in
# part (s_cmov keeps it when SCC is 0), or its read a long way off: refused.
kernel madco "$store; v_mad_co_i64_i32 v[2:3], s10, v1, v1, v[4:5]; v_cndmask_b32_e64 v2, 0, 1, s10; s_endpgm"
refused madco unsupported-form v_mad_co_i64_i32 "the carry-out of a signed 64-bit multiply-add is not modelled"
kernel madcobr "$store; v_mad_co_i64_i32 v[2:3], s10, v1, v1, v[4:5]; s_cbranch_scc0 .Lt; .Lt:; s_mov_b32 s10, 0; s_endpgm"
refused madcobr unsupported-form v_mad_co_i64_i32 "the carry-out of a signed 64-bit multiply-add is not modelled"
kernel madcocmov "$store; v_mad_co_i64_i32 v[2:3], s10, v1, v1, v[4:5]; s_cmov_b32 s10, 0; v_cndmask_b32_e64 v2, 0, 1, s10; s_endpgm"
refused madcocmov unsupported-form v_mad_co_i64_i32 "the carry-out of a signed 64-bit multiply-add is not modelled"
kernel madcofar "$store; v_mad_co_i64_i32 v[2:3], s10, v1, v1, v[4:5];$(printf ' s_nop 0;%.0s' $(seq 64)) s_mov_b32 s10, 0; s_endpgm"
refused madcofar unsupported-form v_mad_co_i64_i32 "the carry-out of a signed 64-bit multiply-add is not modelled"
kernel madcodead "$store; v_mad_co_i64_i32 v[2:3], s10, v1, v1, v[4:5]; v_mov_b32 v3, 0; s_mov_b32 s10, 0; v_cndmask_b32_e64 v2, 0, 1, s10; s_endpgm"
run_capture "$MIRAGE_BIN" raise madcodead.co
assert_eq "$RUN_STATUS" 0 "madcodead: a signed carry overwritten before any read is raised: $RUN_STDERR"
# A 32-bit literal with bit 31 set on a 64-bit integer operand of gfx12.5: its extension is no
# rule we can check there (LLVM never encodes one; llvm-mc-22 picks a 64-bit literal, so the
# words are written out): s_add_nc_u64 s[0:1], s[2:3], lit32 0xffffff9c, and
# v_add_nc_u64_e32 v[0:1], lit32 0x80000000, v[2:3].
kernel lit32s "$store; .long 0xa980ff02, 0xffffff9c; s_endpgm"
refused lit32s unsupported-form s_add_nc_u64 "the 32-bit literal 0xffffff9c of a 64-bit integer operand has bit 31 set: its extension to 64 bits is no rule we can check on gfx12.5"
kernel lit32v "$store; .long 0x500004ff, 0x80000000; s_endpgm"
refused lit32v unsupported-form v_add_nc_u64 "the 32-bit literal 0x80000000 of a 64-bit integer operand has bit 31 set"
kernel lit32ok "$store; .long 0xa980ff02, 0x7fffff9c; s_endpgm"
run_capture "$MIRAGE_BIN" raise lit32ok.co
assert_eq "$RUN_STATUS" 0 "a 32-bit literal with bit 31 clear extends either way: raised"
kernel madnull "$store; v_mad_co_i64_i32 v[2:3], null, v1, v1, v[4:5]; v_mad_co_u64_u32 v[2:3], s10, v1, v1, v[4:5]; s_endpgm"
run_capture "$MIRAGE_BIN" raise madnull.co
assert_eq "$RUN_STATUS" 0 "madnull: a discarded signed carry and an unsigned one are raised: $RUN_STDERR"
kernel aperture "$store; .long 0xbe8400ef; s_endpgm" # s_mov_b32 s4, src_pops_exiting_wave_id
refused aperture unsupported-register s_mov_b32 "operand register 239"
kernel entry "$store; s_endpgm" ".amdhsa_user_sgpr_private_segment_size 1"
refused entry unsupported-entry-sgpr "" "the descriptor enables the private segment size"
kernel layout "$store; s_endpgm" ".amdhsa_user_sgpr_count 6"
refused layout user-sgpr-layout "" "RSRC2 USER_SGPR_COUNT is 6, the enabled user SGPRs need 2"
kernel wave64 "$store; s_endpgm" ".amdhsa_wavefront_size32 0"
refused wave64 wave64 "" "the descriptor does not enable wave32"
kernel cluster "$store; s_endpgm" "" "    .cluster_dims: [2, 1, 1]"
refused cluster cluster-dispatch "" ".cluster_dims is set"
kernel mode "s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 0, 4), 1; $store; s_endpgm"
refused mode mode-write s_setreg_imm32_b32 "hwreg 1 bits [3:0]"
kernel barrier "$store; s_barrier_wait 0xffff; s_endpgm"
refused barrier split-barrier s_barrier_wait "s_barrier_wait without its signal"
kernel unwaited "$store; s_barrier_signal -1; s_cmp_eq_u32 s0, 0; s_cbranch_scc1 1; s_barrier_wait 0xffff; s_endpgm"
refused unwaited split-barrier s_endpgm "paths with and without a signalled barrier meet"
kernel named "$store; s_barrier_signal 1; s_barrier_wait 1; s_endpgm"
refused named split-barrier s_barrier_signal "a named barrier"
kernel branch "$store; s_branch 0x7fff; s_endpgm"
refused branch indirect-branch s_branch "the branch target is outside .text"
kernel pool "$store; s_branch .Lpool; s_endpgm; .Lk_end:; .size k, .Lk_end-k; .Lpool:; s_endpgm"
refused pool indirect-branch s_branch "is outside the kernel's functions"
kernel unterminated "$store; s_nop 0"
refused unterminated unterminated-extent s_nop "without s_endpgm"
kernel sendmsg "$store; s_sendmsg sendmsg(MSG_INTERRUPT); s_endpgm"
refused sendmsg sendmsg s_sendmsg "message 0x1"
kernel lds "$store; s_endpgm" ".amdhsa_group_segment_fixed_size 400000"
refused lds lds-limit "" "400000 bytes of LDS"

# An object for a processor the decoder has no table for.
CPU=gfx1100
kernel gfx1100 's_load_b64 s[2:3], s[0:1], 0x0; s_waitcnt lgkmcnt(0); v_mov_b32 v0, 42; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]; s_endpgm'
refused gfx1100 unsupported-target "" "the object is for gfx1100"

# gfx942 (wave64, its own table): the gfx9.4 entry state's refusals.
CPU=gfx942
store942='s_load_dwordx2 s[2:3], s[0:1], 0x0; s_waitcnt lgkmcnt(0); v_mov_b32 v0, 42; v_mov_b32 v1, 0; global_store_dword v1, v0, s[2:3]'
kernel good942 "$store942; s_endpgm"
run_capture "$MIRAGE_BIN" raise good942.co --json
assert_eq "$RUN_STATUS" 0 "a gfx942 kernel raises"
assert_contains "$RUN_STDOUT" '"raised":	true' "gfx942: raised"
kernel tgsize942 "$store942; s_endpgm" ".amdhsa_system_sgpr_workgroup_info 1"
refused tgsize942 unsupported-entry-sgpr "" "workgroup info SGPR (TG_SIZE_EN)"
kernel layout942 "$store942; s_endpgm" ".amdhsa_user_sgpr_count 6"
refused layout942 user-sgpr-layout "" "RSRC2 USER_SGPR_COUNT is 6, the enabled user SGPRs need 2"
kernel lds942 "$store942; s_endpgm" ".amdhsa_group_segment_fixed_size 65540"
refused lds942 lds-limit "" "65540 bytes of LDS, gfx942 has 65536"
kernel pss942 "$store942; s_endpgm" ".amdhsa_user_sgpr_private_segment_size 1"
refused pss942 unsupported-entry-sgpr "" "the descriptor enables the private segment size"
# VGPR index mode is tracked within a block: a branch, or a block entered, while it is on.
# gfx942 has no null: LLVM names a dead SGPR pair as v_mad_i64_i32's carry-out (mul_hi(long)).
kernel madco942 "$store942; v_mad_i64_i32 v[2:3], s[4:5], v1, v1, v[2:3]; s_and_b64 s[6:7], s[4:5], exec; s_endpgm"
refused madco942 unsupported-form v_mad_i64_i32 "the carry-out of a signed 64-bit multiply-add is not modelled"
kernel madcohalf942 "$store942; v_mad_i64_i32 v[2:3], s[4:5], v1, v1, v[2:3]; s_mov_b32 s4, 0; v_cndmask_b32_e64 v2, 0, 1, s[4:5]; s_endpgm"
refused madcohalf942 unsupported-form v_mad_i64_i32 "the carry-out of a signed 64-bit multiply-add is not modelled"
kernel madcodead942 "$store942; v_mad_i64_i32 v[2:3], s[4:5], v1, v1, v[2:3]; v_cmp_eq_u32_e64 s[4:5], 0, v1; s_endpgm"
run_capture "$MIRAGE_BIN" raise madcodead942.co
assert_eq "$RUN_STATUS" 0 "madcodead942: a signed carry pair overwritten before any read is raised: $RUN_STDERR"
kernel idxbranch942 "$store942; s_set_gpr_idx_on s2, gpr_idx(SRC0); s_cbranch_scc0 1; v_mov_b32 v0, v1; s_set_gpr_idx_off; s_endpgm"
refused idxbranch942 unsupported-form s_cbranch_scc0 "a branch in VGPR index mode"
kernel idxblock942 "$store942; s_set_gpr_idx_on s2, gpr_idx(SRC0); .Lin:; v_mov_b32 v0, v1; s_set_gpr_idx_off; s_cbranch_scc0 .Lin; s_endpgm"
refused idxblock942 unsupported-form v_mov_b32 "VGPR index mode on across a block boundary"
kernel idxmem942 "$store942; s_set_gpr_idx_on s2, gpr_idx(SRC0); global_store_dword v1, v0, s[2:3]; s_set_gpr_idx_off; s_endpgm"
refused idxmem942 unsupported-form global_store_dword "a non-VALU VGPR access in VGPR index mode"
CPU=gfx1250

# Good input: the IR, -o FILE.ll, and the per-kernel coverage.
kernel good "$store; s_endpgm"
run_capture "$MIRAGE_BIN" raise good.co
assert_eq "$RUN_STATUS" 0 "raise prints the IR of a raised kernel"
assert_contains "$RUN_STDOUT" 'define void @k()' "the kernel is one function"
assert_contains "$RUN_STDOUT" 'call ptr @mx.global(' "memory goes through the mx.global hook"
assert_contains "$RUN_STDOUT" '!mirage.lane_pred' "the store is predicated on the lane's EXEC bit"
assert_not_contains "$RUN_STDOUT" 'llvm.amdgcn' "no target intrinsic"
run_capture "$MIRAGE_BIN" raise good.co --binding host -o good.ll
assert_eq "$RUN_STATUS" 0 "raise --binding host -o FILE.ll"
assert_contains good.ll 'mirage_host.global' "the host binding calls the runner"
assert_not_contains good.ll '@mx.' "no hook is left unbound"
run_capture "$MIRAGE_BIN" raise good.co --json --kernel k
assert_contains "$RUN_STDOUT" '"raised":	true' "--json says raised"
assert_contains "$RUN_STDOUT" '"instructions":	6' "--json counts the instructions"
run_capture "$MIRAGE_BIN" raise good.co --kernel nosuch
assert_eq "$RUN_STATUS" 1 "an unknown --kernel is an error"
assert_contains "$RUN_STDERR" "mirage: good.co: no kernel 'nosuch' in the object"
assert_contains "$RUN_STDERR" "hint: its kernels: k; give one to --kernel, or leave --kernel out for all" \
	"an unknown --kernel lists the object's kernels"
assert_not_contains "$RUN_STDERR" "give an AMDGPU code object" "not a hint about the file"
run_capture "$MIRAGE_BIN" raise launch.json
assert_eq "$RUN_STATUS" 1 "a file that is no code object"
assert_contains "$RUN_STDERR" "mirage: launch.json: No such file or directory"
assert_not_contains "$RUN_STDERR" "hint:" "a file that cannot be read gets no code-object hint"
printf 'not elf' >junk.co
run_capture "$MIRAGE_BIN" raise junk.co
assert_contains "$RUN_STDERR" "mirage: junk.co: not an AMDGPU ELF code object"
assert_contains "$RUN_STDERR" "hint: give an AMDGPU code object" "a file that is read but no object"
# A code object given to emulate: named as one, with what a launch file must hold.
run_capture "$MIRAGE_BIN" emulate good.co
assert_eq "$RUN_STATUS" 2 "a code object is no launch file"
assert_contains "$RUN_STDERR" "good.co: an ELF file (a code object?), not a launch file: write a launch file that names it" \
	"emulate of a code object says what it is"
assert_not_contains "$RUN_STDERR" "not valid JSON" "not a JSON syntax error"

# mirage emulate: a clean run, an out-of-bounds store, a refused kernel, bad launch files.
cat >launch.json <<'JSON'
{"code_object": "good.co", "kernel": "k", "grid": [64], "workgroup": [32],
 "buffers": {"out": {"size": 4, "init": "fill:7", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
run_capture "$MIRAGE_BIN" emulate launch.json --json
assert_eq "$RUN_STATUS" 0 "emulate runs the kernel"
assert_contains "$RUN_STDOUT" '"waves":	2' "--json reports the waves"
assert_eq "$(od -An -tx4 out.bin | tr -d ' ')" "0000002a" "every lane stored 42 to out[0]"
sed 's/{"buffer": "out"}/{"buffer": "out", "offset": 2}/' launch.json >oob.json
run_capture "$MIRAGE_BIN" emulate oob.json
assert_eq "$RUN_STATUS" 1 "an out-of-bounds store exits 1"
assert_contains "$RUN_STDERR" "mirage: kernel k: instruction at 0x" "the fault names the instruction"
assert_contains "$RUN_STDERR" "4-byte access at 0x" "and the access"
assert_contains "$RUN_STDERR" "is outside every buffer of the launch"
assert_contains "$RUN_STDERR" "is outside every buffer of the launch: at offset 2 of 'out', which has 4 bytes" \
	"the fault names the buffer and the offset in it (the kernel stores 4 bytes at out + 2)"
sed 's/good.co/omod.co/' launch.json >refused.json
run_capture "$MIRAGE_BIN" emulate refused.json
assert_eq "$RUN_STATUS" 1 "a refused kernel exits 1"
assert_contains "$RUN_STDERR" "mirage: kernel 'k' is refused at 0x" "the refusal names the address"
assert_contains "$RUN_STDERR" "(v_add_f32): unsupported-form"
# The float mode a descriptor starts its waves in (RSRC1): the CPU runner rounds to nearest
# even and keeps denormals, and on gfx9 computes in IEEE mode with DX10 clamp.  A kernel with
# float instructions and another mode is refused where it would run on the CPU (emulate, raise
# --binding host), at its first float instruction; the raiser alone takes it (the translator
# carries the mode), and a kernel without float instructions runs in any mode (good.co has
# llvm-mc's default f32 mode, flush in and out).  42 + 42 as f32 bits are denormals: 84 kept.
fstore=${store/v_mov_b32 v1, 0;/v_mov_b32 v1, 0; v_add_f32 v0, v0, v0;}
assert_eq "$(od -An -tx4 out.bin | tr -d ' ')" "0000002a" "good.co's integer store ran in flush mode"
kernel keep "$fstore; s_endpgm" ".amdhsa_float_denorm_mode_32 3"
sed 's/good.co/keep.co/' launch.json >keep.json
run_capture "$MIRAGE_BIN" emulate keep.json
assert_eq "$RUN_STATUS" 0 "a float kernel that keeps denormals runs"
assert_eq "$(od -An -tx4 out.bin | tr -d ' ')" "00000054" "the denormal sum is kept: 42 + 42 = 84"
RAISE_ARGS="--binding host"
kernel ftz "$fstore; s_endpgm"
refused ftz float-mode v_add_f32 "RSRC1 float_denorm_mode_32 is 0 (flush in and out); the CPU runner keeps denormals (build without -cl-denorms-are-zero)"
kernel ftz64 "$fstore; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_float_denorm_mode_16_64 1"
refused ftz64 float-mode v_add_f32 "RSRC1 float_denorm_mode_16_64 is 1 (flush out); the CPU runner keeps denormals"
kernel rtz "$fstore; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_float_round_mode_32 3"
refused rtz float-mode v_add_f32 "RSRC1 float_round_mode_32 is 3 (toward zero); the CPU runner rounds to nearest even"
# An integer converted to a float rounds by the mode too (16777219 is 16777220 to nearest even,
# 16777218 toward zero); one that converts exactly (to f64) does not make a kernel float.
kernel rtzcvt "${store/v_mov_b32 v1, 0;/v_mov_b32 v1, 0; v_cvt_f32_i32 v0, v0;}; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_float_round_mode_32 3"
refused rtzcvt float-mode v_cvt_f32_i32 "RSRC1 float_round_mode_32 is 3 (toward zero); the CPU runner rounds to nearest even"
kernel rtzscvt "${store/v_mov_b32 v1, 0;/v_mov_b32 v1, 0; s_cvt_f32_u32 s4, s2;}; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_float_round_mode_32 2"
refused rtzscvt float-mode s_cvt_f32_u32 "RSRC1 float_round_mode_32 is 2 (toward -inf); the CPU runner rounds to nearest even"
kernel rtzcvt16 "${store/v_mov_b32 v1, 0;/v_mov_b32 v1, 0; v_cvt_f16_u16 v0, v0;}; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_float_round_mode_16_64 1"
refused rtzcvt16 float-mode v_cvt_f16_u16 "RSRC1 float_round_mode_16_64 is 1 (toward +inf); the CPU runner rounds to nearest even"
kernel rtzexact "${store/v_mov_b32 v1, 0;/v_mov_b32 v1, 0; v_cvt_f64_i32 v[2:3], v0;}; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_float_round_mode_32 3; .amdhsa_float_round_mode_16_64 3"
# shellcheck disable=SC2086  # RAISE_ARGS is a list of options
run_capture "$MIRAGE_BIN" raise rtzexact.co --json $RAISE_ARGS
assert_eq "$RUN_STATUS" 0 "an exact conversion (v_cvt_f64_i32) runs in any rounding mode ($(head -c 300 "$RUN_STDOUT_FILE"))"
CPU=gfx942
fstore942=${store942/v_mov_b32 v1, 0;/v_mov_b32 v1, 0; v_add_f32 v0, v0, v0;}
# gfx9's 32-bit literal of a 64-bit operand is zero-extended, as LLVM encodes 0xffffffff for
# s_mov_b64 there: the high dword stored is 0 (run below, with the other launches).
lit942=${store942/v_mov_b32 v0, 42;/s_mov_b64 s[4:5], 0x80000000; v_mov_b32 v0, s5;}
kernel lit942 "$lit942; s_endpgm"
kernel ieee942 "$fstore942; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_ieee_mode 0"
refused ieee942 float-mode v_add_f32 "RSRC1 enable_ieee_mode is 0 (off); the CPU runner computes in IEEE mode"
kernel dx942 "$fstore942; s_endpgm" ".amdhsa_float_denorm_mode_32 3; .amdhsa_dx10_clamp 0"
refused dx942 float-mode v_add_f32 "RSRC1 enable_dx10_clamp is 0 (off); the CPU runner clamps NaN to 0"
CPU=gfx1250
RAISE_ARGS=
run_capture "$MIRAGE_BIN" raise ftz.co --json
assert_eq "$RUN_STATUS" 0 "the raiser alone takes a flush-mode kernel (the translator carries the mode)"
sed 's/good.co/ftz.co/' launch.json >ftz.json
run_capture "$MIRAGE_BIN" emulate ftz.json
assert_eq "$RUN_STATUS" 1 "emulate refuses a flush-mode float kernel"
assert_contains "$RUN_STDERR" "mirage: kernel 'k' is refused at 0x" "the refusal names the address"
assert_contains "$RUN_STDERR" "(v_add_f32): float-mode: " "and the reason"
assert_contains "$RUN_STDERR" "RSRC1 float_denorm_mode_32 is 0 (flush in and out)" "and the mode"

sed 's/good.co/lit942.co/' launch.json >lit942.json
run_capture "$MIRAGE_BIN" emulate lit942.json
assert_eq "$RUN_STATUS" 0 "gfx942: s_mov_b64 of a 32-bit literal runs"
assert_eq "$(od -An -tx4 out.bin | tr -d ' ')" "00000000" "gfx942: its high dword is 0 (zero extension)"

sed 's/"grid": \[64\]/"grid": [0]/' launch.json >bad.json
run_capture "$MIRAGE_BIN" emulate bad.json
assert_eq "$RUN_STATUS" 2 "a bad launch file exits 2"
assert_contains "$RUN_STDERR" "bad.json: grid[0]: expected a positive integer" "the message names the field"
sed 's/"kernel": "k"/"kernel": "nosuch"/' launch.json >nokernel.json
run_capture "$MIRAGE_BIN" emulate nokernel.json
assert_eq "$RUN_STATUS" 2 "an unknown kernel exits 2"
assert_contains "$RUN_STDERR" "nokernel.json: kernel: 'nosuch' is not a kernel of"
sed 's/{"buffer": "out"}/{"u32": 1}/' launch.json >argtype.json
run_capture "$MIRAGE_BIN" emulate argtype.json
assert_eq "$RUN_STATUS" 2 "a scalar for a pointer argument exits 2"
assert_contains "$RUN_STDERR" "argtype.json: args[0]: kernel argument is a buffer, the launch gives a 4-byte value (name a buffer: {\"buffer\": NAME})"
sed 's/good.co/missing.co/' launch.json >noco.json
run_capture "$MIRAGE_BIN" emulate noco.json
assert_eq "$RUN_STATUS" 2 "a missing code object exits 2"
assert_contains "$RUN_STDERR" "noco.json: code_object: "
run_capture "$MIRAGE_BIN" emulate launch.json --schedule sideways
assert_eq "$RUN_STATUS" 2 "a bad --schedule exits 2"
assert_contains "$RUN_STDERR" "mirage: --schedule: 'sideways' is neither 'deterministic' nor 'shuffle:SEED'"
assert_contains "$RUN_STDERR" "hint: give --schedule deterministic or --schedule shuffle:42"
for bad in shuffle:-1 shuffle:+1 "shuffle: 1" shuffle:1x; do
	run_capture "$MIRAGE_BIN" emulate launch.json --schedule "$bad"
	assert_eq "$RUN_STATUS" 2 "--schedule $bad is no seed (strtoull would read -1 as 2^64-1)"
	assert_contains "$RUN_STDERR" "mirage: --schedule: '$bad' is neither"
done
done_testing
