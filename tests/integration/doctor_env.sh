# doctor flags an environment that would fight the HotSwap contract.
source "$(dirname "$0")/discovery_lib.sh"

export HOTSWAP_HOME=$T/tree
stage_native "$HOTSWAP_HOME"

mirage doctor
expect_rc 0 "doctor, clean env"
expect_line '^ok    no LD_PRELOAD, HSA_TOOLS_LIB or stale HSA_HOTSWAP_\* variables in the way$'

LD_PRELOAD=/nonexistent/libx.so HSA_TOOLS_LIB=/opt/other/libtool.so HSA_HOTSWAP_STRICT=0 \
	HSA_HOTSWAP_SOURCE_TARGET=gfx1250:32 mirage doctor
expect_rc 0 "doctor, conflicting env (warnings only)"
expect_line "^warn  LD_PRELOAD is already set \('/nonexistent/libx.so'\)$"
expect_line "^warn  HSA_TOOLS_LIB is already set \('/opt/other/libtool.so'\)$"
expect_line '^warn  stale HSA_HOTSWAP_STRICT=0 in the shell$'
expect_line '^      fix: unset HSA_HOTSWAP_STRICT: `mirage run` sets it from the profile$'
expect_line '^ok    HSA_HOTSWAP_SOURCE_TARGET=gfx1250:32 is set: mirage uses it as an input$'
expect_no_out "no LD_PRELOAD, HSA_TOOLS_LIB"

finish
