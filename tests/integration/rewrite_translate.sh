#!/usr/bin/env bash
# The translation route from the shell: `mirage rewrite IN -o OUT --target gfx942|gfx950` with a
# test-double translator (the plumbing, apart from the real translator), every error path a
# user can hit (a refused kernel, no translator, a stale one, a wrong object from it), the
# real translator of this build, `mirage inspect` of the output, and that only a translation
# maps libmirage_translate.so.
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/translate_lib.sh"
# The translator API's version, as its header says (translate/api/mirage_translate.h).
TRANSLATE_API=$(sed -n 's/^#define TRANSLATE_API_VERSION *\([0-9]*\).*/\1/p' "$MIRAGE_SRC/translate/api/mirage_translate.h")

tree=$T/tree/hotswap
stage_double_tree "$tree"
export HOTSWAP_HOME=$tree

# ---- success: the per-kernel report, the output judged by LLVM's tools ----
mirage rewrite "$XLAT_SRC" -o "$T/out.co" --target gfx942
check "gfx1250 -> gfx942 translates" 0
expect_out "'$XLAT_SRC' -> '$T/out.co': translated, +"
expect_out "  passes:   validate, translate, metadata"
expect_out "  kernels:  2 found, 2 translated, 0 refused"
expect_out "  kernel 'xk': translated"
expect_out "  kernel 'xk2': translated"
ok "the report names every kernel"
judge_translated "$T/out.co" "$XLAT_SRC" gfx942 "mirage rewrite --target gfx942"
"$LLVM_OBJDUMP" -d --mcpu=gfx942 "$T/out.co" >"$T/dis.txt" 2>&1 || fail "llvm-objdump -d"
assert_not_contains "$T/dis.txt" "<unknown>" "llvm-objdump-22 decodes all of .text for gfx942"
# (The judge also holds xk2, which had no arguments: the translator's by_value block is gone.)
"$LLVM_READELF" --notes "$T/out.co" >"$T/notes.txt"
assert_contains "$T/notes.txt" "hidden_grid_dims" "the source's hidden arguments are listed"
mirage rewrite "$XLAT_SRC" -o "$T/out2.co" --target gfx942
cmp -s "$T/out.co" "$T/out2.co" || fail "two translations differ"
ok "deterministic: the same bytes twice"

mirage --json rewrite "$XLAT_SRC" -o "$T/j.co" --target gfx942
check "--json translation" 0
json_ok "$OUT"
assert_eq "$(json_get "$OUT" "d['passes'], d['translation'], [(k['name'], k['translated']) for k in d['kernel_results']]")" \
	"['validate', 'translate', 'metadata'] {'translated': 2, 'refused': 0, 'partial': False} [('xk', True), ('xk2', True)]" \
	"--json: passes, counts and every kernel's verdict"

# Entry trampolines are a gfx12.5 fix: asked for on a translation, a note says it did not run.
mirage rewrite "$XLAT_SRC" -o "$T/tramp.co" --target gfx942 --entry-trampolines
check "--entry-trampolines on a translation" 0
expect_out "  note:     entry trampolines are a gfx12.5 erratum fix; a translation to gfx942 needs none"
ok "the note says the pass did not run"
cmp -s "$T/out.co" "$T/tramp.co" || fail "--entry-trampolines changed a translation"
ok "no trampolines in a translated object"

# ---- inspect: a translation, with its provenance ----
mirage inspect "$T/out.co"
check "inspect the translated object" 0
expect_out "$T/out.co: amdgcn-amd-amdhsa--gfx942 (gfx942)"
expect_out "translation: from amdgcn-amd-amdhsa--gfx1250 for amdgcn-amd-amdhsa--gfx942, translator double-1"
ok "inspect shows the source ISA, the target and the translator build"
mirage --json inspect "$T/out.co"
assert_eq "$(json_get "$OUT" "d['translation']")" \
	"{'source_isa': 'amdgcn-amd-amdhsa--gfx1250', 'target_isa': 'amdgcn-amd-amdhsa--gfx942', 'translator_build': 'double-1'}" \
	"inspect --json: the translation's provenance"
mirage --json inspect "$XLAT_SRC"
assert_eq "$(json_get "$OUT" "'translation' in d")" "False" "an object never translated has none"

# ---- refusals: every kernel and reason named, exit 1, nothing written ----
export MIRAGE_TEST_TRANSLATE_REFUSE="xk2:0x100:v_wmma_f32:unsupported-instruction:no gfx942 form:wave32 only"
mirage rewrite "$XLAT_SRC" -o "$T/refused.co" --target gfx942
check "a refused kernel fails the translation" 1 \
	"mirage: cannot translate '$XLAT_SRC' for gfx942: 1 of 2 kernels refused:"
