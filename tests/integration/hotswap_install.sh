# mirage hotswap install/list/remove from a local archive and a file:// URL,
# and discovery of the installed tree by a mirage with no build tree next to it.
source "$(dirname "$0")/hotswap_lib.sh"

make_tree "$T/src/mytree"
make_tarball "$T/mytree.tar.gz" "$T/src/mytree"
SUM=$(sha256_of "$T/mytree.tar.gz")

# Nothing installed: a hotswap profile is refused, naming where installs go.
mirage profile create p --emulator hotswap --target gfx942
expect_rc 1 "profile create without a tree"
expect_err "$DATA/hotswap/*/lib/libhotswap_intercept.so"
mirage hotswap list
expect_rc 0 "list with nothing installed"
expect_err "no HotSwap trees installed"

# Leftovers of a killed install a day old are swept; a fresh one (a running install's) is not.
mkdir -p "$DATA/hotswap/.tmp-old1/tree/lib" "$DATA/hotswap/.tmp-new1"
touch -d '2 days ago' "$DATA/hotswap/.tmp-old1"

# Install from a local file: the name comes from the archive's top directory.
mirage hotswap install "$T/mytree.tar.gz"
expect_rc 0 "install FILE"
expect_out "installed HotSwap tree 'mytree' (native)"
expect_out "sha256 $SUM"
[ -f "$DATA/hotswap/mytree/lib/libhotswap_intercept.so" ] ||
	fail "the intercept is not at <data>/hotswap/mytree/lib/"
[ -f "$DATA/hotswap/mytree/lib/libhotswap_intercept_core.so" ] ||
	fail "the intercept's core is not at <data>/hotswap/mytree/lib/"
[ -L "$DATA/hotswap/mytree/lib/libhotswap_rewrite.so" ] ||
	fail "the in-tree symlink was not kept"
assert_eq "$(dot_entries)" ".tmp-new1 " \
	"install swept the stale temp dir, kept the fresh one, left none of its own"
rmdir "$DATA/hotswap/.tmp-new1"

# Discovery finds it: profile create validates it, run --dry-run injects it, paths shows it.
mirage profile create p --emulator hotswap --target gfx942
expect_rc 0 "profile create with an installed tree"
mirage run --profile p --dry-run -- true
expect_rc 0 "run --dry-run"
expect_out "HOTSWAP_HOME=$DATA/hotswap/mytree"
mirage --json paths
if [ "$RC" != 2 ]; then # `paths` may not be registered in this build yet
	expect_rc 0 "paths"
	echo "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)["hotswap"]
assert d["root"] == sys.argv[1] and d["complete"], d
' "$DATA/hotswap/mytree" || fail "paths --json does not report the installed tree"
fi

# Installing the same tree again is refused and changes nothing.
mirage hotswap install "$T/mytree.tar.gz"
expect_rc 1 "install twice"
expect_err "a HotSwap tree named 'mytree' is already installed"
expect_err "mirage hotswap remove mytree"

# From a file:// URL, under another name, with the right checksum, as JSON.
mirage --json hotswap install "file://$T/mytree.tar.gz" --name second --sha256 "$SUM"
expect_rc 0 "install file:// --json"
echo "$OUT" | python3 -m json.tool >/dev/null || fail "install --json is not JSON: $OUT"
echo "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert sorted(d) == ["flavour", "name", "root", "sha256"], d
assert d["name"] == "second" and d["flavour"] == "native" and d["sha256"] == sys.argv[1], d
assert d["root"].endswith("/hotswap/second"), d
' "$SUM" || fail "install --json document: $OUT"

# A file:// URL to a missing file.
mirage hotswap install "file://$T/missing.tar.gz"
expect_rc 1 "install file:// missing"
expect_err "file://$T/missing.tar.gz"
expect_err "hint: check that the file exists and is readable"
grep -q 'needs an absolute path' "$ERR" && fail "an absolute file:// path is told it needs one"
# A file:// URL without the third slash: the path is not absolute.
mirage hotswap install "file://missing.tar.gz"
expect_rc 1 "install file:// relative"
expect_err "a file:// URL needs an absolute path"

