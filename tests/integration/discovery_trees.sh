# Fixture HotSwap trees: each verdict of the completeness predicate, as doctor,
# emulators and profile create report it.
source "$(dirname "$0")/discovery_lib.sh"

use_tree() { # use_tree NAME: a fresh root for HOTSWAP_HOME
	export HOTSWAP_HOME=$T/trees/$1
	mkdir -p "$HOTSWAP_HOME/lib"
}

# intercept only: found, incomplete, looks like neither flavour
use_tree intercept-only
cp "$(fx intercept)" "$HOTSWAP_HOME/lib/libhotswap_intercept.so"
mirage doctor
expect_rc 1 "doctor, intercept only"
expect_line "^ok    HotSwap tree found at '$HOTSWAP_HOME' \(through HOTSWAP_HOME\)$"
expect_line '^FAIL  the tree is incomplete; it looks like neither flavour \(only the intercept\)$'
expect_line "^FAIL  lib/libhotswap_rewrite.so: missing, no such file \('$HOTSWAP_HOME/lib/libhotswap_rewrite.so'\)$"
expect_line "^FAIL  lib/libhotswap_intercept_core.so: missing, no such file \('$HOTSWAP_HOME/lib/libhotswap_intercept_core.so'\)$"
expect_line '^ok    lib/libhotswap_intercept.so: ELF shared object for this machine, exports OnLoad$'
mirage --json emulators
expect_json 'd[0]["installed"] is False and d[0]["runtime"]["state"] == "incomplete"'
expect_json '[p["status"] for p in d[0]["runtime"]["parts"] if p["required"]] == ["ok", "missing", "missing", "missing", "missing"]'
mirage profile create p1 --emulator hotswap
expect_rc 1 "profile create, intercept only"
expect_err "the HotSwap tree at '$HOTSWAP_HOME' is incomplete (found through HOTSWAP_HOME)"
expect_err "  - lib/libhotswap_rewrite.so: missing ('$HOTSWAP_HOME/lib/libhotswap_rewrite.so')"
expect_err "  - lib/libhotswap_intercept_core.so: missing ('$HOTSWAP_HOME/lib/libhotswap_intercept_core.so')"

# native complete: installed, self-test passes through the stand-in rewriter
use_tree native
stage_native "$HOTSWAP_HOME"
mirage doctor
expect_rc 0 "doctor, native complete, no profiles"
expect_line '^ok    native tree, complete$'
expect_line '^ok    lib/libhotswap_rewrite.so: ELF shared object for this machine, exports hs_rewrite$'
expect_line '^ok    lib/libhotswap_intercept_core.so: ELF shared object for this machine, exports hsi_core_get_api$'
expect_line '^ok    llvm-tools/ld.lld: LLVM version 22.0.0 \(stand-in\)$'
expect_line "^ok    python runtime: '$HOTSWAP_HOME/runtime/hotswap_py/sitecustomize.py'$"
# The fixture rewriter predates hs_build_identity(): the line names no build.
expect_line '^ok    self-test: rewrote the built-in gfx1250 kernel: 1 kernel stubbed, [0-9]+ -> [0-9]+ bytes, second pass unchanged$'
mirage emulators
expect_line '^hotswap\* +yes +yes '
mirage emulators -l
expect_out "runtime:   $HOTSWAP_HOME (native flavour, found through HOTSWAP_HOME)"
mirage profile create p1 --emulator hotswap
expect_rc 0 "profile create, native complete"
mirage paths
expect_line "^hotswap: +$HOTSWAP_HOME \(HOTSWAP_HOME, native\)$"

# optional parts missing: still complete, doctor warns
rm "$HOTSWAP_HOME/llvm-tools/llc"
chmod 644 "$HOTSWAP_HOME/llvm-tools/lld"
mirage doctor --profile nothere
expect_rc 1 "doctor --profile for a missing profile"
expect_line "^FAIL  profile 'nothere': profile 'nothere' not found in "
expect_line "^warn  llvm-tools/llc: missing \('$HOTSWAP_HOME/llvm-tools/llc'\)$"
expect_line "^warn  llvm-tools/lld: not-executable \('$HOTSWAP_HOME/llvm-tools/lld'\)$"
rm -rf "$HOME/.config/mirage"

