#!/usr/bin/env bash
# Every row of the ISA table named by $ISA (gfx1250, the default, gfx942 or gfx950) is pinned: its
# samples, assembled by llvm-mc-22 -mcpu=$ISA, decode our way to the same size, mnemonic,
# registers, literal and offsets (tests/integration/isa_oracle.py).
source "$TEST_LIB"
export ISA="${ISA:-gfx1250}"

[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"
command -v python3 >/dev/null || skip_all "python3 not installed"

run_capture python3 "$MIRAGE_SRC/tests/integration/isa_oracle.py" rows
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "$ISA: every row's samples agree with llvm-mc-22"
assert_contains "$RUN_STDOUT" " disagree" "the oracle ran over the samples"

# The comparison itself must catch a disagreement: a sample decoded by a different row fails.
run_capture env ISA_ORACLE_SELFTEST=1 python3 "$MIRAGE_SRC/tests/integration/isa_oracle.py" rows
assert_eq "$RUN_STATUS" 1 "a corrupted decode is reported"
done_testing
