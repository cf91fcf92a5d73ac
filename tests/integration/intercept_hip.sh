# HIP programs built for gfx1250 only, run under `mirage run` with a gfx942 profile against
# the stand-in HIP runtime (tests/standin/hip, docs/hip.md): the fat binary registered by
# clang's constructor (uncompressed, --offload-compress's CCOB v3 zstd, a CCOB v2 zlib put in
# its place), a bare code object through hipModuleLoadData, hipModuleLoadDataEx,
# hipModuleLoad and a hipGetProcAddress pointer, and a library opened RTLD_LOCAL.  Without
# mirage each fails with hipErrorNoBinaryForGpu; with it the launch the stand-in records is a
# gfx942 object llvm-objdump-22 decodes whole, and `mirage emulate` of that very launch gives
# the bytes Python computes from the recorded inputs.  A program with gfx942 code keeps it
# byte for byte; the HSA loader path is served the HIP path's translation from the cache; a
# refused kernel and bad fat binaries are said once and passed on, never a crash; without a
# target the hooks only forward.
source "$TEST_LIB"
source "$(dirname "$0")/hip_lib.sh"
source "$(dirname "$0")/intercept_common.sh"

S=$HIP_STANDIN
BUNDLER=/usr/lib/llvm-22/bin/clang-offload-bundler
for f in "$S/libamdhip64.so.6" "$S/dlopen_app" "$S/bad_fatbin"; do
	[ -e "$f" ] || fail "missing build output '$f' (build the default targets first)"
done
export HOME=$TEST_TMP/home XDG_CONFIG_HOME=$TEST_TMP/config XDG_CACHE_HOME=$TEST_TMP/xdg-cache
export MIRAGE_SYSFS_ROOT=$TEST_TMP/no-sysfs
# mirage run's own cache, where the profile puts it.
unset HSA_HOTSWAP_CACHE_DIR
CACHE=$XDG_CACHE_HOME/mirage/hotswap
cd "$TEST_TMP" || fail "cannot cd to $TEST_TMP"

hip_app app --offload-arch=gfx1250
hip_app appz --offload-arch=gfx1250 --offload-compress
hip_app both --offload-arch=gfx1250 --offload-arch=gfx942
hip_app refused --offload-arch=gfx1250 -DHIP_APP_REFUSED
hip_app libapp.so --offload-arch=gfx1250 -DHIP_APP_LIBRARY -shared -fPIC
"$LLVM_OBJDUMP" --offloading app >/dev/null 2>&1 || fail "llvm-objdump-22 --offloading app"
bare=app.0.hipv4-amdgcn-amd-amdhsa--gfx1250
[ -s "$bare" ] || fail "llvm-objdump-22 --offloading extracted no gfx1250 entry"
# The same program with its fat binary replaced by a CCOB v2 zlib of it (clang's bundler
# picks zstd when it has it), hashed by Python's hashlib.
"$LLVM_OBJCOPY" --dump-section .hip_fatbin=fatbin.bin app || fail "llvm-objcopy --dump-section"
python3 - fatbin.bin zlib2.ccob <<'EOF' || fail "making the CCOB v2 zlib"
import hashlib, struct, sys, zlib
raw = open(sys.argv[1], "rb").read()
z = zlib.compress(raw)
head = b"CCOB" + struct.pack("<HHII", 2, 0, 24 + len(z), len(raw)) + hashlib.md5(raw).digest()[:8]
open(sys.argv[2], "wb").write(head + z)
EOF
cp app appzlib && "$LLVM_OBJCOPY" --update-section .hip_fatbin=zlib2.ccob appzlib ||
	fail "llvm-objcopy --update-section"

run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 (gfx942) created"