# `TOOL --version`: its first line that says "version", from stdout only, with no input; the
# generic lld driver is asked with -flavor gnu; a tool that fails is a warning with what it said
tools=$HOTSWAP_HOME/llvm-tools
printf '#!/bin/sh\necho noise >&2\n[ -z "$(cat)" ] || exit 9\necho banner\necho "  LLD version 22 (args: $*)"\n' >"$tools/lld"
printf '#!/bin/sh\necho "LLVM version 22 (args: $*)"\n' >"$tools/ld.lld"
printf '#!/bin/sh\necho "unknown option"\necho second\nexit 2\n' >"$tools/llvm-mc"
printf '#!/bin/sh\nexit 1\n' >"$tools/llc"
chmod 755 "$tools/lld" "$tools/ld.lld" "$tools/llvm-mc" "$tools/llc"
mirage doctor
expect_line '^ok    llvm-tools/lld: LLD version 22 \(args: -flavor gnu --version\)$'
expect_line '^ok    llvm-tools/ld.lld: LLVM version 22 \(args: --version\)$'
expect_line "^warn  llvm-tools/llvm-mc: \`$tools/llvm-mc --version\` failed: unknown option$"
expect_line "^warn  llvm-tools/llc: \`$tools/llc --version\` failed$"
expect_no_out noise
stage_tools "$HOTSWAP_HOME"

# reference complete (versioned names)
use_tree reference
stage_reference "$HOTSWAP_HOME"
mirage doctor
expect_rc 0 "doctor, reference complete"
expect_line '^ok    reference tree, complete$'
expect_line '^ok    lib/libhsa-runtime64.so\[\.1\]: ELF shared object for this machine, exports hsa_init$'
expect_line '^ok    lib/libamd_comgr.so\[\.3\]: ELF shared object for this machine, exports amd_comgr_hotswap_rewrite$'
expect_line "^warn  self-test skipped: the reference flavour's COMGR rewriter is not tested here$"

# a library that is a text file
use_tree text
stage_native "$HOTSWAP_HOME"
echo 'INPUT(-lfoo)' >"$HOTSWAP_HOME/lib/libhotswap_rewrite.so"
mirage doctor
expect_rc 1 "doctor, text library"
expect_line "^FAIL  lib/libhotswap_rewrite.so: not-elf, not an ELF file \('$HOTSWAP_HOME/lib/libhotswap_rewrite.so'\)$"
expect_line '^      fix: replace it with the real library: this file is not an ELF shared object$'
expect_line '^FAIL  the tree is incomplete; it looks like a native tree$'

# libraries for the wrong machine: AArch64, and the AMDGPU code object itself
use_tree wrong-machine
stage_native "$HOTSWAP_HOME"
cp "$(fx aarch64)" "$HOTSWAP_HOME/lib/libhotswap_intercept.so"
cp "$MIRAGE_BUILD/launcher/doctor/gfx1250_selftest.co" "$HOTSWAP_HOME/lib/libhotswap_rewrite.so"
mirage doctor
expect_rc 1 "doctor, wrong machine"
expect_line "^FAIL  lib/libhotswap_intercept.so: wrong-machine, built for AArch64 64-bit, but mirage runs on .* \('$HOTSWAP_HOME/lib/libhotswap_intercept.so'\)$"
expect_line '^FAIL  lib/libhotswap_rewrite.so: wrong-machine, built for AMDGPU 64-bit, but mirage runs on '
mirage --json emulators
expect_json '[p["status"] for p in d[0]["runtime"]["parts"][:2]] == ["wrong-machine", "wrong-machine"]'

