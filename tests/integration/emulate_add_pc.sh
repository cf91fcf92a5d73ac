#!/usr/bin/env bash
# s_add_pc_i64 with a constant (tests/raise/add_pc.s: forward by a 64-bit literal, an inline
# constant and a 32-bit literal, backward as a loop), assembled here by llvm-mc-22 and run by
# `mirage emulate`: the skipped moves never run, the loop runs five times.  s_add_pc_i64 of a
# register is refused (indirect-branch) naming its address.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1

# build NAME LINE: NAME/add_pc.co with LINE in place of @REG@, and its launch file.
build() {
	mkdir -p "$1"
	sed "s/@REG@/$2/" "$MIRAGE_SRC/tests/raise/add_pc.s" >"$1/add_pc.fixture.s"
	assemble_fixture "$1/add_pc.fixture.s" "$1/add_pc"
	cat >"$1/launch.json" <<'JSON'
{"code_object": "add_pc.co", "kernel": "add_pc", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 512, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
}

# Lane t stores 1 (not 2), t + 15 (the loop), 7 (not 0x1234), 9 (not 3).
python3 -c 'import struct,sys; sys.stdout.buffer.write(b"".join(struct.pack("<4I", 1, t + 15, 7, 9) for t in range(32)))' >expect.bin

build ok ""
for sched in deterministic shuffle:3; do
	rm -f ok/out.bin
	run_capture "$MIRAGE_BIN" emulate ok/launch.json --schedule "$sched"
	assert_eq "$RUN_STATUS" 0 "$sched: mirage emulate runs the s_add_pc_i64 branches"
	cmp -s ok/out.bin expect.bin || fail "$sched: every s_add_pc_i64 lands where LLVM aimed it"
	ok "$sched: every s_add_pc_i64 lands where LLVM aimed it"
done

build reg 's_add_pc_i64 s[2:3]'
addr=$("$LLVM_OBJDUMP" -d --mcpu=gfx1250 reg/add_pc.co | sed -n 's/^\s*s_add_pc_i64 s\[2:3\] .*\/\/ 0*\([0-9A-F]*\):.*/\1/p' | tr 'A-F' 'a-f')
[ -n "$addr" ] || fail "llvm-objdump-22 shows the s_add_pc_i64 of a register"
run_capture "$MIRAGE_BIN" raise reg/add_pc.co --json
assert_eq "$RUN_STATUS" 1 "s_add_pc_i64 of a register is refused"
assert_contains "$RUN_STDOUT" '"reason":	"indirect-branch"' "reason indirect-branch"
assert_contains "$RUN_STDOUT" "\"offset\":	\"0x$addr\"" "at its address"
assert_contains "$RUN_STDOUT" "s_add_pc_i64 of a register: the target is not known" "the detail says why"
done_testing
