# `mirage rewrite` / `mirage inspect` through the real binary and the in-tree tree.
source "$(dirname "$0")/run_lib.sh"
B0=amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
READELF=${LLVM_READELF:-llvm-readelf-22}

mirage rewrite "$FIXTURES/multi.co" -o "$T/multi.co" --target $B0 --entry-trampolines
check "rewrite with entry trampolines" 0
expect_out "'$FIXTURES/multi.co' -> '$T/multi.co': rewritten"
expect_out "kernels:  3 found, 3 stubbed, 0 already had the prologue, 0 already stubbed"
expect_out "symbols:  3 <kernel>.stub added"
expect_out "pool:     .hotswap.text at 0x"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/multi.co" >"$T/dis" 2>&1 || fail "llvm-objdump failed"
for k in k_a k_b k_c; do
	grep -q "<$k.stub>:" "$T/dis" || fail "no $k.stub in the disassembly"
done
"$READELF" -a "$T/multi.co" >/dev/null 2>"$T/re" && [ ! -s "$T/re" ] || fail "llvm-readelf warns: $(cat "$T/re")"
ok "LLVM's tools read the output cleanly and show every stub"

mirage rewrite "$T/multi.co" -o "$T/again.co" --target $B0 --entry-trampolines
check "rewriting the output again" 0
expect_out "unchanged (byte-identical copy)"
expect_out "3 already stubbed"
cmp -s "$T/multi.co" "$T/again.co" || fail "second rewrite changed bytes"
ok "idempotent through the CLI"

# A 600-character kernel name joins its metadata (no fixed-size buffer cuts "<name>.kd" short).
long=long_$(printf 'x%.0s' $(seq 595))
mirage rewrite "$FIXTURES/longname.co" -o "$T/long.co" --target $B0 --entry-trampolines
check "rewrite a kernel with a 600-character name" 0
expect_out "1 stubbed"
"$READELF" -s "$T/long.co" >"$T/long.syms" 2>&1 || fail "llvm-readelf -s failed"
grep -qE " $long\.stub\$" "$T/long.syms" || fail "no $long.stub in .symtab"
"$READELF" -n "$T/long.co" | grep -q ".sgpr_count: *12\$" || fail "the kernel's .sgpr_count was not raised"
ok "its <name>.stub symbol and metadata are LLVM-readable"

mirage --json rewrite "$FIXTURES/hello.co" -o "$T/hello.co" --target $B0 --entry-trampolines --no-stub-symbols
check "rewrite --json --no-stub-symbols" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "d['changed'], d['kernels_stubbed'], d['symbols_added'], 'stub-symbols' in d['passes']")" = \
	"True 1 0 False" ] || fail "report: $(cat "$OUT")"
ok "the JSON report says what ran"

mirage rewrite "$FIXTURES/hello.co" --output "$T/nob0a0.co" --target gfx1250 --entry-trampolines --no-b0a0
check "--no-b0a0 lets a B0->A0 pair run the entry pass alone" 0
expect_out "1 stubbed"
mirage --json inspect "$T/nob0a0.co"
[ "$(json_get "$OUT" "d['pools'][0]['b0a0'], d['pools'][0]['entry_trampolines']")" = "False True" ] ||
	fail "the pool claims the B0->A0 pass ran: $(head -c 300 "$OUT")"
ok "the provenance note records the entry pass only"

mirage rewrite "$FIXTURES/multi.co" -o "$T/strict.co" --target $B0 --entry-trampolines --strict
check "rewrite --strict" 0
# Nothing is optional without the B0->A0 pass, so strict or not the output is the same.
expect_out "kernels:  3 found, 3 stubbed"
cmp -s "$T/multi.co" "$T/strict.co" || fail "--strict changed the output"
"$READELF" -a "$T/strict.co" >/dev/null 2>"$T/re" && [ ! -s "$T/re" ] || fail "llvm-readelf warns: $(cat "$T/re")"
ok "--strict is passed through and the output reads cleanly"

