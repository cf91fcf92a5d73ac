# Every prose paragraph of the README and the docs closes what it opens (parentheses, code
# spans): a sentence cut off mid-parenthesis, with the next one glued on, fails here.
source "$TEST_LIB"
cd "$MIRAGE_SRC" || fail "cannot cd to $MIRAGE_SRC"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout: cannot list the tracked files"
mapfile -t docs < <(git ls-files --cached --others --exclude-standard -- '*.md')
[ ${#docs[@]} -gt 5 ] || fail "found only ${#docs[@]} Markdown files"
found=$("${PYTHON:-python3}" tests/integration/docs_prose.py "${docs[@]}")
assert_eq "$found" "" "every paragraph of ${#docs[@]} Markdown files closes its parentheses and code spans"
# The check itself: the paragraph the README once had.
printf 'It runs for a B0 object (`HSA_HOTSWAP_STEPPING=a0`, or ASIC revision\nThe test suite runs.\n' >"$TEST_TMP/cut.md"
"${PYTHON:-python3}" tests/integration/docs_prose.py "$TEST_TMP/cut.md" >"$TEST_TMP/cut.out"
assert_eq "$?" 1 "a cut-off sentence is found"
assert_contains "$TEST_TMP/cut.out" "cut.md:1: unbalanced parentheses" "and named by file and line"
done_testing
