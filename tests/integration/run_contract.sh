# `mirage run` gives the workload exactly the HotSwap environment contract.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
LIB="$TREE/lib"

mirage profile create p --target gfx942
check "create a hotswap profile" 0

mirage run --profile p -- "$ENVDUMP"
check "run the env dump under the native tree" 0
expect_val LD_PRELOAD "$LIB/libhotswap_intercept.so"
expect_val HSA_TOOLS_LIB "$LIB/libhotswap_intercept.so"
expect_val HOTSWAP_HOME "$TREE"
expect_val HSA_HOTSWAP_SOURCE_TARGET gfx1250:32
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx942
expect_val HSA_HOTSWAP_IR_RAISER 1
expect_val HSA_HOTSWAP_STRICT 1
expect_val HSA_HOTSWAP_CACHE_DEBUG 1
expect_val HSA_HOTSWAP_ENTRY_TRAMPOLINES 0
expect_val HSA_HOTSWAP_BACKEND_ADAPTER_POLICY compile
expect_val HSA_HOTSWAP_BACKEND_ADAPTERS extension_jit,triton,inductor
expect_val TRITON_ALWAYS_COMPILE 1
for v in PYTORCH_ROCM_ARCH PYTORCH_ROCM_ARCH_OVERRIDE GPU_ARCHS AITER_GPU_ARCHS TRITON_OVERRIDE_ARCH; do
	expect_val "$v" gfx1250
done
expect_val TRITON_CORPUS_FORCE_TARGET gfx1250:32
expect_val HIP_ARCHITECTURES "<unset>"
expect_val HSA_HOTSWAP_STEPPING "<unset>"
expect_val HSA_HOTSWAP_CACHE_DIR "<unset>"
case "$(val LD_LIBRARY_PATH)" in "$LIB"*) ;; *) fail "LD_LIBRARY_PATH does not start with $LIB" ;; esac
case "$(val PYTHONPATH)" in "$TREE/runtime/hotswap_py"*) ;; *) fail "PYTHONPATH lacks the runtime" ;; esac
ok "native flavour: every contract variable"

# Each policy's adapters and the variables they derive.
for policy in none env native_build triton compile full; do
	mirage profile edit p --set adapter_policy=$policy
	mirage run --profile p -- "$ENVDUMP"
	check "run with policy $policy" 0
	case $policy in
	none) want="" ;;
	env) want=extension_jit ;;
	native_build) want=extension_jit,native_build ;;
	triton) want=extension_jit,triton ;;
	compile) want=extension_jit,triton,inductor ;;
	full) want=extension_jit,native_build,triton,inductor ;;
	esac
	expect_val HSA_HOTSWAP_BACKEND_ADAPTERS "$want"
	if [ $policy = none ]; then arch="<unset>"; else arch=gfx1250; fi
	expect_val PYTORCH_ROCM_ARCH "$arch"
	expect_val AITER_GPU_ARCHS "$arch"
	case ,$want, in *,native_build,*) build=gfx1250 ;; *) build="<unset>" ;; esac
	for v in HIP_ARCHITECTURES CMAKE_HIP_ARCHITECTURES AMDGPU_TARGETS HCC_AMDGPU_TARGET ROCM_TARGETS; do
		expect_val $v "$build"
	done
	case ,$want, in *,triton,*) tt=gfx1250:32 ;; *) tt="<unset>" ;; esac
	expect_val TRITON_CORPUS_FORCE_TARGET "$tt"
	ok "policy $policy: adapters and derived variables"
done

# Profile knobs reach the intercept.
mirage profile edit p --set adapter_policy=compile --set strict=false --set entry_trampolines=true \
	--set stepping=a0 --set cache_dir="$T/tc"
mirage run --profile p -- "$ENVDUMP"
expect_val HSA_HOTSWAP_STRICT 0
expect_val HSA_HOTSWAP_ENTRY_TRAMPOLINES 1
expect_val HSA_HOTSWAP_STEPPING a0
expect_val HSA_HOTSWAP_CACHE_DIR "$T/tc"
ok "profile knobs: strict, entry trampolines, stepping, cache dir"

