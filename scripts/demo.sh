#!/usr/bin/env bash
# Quick-start command 1: install what is missing, build mirage and its HotSwap
# tree, and run mirage's main job on the bundled example (an OpenCL kernel
# compiled for gfx1250 by clang-22, without the entry prologue the gfx1250
# erratum needs).  Leaves your own mirage config alone: everything it creates
# lives in a temp dir that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "built: build/bin/mirage and the HotSwap tree in build/hotswap"

M=$PWD/build/bin/mirage
CO=$PWD/build/examples/vector_add.co
CLIENT=$PWD/build/tests/standin/hsa_client
demo=$(mktemp -d "${TMPDIR:-/tmp}/mirage-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
export MIRAGE_CONFIG=$demo/config XDG_CACHE_HOME=$demo/cache

# Bold headings on a terminal only, and never under NO_COLOR.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
# The command line goes to the script's own stdout (fd 3), so a filter after show keeps it.
exec 3>&1
show() { printf '$ %s\n' "$*" >&3; "$@"; }

step "1. what this machine has (no GPU here: the GPU checks say so)"
show "$M" doctor || true

step "2. the example: two gfx1250 kernels, no entry prologue"
show "$M" inspect "$CO"

step "3. retrofit the erratum fix: entry trampolines + <kernel>.stub symbols"
show "$M" rewrite "$CO" -o "$demo/vector_add.fixed.co" --entry-trampolines \
	--target amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+
show llvm-objdump-22 -d --mcpu=gfx1250 "$demo/vector_add.fixed.co" | sed -n '/<vector_add.stub>:/,/s_code_end/p'

step "4. a profile, and the environment 'mirage run' gives a workload"
show "$M" profile create demo --target gfx1250 --stepping b0 --entry-trampolines \
	--description "gfx1250 B0 code on a B0 board, erratum fix on"
show "$M" run --profile demo --dry-run -- "$CLIENT" "$CO" | grep -E '^#.*(HSA_|LD_PRELOAD|HOTSWAP_HOME)'

step "5. mirage run: the workload loads the example; the intercept rewrites it on the way in"
echo "(No GPU here: the workload is the small HSA client from tests/, linked against the"
echo " stand-in HSA runtime, which records what its loader receives. The intercept and the"
echo " rewriter are the real ones from build/hotswap.)"
mkdir -p "$demo/loads"
STANDIN_AGENT_GFX=gfx1250 STANDIN_RECORD_DIR="$demo/loads" \
	show "$M" run --profile demo --env HSA_HOTSWAP_VERBOSE=1 -- "$CLIENT" "$CO"
echo "what the runtime's loader received:"
show llvm-objdump-22 -d --mcpu=gfx1250 "$demo/loads/load-1.co" | sed -n '/<vector_add.stub>:/,/s_set_pc_i64/p'

step "6. a second run hits the translation cache"
STANDIN_AGENT_GFX=gfx1250 STANDIN_RECORD_DIR="$demo/loads" \
	show "$M" run --profile demo -- "$CLIENT" "$CO"
echo
echo "done: mirage rewrote the example on its way into the loader, and said what it did."
