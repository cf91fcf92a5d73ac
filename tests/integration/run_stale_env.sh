# Under a hotswap profile the contract owns HSA_HOTSWAP_*: a stale variable in the shell (a
# leftover HSA_HOTSWAP_DISABLE=1) never weakens a run; the profile decides, --env overrides,
# and only the diagnostics switches pass through.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"

mirage profile create p --target gfx1250 --entry-trampolines
check "setup" 0
STALE=(HSA_HOTSWAP_DISABLE=1 HSA_HOTSWAP_STEPPING=b0 HSA_HOTSWAP_IR_RAISER=0
	HSA_HOTSWAP_CACHE_DIR= HSA_HOTSWAP_CACHE_DISABLE=1 HSA_HOTSWAP_FUTURE_KNOB=off
	HSA_HOTSWAP_SOURCE_TARGET=gfx1251:64 HSA_HOTSWAP_VERBOSE=1 HSA_HOTSWAP_CACHE_DEBUG=0)

run env "${STALE[@]}" "$MIRAGE_BIN" run -p p -- "$ENVDUMP"
check "run with stale HSA_HOTSWAP_* in the shell" 0
for v in HSA_HOTSWAP_DISABLE HSA_HOTSWAP_STEPPING HSA_HOTSWAP_CACHE_DIR HSA_HOTSWAP_CACHE_DISABLE \
	HSA_HOTSWAP_FUTURE_KNOB; do
	expect_val $v "<unset>"
done
expect_val HSA_HOTSWAP_IR_RAISER 1
expect_val HSA_HOTSWAP_SOURCE_TARGET gfx1250:32
expect_val PYTORCH_ROCM_ARCH gfx1250
expect_val HSA_HOTSWAP_ENTRY_TRAMPOLINES 1
expect_val HSA_HOTSWAP_VERBOSE 1
expect_val HSA_HOTSWAP_CACHE_DEBUG 0
ok "stale knobs dropped, the profile's values set, diagnostics passed"

run env "${STALE[@]}" "$MIRAGE_BIN" run -p p --dry-run -- "$ENVDUMP"
check "--dry-run with stale variables" 0
expect_out "#   - HSA_HOTSWAP_DISABLE  [contract]"
expect_out "#   - HSA_HOTSWAP_FUTURE_KNOB  [contract]"

# --env is this run's explicit word, and the profile's [env] is the profile deciding.
run env HSA_HOTSWAP_DISABLE=0 "$MIRAGE_BIN" run -p p --env HSA_HOTSWAP_DISABLE=1 -- "$ENVDUMP"
check "--env HSA_HOTSWAP_DISABLE=1" 0
expect_val HSA_HOTSWAP_DISABLE 1
mirage profile edit p --set env.HSA_HOTSWAP_STEPPING=a0
run env HSA_HOTSWAP_STEPPING=b0 "$MIRAGE_BIN" run -p p -- "$ENVDUMP"
check "the profile's [env] sets a HotSwap variable" 0
expect_val HSA_HOTSWAP_STEPPING a0
mirage profile edit p --unset env.HSA_HOTSWAP_STEPPING
check "--env and the profile's [env] decide" 0

# A native profile gets no contract, so the shell's variables pass untouched.
mirage profile create n --emulator native
run env HSA_HOTSWAP_DISABLE=1 "$MIRAGE_BIN" run -p n -- "$ENVDUMP"
check "native profile" 0
expect_val HSA_HOTSWAP_DISABLE 1

# End to end: a B0 gfx1250 agent, a stale HSA_HOTSWAP_DISABLE=1; the loader still gets the
# rewritten object.
mkdir -p "$T/rec"
run env HSA_HOTSWAP_DISABLE=1 STANDIN_RECORD_DIR="$T/rec" STANDIN_AGENT_GFX=gfx1250 \
	STANDIN_ASIC_REV=1 "$MIRAGE_BIN" run -p p -- "$CLIENT" "$HELLO"
check "the stand-in client under a stale HSA_HOTSWAP_DISABLE=1" 0
expect_rewritten "$T/rec/load-1.co" "the workload's loader received the rewritten object"
done_testing
