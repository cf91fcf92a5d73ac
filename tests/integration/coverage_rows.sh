# The decoder rows' coverage report checked in to tests/kernels/README.md ("Coverage") and its
# line in the README are what tests/coverage/rows.py gives for this build: every sample of every
# row of the gfx1250, gfx942 and gfx950 tables assembled by llvm-mc-22 and raised, each row
# raised, refused (with its reason) or not assembled.  A row added to a table, or semantics
# added to the raiser, makes it stale: refresh with `cmake --build build --target coverage-update`.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"
command -v python3 >/dev/null || skip_all "python3 not installed"
export MIRAGE_BIN
cov=$MIRAGE_SRC/tests/coverage

run_capture python3 "$cov/rows.py" "$TEST_TMP/out"
assert_eq "$RUN_STATUS" 0 "rows.py raised every table's samples"
sed 's/^/# /' "$TEST_TMP/out/rows-line.md"

# stale FILE NAME BODY: FILE's generated section NAME is BODY, else the difference is shown.
stale() {
	local file=$1 name=$2 body=$3
	run_capture python3 "$cov/sections.py" check "$MIRAGE_SRC/$file" "$name=$body"
	case $RUN_STATUS in
	0) ok "$file's section $name is this build's" ;;
	1)
		head -60 "$RUN_STDOUT_FILE" | sed 's/^/# /'
		: >"$RUN_STDOUT_FILE"
		fail "$file's section $name is stale (the diff above): run 'cmake --build $MIRAGE_BUILD --target coverage-update' and commit it"
		;;
	*) fail "$file has no section $name" ;;
	esac
}
stale tests/kernels/README.md rows "$TEST_TMP/out/rows.md"
stale README.md rows-line "$TEST_TMP/out/rows-line.md"

# The check bites: a changed figure is reported, naming the section.
sed '0,/raised/s/\*\*\([0-9]*\) raised\*\*/**1\1 raised**/' "$TEST_TMP/out/rows.md" >"$TEST_TMP/changed.md"
run_capture python3 "$cov/sections.py" check "$MIRAGE_SRC/tests/kernels/README.md" "rows=$TEST_TMP/changed.md"
assert_eq "$RUN_STATUS" 1 "a changed figure makes the section stale"
assert_contains "$RUN_STDOUT" "(section rows, checked in)" "and the difference names the section"
done_testing