mirage rewrite "$FIXTURES/hello.co" -o "$T/noet.co" --target $B0 --entry-trampolines --no-entry-trampolines
check "--no-entry-trampolines after --entry-trampolines" 0
expect_out "unchanged (byte-identical copy)"
expect_out "passes:   validate"
cmp -s "$FIXTURES/hello.co" "$T/noet.co" || fail "--no-entry-trampolines changed bytes"
"$READELF" -s "$T/noet.co" >"$T/syms" || fail "llvm-readelf failed"
grep -q 'hello\.stub' "$T/syms" && fail "a stub symbol without entry trampolines"
ok "the last of --entry-trampolines and --no-entry-trampolines wins"

# --source overrides the ISA the object says (gfx1250 counts as B0): as A0, gfx1250 is its own
# stepping and the entry pass runs alone.
A0=amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific-
mirage rewrite "$FIXTURES/hello.co" -o "$T/src-a0.co" --source $A0 --target gfx1250 --entry-trampolines
check "--source A0 to gfx1250" 0
expect_out "passes:   validate, entry-trampolines, stub-symbols, metadata"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/src-a0.co" >"$T/dis" 2>&1 || fail "llvm-objdump failed"
grep -q "<hello.stub>:" "$T/dis" || fail "no hello.stub in the disassembly"
ok "--source A0 gets the entry stub without the B0->A0 pass"
mirage rewrite "$FIXTURES/hello.co" -o "$T/src-b0.co" --source $A0 --target $B0
check "--source A0 to a B0 target" 2 "gfx1250 A0 -> B0 is not supported"
grep -q "^hint:" "$ERR" && fail "the B0->A0 hint for an A0 -> B0 pair: $(cat "$ERR")"
[ ! -e "$T/src-b0.co" ] || fail "refused rewrite left its output behind"
mirage rewrite "$FIXTURES/hello.co" -o "$T/x.co" --source gfx942
check "--source other than the object's" 2 "the code object is for gfx1250, not the source ISA gfx942"

mirage rewrite "$FIXTURES/gfx942.co" -o "$T/942.co"
check "a gfx942 object with nothing asked is copied" 0
cmp -s "$FIXTURES/gfx942.co" "$T/942.co" || fail "copy differs"

# Without --target a gfx1250 object goes to A0, as a named gfx1250 target does: the B0->A0 pass
# runs and names its sites; --no-b0a0 keeps it B0.
mirage rewrite "$FIXTURES/b0a0_b0.co" -o "$T/plain.co"
check "plain rewrite of a B0 object runs the B0->A0 pass" 0
expect_out "passes:   validate, b0a0, metadata"
expect_out "b0a0:     in place 8 (cluster_load 7, barrier_isfirst 1); moved 17"
mirage rewrite "$FIXTURES/b0a0_b0.co" -o "$T/named.co" --target gfx1250
check "the same with --target gfx1250" 0
cmp -s "$T/plain.co" "$T/named.co" || fail "plain rewrite differs from --target gfx1250"
ok "plain rewrite is --target gfx1250"
mirage rewrite "$FIXTURES/b0a0_b0.co" -o "$T/kept.co" --no-b0a0
check "--no-b0a0 keeps B0" 0
expect_out "unchanged (byte-identical copy)"
mirage rewrite "$FIXTURES/b0a0_decline.co" -o "$T/decline.co"
check "plain rewrite fails closed on a site it cannot place" 1 \
	"kernel 'far': ds_load_2addr_stride64_b64 at .text+0x0"

