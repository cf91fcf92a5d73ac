# doctor flags an environment that would fight the HotSwap contract, a relative XDG_*_HOME it
# ignores, and a tree whose paths the contract could not hand to a workload.
source "$(dirname "$0")/discovery_lib.sh"

export HOTSWAP_HOME=$T/tree
stage_native "$HOTSWAP_HOME"

mirage doctor
expect_rc 0 "doctor, clean env"
expect_line '^ok    no LD_PRELOAD, HSA_TOOLS_LIB or stale HSA_HOTSWAP_\* variables in the way$'
expect_line '^ok    the tree.s paths can go into LD_PRELOAD, LD_LIBRARY_PATH, PYTHONPATH and HSA_TOOLS_LIB unsplit$'

LD_PRELOAD=/nonexistent/libx.so HSA_TOOLS_LIB=/opt/other/libtool.so HSA_HOTSWAP_STRICT=0 \
	HSA_HOTSWAP_SOURCE_TARGET=gfx1250:32 mirage doctor
expect_rc 0 "doctor, conflicting env (warnings only)"
expect_line "^warn  LD_PRELOAD is already set \('/nonexistent/libx.so'\)$"
expect_line "^warn  HSA_TOOLS_LIB is already set \('/opt/other/libtool.so'\)$"
expect_line '^warn  stale HSA_HOTSWAP_STRICT=0 in the shell: `mirage run` drops it \(the profile decides\), HotSwap outside mirage obeys it$'
expect_line '^      fix: unset HSA_HOTSWAP_STRICT; for one run use `mirage run --env HSA_HOTSWAP_STRICT=...`, for every run the profile.s \[env\]$'
# The profile always has a source target, so the shell's is never read: stale too.
expect_line '^warn  stale HSA_HOTSWAP_SOURCE_TARGET=gfx1250:32 in the shell'
expect_no_out "no LD_PRELOAD, HSA_TOOLS_LIB"

# A stale HSA_HOTSWAP_DISABLE would have turned the intercept off under `mirage run`.
HSA_HOTSWAP_DISABLE=1 HSA_HOTSWAP_ISA_OVERRIDE=gfx942 HSA_HOTSWAP_VERBOSE=1 mirage doctor
expect_rc 0 "doctor, HSA_HOTSWAP_DISABLE in the shell (a warning)"
expect_line '^warn  stale HSA_HOTSWAP_DISABLE=1 in the shell: `mirage run` drops it \(the profile decides\)'
expect_line '^ok    HSA_HOTSWAP_ISA_OVERRIDE=gfx942 is set: mirage uses it as an input$'
expect_line '^ok    HSA_HOTSWAP_VERBOSE=1 is set: `mirage run` passes it on$'

# The tree's path: one that ld.so or the runtime would split is a failure, with the fix.
for dir in "with space" "with:colon" 'with$LIB'; do
	mkdir -p "$T/$dir"
	stage_native "$T/$dir/tree"
	HOTSWAP_HOME="$T/$dir/tree" mirage doctor
	expect_rc 1 "doctor, tree under '$dir'"
	expect_out "FAIL  the HotSwap tree at '$T/$dir/tree' cannot be handed to a workload: LD_PRELOAD would carry '$T/$dir/tree/lib/libhotswap_intercept.so', which has "
	expect_out "      fix: move or copy the tree to a path without spaces, ':', '\$', ';', '\"' or '\\' and set HOTSWAP_HOME to it"
done
HOTSWAP_HOME="$T/with space/tree" mirage doctor
expect_out "which has a space, and ld.so splits LD_PRELOAD at spaces and colons"
HOTSWAP_HOME="$T/with:colon/tree" mirage doctor
expect_out "which has ':', and ld.so splits LD_PRELOAD at spaces and colons"
HOTSWAP_HOME="$T/with:colon/tree" mirage --json doctor
expect_json "[c['status'] for c in d['checks'] if c['check'] == 'paths'] == ['fail']"

# A relative XDG_*_HOME is ignored (XDG Base Directory rule): doctor warns, naming the fallback.
XDG_CONFIG_HOME=rel/config XDG_DATA_HOME=rel/data XDG_CACHE_HOME=rel/cache mirage doctor
expect_rc 0 "doctor, relative XDG variables (warnings only)"
for v in "XDG_CONFIG_HOME=rel/config ~/.config" "XDG_DATA_HOME=rel/data ~/.local/share" \
	"XDG_CACHE_HOME=rel/cache ~/.cache"; do
	set -- $v
	expect_line "^warn  ${1%%=*}='${1#*=}' is not an absolute path, so mirage and HotSwap ignore it \(the XDG Base Directory rule\) and use $2\$"
	expect_line "^      fix: set ${1%%=*} to an absolute path, or unset it\$"
done
expect_line "^ok    config dir '$HOME/.config/mirage' \(from HOME\)"
XDG_CACHE_HOME=rel/cache mirage --json doctor
expect_json "[c['status'] for c in d['checks'] if c['check'] == 'xdg:XDG_CACHE_HOME'] == ['warn']"
XDG_CACHE_HOME=$T/abs mirage doctor
expect_no_out "XDG_CACHE_HOME"

finish
