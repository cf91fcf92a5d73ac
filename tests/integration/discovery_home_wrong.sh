# HOTSWAP_HOME set to a directory with no tree in it: a user who sets it means that tree, so
# every command that needs one fails (or, for emulators, reports) naming HOTSWAP_HOME, what is
# missing there and the fix, even with a complete tree later in the search order.
source "$(dirname "$0")/discovery_lib.sh"

# A relocated mirage whose install-prefix probe holds a complete tree: the old search fell
# through to it silently.
mkdir -p "$T/pfx/bin"
cp "$MIRAGE_BIN" "$T/pfx/bin/mirage"
MIRAGE_EXE=$T/pfx/bin/mirage
stage_native "$T/pfx/lib/mirage/hotswap"
export MIRAGE_DATA=$T/data
unset HOTSWAP_HOME
mirage emulators
expect_rc 0 "emulators, HOTSWAP_HOME unset"
expect_line '^hotswap\* +yes '

export HOTSWAP_HOME=$T/nowhere
verdict="HOTSWAP_HOME is set to '$T/nowhere', but there is no HotSwap tree there: no such directory"
looked="mirage looked for '$T/nowhere/lib/libhotswap_intercept.so' and, while HOTSWAP_HOME is set, nowhere else"
tip="hint: point HOTSWAP_HOME at the root of a HotSwap tree (the directory holding lib/libhotswap_intercept.so): export HOTSWAP_HOME=/abs/path/to/hotswap, or unset"
unset_tip="or unset HOTSWAP_HOME to let mirage search its other locations"
expect_pinned_err() { # expect_pinned_err DESC: the full message on stderr, nothing of the other tree
	expect_rc 1 "$1"
	expect_err "$verdict"
	expect_err "$looked"
	expect_err "$tip"
	expect_err "$unset_tip"
	case $ERR in *"$T/pfx/lib/mirage/hotswap"*) fail "$1: names the tree HOTSWAP_HOME overrides" ;; esac
}

mirage profile create p1 --emulator hotswap
expect_pinned_err "profile create"
expect_err "mirage: cannot use the hotswap emulator for profile 'p1':"
[ ! -e "$HOME/.config/mirage/profiles/p1.ini" ] || fail "profile create wrote p1.ini"

write_profile p2 gfx942
mirage run --profile p2 -- true
expect_pinned_err "run"
expect_err "mirage: cannot run profile 'p2' under HotSwap:"
mirage run --profile p2 --dry-run -- true
expect_pinned_err "run --dry-run"

mirage rewrite "$MIRAGE_BUILD/tests/fixtures/hello.co" -o "$T/out.co" --entry-trampolines
expect_pinned_err "rewrite"
expect_err "mirage: the rewriter comes from a HotSwap tree:"
[ ! -e "$T/out.co" ] || fail "rewrite wrote its output"
mirage inspect "$MIRAGE_BUILD/tests/fixtures/hello.co"
expect_pinned_err "inspect"

mirage doctor
expect_rc 1 "doctor"
expect_line "^FAIL  HOTSWAP_HOME='$T/nowhere' holds no HotSwap tree: no such directory$"
expect_line "^      fix: point HOTSWAP_HOME at the root of a HotSwap tree \(the directory holding lib/libhotswap_intercept.so\), or unset HOTSWAP_HOME to let mirage search its other locations$"
expect_line "^      nothing $T/nowhere/lib/libhotswap_intercept.so +\(HOTSWAP_HOME\)$"
expect_no_out "$T/pfx/lib/mirage/hotswap"
mirage --json doctor
expect_rc 1 "doctor --json"
expect_json '[c for c in d["checks"] if c["check"] == "discovery"][0]["status"] == "fail"'
expect_json '"holds no HotSwap tree: no such directory" in [c for c in d["checks"] if c["check"] == "discovery"][0]["message"]'

mirage emulators
expect_rc 0 "emulators"
expect_line '^hotswap\* +no +'
mirage emulators -l
expect_rc 0 "emulators -l"
expect_out "runtime:   not found (libhotswap_intercept.so)"
expect_out "problem:   HOTSWAP_HOME='$T/nowhere' holds no HotSwap tree: no such directory"
expect_out "fix:       point HOTSWAP_HOME at the root of a HotSwap tree"
mirage --json emulators
expect_json 'd[0]["installed"] is False and len(d[0]["runtime"]["searched"]) == 1'
expect_json 'd[0]["runtime"]["problem"].endswith("holds no HotSwap tree: no such directory")'

mirage paths
expect_rc 0 "paths"
expect_line '^hotswap: +not found '

# What is missing is said for each shape of mistake.
mkdir -p "$T/nolib/runtime"
export HOTSWAP_HOME=$T/nolib
mirage profile create p3 --emulator hotswap
expect_rc 1 "profile create, no lib/"
expect_err "HOTSWAP_HOME is set to '$T/nolib', but there is no HotSwap tree there: no lib/ directory in it"
mkdir -p "$T/nolib/lib"
mirage profile create p3 --emulator hotswap
expect_rc 1 "profile create, empty lib/"
expect_err "there is no HotSwap tree there: no lib/libhotswap_intercept.so in it"
export HOTSWAP_HOME=$T/pfx/lib/mirage/hotswap/lib
mirage doctor
expect_rc 1 "doctor, HOTSWAP_HOME names lib/"
expect_out "holds no HotSwap tree: it is a tree's lib/ directory, not its root: the root is '$T/pfx/lib/mirage/hotswap'"
export HOTSWAP_HOME=$T/pfx/lib/mirage/hotswap
mirage profile create p3 --emulator hotswap
expect_rc 0 "profile create, HOTSWAP_HOME fixed"
finish
