#!/usr/bin/env bash
# The VGPR banks of gfx1250 code (v256 and up): s_set_vgpr_msb, and an s_setreg_imm32_b32 of
# MODE, which sets the banks from imm32[19:12] whatever field it names (LLVM 22 folds them
# into the kernel prologue's MODE write; docs/isa-decoder.md).  tests/raise/vgpr_banks.s,
# assembled here by llvm-mc-22, runs on gfx1250 and through the gfx942 translation against the
# values its comments give; the decoder that read the prologue's write as no bank change
# stored 7, 0 and 11.  The builtins test's own case, clang-22's long16 kernels, is
# integration/builtins_diff's.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
assemble_fixture "$MIRAGE_SRC/tests/raise/vgpr_banks.s" banks
translate_fixture banks gfx942
python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<3I", 12, 11, 9) * 32)' >expect.bin
for co in banks.co banks.gfx942.co; do
	cat >launch.json <<JSON
{"code_object": "$co", "kernel": "k_banks", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 384, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
	rm -f out.bin
	run_capture "$MIRAGE_BIN" emulate launch.json
	assert_eq "$RUN_STATUS" 0 "$co: mirage emulate runs k_banks ($(head -c 300 "$RUN_STDERR_FILE"))"
	assert_eq "$(od -An -tu4 -N12 out.bin | xargs)" "12 11 9" "$co: lane 0 reads and writes the banks the MODE writes set"
	cmp -s out.bin expect.bin || fail "$co: every lane stores 12, 11, 9"
	ok "$co: every lane stores 12, 11, 9"
done
done_testing
