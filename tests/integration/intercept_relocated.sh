# The staged tree is complete and relocatable: copied elsewhere and pointed
# at with HOTSWAP_HOME, it works from the copy, loading only the copy's libraries.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

for f in lib/libhotswap_intercept.so lib/libhotswap_intercept_core.so lib/libhotswap_rewrite.so \
	lib/libhotswap_mc.so runtime/hotswap_py/sitecustomize.py; do
	[ -f "$TREE/$f" ] || fail "tree lacks $f"
done
ok "tree has lib/ and runtime/hotswap_py/"
for t in llc llvm-mc lld ld.lld; do
	if [ ! -L "$TREE/llvm-tools/$t" ] || [ ! -x "$TREE/llvm-tools/$t" ]; then
		fail "llvm-tools/$t is not a symlink to an executable"
	fi
done
"$TREE/llvm-tools/llvm-mc" --version | grep -q "LLVM version 22" || fail "llvm-mc is not LLVM 22"
ok "llvm-tools/{llc,llvm-mc,lld,ld.lld} link to LLVM 22"

# No build path in what the loader reads: RUNPATH $ORIGIN, no path in the code or data.
for lib in "$TREE"/lib/*.so; do
	rp=$("$LLVM_READELF" -d "$lib" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p;s/.*(RPATH).*\[\(.*\)\]/\1/p')
	# The translator needs no sibling (only libLLVM, where LLVM installs it); the rest find theirs.
	# shellcheck disable=SC2016  # a literal $ORIGIN
	[ "$(basename "$lib")" = libmirage_translate.so ] ||
		assert_contains "$rp" '$ORIGIN' "$(basename "$lib"): RUNPATH has \$ORIGIN"
	assert_not_contains "$rp" "$MIRAGE_BUILD" "$(basename "$lib"): no build path in RUNPATH"
	objcopy --strip-debug "$lib" "$TEST_TMP/stripped.so"
	assert_not_contains "$(strings -a "$TEST_TMP/stripped.so")" "$MIRAGE_BUILD" \
		"$(basename "$lib"): no build path in its code or data"
done

copy=$TEST_TMP/moved/hotswap
mkdir -p "$(dirname "$copy")"
cp -a "$TREE" "$copy"
export HOTSWAP_HOME=$copy
fresh_rec
run_capture env HSA_TOOLS_LIB="$HOTSWAP_HOME/lib/libhotswap_intercept.so" STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 LD_DEBUG=files "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "from the copy: client exits 0"
assert_has_stubs "$REC/load-1.co" "from the copy"
assert_contains "$RUN_STDERR" "calling init: $copy/lib/libhotswap_intercept_core.so" \
	"from the copy: its own intercept core"
assert_contains "$RUN_STDERR" "calling init: $copy/lib/libhotswap_rewrite.so" \
	"from the copy: its own libhotswap_rewrite"
assert_not_contains "$RUN_STDERR" "calling init: $TREE/lib/" "from the copy: nothing from the build"
done_testing
