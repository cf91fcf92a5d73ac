#!/usr/bin/env bash
# The cross-lane moves (DPP16 quad_perm/row_shr/row_shl/row_mirror with and without bound_ctrl,
# ds_bpermute, ds_swizzle, v_permlanex16, readlane, readfirstlane) of tests/raise/crosslane.cl,
# built here by clang-22 at -O0 and -O2, run by `mirage emulate`, against the model in
# tests/raise/crosslane_expect.py; shuffled too.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${CLANG:-}" ] || skip_all "clang-22 is not installed"
cd "$TEST_TMP" || exit 1
python3 "$MIRAGE_SRC/tests/raise/crosslane_expect.py" 5 >expect.bin || fail "the model runs"
for opt in O0 O2; do
	mkdir -p "$opt"
	"$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib "-$opt" \
		-c "$MIRAGE_SRC/tests/raise/crosslane.cl" -o "$opt/k.o" || fail "clang builds crosslane.cl -$opt"
	"$LD_LLD" -shared "$opt/k.o" -o "$opt/crosslane.co" || fail "ld.lld links it"
	cat >"$opt/launch.json" <<'JSON'
{"code_object": "crosslane.co", "kernel": "crosslane", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 2048, "init": "zero", "output": "out.bin"},
             "in": {"size": 128, "init": "random:5"}},
 "args": [{"buffer": "out"}, {"buffer": "in"}]}
JSON
	for sched in deterministic shuffle:99; do
		rm -f "$opt/out.bin"
		run_capture "$MIRAGE_BIN" emulate "$opt/launch.json" --schedule "$sched"
		assert_eq "$RUN_STATUS" 0 "-$opt $sched: mirage emulate runs the cross-lane kernel"
		cmp -s "$opt/out.bin" expect.bin || fail "-$opt $sched: every cross-lane move matches the model"
		ok "-$opt $sched: every cross-lane move matches the model"
	done
done
done_testing