# CASE CMD...: CMD fails without mirage as the HIP runtime makes it fail, then runs under
# `mirage run -p mi300`, and what the stand-in recorded is judged.
judge() {
	local name=$1 dis=$TEST_TMP/dis.txt
	shift
	fresh_rec
	run_capture "$@"
	assert_eq "$RUN_STATUS" 1 "$name: exits 1 without mirage"
	assert_contains "$RUN_STDERR" "hipErrorNoBinaryForGpu (209)" "$name: hipErrorNoBinaryForGpu without mirage"
	fresh_rec
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$@"
	assert_eq "$RUN_STATUS" 0 "$name: exits 0 under mirage run -p mi300 (stderr: $(head -c 600 "$RUN_STDERR_FILE"))"
	"$LLVM_READELF" -h "$REC/hip-launch-1.co" >"$TEST_TMP/h.txt" || fail "$name: llvm-readelf -h"
	assert_contains "$TEST_TMP/h.txt" ", gfx942" "$name: the launched object is gfx942 (llvm-readelf -h)"
	"$LLVM_OBJDUMP" -d --mcpu=gfx942 "$REC/hip-launch-1.co" >"$dis" 2>"$TEST_TMP/od.err" ||
		fail "$name: llvm-objdump-22 -d"
	if [ -s "$TEST_TMP/od.err" ] || grep -q '<unknown>' "$dis" || ! grep -q '<vector_add>:' "$dis"; then
		fail "$name: llvm-objdump-22 does not decode the launched object whole"
	fi
	ok "$name: llvm-objdump-22 --mcpu=gfx942 decodes it whole"
	run_capture "$MIRAGE_BIN" emulate "$REC/hip-launch-1.json"
	assert_eq "$RUN_STATUS" 0 "$name: mirage emulate of the recorded launch ($(head -c 400 "$RUN_STDERR_FILE"))"
	python3 - "$REC" <<'EOF' || fail "$name: the emulated vector_add is not a + b for i < 250"
import struct, sys
d = sys.argv[1] + "/hip-launch-1-"
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
a, b, c0 = (struct.unpack("<256f", open(d + n, "rb").read()) for n in ("b0.bin", "b1.bin", "b2.bin"))
c = struct.unpack("<256f", open(d + "b2.out", "rb").read())
want = tuple(f32(a[i] + b[i]) if i < 250 else c0[i] for i in range(256))
sys.exit(c != want)
EOF
	ok "$name: the emulated launch gives a + b (Python's float32 sums of the recorded inputs)"
}

judge "fat binary" ./app
# The bundle the hooks registered, as LLVM's own tools read it.
nb=$REC/hip-fatbin-1.bundle
[ -s "$nb" ] || fail "the stand-in recorded no registered bundle"
"$BUNDLER" --list --type=o --input="$nb" >"$TEST_TMP/list.txt" 2>&1 ||
	fail "clang-offload-bundler --list: $(cat "$TEST_TMP/list.txt")"
assert_eq "$(sort "$TEST_TMP/list.txt" | tr '\n' ' ')" \
	"hipv4-amdgcn-amd-amdhsa--gfx1250 hipv4-amdgcn-amd-amdhsa--gfx942 host-x86_64-unknown-linux-gnu- " \
	"clang-offload-bundler --list: the program's entries and the gfx942 one added"
printf 'int unused;\n' | "$CLANG" -x c -c - -o holder.o || fail "clang -c holder.o"
"$LLVM_OBJCOPY" --add-section .hip_fatbin="$nb" holder.o || fail "llvm-objcopy --add-section"
"$LLVM_OBJDUMP" --offloading holder.o >"$TEST_TMP/od.txt" 2>&1 ||
	fail "llvm-objdump-22 --offloading: $(cat "$TEST_TMP/od.txt")"
cmp -s holder.o.0.hipv4-amdgcn-amd-amdhsa--gfx942 "$REC/hip-launch-1.co" &&
	cmp -s holder.o.0.hipv4-amdgcn-amd-amdhsa--gfx1250 "$bare" &&
	ok "llvm-objdump-22 --offloading extracts the gfx942 entry launched and the gfx1250 one kept" ||
	fail "llvm-objdump-22 --offloading of the registered bundle: $(cat "$TEST_TMP/od.txt")"
# A cache hit needs the object's ISA and the key, not the rewriter (intercept/core/rewriter.h):
# the core is loaded, libhotswap_rewrite (and with it LLVM) is not.  The entry is read straight
# into its place in the new bundle (intercept/core/hip.c): the bundle registered is the one
# the miss registered, byte for byte.
cp "$nb" miss.bundle
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 --env LD_DEBUG=files --env HSA_HOTSWAP_CACHE_DEBUG=1 -- ./app
assert_eq "$RUN_STATUS" 0 "fat binary again: exits 0"
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942)" "fat binary again: a cache hit"
assert_contains "$RUN_STDERR" "calling init: $TREE/lib/libhotswap_intercept_core.so" \
	"fat binary again: the core is loaded"