# Derived variables follow the final inputs, --env included.
mirage run --profile p --env HSA_HOTSWAP_SOURCE_TARGET=gfx1251:64 --env HSA_HOTSWAP_BACKEND_ADAPTER_POLICY=full -- "$ENVDUMP"
expect_val HSA_HOTSWAP_SOURCE_TARGET gfx1251:64
expect_val PYTORCH_ROCM_ARCH gfx1251
expect_val HIP_ARCHITECTURES gfx1251
expect_val TRITON_CORPUS_FORCE_TARGET gfx1251:64
expect_val HSA_HOTSWAP_BACKEND_ADAPTERS extension_jit,native_build,triton,inductor
ok "--env inputs recompute the derived variables"

# Search lists merge: contract first, then --env, the profile's, the caller's; no duplicates.
mirage profile edit p --set env.LD_LIBRARY_PATH=/prof:/shared --set env.PLAIN=from-profile
LD_LIBRARY_PATH=/caller:/shared PYTHONPATH=/py HSA_TOOLS_LIB=/other/tool.so LD_PRELOAD=/pre.so \
	mirage run --profile p --env LD_LIBRARY_PATH=/cli --env LD_PRELOAD=/clipre.so --env PLAIN=from-cli -- "$ENVDUMP"
check "run with caller, profile and --env search lists" 0
expect_val LD_LIBRARY_PATH "$LIB:/cli:/prof:/shared:/caller"
expect_val LD_PRELOAD "$LIB/libhotswap_intercept.so:/clipre.so:/pre.so"
expect_val PYTHONPATH "$TREE/runtime/hotswap_py:/py"
expect_val HSA_TOOLS_LIB "$LIB/libhotswap_intercept.so /other/tool.so"
expect_val PLAIN from-cli
ok "search lists merged in order without duplicates; --env wins for plain variables"

# --clear-env keeps only the basics, then layers as usual.
FOO=leak mirage run --profile p --clear-env -- "$ENVDUMP"
check "run --clear-env" 0
expect_val FOO "<unset>"
expect_val PATH "$PATH"
expect_val HOME "$HOME"
expect_val PLAIN from-profile
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx942
ok "--clear-env drops inherited variables, keeps PATH and HOME"

# Target resolution: the override, then a detected GPU; nothing is a refusal.
mirage profile edit p --set target=auto
HSA_HOTSWAP_ISA_OVERRIDE=gfx950 mirage run --profile p -- "$ENVDUMP"
check "target from HSA_HOTSWAP_ISA_OVERRIDE" 0
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx950
gpu_sysfs "$T/sys942" 90402
MIRAGE_SYSFS_ROOT="$T/sys942" mirage run --profile p -- "$ENVDUMP"
check "target from the detected GPU" 0
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx942
mirage run --profile p -- "$ENVDUMP"
check "no GPU and no override is a refusal" 1 "profile 'p' cannot run here: no GPU to retarget gfx1250 code onto"
[ ! -s "$OUT" ] || fail "the workload ran without a target"
ok "the workload did not start"

# The reference flavour: patched ROCr preloaded before the intercept; no HSA_TOOLS_LIB.
stage_reference_tree "$T/ref"
HOTSWAP_HOME="$T/ref" mirage run --profile p --env HSA_HOTSWAP_ISA_OVERRIDE=gfx942 -- "$ENVDUMP"
check "run under a reference-flavour tree" 0
REF=$(cd "$T/ref" && pwd -P)
expect_val LD_PRELOAD "$REF/lib/libhsa-runtime64.so.1:$REF/lib/libhotswap_intercept.so"
expect_val HSA_TOOLS_LIB "<unset>"
expect_val HOTSWAP_HOME "$REF"
ok "reference flavour: ROCr then the intercept"

# An incomplete tree is never used: the workload does not start.
rm "$T/ref/lib/libamd_comgr.so.3"
HOTSWAP_HOME="$T/ref" mirage run --profile p --env HSA_HOTSWAP_ISA_OVERRIDE=gfx942 -- "$ENVDUMP"
check "incomplete tree is a refusal" 1 "cannot run profile 'p' under HotSwap"
[ ! -s "$OUT" ] || fail "the workload ran unemulated"
ok "never unemulated"

