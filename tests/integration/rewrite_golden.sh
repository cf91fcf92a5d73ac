# Every output of hs_rewrite and `mirage rewrite` over every fixture, every option-flag
# combination and the ISA pairs that select different passes, against the checked-in
# SHA-256 list rewrite_golden.list (fixtures are assembled by the pinned LLVM 22, so
# their bytes, and the outputs, are reproducible).  A refactor of the rewriter must
# leave every line as it is; a deliberate change regenerates the list with
#   MIRAGE_GOLDEN_UPDATE=1 ctest --preset default -R rewrite_golden
# and says why in its commit.
source "$(dirname "$0")/run_lib.sh"
LIST=$MIRAGE_SRC/tests/integration/rewrite_golden.list
TOOL=$TEST_TOOLS/rewrite_golden
B0=amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+
[ -x "$TOOL" ] || skip_all "no $TOOL (built with libhotswap_rewrite)"
shopt -s nullglob
export LC_ALL=C
objs=("$FIXTURES"/*.co)
[ ${#objs[@]} -gt 10 ] || skip_all "fixtures are not built (target 'fixtures')"

"$TOOL" "${objs[@]}" >"$T/got" 2>"$T/tool.err" || fail "rewrite_golden failed: $(cat "$T/tool.err")"
ok "hs_rewrite ran over ${#objs[@]} objects"

# The CLI maps its flags onto the same options; its outputs are held to the list too.
cli_cases=("" "--entry-trampolines" "--entry-trampolines --no-stub-symbols"
	"--entry-trampolines --strict" "--entry-trampolines --no-b0a0 --target gfx1250"
	"--entry-trampolines --target $B0")
for o in "${objs[@]}"; do
	for i in "${!cli_cases[@]}"; do
		# shellcheck disable=SC2086  # the case is a word list
		mirage rewrite "$o" -o "$T/cli.co" ${cli_cases[$i]}
		h=-
		[ "$RC" = 0 ] && h=$(sha256sum "$T/cli.co" | cut -d' ' -f1)
		echo "$(basename "$o") cli$i $RC $h" >>"$T/got"
		rm -f "$T/cli.co"
	done
done
ok "mirage rewrite ran ${#cli_cases[@]} flag sets over each object"

# hs_inspect describes the same objects the same way (its JSON, with and without disassembly).
for o in "${objs[@]}"; do
	for how in "" "--disasm"; do
		# shellcheck disable=SC2086
		mirage --json inspect "$o" $how
		echo "$(basename "$o") inspect$how $RC $(sha256sum <"$OUT" | cut -d' ' -f1)" >>"$T/got"
	done
done
ok "mirage inspect described each object"

if [ -n "${MIRAGE_GOLDEN_UPDATE:-}" ]; then
	cp "$T/got" "$LIST"
	ok "updated $LIST"
	done_testing
	exit 0
fi
[ -f "$LIST" ] || fail "no $LIST: generate it with MIRAGE_GOLDEN_UPDATE=1"
if ! diff -u "$LIST" "$T/got" >"$T/diff"; then
	head -40 "$T/diff"
	fail "outputs differ from $LIST ($(grep -c '^+[^+]' "$T/diff") lines)"
fi
ok "every output is byte-identical to the list ($(wc -l <"$LIST") cases)"
done_testing