assert_not_contains "$RUN_STDERR" "libhotswap_rewrite" "a cache hit does not load the rewriter"
assert_same_bytes "$REC/hip-fatbin-1.bundle" miss.bundle "fat binary again: the bundle the cache hit registered"
judge "CCOB v3 zstd fat binary" ./appz
judge "CCOB v2 zlib fat binary" ./appzlib
judge "hipModuleLoadData of a bare object" ./app data "$bare"
judge "hipModuleLoadDataEx" ./app data-ex "$bare"
judge "hipModuleLoad" ./app file "$bare"
judge "a hipGetProcAddress pointer" ./app proc "$bare"
judge "a library opened RTLD_LOCAL" "$S/dlopen_app" "$TEST_TMP/libapp.so"

# A fat binary of a HIP library (hipModuleLoadData of the bundle itself).
"$LLVM_OBJCOPY" --dump-section .hip_fatbin=lib.fatbin libapp.so || fail "llvm-objcopy libapp.so"
judge "hipModuleLoadData of a fat binary" ./app data lib.fatbin

# Native code is left alone: the gfx942 entry, byte for byte, and nothing translated.
"$LLVM_OBJDUMP" --offloading both >/dev/null 2>&1 || fail "llvm-objdump-22 --offloading both"
fresh_rec
HSA_HOTSWAP_CACHE_DEBUG=1 run_capture "$MIRAGE_BIN" run -p mi300 -- ./both
assert_eq "$RUN_STATUS" 0 "gfx1250 + gfx942: exits 0"
assert_same_bytes "$REC/hip-launch-1.co" both.0.hipv4-amdgcn-amd-amdhsa--gfx942 "gfx1250 + gfx942: the gfx942 entry"
assert_not_contains "$RUN_STDERR" "hotswap_cache:" "gfx1250 + gfx942: nothing translated"

# One translation for both paths: the HSA loader is served the HIP path's from the cache.
rm -rf "$CACHE"
HSA_HOTSWAP_CACHE_DEBUG=1 run_capture "$MIRAGE_BIN" run -p mi300 -- ./app data "$bare"
assert_contains "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx942) kernels=1" "HIP path: translated once (miss)"
HSA_HOTSWAP_CACHE_DEBUG=1 STANDIN_AGENT_GFX=gfx942 run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$bare"
assert_eq "$RUN_STATUS" 0 "HSA path: the stand-in HSA client loads the same object"
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942) kernels=1" "HSA path: served the HIP path's translation"
HSA_HOTSWAP_CACHE_DEBUG=1 run_capture "$MIRAGE_BIN" run -p mi300 -- ./app
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942) kernels=1" "the fat binary's entry: the same key"

# A kernel the translator refuses: the slice is a partial translation (docs/translate.md),
# said once at registration, naming kernel and instruction; the program never launches that
# kernel, so it runs, and its launch is right.
judge "a fat binary with a refused kernel" ./refused
# (judge's last run is the emulation: run it again, a cache hit, whose entry keeps the refusals.)
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 --env HSA_HOTSWAP_CACHE_DEBUG=1 -- ./refused
assert_eq "$RUN_STATUS" 0 "refused kernel, again: exits 0"
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942) kernels=2" "refused kernel, again: a cache hit"
assert_contains "$RUN_STDERR" "kernel 'swapper' is refused at" "refused kernel: named"
assert_contains "$RUN_STDERR" "ds_load_tr8_b64" "refused kernel: the instruction named"
assert_contains "$RUN_STDERR" "with 1 of 2 kernels refused, each an entry that traps" "refused kernel: what the slice is"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "kernel 'swapper' is refused at")" 1 "refused kernel: said once"
"$LLVM_OBJDUMP" -d --mcpu=gfx942 "$REC/hip-launch-1.co" | grep -A1 '^[0-9a-f]* <swapper>:' | grep -q 's_trap 2' &&
	ok "refused kernel: its entry in the registered object traps" || fail "refused kernel: swapper does not trap"
