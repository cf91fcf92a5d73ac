# The scripts checked in under completions/ are what this mirage generates, and so are the build's.
source "$(dirname "$0")/completions_lib.sh"
: "${MIRAGE_SRC:?}" "${MIRAGE_BUILD:?}"

for pair in bash:mirage.bash zsh:_mirage fish:mirage.fish; do
	sh=${pair%%:*} file=${pair#*:}
	"$MIRAGE_BIN" completions "$sh" >"$TEST_TMP/$file" || fail "mirage completions $sh"
	if ! diff -u "$MIRAGE_SRC/completions/$file" "$TEST_TMP/$file" >"$TEST_TMP/diff"; then
		head -40 "$TEST_TMP/diff" | sed 's/^/# /'
		fail "completions/$file is stale: run 'cmake --build $MIRAGE_BUILD --target completions-update' and commit it"
	fi
	ok "completions/$file is current"
	if [ -f "$MIRAGE_BUILD/completions/$file" ]; then
		cmp -s "$MIRAGE_BUILD/completions/$file" "$TEST_TMP/$file" ||
			fail "the build's completions/$file differs from 'mirage completions $sh' (rebuild the completions target)"
		ok "the build's completions/$file is current"
	else
		skip "no $MIRAGE_BUILD/completions/$file (completions target not built)"
	fi
done
done_testing
