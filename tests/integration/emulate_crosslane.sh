#!/usr/bin/env bash
# The cross-lane moves of one wave, built here by clang-22 at -O0 and -O2, run by `mirage
# emulate` against a model of the ISA; shuffled too.  TARGET gfx1250 (wave32): DPP16
# quad_perm/row_shr/row_shl/row_mirror with and without bound_ctrl, ds_bpermute, ds_swizzle,
# v_permlanex16, readlane, readfirstlane (tests/raise/crosslane.cl, crosslane_expect.py).
# TARGET gfx942 (wave64): GFX9 DPP quad_perm/row_shr/row_bcast:15/row_bcast:31/wave_shr/wave_rol,
# readlane of a lane above 31, readfirstlane under an EXEC whose low half is empty, a 64-bit
# ballot with mbcnt_lo/hi, SDWA selects with sext (tests/raise/crosslane_wave64.cl and
# crosslane_wave64_expect.py).
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${CLANG:-}" ] || skip_all "clang-22 is not installed"
cd "$TEST_TMP" || exit 1
target=${TARGET:-gfx1250} src=crosslane lanes=32 words=512
if [ "$target" != gfx1250 ]; then
	src=crosslane_wave64 lanes=64 words=832
fi
python3 "$MIRAGE_SRC/tests/raise/${src}_expect.py" 5 >expect.bin || fail "the model runs"
for opt in O0 O2; do
	mkdir -p "$opt"
	"$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$target" -nogpulib "-$opt" \
		-c "$MIRAGE_SRC/tests/raise/$src.cl" -o "$opt/k.o" || fail "clang builds $src.cl -$opt"
	"$LD_LLD" -shared "$opt/k.o" -o "$opt/crosslane.co" || fail "ld.lld links it"
	cat >"$opt/launch.json" <<JSON
{"code_object": "crosslane.co", "kernel": "crosslane", "grid": [$lanes], "workgroup": [$lanes],
 "buffers": {"out": {"size": $((words * 4)), "init": "zero", "output": "out.bin"},
             "in": {"size": $((lanes * 4)), "init": "random:5"}},
 "args": [{"buffer": "out"}, {"buffer": "in"}]}
JSON
	for sched in deterministic shuffle:99; do
		rm -f "$opt/out.bin"
		run_capture "$MIRAGE_BIN" emulate "$opt/launch.json" --schedule "$sched"
		assert_eq "$RUN_STATUS" 0 "$target -$opt $sched: mirage emulate runs the cross-lane kernel"
		cmp -s "$opt/out.bin" expect.bin || fail "$target -$opt $sched: every cross-lane move matches the model"
		ok "$target -$opt $sched: every cross-lane move matches the model"
	done
done
done_testing
