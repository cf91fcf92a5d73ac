# libhotswap_intercept.so stays a libc-only shim: preloaded into a process that
# never touches HSA it maps nothing of ours but itself, the core comes in with
# the runtime's OnLoad, and a missing or wrong core fails open with one warning, or closed
# (every code object load refused) under HSA_HOTSWAP_STRICT.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

CORE_NAME=libhotswap_intercept_core.so
[ -f "$TREE/lib/$CORE_NAME" ] || fail "tree lacks lib/$CORE_NAME"
ok "tree has lib/$CORE_NAME"

# Every NEEDED entry of the shim is glibc itself (libdl/libpthread are libc on glibc >= 2.34).
needed=$("$LLVM_READELF" -d "$INTERCEPT" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
assert_ne "$needed" "" "the shim has NEEDED entries to judge"
for lib in $needed; do
	case $lib in
	libc.so.* | libdl.so.* | libpthread.so.* | ld-linux*.so.*) ok "shim NEEDED $lib: libc family" ;;
	*) fail "the shim needs $lib: only libc-family libraries belong in it (move the code to the core)" ;;
	esac
done
assert_eq "$(nm -D --defined-only "$TREE/lib/$CORE_NAME" | awk '{print $3}' | sed 's/@.*//')" \
	"hsi_core_get_api" "the core exports only its entry symbol"

# A preloaded process that never calls hsa_init maps the shim and nothing heavy.
maps=$TEST_TMP/maps.txt
run_capture env LD_PRELOAD="$INTERCEPT" "$STANDIN/maps_probe" "$maps"
assert_eq "$RUN_STATUS/$RUN_STDOUT$RUN_STDERR" "0/" "no HSA: exits 0, prints nothing"
assert_contains "$(cat "$maps")" "/libhotswap_intercept.so" "no HSA: the shim is mapped"
for heavy in "$CORE_NAME" libhotswap_rewrite libhotswap_mc libcrypto libelf libcjson libmsgpackc \
	libLLVM; do
	assert_not_contains "$(cat "$maps")" "$heavy" "no HSA: $heavy is not mapped"
done

# The runtime's OnLoad brings the core in, from the shim's own directory.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 \
	LD_DEBUG=files "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "HSA client: exits 0"
assert_contains "$RUN_STDERR" "calling init: $TREE/lib/$CORE_NAME" "HSA client: the core is loaded"
# libzstd comes in only for a zstd-compressed fat binary (codeobj/zstd_dl.h), never with the core.
# The core links only what a cache hit uses: the rewriter (and its libelf, msgpack) and libzstd
# are loaded when first needed (intercept/core/rewriter.h, codeobj/zstd_dl.h).
for lib in libzstd libhotswap_rewrite libelf libmsgpackc; do
	assert_not_contains "$("$LLVM_READELF" -d "$TREE/lib/$CORE_NAME")" "$lib" "the core does not link $lib"
done
assert_not_contains "$RUN_STDERR" "file=libzstd" "HSA client: libzstd is not loaded"
assert_has_stubs "$REC/load-1.co" "HSA client"

# A tree without a usable core: the runtime carries on without our hooks, one warning.
broken=$TEST_TMP/broken/hotswap
mkdir -p "$(dirname "$broken")"
cp -a "$TREE" "$broken"
rm "$broken/lib/$CORE_NAME"
fresh_rec
run_capture env LD_PRELOAD="$broken/lib/libhotswap_intercept.so" STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "no core: client exits 0"
assert_same_bytes "$REC/load-1.co" "$HELLO" "no core: original loaded"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap: ")" 1 "no core: one hotswap line"
assert_contains "$RUN_STDERR" "hotswap: cannot load '$broken/lib/$CORE_NAME': " \
	"no core: names the path"
assert_contains "$RUN_STDERR" "No such file or directory" "no core: says dlerror()"
assert_contains "$RUN_STDERR" "OnLoad returned false" "no core: OnLoad returns false"

