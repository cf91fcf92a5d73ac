#!/usr/bin/env bash
# GFX9 forms of the wave64 raiser that clang-22 seldom emits for the kernel suite (SDWA dst_sel
# with preserve and sext, v_cmpx_e32 writing EXEC and VCC, carries in SGPR pairs,
# s_cbranch_vccz, v_cndmask with a pair): tests/raise/gfx9_forms.s, assembled here by
# llvm-mc-22, run by `mirage emulate` against tests/raise/gfx9_forms_expect.py; shuffled too.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
"$LLVM_MC" -triple amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj \
	"$MIRAGE_SRC/tests/raise/gfx9_forms.s" -o forms.o || fail "llvm-mc assembles gfx9_forms.s"
"$LD_LLD" -shared forms.o -o forms.co || fail "ld.lld links it"
python3 "$MIRAGE_SRC/tests/raise/gfx9_forms_expect.py" >expect.bin || fail "the model runs"
cat >launch.json <<'JSON'
{"code_object": "forms.co", "kernel": "forms", "grid": [64], "workgroup": [64],
 "buffers": {"out": {"size": 2560, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
for sched in deterministic shuffle:7; do
	rm -f out.bin
	run_capture "$MIRAGE_BIN" emulate launch.json --schedule "$sched"
	assert_eq "$RUN_STATUS" 0 "$sched: mirage emulate runs the gfx942 kernel"
	cmp -s out.bin expect.bin || fail "$sched: every lane's results match the model"
	ok "$sched: every lane's results match the model"
done
done_testing
