# The translation cache: a second process hits, a flipped byte is invalid and
# recomputed, a read-only cache is bypassed without failing the load, and the
# switches that turn the disk tier off.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_HOTSWAP_CACHE_DEBUG=1
export HSA_TOOLS_LIB=$INTERCEPT
sha8=$(sha256sum "$HELLO" | cut -c1-8)

load() { # [ENV...] -- runs the client on hello.co with a fresh record dir
	fresh_rec
	run_capture env "$@" "$CLIENT" "$HELLO"
}

load
assert_eq "$RUN_STATUS" 0 "first process: exits 0"
assert_eq "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx1250) kernels=1 $sha8" \
	"first process: one miss line"
cp "$REC/load-1.co" "$TEST_TMP/first.co"
entry=$(find "$CACHE" -name '*.co')
assert_eq "$(echo "$entry" | wc -l)" 1 "one entry on disk"
key=$(basename "$entry" .co)
assert_eq "$(basename "$(dirname "$entry")")" "${key:0:2}" "entry under <key[0:2]>/"
assert_same_bytes "$entry" "$TEST_TMP/first.co" "cached object"
for field in '"input_sha256":' '"output_sha256":' '"output_crc32c":' '"input_size":' '"output_size":' \
	'"source_isa":' '"target_isa":' '"flags":' '"rewriter_version":' '"created":'; do
	assert_contains "$CACHE/${key:0:2}/$key.json" "$field" "sidecar has $field"
done
assert_contains "$CACHE/${key:0:2}/$key.json" "$(sha256sum "$HELLO" | cut -d' ' -f1)" \
	"sidecar records the input hash"

load
assert_eq "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx1250) kernels=1 $sha8" \
	"second process: hit"
assert_same_bytes "$REC/load-1.co" "$TEST_TMP/first.co" "second process"

# One flipped byte in the cached object: never served, recomputed, re-stored.
printf '\xff' | dd of="$entry" bs=1 seek=300 conv=notrunc status=none
load
assert_eq "$RUN_STATUS" 0 "flipped byte: exits 0"
assert_contains "$RUN_STDERR" "hotswap_cache: invalid (gfx1250 -> gfx1250)" "flipped byte: invalid"
assert_same_bytes "$REC/load-1.co" "$TEST_TMP/first.co" "flipped byte: recomputed"
load
assert_contains "$RUN_STDERR" "hotswap_cache: hit" "after invalid: the new entry hits"

# In-process tier: a second load of the same object in one process.
fresh_rec
run_capture "$CLIENT" "$HELLO" "$HELLO"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: hit")" 2 "in-process: both hit"
run_capture env HSA_HOTSWAP_CACHE_DISABLE=1 "$CLIENT" "$HELLO" "$HELLO"
assert_eq "$(sed -n 1p "$RUN_STDERR_FILE")" \
	"hotswap_cache: disabled (gfx1250 -> gfx1250) kernels=1 $sha8" "in-process: first computed"
assert_contains "$(sed -n 2p "$RUN_STDERR_FILE")" "hotswap_cache: hit" "in-process: second hit"

# The switches that turn the disk tier off.
load HSA_HOTSWAP_CACHE_DISABLE=yes
assert_contains "$RUN_STDERR" "hotswap_cache: disabled" "HSA_HOTSWAP_CACHE_DISABLE=yes"
load HSA_HOTSWAP_CACHE_DIR=
assert_contains "$RUN_STDERR" "hotswap_cache: disabled" "empty HSA_HOTSWAP_CACHE_DIR"
load HSA_HOTSWAP_CACHE_DISABLE=0
assert_contains "$RUN_STDERR" "hotswap_cache: hit" "HSA_HOTSWAP_CACHE_DISABLE=0 keeps it on"
unset HSA_HOTSWAP_CACHE_DIR
load
assert_contains "$RUN_STDERR" "hotswap_cache: miss" "default root: miss"
assert_eq "$(find "$XDG_CACHE_HOME/mirage/hotswap" -name '*.co' | wc -l)" 1 \
	"default root is \$XDG_CACHE_HOME/mirage/hotswap"
export HSA_HOTSWAP_CACHE_DIR=$CACHE