# Failures: message, status, and no output file left behind.
mirage rewrite "$FIXTURES/sgpr109.co" -o "$T/109.co" --target $B0 --entry-trampolines
check "a kernel with 109 SGPRs cannot take a stub" 1 "cannot rewrite '$FIXTURES/sgpr109.co': kernel 'sgpr109': .sgpr_count 109 exceeds"
[ ! -e "$T/109.co" ] || fail "a failed rewrite left its output behind"
ok "failed rewrite leaves no output"
mirage rewrite "$FIXTURES/hello.co" -o "$T/a0.co" --entry-trampolines --target gfx1250
check "B0->A0 runs with the entry pass" 0
expect_out "passes:   validate, entry-trampolines, stub-symbols, b0a0, metadata"
mirage rewrite "$FIXTURES/b0a0_decline.co" -o "$T/decline.co" --target gfx1250
check "a required B0->A0 site that cannot be placed fails closed" 1 \
	"kernel 'far': ds_load_2addr_stride64_b64 at .text+0x0"
[ ! -e "$T/decline.co" ] || fail "a failed rewrite left its output behind"
mirage rewrite "$FIXTURES/gfx1251.co" -o "$T/x.co" --target gfx942
check "cross-family from gfx1251 is refused" 2 \
	"cannot rewrite '$FIXTURES/gfx1251.co': cross-family translation gfx1251 -> gfx942 is not supported: the translator reads gfx1250 code only"
mirage rewrite "$FIXTURES/hello.co" -o "$T/x.co" --target gfx9000
check "unknown target ISA" 2 "target ISA: unknown processor in target id 'gfx9000'"
printf 'not an ELF file at all' >"$T/garbage.co"
mirage rewrite "$T/garbage.co" -o "$T/x.co"
check "garbage input" 1 "cannot rewrite '$T/garbage.co': not an ELF file: 22 bytes is shorter than an ELF64 header"
grep -q 'INVALID_ARGUMENT' "$ERR" && fail "the library's status name is not shown to people"
[ ! -e "$T/x.co" ] || fail "output written for bad input"
mirage rewrite "$T/missing.co" -o "$T/x.co"
check "missing input" 1 "cannot read '$T/missing.co': No such file or directory"
mirage rewrite "$FIXTURES/hello.co"
check "no -o" 2 "'rewrite' needs -o OUT"
mirage rewrite "$FIXTURES/hello.co" -o "$T/no/such/dir/x.co" --target $B0 --entry-trampolines
check "unwritable output" 1 "cannot write '$T/no/such/dir/x.co'"
mirage rewrite "$FIXTURES/hello.co" -o "$T/x.co" --entry-trampoline
check "mistyped flag" 2 "did you mean '--entry-trampolines'?"

# inspect
mirage inspect "$T/multi.co" --kernels
check "inspect --kernels" 0
expect_out "amdgcn-amd-amdhsa--gfx1250 (gfx1250)"
expect_out "kernels: 3"
expect_out "k_c (metadata name k_c_display_name)"
expect_out "entry stub ->"
expect_out "compute_pgm_rsrc3"
expect_out "pool: .hotswap.text at"
mirage inspect "$T/multi.co" --disasm k_b
check "inspect --disasm KERNEL" 0
expect_out "<k_b.stub>:"
expect_out "s_get_pc_i64"
expect_out "v_mov_b32_e32 v0, 2"
grep -q "k_a" "$OUT" && fail "--disasm k_b showed k_a"
ok "--disasm KERNEL shows only that kernel"
mirage inspect "$FIXTURES/hello.co" --notes
check "inspect --notes" 0
expect_out "amdhsa.kernels"
mirage --json inspect "$T/multi.co"
check "inspect --json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "len(d['kernels']), d['processor'], len(d['pools'])")" = "3 gfx1250 1" ] || fail "json: $(head -c 300 "$OUT")"
ok "inspect --json parses"
# An object linked from two inputs carries a metadata note per input; read merged, as the
# HSA runtime's reader (comgr) merges them, both kernels are stubbed and both counts raised.
mirage rewrite "$FIXTURES/two_notes.co" -o "$T/two.co" --target $B0 --entry-trampolines
check "rewrite an object with two metadata notes" 0
expect_out "kernels:  2 found, 2 stubbed"
"$READELF" -n "$T/two.co" >"$T/two.notes" 2>&1 || fail "llvm-readelf -n failed"
grep -q "warning" "$T/two.notes" && fail "llvm-readelf warns: $(cat "$T/two.notes")"
[ "$(grep -c '.sgpr_count: *12$' "$T/two.notes")" = 1 ] || fail "ka's .sgpr_count: $(grep sgpr "$T/two.notes")"
[ "$(grep -c '.sgpr_count: *24$' "$T/two.notes")" = 1 ] || fail "kb's .sgpr_count: $(grep sgpr "$T/two.notes")"
ok "each note's kernel has its raised .sgpr_count"
mirage --json inspect "$FIXTURES/two_notes.co"
[ "$(json_get "$OUT" "[k['metadata_name'] for k in d['kernels']], len(d['metadata']['amdhsa.kernels'])")" = \
	"['ka', 'kb'] 2" ] || fail "inspect: $(head -c 400 "$OUT")"