expect_err "  kernel 'xk2' is refused at 0x100 (v_wmma_f32): unsupported-instruction: no gfx942 form: wave32 only"
expect_err "hint: a refused kernel cannot run on gfx942; rebuild it for gfx942 from source, or run it on a gfx1250"
ok "the refusal names the kernel, offset, mnemonic, reason, text and detail, with a hint"
[ ! -e "$T/refused.co" ] || fail "a refused translation left its output behind"
ok "a refused translation writes no output"
mirage --json rewrite "$XLAT_SRC" -o "$T/refused.co" --target gfx942
check "--json refusal" 1
json_ok "$OUT"
assert_eq "$(json_get "$OUT" "d['translation'], d['kernel_results'][1]")" \
	"{'translated': 1, 'refused': 1, 'partial': False} {'name': 'xk2', 'translated': False, 'kernel': 'xk2', 'reason': 'unsupported-instruction', 'reason_text': 'no gfx942 form', 'offset': '0x100', 'mnemonic': 'v_wmma_f32', 'detail': 'wave32 only'}" \
	"--json: the refusal with everything the translator said"
assert_contains "$ERR" '"error":"cannot translate' "--json: the error on stderr"
unset MIRAGE_TEST_TRANSLATE_REFUSE

# An object-level failure of the translator (it cannot read or link the object).
MIRAGE_TEST_TRANSLATE_ERROR="cannot link: ld.lld failed" mirage rewrite "$XLAT_SRC" -o "$T/e.co" --target gfx942
check "the translator fails for the whole object" 1 \
	"mirage: cannot translate '$XLAT_SRC' for gfx942: the translator cannot translate this object to gfx942: cannot link: ld.lld failed"
expect_err "hint: this tree's translator cannot translate it; \`mirage doctor\` shows what the translator can do"
ok "with a hint"
# A translator whose object is for another processor is not shipped.
mirage rewrite "$XLAT_SRC" -o "$T/e.co" --target gfx950
check "a translator returning the wrong processor" 1 \
	"the translator returned a gfx942 object, not gfx950"
# ... nor one that lacks a kernel.
MIRAGE_TEST_TRANSLATE_KERNELS=xk,xk2 MIRAGE_TEST_TRANSLATE_OUTPUT=$FIXTURES/gfx942.co \
	mirage rewrite "$XLAT_SRC" -o "$T/e.co" --target gfx942
check "a translated object without the source's kernel" 1 "the translated object has no kernel 'xk'"
[ ! -e "$T/e.co" ] || fail "a failed translation left its output behind"
ok "a failed translation writes no output"

# ---- the translator missing, or from another build ----
rm "$tree/lib/libmirage_translate.so"
mirage rewrite "$XLAT_SRC" -o "$T/e.co" --target gfx942
check "no translator in the tree" 1 \
	"mirage: cannot translate '$XLAT_SRC' for gfx942: cannot translate gfx1250 to gfx942: the translator is not available: cannot load '$tree/lib/libmirage_translate.so': "
expect_err "hint: the HotSwap tree needs lib/libmirage_translate.so beside its libhotswap_rewrite.so: rebuild mirage (\`cmake --build\`) or reinstall it; \`mirage doctor\` checks it"
ok "says where it looked and how to fix it"
cat >"$T/stale.c" <<'STALE'
static const struct { unsigned version; } table = {1};
const void *mirage_translate_api(void) { return &table; }
STALE
${CC:-cc} -shared -fPIC -o "$tree/lib/libmirage_translate.so" "$T/stale.c" || fail "cc builds a stale translator"
mirage rewrite "$XLAT_SRC" -o "$T/e.co" --target gfx942
check "a translator of another API version" 1 \
	"the translator is not available: '$tree/lib/libmirage_translate.so' has no usable mirage_translate_api (API version 1, need $TRANSLATE_API)"
expect_err "hint: the HotSwap tree needs lib/libmirage_translate.so"
ok "names both versions, with the hint"

# ---- this build's own translator (the stub until lowering lands) ----
export HOTSWAP_HOME=$MIRAGE_BUILD/hotswap
mirage rewrite "$XLAT_SRC" -o "$T/real.co" --target gfx942
if [ "$RC" = 0 ]; then
	judge_translated "$T/real.co" "$XLAT_SRC" gfx942 "the real translator"
else
	check "the real translator refuses" 1 "mirage: cannot translate '$XLAT_SRC' for gfx942: "
	expect_err "hint: "
	[ ! -e "$T/real.co" ] || fail "a refused translation left its output behind"
	ok "a refusal by the real translator: the reason, a hint, no output"
fi

# ---- only a translation maps the translator (and what it links) ----
export HOTSWAP_HOME=$tree
stage_double_tree "$T/tree2/hotswap"
export HOTSWAP_HOME=$T/tree2/hotswap
loaded() {
	rm -f "$T"/ld.*
	LD_DEBUG=libs LD_DEBUG_OUTPUT=$T/ld "$MIRAGE_BIN" "$@" >/dev/null 2>&1
	LOADED=$(cat "$T"/ld.* 2>/dev/null)
}
loaded rewrite "$FIXTURES/hello.co" -o "$T/same.co" --entry-trampolines
[ -n "$LOADED" ] || fail "LD_DEBUG=libs reported nothing"
assert_not_contains "$LOADED" "libmirage_translate" "a same-ISA rewrite does not load the translator"
loaded inspect "$T/out.co"
assert_not_contains "$LOADED" "libmirage_translate" "inspect of a translation does not load it"
loaded rewrite "$XLAT_SRC" -o "$T/x.co" --target gfx942
assert_contains "$LOADED" "calling init: $HOTSWAP_HOME/lib/libmirage_translate.so" \
	"a translation loads it from beside libhotswap_rewrite.so"
done_testing
