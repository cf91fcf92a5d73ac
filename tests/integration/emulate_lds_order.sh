#!/usr/bin/env bash
# LDS accesses of one wave in program order across its lanes, with no barrier
# (tests/raise/lds_order.s, assembled here by llvm-mc-22), run by `mirage emulate` on gfx1250
# and through the gfx942 and gfx950 translations, deterministic and shuffled.  The rule is the
# hardware's: a wave runs each LDS instruction for all its lanes before the next, so a lane
# reads what the other lanes stored earlier in the program and not what they store later
# (LLVM relies on it when it drops the barrier of a workgroup that fits in one wave).  Before
# the runner made the lanes meet at LDS accesses, each lane ran ahead alone and read zeros.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/lds_order.s" lds_order

judge() {
	python3 - "$1" <<'PY'
import struct, sys
got = struct.unpack("<128I", open(sys.argv[1], "rb").read())
bad = []
for t in range(32):
    want = ((t + 1) % 32 + 1, (t + 2) % 32 + 1, 100 + (t - 1) % 32, 32)
    if tuple(got[4 * t:4 * t + 4]) != want:
        bad.append("lane %d: %s, want %s" % (t, got[4 * t:4 * t + 4], want))
if bad:
    sys.exit("%d lanes differ, first: %s" % (len(bad), bad[0]))
PY
}

translate_fixture lds_order
for co in lds_order.co lds_order.gfx942.co lds_order.gfx950.co; do
	cat >l.json <<JSON
{"code_object": "$co", "kernel": "lds_order", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 512, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
	for schedule in deterministic shuffle:7 shuffle:12345; do
		rm -f out.bin
		run_capture "$MIRAGE_BIN" emulate l.json --schedule "$schedule"
		assert_eq "$RUN_STATUS" 0 "$co, $schedule: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
		judge out.bin || fail "$co, $schedule: a lane saw LDS out of program order"
		ok "$co, $schedule: every lane sees the wave's LDS accesses in program order"
	done
done
done_testing