ok "inspect shows the merged metadata"
mirage rewrite "$FIXTURES/two_versions.co" -o "$T/tv.co" --target $B0 --entry-trampolines
check "a metadata note of another amdhsa.version" 1 \
	"kernel 'kv' has no entry in the AMDGPU metadata, so its SGPR count is unknown: the object carries 1 more metadata note(s) whose amdhsa.version (or amdhsa.printf) differs from the first, which the HSA runtime's reader (comgr) leaves out as well"
[ ! -e "$T/tv.co" ] || fail "output written for a refused object"
mirage inspect "$FIXTURES/two_versions.co"
check "inspect an object with a note left out" 0
expect_out "metadata: 1 note(s) left out: another amdhsa.version (or amdhsa.printf) than the first"

# A pass asked for on a processor that never needs it: exit 0, an unchanged copy, and why.
mirage rewrite "$FIXTURES/gfx942.co" -o "$T/942.co" --entry-trampolines
check "--entry-trampolines on gfx942" 0
expect_out "unchanged (byte-identical copy)"
expect_out "passes:   validate"
expect_out "note:     entry trampolines do not apply to gfx942: the entry-prologue erratum is gfx12.5's"
cmp -s "$FIXTURES/gfx942.co" "$T/942.co" || fail "gfx942 output differs from its input"
mirage --json rewrite "$FIXTURES/gfx942.co" -o "$T/942.co" --entry-trampolines
json_ok "$OUT"
[ "$(json_get "$OUT" "d['changed'], 'entry-trampolines' in d['passes'], 'do not apply' in d['note']")" = \
	"False False True" ] || fail "report: $(cat "$OUT")"
ok "the JSON report carries the same note"

# Every processor LLVM 22 knows is described, older wave64 families too.
for p in gfx803 gfx700; do
	mirage inspect "$FIXTURES/$p.co"
	check "inspect a $p object" 0
	expect_out "amdgcn-amd-amdhsa--$p ($p)"
	expect_out "k${p#gfx}"
done
mirage inspect "$FIXTURES/gfx803.co" --disasm
check "inspect --disasm a gfx803 object" 0
expect_out "s_endpgm"
mirage inspect "$FIXTURES/gfx700.co" --disasm
check "inspect --disasm a gfx700 object" 1 \
	"cannot inspect '$FIXTURES/gfx700.co': LLVM 22 cannot disassemble gfx700: its AMDGPU disassembler starts at gfx8"
mirage inspect "$FIXTURES/hello.co" --disasm=nope
check "inspect an unknown kernel" 1 "no kernel named 'nope'"
mirage inspect "$T/garbage.co"
check "inspect garbage" 1 "cannot inspect '$T/garbage.co': not an ELF file"
: >"$T/empty.co"
mirage inspect "$T/empty.co"
check "inspect an empty file" 1 "cannot inspect '$T/empty.co': empty input"

