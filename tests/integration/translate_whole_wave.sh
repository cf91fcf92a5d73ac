#!/usr/bin/env bash
# Whole-wave mode (docs/translate.md): a kernel whose EXEC writes or lane writes are not proven
# within its launched lanes (-O0: clang's whole-wave spill code) is translated with every lane
# of the wave64 on, and `mirage rewrite` says so, naming the site; a kernel that proves
# containment is not.  Then on the CPU, against the gfx1250 original and bytes computed here,
# the two things whole-wave mode is for: a partial source wave has all 32 lanes (a
# v_writelane to lane 20 and a whole-wave write of lane 31 read back in a wave of 8 launched
# lanes), and a half with no source wave does nothing (EXEC set to -1 in a workgroup of 32).
# The suite's own -O0 launches, ragged workgroups included, are translate_roundtrip's.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
suite=$MIRAGE_BUILD/tests/kernels/gfx1250
[ -f "$suite/O0/saxpy.co" ] || fail "the suite's objects are built in $MIRAGE_BUILD/tests/kernels"

# entry_turns_lanes_on CO: the kernel's first instruction sets every EXEC bit.
entry_turns_lanes_on() {
	"$LLVM_OBJDUMP" -d --mcpu=gfx942 "$1" | grep -A1 -E '^[0-9a-f]+ <[a-z_]+>:' |
		grep -Eq 's_or_saveexec_b64 s\[[0-9]+:[0-9]+\], -1'
}

# ---- the report: the note in the text and in --json ----
run_capture "$MIRAGE_BIN" rewrite "$suite/O0/saxpy.co" -o saxpy942.co --target gfx942
assert_eq "$RUN_STATUS" 0 "saxpy -O0 translates for gfx942"
assert_contains "$RUN_STDOUT" "  kernel 'saxpy': translated in whole-wave mode for s_xor_saveexec_b32 at 0x" \
	"the verdict names whole-wave mode and its unproven site"
assert_contains "$RUN_STDOUT" "not derived from the entry EXEC" "and why the site is unproven"
run_capture "$MIRAGE_BIN" --json rewrite "$suite/O0/saxpy.co" -o j.co --target gfx942
assert_eq "$RUN_STATUS" 0 "--json: saxpy -O0 translates"
got=$(printf '%s' "$RUN_STDOUT" | python3 -c 'import json,sys; k=json.load(sys.stdin)["kernel_results"][0]; print(k["translated"], k["whole_wave"], k["note"].split(":")[0])')
assert_eq "$got" "True True whole-wave mode for s_xor_saveexec_b32 at 0x${got##*0x}" \
	"--json kernel_results: translated, whole_wave and the note"
entry_turns_lanes_on saxpy942.co && ok "the whole-wave kernel turns every lane on at entry" ||
	fail "the whole-wave kernel turns every lane on at entry"
run_capture "$MIRAGE_BIN" --json rewrite "$suite/O2/saxpy.co" -o proven.co --target gfx942
got=$(printf '%s' "$RUN_STDOUT" | python3 -c 'import json,sys; k=json.load(sys.stdin)["kernel_results"][0]; print(k["translated"], k["whole_wave"], "note" in k)')
assert_eq "$got" "True False False" "saxpy -O2 proves containment: not whole-wave, no note"
run_capture "$MIRAGE_BIN" rewrite "$suite/O2/saxpy.co" -o proven.co --target gfx942
assert_eq "$(printf '%s\n' "$RUN_STDOUT" | grep "kernel 'saxpy'")" "  kernel 'saxpy': translated" \
	"the proven kernel's verdict is plain 'translated'"
entry_turns_lanes_on proven.co && fail "a proven kernel keeps the launched lanes" ||
	ok "a proven kernel keeps the launched lanes"

# roundtrip NAME GRID EXPECT_PY: NAME.co's kernel k run on one workgroup of GRID work-items,
# as the gfx1250 original and as its gfx942 translation (in whole-wave mode); both give the
# bytes EXPECT_PY writes.
roundtrip() {
	local name=$1 grid=$2 size
	python3 -c "$3" >"$name.$grid.expect" || fail "$name: the expected bytes"
	size=$(stat -c %s "$name.$grid.expect")
	run_capture "$MIRAGE_BIN" rewrite "$name.co" -o "$name.942.co" --target gfx942
	assert_contains "$RUN_STDOUT" "kernel 'k': translated in whole-wave mode" "$name: whole-wave mode"
	for co in "$name.co" "$name.942.co"; do
		mkdir -p "run.$co.$grid"
		cp "$co" "run.$co.$grid/k.co"
		cat >"run.$co.$grid/launch.json" <<JSON
{"code_object": "k.co", "kernel": "k", "grid": [$grid], "workgroup": [$grid],
 "buffers": {"out": {"size": $size, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
		run_capture "$MIRAGE_BIN" emulate "run.$co.$grid/launch.json"
		assert_eq "$RUN_STATUS" 0 "$co, $grid work-items: mirage emulate runs it"
		cmp -s "run.$co.$grid/out.bin" "$name.$grid.expect" &&
			ok "$co, $grid work-items: the expected bytes" ||
			fail "$co, $grid work-items: the expected bytes ($(od -An -tx4 -N16 "run.$co.$grid/out.bin"))"
	done
}

# Lanes a partial source wave did not launch: an SGPR spilled to lane 20 and a whole-wave
# write of lane 31, each read back.  40 work-items: the second source wave launched 8 lanes.
kernel lanes "s_load_b64 s[2:3], s[0:1], 0x0; s_mov_b32 s4, 0x1234; v_writelane_b32 v3, s4, 20
s_or_saveexec_b32 s6, -1; v_mov_b32 v2, 77; s_mov_b32 exec_lo, s6
v_readlane_b32 s5, v3, 20; v_readlane_b32 s7, v2, 31; v_and_b32 v0, 0x3ff, v0
v_lshlrev_b32 v1, 3, v0; v_mov_b32 v2, s5; v_mov_b32 v3, s7; s_wait_kmcnt 0
global_store_b64 v1, v[2:3], s[2:3]; s_endpgm"
roundtrip lanes 40 'import struct, sys; sys.stdout.buffer.write(struct.pack("<80I", *[0x1234, 77] * 40))'

# EXEC set to -1, then one atomic add per lane: 32 in a workgroup of 32 (the wave64's upper
# half has no source wave and adds nothing), 64 in one of 40 (the second source wave adds
# with all 32 lanes, as on gfx1250).
kernel expand "s_load_b64 s[2:3], s[0:1], 0x0; s_mov_b32 exec_lo, -1; v_mov_b32 v1, 0
v_mov_b32 v2, 1; s_wait_kmcnt 0; global_atomic_add_u32 v1, v2, s[2:3]; s_endpgm"
roundtrip expand 32 'import struct, sys; sys.stdout.buffer.write(struct.pack("<I", 32))'
roundtrip expand 40 'import struct, sys; sys.stdout.buffer.write(struct.pack("<I", 64))'
done_testing