# A read-only cache: bypassed (or hit when it already holds the entry), never fatal.
ro=$TEST_TMP/ro-cache
mkdir -p "$ro"
run_ro() { # DIR: run the client with a read-only DIR as cache
	if [ "$(id -u)" != 0 ]; then
		ro_err="Permission denied"
		chmod -R a-w "$1"
		run_capture env HSA_HOTSWAP_CACHE_DIR="$1" "$CLIENT" "$HELLO"
		chmod -R u+w "$1"
	elif unshare -m true 2>/dev/null; then
		ro_err="Read-only file system"
		# root ignores permissions: a read-only bind mount in a private namespace.
		# shellcheck disable=SC2016  # expanded by the inner sh
		run_capture unshare -m sh -c 'mount --bind -o ro "$1" "$1" && shift && exec "$@"' \
			sh "$1" env HSA_HOTSWAP_CACHE_DIR="$1" "$CLIENT" "$HELLO"
	else
		return 1
	fi
}
fresh_rec
if run_ro "$ro"; then
	assert_eq "$RUN_STATUS" 0 "read-only cache: exits 0"
	assert_eq "$RUN_STDERR" \
		"hotswap_cache: bypassed (gfx1250 -> gfx1250) kernels=1 $sha8 (cannot create shard '${key:0:2}': $ro_err)" \
		"read-only cache: bypassed, says why"
	assert_has_stubs "$REC/load-1.co" "read-only cache"
	assert_eq "$(find "$ro" -type f | wc -l)" 0 "read-only cache: nothing written"
	cp -a "$CACHE/." "$ro/"
	fresh_rec
	run_ro "$ro"
	assert_contains "$RUN_STDERR" "hotswap_cache: hit" "read-only cache with the entry: hit"
else
	skip "read-only cache: cannot make a read-only directory as root here"
fi

# A rebuilt rewriter or MC library keys anew: the entry of the old build is not served.
# A copy of the tree stands in for a rebuild; changing one byte of a library's build-id is
# what a rebuild with other code does to it.
flip_build_id() { # LIB: changes the first byte of LIB's NT_GNU_BUILD_ID
	python3 - "$1" <<'PY' || fail "cannot change the build-id of $1"
import subprocess, sys
out = subprocess.run(["readelf", "-S", "-W", sys.argv[1]], capture_output=True, text=True).stdout
words = next(l.split() for l in out.splitlines() if ".note.gnu.build-id" in l)
off = int(words[words.index(".note.gnu.build-id") + 3], 16) + 16  # past namesz/descsz/type/"GNU"
with open(sys.argv[1], "r+b") as f:
    f.seek(off)
    b = f.read(1)[0]
    f.seek(off)
    f.write(bytes([b ^ 0xff]))
PY
}
rebuilt=$TEST_TMP/rebuilt/hotswap
mkdir -p "$(dirname "$rebuilt")"
cp -a "$TREE" "$rebuilt"
load HSA_TOOLS_LIB="$rebuilt/lib/libhotswap_intercept.so"
assert_contains "$RUN_STDERR" "hotswap_cache: hit" "a copy of the same build: hit"
for lib in libhotswap_mc.so libhotswap_rewrite.so; do
	flip_build_id "$(readlink -f "$rebuilt/lib/$lib")"
	load HSA_TOOLS_LIB="$rebuilt/lib/libhotswap_intercept.so"
	assert_eq "$RUN_STATUS" 0 "rebuilt $lib: exits 0"
	assert_contains "$RUN_STDERR" "hotswap_cache: miss" "rebuilt $lib: miss, not the old entry"
	assert_has_stubs "$REC/load-1.co" "rebuilt $lib"
done
# Storing an entry never waits for the disk: a torn entry fails verification and is recomputed.
if command -v strace >/dev/null && strace -f -qq -e trace=none true 2>/dev/null; then
	fresh_rec
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=fsync,fdatasync,sync_file_range -o "$TEST_TMP/sync.trace" \
		env HSA_HOTSWAP_CACHE_DIR="$TEST_TMP/nosync-cache" "$CLIENT" "$HELLO" 2>"$TEST_TMP/sync.err" ||
		fail "client under strace: $(cat "$TEST_TMP/sync.err")"
	assert_eq "$(find "$TEST_TMP/nosync-cache" -name '*.co' | wc -l)" 1 "under strace: entry stored"
	assert_eq "$(grep -c 'sync' "$TEST_TMP/sync.trace" || true)" 0 "storing an entry calls no fsync"
else
	skip "no usable strace: cannot count fsync calls"
fi

json=$(find "$CACHE" -name '*.json' -newer "$rebuilt/lib/libhotswap_mc.so" | head -1)
assert_contains "$(cat "$json")" "\"rewriter_build\":	\"$MIRAGE_VERSION rewrite=" "sidecar names the build"
done_testing