# -o a device or a FIFO writes into it: /dev/null stays the device, a FIFO's reader gets the
# object, and a FIFO nobody reads is an error at once, not a hang.
mirage rewrite "$FIXTURES/hello.co" -o /dev/null --target $B0 --entry-trampolines
check "rewrite -o /dev/null" 0
[ -c /dev/null ] && ok "/dev/null is still a character device" || fail "/dev/null is still a character device"
mkfifo "$T/out.fifo"
cat "$T/out.fifo" >"$T/from_fifo.co" &
reader=$!
# The reader must be waiting in its open of the FIFO (the kernel counts it as a reader from
# then on) before mirage looks for one: on a loaded machine the background cat starts late.
# It is there once the process is cat and asleep.  If mirage fails anyway, the reader is
# killed, not waited on for ever.
for _ in $(seq 200); do
	[ "$(cat "/proc/$reader/comm" 2>/dev/null)" = cat ] &&
		[ "$(awk '{print $3}' "/proc/$reader/stat" 2>/dev/null)" = S ] && break
	sleep 0.05
done
mirage rewrite "$FIXTURES/hello.co" -o "$T/out.fifo" --target $B0 --entry-trampolines
[ "$RC" = 0 ] || kill "$reader" 2>/dev/null
check "rewrite -o a FIFO with a reader" 0
wait "$reader"
mirage rewrite "$FIXTURES/hello.co" -o "$T/hello.file.co" --target $B0 --entry-trampolines
cmp -s "$T/from_fifo.co" "$T/hello.file.co" && ok "the FIFO's reader got the object" ||
	fail "the FIFO's reader got the object"
mirage rewrite "$FIXTURES/hello.co" -o "$T/out.fifo" --target $B0 --entry-trampolines
check "rewrite -o a FIFO nobody reads" 1 "No such device or address"
[ -p "$T/out.fifo" ] && ok "the FIFO is left a FIFO" || fail "the FIFO is left a FIFO"

# "-" is standard input for IN and inspect, standard output for -o; the report then goes to
# stderr, so that stdout holds the object's bytes only.
RUN_STDIN=$FIXTURES/hello.co mirage rewrite - -o - --target $B0 --entry-trampolines
check "rewrite - -o -" 0
cmp -s "$OUT" "$T/hello.file.co" || fail "rewrite - -o - wrote other bytes than -o FILE"
grep -qF "'<stdin>' -> '<stdout>': rewritten" "$ERR" || fail "the report is not on stderr: $(cat "$ERR")"
ok "the object goes to stdout, the report to stderr"
RUN_STDIN=$T/hello.file.co mirage inspect -
check "inspect -" 0
expect_out "<stdin>: amdgcn-amd-amdhsa--gfx1250"
RUN_STDIN=/dev/null mirage inspect -
check "inspect - of an empty stdin" 1 "cannot inspect '<stdin>': empty input"
mirage --json rewrite "$FIXTURES/hello.co" -o - --target $B0
check "--json with -o -" 2 "--json and -o - would both write to standard output"
[ ! -s "$OUT" ] || fail "--json -o - wrote to stdout: $(head -c 100 "$OUT" | cat -A)"
ok "--json -o - writes nothing to stdout"
if command -v script >/dev/null; then
	run script -qec "$(printf '%q ' "$MIRAGE_BIN" rewrite "$FIXTURES/hello.co" -o - --target $B0)" /dev/null
	check "-o - on a terminal" 2
	grep -qF "would write a binary code object to the terminal" "$OUT" ||
		fail "no refusal on the terminal: $(head -c 300 "$OUT" | cat -A)"
	grep -qF "ELF" "$OUT" && fail "the object was written to the terminal"
	ok "-o - refuses a terminal and writes nothing to it"
fi

# Without a HotSwap tree there is no rewriter to use.
mkdir -p "$T/elsewhere/bin"
cp "$MIRAGE_BIN" "$T/elsewhere/bin/mirage"
run env -u HOTSWAP_HOME "$T/elsewhere/bin/mirage" rewrite "$FIXTURES/hello.co" -o "$T/x.co"
check "rewrite without a tree" 1 "the rewriter comes from a HotSwap tree"
done_testing
