#!/usr/bin/env bash
# Every modifier bit of every VALU row of the table $ISA is modelled or refused: each variant
# llvm-mc-22 assembles (clamp, omod, neg/abs, op_sel, op_sel_hi, neg_lo/hi, DPP, SDWA) is raised,
# and a raised one runs under `mirage emulate` against the hardware's documented rule for the
# modifier, applied to the plain instruction (tests/integration/raise_mod_bits.py).
# shellcheck source=lib.sh
source "$TEST_LIB"
export ISA="${ISA:-gfx1250}"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"
command -v python3 >/dev/null || skip_all "python3 not installed"
export MIRAGE_BIN

mkdir -p "$TEST_TMP/run" "$TEST_TMP/selftest"
run_capture python3 "$MIRAGE_SRC/tests/integration/raise_mod_bits.py" "$TEST_TMP/run"
echo "$RUN_STDOUT" | sed 's/^/# /'
[ -z "$RUN_STDERR" ] || echo "$RUN_STDERR" | sed 's/^/# stderr: /'
assert_eq "$RUN_STATUS" 0 "$ISA: every modifier is modelled (and checked) or refused"
assert_contains "$RUN_STDOUT" " run against the rule, 0 problems" "$ISA: raised variants ran against the rule"

# The check bites: one corrupted expectation is reported.
run_capture env MOD_BITS_SELFTEST=1 python3 "$MIRAGE_SRC/tests/integration/raise_mod_bits.py" "$TEST_TMP/selftest"
assert_eq "$RUN_STATUS" 1 "$ISA: a result that disagrees with the rule fails the test"
assert_contains "$RUN_STDOUT" "the rule gives" "$ISA: and names the instruction and the values"
done_testing
