#!/usr/bin/env bash
# GFX9 forms of the wave64 raiser, each fixture assembled here by llvm-mc-22 and run by
# `mirage emulate` against its model, shuffled too.  tests/raise/gfx9_forms.s: what clang-22
# seldom emits for the kernel suite (SDWA dst_sel with preserve and sext, v_cmpx_e32 writing
# EXEC and VCC, carries in SGPR pairs, s_cbranch_vccz, v_cndmask with a pair);
# tests/raise/gfx9_fields.s: what the translation round trip found (v_bfe_u32/i32 fields,
# ds_bpermute_b32 across the halves, ds_swizzle_b32 bit masks in the upper 32-lane group);
# tests/raise/gfx9_gpr_idx.s: VGPR index mode (s_set_gpr_idx_*) around VALU moves and adds;
# tests/raise/gfx9_long_branch.s: LLVM's long branches (s_getpc_b64 ... s_setpc_b64).
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1

# check_fixture NAME KERNEL: NAME.co's kernel KERNEL, one 64-lane wave, stores what
# tests/raise/NAME_expect.py writes.
check_fixture() {
	local name=$1 sched
	python3 "$MIRAGE_SRC/tests/raise/${name}_expect.py" >"$name.expect.bin" ||
		fail "the model of $name runs"
	cat >"$name.json" <<JSON
{"code_object": "$name.co", "kernel": "$2", "grid": [64], "workgroup": [64],
 "buffers": {"out": {"size": $(stat -c %s "$name.expect.bin"), "init": "zero",
                     "output": "$name.out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
	for sched in deterministic shuffle:7; do
		rm -f "$name.out.bin"
		run_capture "$MIRAGE_BIN" emulate "$name.json" --schedule "$sched"
		assert_eq "$RUN_STATUS" 0 "$name, $sched: mirage emulate runs the gfx942 kernel"
		cmp -s "$name.out.bin" "$name.expect.bin" ||
			fail "$name, $sched: every lane's results match the model"
		ok "$name, $sched: every lane's results match the model"
	done
}

for f in gfx9_forms:forms gfx9_fields:k gfx9_gpr_idx:k gfx9_long_branch:k; do
	assemble_fixture "$MIRAGE_SRC/tests/raise/${f%:*}.s" "${f%:*}"
	check_fixture "${f%:*}" "${f#*:}"
done
done_testing