# With all_kernels, all or nothing: the registration passes the original on, and the runtime's
# own error follows.
run_capture "$MIRAGE_BIN" profile create mi300whole --target gfx942 --all-kernels
assert_eq "$RUN_STATUS" 0 "profile mi300whole (all_kernels) created"
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300whole -- ./refused
assert_eq "$RUN_STATUS" 1 "all_kernels: the program fails"
assert_contains "$RUN_STDERR" "kernel 'swapper' is refused at" "all_kernels: named"
assert_contains "$RUN_STDERR" "the HIP runtime will answer hipErrorNoBinaryForGpu" "all_kernels: what follows is said"
assert_contains "$RUN_STDERR" "hipErrorNoBinaryForGpu (209)" "all_kernels: the runtime's error"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "translation of the HIP fat binary")" 1 "all_kernels: said once"

# Bad fat binaries: one warning each, the original passed on, nothing cached, no crash.
python3 - <<'EOF' || fail "making the bad bundles"
import hashlib, struct, zlib
magic = b"__CLANG_OFFLOAD_BUNDLE__"
open("count.bundle", "wb").write(magic + struct.pack("<Q", 3) + struct.pack("<QQQ", 64, 8, 4) + b"hipv")
open("offset.bundle", "wb").write(magic + struct.pack("<Q", 1) + struct.pack("<QQQ", 4096, 4096, 4) + b"hipv")
raw = magic + struct.pack("<Q", 1) + struct.pack("<QQQ", 60, 0, 4) + b"host"
z = zlib.compress(raw)
open("hash.ccob", "wb").write(b"CCOB" + struct.pack("<HHII", 2, 0, 24 + len(z), len(raw)) + b"\0" * 8 + z)
bomb = zlib.compress(b"\0" * (4 << 20))
open("bomb.ccob", "wb").write(b"CCOB" + struct.pack("<HHQQ", 3, 0, 32 + len(bomb), 3 << 30) + b"\0" * 8 + bomb)
open("method.ccob", "wb").write(b"CCOB" + struct.pack("<HHII", 2, 7, 40, 100) + b"\0" * 16)
open("version.ccob", "wb").write(b"CCOB" + struct.pack("<HHII", 9, 1, 40, 100) + b"\0" * 16)
open("size.ccob", "wb").write(b"CCOB" + struct.pack("<HHII", 2, 0, 24 + len(z), len(raw) + 1) + hashlib.md5(raw).digest()[:8] + z)
EOF
rm -rf "$CACHE"
bad() {
	local what=$1 want=$2
	shift 2
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$S/bad_fatbin" "$@"
	assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/registered" "$what: the program carries on"
	assert_contains "$RUN_STDERR" "$want" "$what: said"
	assert_eq "$(grep -c '^hotswap: ' "$RUN_STDERR_FILE")" 1 "$what: one warning"
}
bad "a null wrapper" "hotswap: __hipRegisterFatBinary was given a null wrapper; passing it on" null
bad "a wrapper's magic" "the wrapper has magic 0x46504948 version 1 (want 0x48495046 version 1)" magic
bad "a wrapper's version" "the wrapper has magic 0x48495046 version 2 (want 0x48495046 version 1)" version
bad "a wrapper at unmapped memory" "which is not readable memory; passing it on untouched" unmapped
bad "an entry count past the end" "not a readable offload bundle: offload bundle:" file count.bundle
bad "an entry past the end" "not a readable offload bundle: offload bundle:" file offset.bundle
bad "a CCOB's hash" "does not match the decompressed bytes" file hash.ccob
bad "a decompression bomb" "it claims 3221225472 uncompressed bytes" file bomb.ccob
bad "a CCOB's method" "method 7 at offset 0x6" file method.ccob
bad "a CCOB's version" "version 9 at offset 0x4" file version.ccob
bad "a CCOB's uncompressed size" "compressed offload bundle:" file size.ccob
assert_eq "$(find "$CACHE" -type f 2>/dev/null | wc -l)" 0 "bad input: nothing cached"

# No target: the hooks only forward, and the core is never loaded.
run_capture env LD_PRELOAD="$INTERCEPT" LD_DEBUG=files ./app
assert_eq "$RUN_STATUS" 1 "no target: the program meets the runtime's own answer"
assert_contains "$RUN_STDERR" "hipErrorNoBinaryForGpu (209)" "no target: hipErrorNoBinaryForGpu"
assert_not_contains "$RUN_STDERR" "libhotswap_intercept_core" "no target: the core is never loaded"
done_testing
