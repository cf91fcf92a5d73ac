#!/usr/bin/env bash
# Beyond the fixed samples: every sample's encoding with random bytes after its first dword
# (registers, modifiers, offsets, literals), one instruction per function, decoded our way and
# by llvm-objdump-22 (tests/integration/isa_oracle.py fields), for the table $ISA (gfx1250, the
# default, gfx942 or gfx950).  Fixed seeds: reproducible.
source "$TEST_LIB"
export ISA="${ISA:-gfx1250}"

[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"
command -v python3 >/dev/null || skip_all "python3 not installed"

for seed in 1 2 3; do
	run_capture python3 "$MIRAGE_SRC/tests/integration/isa_oracle.py" fields "$seed" "$TEST_TMP"
	echo "$RUN_STDOUT" | tail -20 | sed 's/^/# /'
	assert_eq "$RUN_STATUS" 0 "$ISA seed $seed: random operand fields agree with llvm-objdump-22"
done
done_testing