# complete-looking but a library lacks its entry point
use_tree missing-symbol
stage_native "$HOTSWAP_HOME"
cp "$(fx nosym)" "$HOTSWAP_HOME/lib/libhotswap_rewrite.so"
mirage doctor
expect_rc 1 "doctor, missing symbol"
expect_line "^FAIL  lib/libhotswap_rewrite.so: missing-symbol, does not export hs_rewrite \(no defined symbol in .dynsym\) \('$HOTSWAP_HOME/lib/libhotswap_rewrite.so'\)$"
mirage profile create p2 --emulator hotswap
expect_rc 1 "profile create, missing symbol"
expect_err "  - lib/libhotswap_rewrite.so: missing-symbol, does not export hs_rewrite (no defined symbol in .dynsym)"

# a native tree without the intercept's core: the shim would run the workload unemulated
use_tree no-core
stage_native "$HOTSWAP_HOME"
rm "$HOTSWAP_HOME/lib/libhotswap_intercept_core.so"
mirage doctor
expect_rc 1 "doctor, native tree without the core"
expect_line '^FAIL  the tree is incomplete; it looks like a native tree$'
expect_line "^FAIL  lib/libhotswap_intercept_core.so: missing, no such file \('$HOTSWAP_HOME/lib/libhotswap_intercept_core.so'\)$"
expect_line '^ok    lib/libhotswap_rewrite.so: ELF shared object for this machine, exports hs_rewrite$'
mirage --json emulators
expect_json 'd[0]["installed"] is False and d[0]["runtime"]["state"] == "incomplete"'
mirage profile create p3 --emulator hotswap
expect_rc 1 "profile create, native tree without the core"
expect_err "  - lib/libhotswap_intercept_core.so: missing ('$HOTSWAP_HOME/lib/libhotswap_intercept_core.so')"

# the core as a text file, and a core without its entry point
echo 'INPUT(-lfoo)' >"$HOTSWAP_HOME/lib/libhotswap_intercept_core.so"
mirage doctor
expect_rc 1 "doctor, text core"
expect_line "^FAIL  lib/libhotswap_intercept_core.so: not-elf, not an ELF file \('$HOTSWAP_HOME/lib/libhotswap_intercept_core.so'\)$"
cp "$(fx nosym)" "$HOTSWAP_HOME/lib/libhotswap_intercept_core.so"
mirage doctor
expect_rc 1 "doctor, core without hsi_core_get_api"
expect_line "^FAIL  lib/libhotswap_intercept_core.so: missing-symbol, does not export hsi_core_get_api \(no defined symbol in .dynsym\) \('$HOTSWAP_HOME/lib/libhotswap_intercept_core.so'\)$"

# a reference tree never needs the core
use_tree reference-no-core
stage_reference "$HOTSWAP_HOME"
mirage doctor
expect_rc 0 "doctor, reference tree without a core"
expect_line '^ok    reference tree, complete$'
expect_no_out 'libhotswap_intercept_core'

# a rewriter that loads but does nothing: only the self-test can tell
use_tree noop-rewriter
stage_native "$HOTSWAP_HOME"
cp "$(fx noop_rewrite)" "$HOTSWAP_HOME/lib/libhotswap_rewrite.so"
mirage doctor
expect_rc 1 "doctor, no-op rewriter"
expect_line '^ok    native tree, complete$'
expect_line '^FAIL  self-test: the rewriter reported 0 kernel\(s\) stubbed, changed=no; expected 1 and yes$'

# a rewriter that crashes: the self-test runs in a child, so doctor says so and goes on (under
# AddressSanitizer the crash must stay a signal: its own SEGV handler would end the child with
# an exit status instead)
use_tree crash-rewriter
stage_native "$HOTSWAP_HOME"
cp "$(fx crash_rewrite)" "$HOTSWAP_HOME/lib/libhotswap_rewrite.so"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0 mirage doctor
expect_rc 1 "doctor, crashing rewriter"
expect_line "^FAIL  self-test: the rewriter '$HOTSWAP_HOME/lib/libhotswap_rewrite.so' crashed \(signal 11\)$"
expect_line '^      fix: report the crash: the rewriter is broken$'
expect_line '^[0-9]+ ok, [0-9]+ warn, 1 FAIL$'

finish
