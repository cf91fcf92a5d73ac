#!/usr/bin/env bash
# isa_dump picks the decoder table from the object's ELF e_flags (gfx12.5 -> gfx1250, gfx950 ->
# gfx950, the rest of gfx9.4 -> gfx942), refuses a processor without a table naming it, and
# refuses an unknown --isa (docs/isa-decoder.md).
source "$TEST_LIB"

[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"

run_capture "$TEST_TOOLS/isa_dump" "$FIXTURES/gfx942.co"
assert_eq "$RUN_STATUS" 0 "a gfx942 object decodes without --isa"
assert_contains "$RUN_STDOUT" "s_endpgm" "with the gfx942 table"
assert_not_contains "$RUN_STDOUT" "<unknown" "every instruction a known row"

run_capture "$TEST_TOOLS/isa_dump" "$FIXTURES/hello.co"
assert_eq "$RUN_STATUS" 0 "a gfx1250 object decodes without --isa"
assert_not_contains "$RUN_STDOUT" "<unknown" "with the gfx1250 table"

printf '\t.text\n\tv_bitop3_b32 v2, v0, v1, v1 bitop3:0x7a\n\ts_endpgm\n' >"$TEST_TMP/b.s"
"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj "$TEST_TMP/b.s" -o "$TEST_TMP/gfx950.o" ||
	fail "llvm-mc-22 -mcpu=gfx950"
run_capture "$TEST_TOOLS/isa_dump" "$TEST_TMP/gfx950.o"
assert_eq "$RUN_STATUS" 0 "a gfx950 object decodes without --isa"
assert_contains "$RUN_STDOUT" "v_bitop3_b32 v2, v0, v1, v1 bitop3:0x7a" "with the gfx950 rows"
run_capture "$TEST_TOOLS/isa_dump" --isa gfx942 "$TEST_TMP/gfx950.o"
assert_contains "$RUN_STDOUT" "<unknown VOP3 opcode 0x234>" "--isa gfx942 overrides e_flags (no bitop3 there)"

printf '\t.text\n\ts_endpgm\n' >"$TEST_TMP/e.s"
"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj "$TEST_TMP/e.s" -o "$TEST_TMP/gfx900.o" ||
	fail "llvm-mc-22 -mcpu=gfx900"
run_capture "$TEST_TOOLS/isa_dump" "$TEST_TMP/gfx900.o"
assert_eq "$RUN_STATUS" 1 "a processor without a table is refused"
assert_contains "$RUN_STDERR" "no decoder table for processor gfx900" "the message names the processor"
assert_contains "$RUN_STDERR" "$TEST_TMP/gfx900.o" "and the file"
assert_eq "$RUN_STDOUT" "" "nothing decoded"

run_capture "$TEST_TOOLS/isa_dump" --isa gfx90a "$FIXTURES/gfx942.co"
assert_eq "$RUN_STATUS" 2 "an unknown --isa is a usage error"
assert_contains "$RUN_STDERR" "unknown --isa 'gfx90a' (gfx1250, gfx942, gfx950)" "naming the tables"
done_testing