# list: both trees, text and JSON.
mirage hotswap list
expect_rc 0 "list"
expect_out "mytree"
expect_out "second"
expect_out "native"
mirage --json hotswap list
expect_rc 0 "list --json"
echo "$OUT" | python3 -m json.tool >/dev/null || fail "list --json is not JSON: $OUT"
echo "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [t["name"] for t in d] == ["mytree", "second"], d
assert all(t["complete"] and t["flavour"] == "native" for t in d), d
assert [t["in_use"] for t in d] == [True, False], d
' || fail "list --json document: $OUT"

# An installed tree that lost a part shows as incomplete.
rm "$DATA/hotswap/second/lib/libhotswap_rewrite.so.0"
mirage --json hotswap list
echo "$OUT" | python3 -c '
import json, sys
d = {t["name"]: t for t in json.load(sys.stdin)}
assert d["second"]["complete"] is False and d["mytree"]["complete"] is True, d
' || fail "list --json does not flag the broken tree: $OUT"

# So does one that lost only the intercept's core.
rm "$DATA/hotswap/mytree/lib/libhotswap_intercept_core.so"
mirage --json hotswap list
echo "$OUT" | python3 -c '
import json, sys
d = {t["name"]: t for t in json.load(sys.stdin)}
assert d["mytree"]["complete"] is False, d
' || fail "list --json does not flag the tree without its core: $OUT"
cp "$T/so/libhotswap_intercept_core.so" "$DATA/hotswap/mytree/lib/"

# The build's own staged tree, when this build has a complete one.  Its llvm-tools link to
# the system LLVM (outside the tree, so an install would refuse them): leave them out.
STAGED=${MIRAGE_BUILD:-}/hotswap
if [ -n "${MIRAGE_BUILD:-}" ] && [ -f "$STAGED/lib/libhotswap_intercept.so" ] &&
	HOTSWAP_HOME=$STAGED "$MIRAGE_EXE" --json paths 2>/dev/null |
	python3 -c 'import json, sys; sys.exit(not json.load(sys.stdin)["hotswap"]["complete"])'; then
	tar -czf "$T/staged.tar.gz" --exclude=./llvm-tools -C "$STAGED" .
	mirage --json hotswap install "$T/staged.tar.gz"
	expect_rc 0 "install the staged build tree"
	echo "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["name"] == "staged" and d["flavour"] == "native", d
' || fail "staged tree install: $OUT"
	mirage hotswap remove staged -f
	expect_rc 0 "remove the staged tree"
else
	skip "no complete staged tree in this build"
fi

# remove: with -f, then unknown names, then the confirmation.
mirage hotswap remove second -f
expect_rc 0 "remove -f"
expect_out "removed HotSwap tree 'second'"
[ ! -e "$DATA/hotswap/second" ] || fail "remove left the tree"
mirage hotswap remove second -f
expect_rc 1 "remove unknown"
expect_err "no HotSwap tree named 'second' is installed"
expect_err "mirage hotswap list"
mirage hotswap remove ../mytree -f
expect_rc 2 "remove ../mytree"
expect_err "invalid tree name"
mirage hotswap remove mytree
expect_rc 1 "remove without -f at end of input"
expect_err "mirage: cannot ask whether to remove HotSwap tree 'mytree': standard input ended without an answer"
expect_err "hint: pass -f to remove without asking"
[ -d "$DATA/hotswap/mytree" ] || fail "remove without an answer removed the tree"
OUT=$(echo n | "$MIRAGE_EXE" hotswap remove mytree 2>/dev/null)
RC=$?
expect_rc 2 "remove answered no"
assert_eq "$OUT" "HotSwap tree 'mytree' not removed" "remove answered no: stdout"
# Under --json the answer is a document too, as for `profile delete`.
OUT=$(echo n | "$MIRAGE_EXE" --json hotswap remove mytree 2>/dev/null)
RC=$?
expect_rc 2 "remove --json answered no"
echo "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d == {"name": "mytree", "root": sys.argv[1], "removed": False}, d
' "$DATA/hotswap/mytree" || fail "remove --json answered no: $OUT"
[ -d "$DATA/hotswap/mytree" ] || fail "remove answered no removed the tree"
OUT=$(echo y | "$MIRAGE_EXE" hotswap remove mytree 2>/dev/null)
RC=$?
expect_rc 0 "remove answered yes"
[ ! -e "$DATA/hotswap/mytree" ] || fail "remove answered yes left the tree"
expect_nothing_installed "after removing everything"

finish
