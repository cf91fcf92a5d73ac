#!/usr/bin/env bash
# Every fixture (tests/fixtures, assembled by llvm-mc-22) translated by `mirage rewrite --target`
# for gfx942 and gfx950: the exit status and the SHA-256 of the output, against
# tests/integration/translate_golden.list (where translate_suite.sh pins the suite's own
# translations).  The translator's build id in the output's .note.hotswap changes with every
# build of it, so it is blanked before hashing.  A refactor leaves every line as it is; a
# deliberate change regenerates them with
#   MIRAGE_GOLDEN_UPDATE=1 ctest --preset default -R 'translate_golden|translate_suite'
# shellcheck source=lib.sh
source "$TEST_LIB"

shopt -s nullglob
export LC_ALL=C
objs=("$FIXTURES"/*.co)
[ ${#objs[@]} -gt 10 ] || skip_all "fixtures are not built (target 'fixtures')"
cd "$TEST_TMP" || exit 1
for target in gfx942 gfx950; do
	: >"$target.rows"
	for o in "${objs[@]}"; do
		"$MIRAGE_BIN" rewrite "$o" -o out.co --target "$target" >/dev/null 2>&1
		rc=$? h=-
		# 0: translated; 3: partial, the refused kernels trap (docs/translate.md).
		[ "$rc" = 0 ] || [ "$rc" = 3 ] && h=$(sed 's/mirage-translate-[0-9a-f]\{40\}/mirage-translate-BUILD-ID/' out.co |
			sha256sum | cut -d' ' -f1)
		echo "fixture $target $(basename "$o") $rc $h" >>"$target.rows"
		rm -f out.co
	done
	golden_check "$MIRAGE_SRC/tests/integration/translate_golden.list" "fixture $target" \
		"$target.rows" "every fixture translated for $target"
done
done_testing
