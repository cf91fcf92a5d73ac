# `mirage doctor` against this build's own HotSwap tree, on a host without a GPU:
# every check line is there, the self-test passes through the real rewriter, and
# the missing GPU fails only the profile that needs one.
source "$(dirname "$0")/discovery_lib.sh"

tree=$MIRAGE_BUILD/hotswap
if [ ! -f "$tree/lib/libhotswap_rewrite.so" ] || [ ! -f "$tree/lib/libhotswap_intercept.so" ]; then
	echo "SKIP: this build has not staged a native HotSwap tree in '$tree' yet" >&2
	exit 77
fi
export HOTSWAP_HOME=$tree

mirage doctor
expect_rc 0 "in-tree doctor, no profiles"
for check in \
	"^ok    config dir '$HOME/.config/mirage' \(from HOME\) does not exist yet$" \
	'^ok    no profiles yet ' \
	"^ok    HotSwap tree found at '$(cd "$tree" && pwd -P)' \(through HOTSWAP_HOME\)$" \
	'^ok    native tree, complete$' \
	'^ok    lib/libhotswap_intercept.so: ELF shared object for this machine, exports OnLoad$' \
	'^ok    lib/libhotswap_rewrite.so: ELF shared object for this machine, exports hs_rewrite$' \
	'^ok    lib/libhotswap_intercept_core.so: ELF shared object for this machine, exports hsi_core_get_api$' \
	'^ok +llvm-tools/llc: ' '^ok +llvm-tools/llvm-mc: ' \
	'^ok +llvm-tools/lld: ' '^ok +llvm-tools/ld.lld: ' \
	'^ok +python runtime: ' \
	'^warn  no KFD topology at ' \
	'^warn  a profile with target auto would fail: ' \
	'^ok    no LD_PRELOAD, HSA_TOOLS_LIB or stale HSA_HOTSWAP_\* variables in the way$' \
	'^ok    self-test: rewrote the built-in gfx1250 kernel: 1 kernel stubbed, [0-9]+ -> [0-9]+ bytes, second pass unchanged \(rewriter '"${MIRAGE_VERSION//./\\.}"' rewrite=[0-9a-f]{40} mc=[0-9a-f]{40} translate=[0-9a-f]{40}\)$'; do
	expect_line "$check"
done
[ "$(printf '%s\n' "$OUT" | grep -c '^FAIL')" = 0 ] || fail "unexpected FAIL lines:"$'\n'"$OUT"

write_profile fixed gfx942
mirage doctor
expect_rc 0 "in-tree doctor, fixed-target profile"
expect_line "^ok    profile 'fixed' would target gfx942 \(from profile\)$"

write_profile auto1 auto
mirage doctor
expect_rc 1 "in-tree doctor, auto profile without a GPU"
[ "$(printf '%s\n' "$OUT" | grep -c '^FAIL')" = 1 ] || fail "expected exactly one FAIL line:"$'\n'"$OUT"
expect_line "^FAIL  profile 'auto1': no GPU to retarget gfx1250 code onto: this host has no KFD topology \(no amdgpu driver\)$"

mirage --json doctor
expect_rc 1 "in-tree doctor --json"
printf '%s' "$OUT" | python3 -m json.tool >/dev/null || fail "doctor --json is not valid JSON"
expect_json '[c["status"] for c in d["checks"] if c["check"] == "self-test"] == ["ok"]'

# Without HOTSWAP_HOME the tree is found next to the binary, with no configuration.
unset HOTSWAP_HOME
mirage --json paths
expect_json 'd["hotswap"] is not None and d["hotswap"]["found_by"].split(",")[0] in ("in-tree build", "build tree")'

finish
