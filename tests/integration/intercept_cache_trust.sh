# The translation cache is only trusted where nobody else can write: a planted object with a
# matching sidecar in a group/world-writable or foreign-owned root or shard is never served
# (bypassed, and the debug line says why), a shard planted as a symlink is never followed, and
# a root that is a regular file or a symlink is bypassed.  Root-only parts (chown) are skipped
# with a reason elsewhere; CI runs as root.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_HOTSWAP_CACHE_DEBUG=1
export HSA_TOOLS_LIB=$INTERCEPT
sha8=$(sha256sum "$HELLO" | cut -c1-8)
FOREIGN=$FIXTURES/sgpr8.co
line="hotswap_cache: bypassed (gfx1250 -> gfx1250) kernels=1 $sha8"

load() { # CACHE-DIR: runs the client on hello.co with a fresh record dir
	fresh_rec
	run_capture env HSA_HOTSWAP_CACHE_DIR="$1" "$CLIENT" "$HELLO"
}

# A real entry, to learn the key and the layout; dirs the intercept creates are 0700.
load "$CACHE"
assert_eq "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx1250) kernels=1 $sha8" "first load: miss"
entry=$(find "$CACHE" -name '*.co')
key=$(basename "$entry" .co)
kk=${key:0:2}
assert_eq "$(stat -c %a "$CACHE")" 700 "cache root created 0700"
assert_eq "$(stat -c %a "$CACHE/$kk")" 700 "shard created 0700"
assert_eq "$(stat -c %a "$entry")" 600 "entry created 0600"

# plant DIR: a copy of the cache whose entry is $FOREIGN (another gfx1250 object) with a matching
# sidecar (what an attacker with write access to DIR can make).
plant() {
	rm -rf "$1"
	cp -a "$CACHE" "$1"
	cp "$FOREIGN" "$1/$kk/$key.co"
	python3 - "$1/$kk/$key.json" "$FOREIGN" <<'PY' || fail "cannot plant a sidecar in $1"
import hashlib, json, os, sys
meta = json.load(open(sys.argv[1]))
data = open(sys.argv[2], "rb").read()
def crc32c(b):  # bitwise, Castagnoli's polynomial (RFC 3720), written here as the judge
    c = 0xffffffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = c >> 1 ^ 0x82f63b78 if c & 1 else c >> 1
    return c ^ 0xffffffff
meta["output_sha256"] = hashlib.sha256(data).hexdigest()
meta["output_crc32c"] = "%08x" % crc32c(data)
meta["output_size"] = len(data)
json.dump(meta, open(sys.argv[1], "w"))
PY
}
# assert_not_served DESC: the load got our rewrite, not the planted object.
assert_not_served() {
	assert_eq "$RUN_STATUS" 0 "$1: exits 0"
	assert_has_stubs "$REC/load-1.co" "$1: our rewrite"
	cmp -s "$REC/load-1.co" "$FOREIGN" && fail "$1: the planted object was loaded"
	assert_same_bytes "$P/$kk/$key.co" "$FOREIGN" "$1: planted entry left alone (nothing written)"
}

# The planted entry is well formed: in a directory of our own it would be a hit.
P=$TEST_TMP/planted
plant "$P"
load "$P"
assert_contains "$RUN_STDERR" "hotswap_cache: hit" "planted entry in our own 0700 dir: a hit"
assert_same_bytes "$REC/load-1.co" "$FOREIGN" "planted entry in our own dir"

plant "$P"
chmod 0777 "$P"
load "$P"
assert_eq "$RUN_STDERR" "$line (cache root '$P' is writable by group or other (mode 777))" \
	"0777 root: bypassed, says why"
assert_not_served "0777 root"
chmod 0775 "$P"
load "$P"
assert_contains "$RUN_STDERR" "$line (cache root '$P' is writable by group or other (mode 775))" \
	"group-writable root: bypassed"

plant "$P"
chmod 0777 "$P/$kk"
load "$P"
assert_eq "$RUN_STDERR" "$line (shard '$kk' is writable by group or other (mode 777))" \
	"0777 shard: bypassed, says why"
assert_not_served "0777 shard"

if [ "$(id -u)" = 0 ]; then
	plant "$P"
	chown -R nobody "$P"
	load "$P"
	assert_eq "$RUN_STDERR" \
		"$line (cache root '$P' is owned by uid $(id -u nobody), not by uid 0)" \
		"root owned by nobody: bypassed, says why"
	assert_not_served "root owned by nobody"
	plant "$P"
	chown -R nobody "$P/$kk"
	load "$P"
	assert_eq "$RUN_STDERR" "$line (shard '$kk' is owned by uid $(id -u nobody), not by uid 0)" \
		"shard owned by nobody: bypassed, says why"
	assert_not_served "shard owned by nobody"
else
	skip "cache owned by another user: chown needs root (CI runs as root)"
fi

# A shard planted as a symlink to a victim directory: never followed, nothing written there.
R=$TEST_TMP/linked
victim=$TEST_TMP/victim
mkdir -p -m 0700 "$R" "$victim"
ln -s "$victim" "$R/$kk"
load "$R"
assert_eq "$RUN_STDERR" "$line (shard '$kk' is a symbolic link)" "symlinked shard: bypassed, says why"
assert_has_stubs "$REC/load-1.co" "symlinked shard"
assert_eq "$(find "$victim" -mindepth 1 | wc -l)" 0 "symlinked shard: nothing written into the target"
# ...also when the target holds a planted entry.
cp -a "$P/$kk/." "$victim/"
chown -R "$(id -u)" "$victim"
load "$R"
assert_contains "$RUN_STDERR" "$line (shard '$kk' is a symbolic link)" "symlinked shard to an entry"
cmp -s "$REC/load-1.co" "$FOREIGN" && fail "symlinked shard: the planted object was loaded"
ok "symlinked shard: the planted object behind it is not served"

# A root under a shared sticky directory is fine when the root itself is ours.
shared=$TEST_TMP/shared
mkdir -p "$shared"
chmod 1777 "$shared"
load "$shared/cache"
assert_contains "$RUN_STDERR" "hotswap_cache: miss" "root under a 1777 dir: used (miss)"
load "$shared/cache"
assert_contains "$RUN_STDERR" "hotswap_cache: hit" "root under a 1777 dir: hit"

# A root that is a regular file, or a symlink (even to a good cache): bypassed, not invalid.
: >"$TEST_TMP/afile"
load "$TEST_TMP/afile"
assert_eq "$RUN_STATUS" 0 "root is a regular file: exits 0"
assert_eq "$RUN_STDERR" "$line (cache root '$TEST_TMP/afile' is not a directory)" \
	"root is a regular file: bypassed, says why"
ln -s "$CACHE" "$TEST_TMP/rootlink"
load "$TEST_TMP/rootlink"
assert_eq "$RUN_STDERR" "$line (cache root '$TEST_TMP/rootlink' is a symbolic link)" \
	"root is a symlink: bypassed, says why"

# A path with a newline cannot forge a second debug line.
nl_root="$TEST_TMP/a
hotswap_cache: hit"
: >"$nl_root"
load "$nl_root"
assert_eq "$(wc -l <"$RUN_STDERR_FILE")" 1 "a newline in the root's name: still one line"
done_testing
