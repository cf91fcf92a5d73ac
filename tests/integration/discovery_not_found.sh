# No HotSwap tree anywhere: every command names every probed location and the fix.
source "$(dirname "$0")/discovery_lib.sh"

# A relocated copy of mirage, so its exe-relative probes land inside $T where nothing is.
mkdir -p "$T/pfx/bin"
cp "$MIRAGE_BIN" "$T/pfx/bin/mirage"
MIRAGE_EXE=$T/pfx/bin/mirage
# No HOTSWAP_HOME: one that is set is the only place looked at (discovery_home_wrong.sh).
export MIRAGE_DATA=$T/data
probes=(
	"$T/build/hotswap/lib/libhotswap_intercept.so"
	"$T/pfx/hotswap/lib/libhotswap_intercept.so"
	"$T/pfx/lib/mirage/hotswap/lib/libhotswap_intercept.so"
	"$T/data/hotswap/*/lib/libhotswap_intercept.so"
)

mirage emulators
expect_rc 0 "emulators"
expect_line '^hotswap\* +no +no +load-time ISA rewriter'
expect_line '^native +yes +yes '

mirage emulators -l
expect_rc 0 "emulators -l"
expect_out "installed: no"
expect_out "runtime:   not found (libhotswap_intercept.so)"
expect_line "^  searched:  $T/build/hotswap/lib/libhotswap_intercept.so +\(in-tree build, "
for p in "${probes[@]}"; do expect_out "$p"; done
expect_out "(installed trees, \$MIRAGE_DATA/hotswap/*)"
expect_out "set:       HOTSWAP_HOME=<tree root, with lib/libhotswap_intercept.so under it>"
expect_out "supported: no (no HotSwap tree found: \`mirage emulators -l\` and \`mirage doctor\` say more)"

mirage --json emulators
expect_rc 0 "--json emulators"
expect_json 'd[0]["name"] == "hotswap" and d[0]["installed"] is False and d[0]["default"] is True'
expect_json 'd[0]["runtime"]["state"] == "missing" and len(d[0]["runtime"]["searched"]) == 4'
expect_json 'd[0]["runtime"]["searched"][0]["reason"].startswith("in-tree build")'
expect_json 'd[0]["runtime"]["env"] == [{"name": "HOTSWAP_HOME", "expects": "root"}]'

mirage doctor
expect_rc 1 "doctor without a tree"
expect_line '^FAIL  HotSwap is not installed: no libhotswap_intercept.so in any of 4 locations$'
expect_out "      fix: build it in-tree (cmake -DMIRAGE_BUILD_HOTSWAP=ON)"
for p in "${probes[@]}"; do expect_line "^      nothing ${p//\*/\\*} "; done
expect_line '^warn  self-test skipped: no complete tree to test$'

# The one predicate also refuses profile creation, with the full message of docs/discovery.md.
mirage profile create p1 --emulator hotswap
expect_rc 1 "profile create without a tree"
expect_err "HotSwap is not installed, or mirage could not find libhotswap_intercept.so."
expect_err "mirage looked in:"
for p in "${probes[@]}"; do expect_err "  - $p"; done
expect_err "(in-tree build, <mirage dir>/../../build/hotswap)"
expect_err "export HOTSWAP_HOME=/abs/path/to/hotswap"

mirage paths
expect_rc 0 "paths"
expect_line '^hotswap: +not found '

finish