# Strict: the same missing core fails closed.  ROCr starts without a tool whose OnLoad returns
# false, so the shim keeps the runtime and refuses every load instead.
for how in HSA_TOOLS_LIB LD_PRELOAD; do
	fresh_rec
	run_capture env "$how=$broken/lib/libhotswap_intercept.so" STANDIN_ASIC_REV=1 \
		HSA_HOTSWAP_STRICT=1 "$CLIENT" "$HELLO"
	assert_eq "$RUN_STATUS" 1 "no core, strict, $how: the client's load fails"
	assert_eq "$(recorded)" 0 "no core, strict, $how: nothing reached the loader"
	assert_contains "$RUN_STDERR" "hotswap: cannot load '$broken/lib/$CORE_NAME': " \
		"no core, strict, $how: names the path"
	assert_contains "$RUN_STDERR" \
		"; HSA_HOTSWAP_STRICT is set: refusing every code object load" "no core, strict, $how: says what follows"
	assert_contains "$RUN_STDERR" \
		"hotswap: refusing the load: the HotSwap core is not loaded (HSA_HOTSWAP_STRICT is set)" \
		"no core, strict, $how: the load says why"
	assert_contains "$RUN_STDERR" "INVALID_CODE_OBJECT" "no core, strict, $how: HSA_STATUS_ERROR_INVALID_CODE_OBJECT"
	assert_not_contains "$RUN_STDERR" "OnLoad returned false" "no core, strict, $how: the tool stays"
done
# A table too old to refuse loads in: said, and the runtime goes on without us.
fresh_rec
run_capture env HSA_TOOLS_LIB="$broken/lib/libhotswap_intercept.so" STANDIN_CORE_TABLE_SIZE=512 \
	HSA_HOTSWAP_STRICT=1 "$CLIENT" "$HELLO"
assert_contains "$RUN_STDERR" "hotswap: the runtime's HSA API table is too old to refuse loads in" \
	"no core, strict, old table: says it cannot fail closed"
assert_contains "$RUN_STDERR" "OnLoad returned false" "no core, strict, old table: OnLoad returns false"

# A core without the entry symbol (another library in its place) is refused the same way.
cp "$TREE/lib/libhotswap_rewrite.so.0" "$broken/lib/$CORE_NAME"
fresh_rec
run_capture env HSA_TOOLS_LIB="$broken/lib/libhotswap_intercept.so" STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "wrong core: client exits 0"
assert_same_bytes "$REC/load-1.co" "$HELLO" "wrong core: original loaded"
assert_contains "$RUN_STDERR" "hotswap: '$broken/lib/$CORE_NAME' does not export hsi_core_get_api" \
	"wrong core: says why"

# A tree whose rewriter is gone: the core still loads (it loads the rewriter only when an
# object must be rewritten), and that load says why and goes on as a failed rewrite does.
norw=$TEST_TMP/norw/hotswap
mkdir -p "$(dirname "$norw")"
cp -a "$TREE" "$norw"
rm "$norw"/lib/libhotswap_rewrite.so*
fresh_rec
run_capture env LD_PRELOAD="$norw/lib/libhotswap_intercept.so" STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_HOTSWAP_CACHE_DIR="$TEST_TMP/norw-cache" "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "no rewriter: client exits 0"
assert_same_bytes "$REC/load-1.co" "$HELLO" "no rewriter: original loaded"
assert_contains "$RUN_STDERR" "failed: cannot load the rewriter: $norw/lib/libhotswap_rewrite.so: " \
	"no rewriter: names the library"
assert_contains "$RUN_STDERR" "; loading the original" "no rewriter: says what follows"
fresh_rec
run_capture env LD_PRELOAD="$norw/lib/libhotswap_intercept.so" STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_HOTSWAP_STRICT=1 HSA_HOTSWAP_CACHE_DIR="$TEST_TMP/norw-cache" \
	"$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 1 "no rewriter, strict: the client's load fails"
assert_eq "$(recorded)" 0 "no rewriter, strict: nothing reached the loader"
assert_contains "$RUN_STDERR" "cannot load the rewriter" "no rewriter, strict: says why"
done_testing