# Our intercept is a shim that loads its core at OnLoad and, without it, lets the workload run
# unemulated: a native tree that lost the core is incomplete, and mirage refuses to run.
cp -a "$TREE" "$T/nocore"
rm "$T/nocore/lib/libhotswap_intercept_core.so"
NOCORE=$(cd "$T/nocore" && pwd -P)
HOTSWAP_HOME="$T/nocore" mirage run --profile p --env HSA_HOTSWAP_ISA_OVERRIDE=gfx942 -- "$ENVDUMP"
check "a native tree without the intercept's core is a refusal" 1 \
	"the HotSwap tree at '$NOCORE' is incomplete"
expect_err "it looks like a native tree"
expect_err "  - lib/libhotswap_intercept_core.so: missing ('$NOCORE/lib/libhotswap_intercept_core.so')"
[ ! -s "$OUT" ] || fail "the workload ran without the intercept's core"
ok "never unemulated without the core"

# The native backend passes the workload through untouched.
mirage profile create n --emulator native --env ONLY=this
FOO=kept mirage run --profile n -- "$ENVDUMP"
check "native backend" 0
expect_val ONLY this
expect_val FOO kept
expect_val LD_PRELOAD "<unset>"
expect_val HSA_HOTSWAP_ISA_OVERRIDE "<unset>"
ok "native profiles get no contract"

# Each change names the layer that made it; an inherited search list that only lost
# empty or repeated entries is "inherited", not "contract".
LD_LIBRARY_PATH=/a::/a mirage run --profile n --dry-run -- "$ENVDUMP"
check "--dry-run of a native profile with a repeated inherited list" 0
expect_out "#   ~ LD_LIBRARY_PATH=/a  [inherited]"
expect_out "#   + ONLY=this  [profile]"
LD_LIBRARY_PATH=/a::/a mirage --json run --profile n --dry-run --env PYTHONPATH=/p:/p -- "$ENVDUMP"
check "--dry-run --json with an --env search list" 0
[ "$(json_get "$OUT" "{c['name']: c['origin'] for c in d['changes']}")" = \
	"{'LD_LIBRARY_PATH': 'inherited', 'ONLY': 'profile', 'PYTHONPATH': '--env'}" ] ||
	fail "origins: $(json_get "$OUT" "d['changes']")"
FOO=gone mirage run --profile n --dry-run --clear-env -- "$ENVDUMP"
check "--dry-run --clear-env" 0
expect_out "#   - FOO  [--clear-env]"
mirage run --profile p --dry-run --env HSA_HOTSWAP_ISA_OVERRIDE=gfx942 -- "$ENVDUMP"
check "--dry-run of a hotswap profile" 0
expect_out "#   + HSA_HOTSWAP_STRICT=0  [contract]"
expect_out "#   + HSA_HOTSWAP_ISA_OVERRIDE=gfx942  [--env]"
ok "every change names its origin"

# A profile that names its target, or an override, never reads the KFD topology: a FIFO in
# place of a node's properties would block the scan.
node="$T/fifo-sys/class/kfd/kfd/topology/nodes/1"
mkdir -p "$node"
mkfifo "$node/properties"
mirage profile edit p --set target=gfx942
MIRAGE_SYSFS_ROOT="$T/fifo-sys" run timeout 10 "$MIRAGE_BIN" run --profile p -- "$ENVDUMP"
check "a named target does not scan the GPUs" 0
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx942
mirage profile edit p --set target=auto
MIRAGE_SYSFS_ROOT="$T/fifo-sys" HSA_HOTSWAP_ISA_OVERRIDE=gfx950 run timeout 10 "$MIRAGE_BIN" run --profile p -- "$ENVDUMP"
check "an override does not scan the GPUs" 0
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx950
MIRAGE_SYSFS_ROOT="$T/fifo-sys" run timeout 10 "$MIRAGE_BIN" run --profile p --env HSA_HOTSWAP_ISA_OVERRIDE=gfx942 -- "$ENVDUMP"
check "an --env override does not scan the GPUs" 0
expect_val HSA_HOTSWAP_ISA_OVERRIDE gfx942
done_testing
