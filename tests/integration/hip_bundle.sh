# Offload bundles (codeobj/bundle.c) against clang's own: HIP programs built here by clang-22
# (uncompressed, --offload-compress's CCOB v3 zstd, CCOB v2, two translation units, gfx1250 +
# gfx942) read by `mirage inspect`, checked against llvm-objdump-22 --offloading; a CCOB v2
# zlib made by Python's zlib and hashlib; a bundle mirage's writer makes read back by
# clang-offload-bundler; and malformed bundles named with their offset.
source "$(dirname "$0")/cli_lib.sh"
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
BUNDLER=/usr/lib/llvm-22/bin/clang-offload-bundler
[ -x "$BUNDLER" ] || fail "no $BUNDLER: scripts/setup.sh installs clang-tools-22"
cd "$T" || fail "cannot cd to $T"

# kernel NAME OP: a HIP source with one kernel, no HIP headers (-nogpuinc).
kernel() {
	cat >"$1.hip" <<EOS
#define __global__ __attribute__((global))
struct dim3 { unsigned x, y, z; };
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);
extern "C" __global__ void $1(const float *a, const float *b, float *c, unsigned n) {
  unsigned i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
  if (i < n) c[i] = a[i] $2 b[i];
}
EOS
}
kernel vadd +
kernel vsub -
hip() { # OUT FLAGS... SOURCES...: a shared library; no HIP runtime to link against
	local out=$1
	shift
	"$CLANG" -x hip -nogpulib -nogpuinc -no-hip-rt -O2 -fPIC -shared -o "$out" "$@" ||
		fail "clang -x hip $* failed"
}
hip libplain.so --offload-arch=gfx1250 vadd.hip
hip libccob3.so --offload-arch=gfx1250 --offload-compress vadd.hip
COMPRESSED_BUNDLE_FORMAT_VERSION=2 hip libccob2.so --offload-arch=gfx1250 --offload-compress vadd.hip
hip libtwo.so --offload-arch=gfx1250 vadd.hip vsub.hip
hip libboth.so --offload-arch=gfx1250 --offload-arch=gfx942 vadd.hip

# entries FILE GOT: what `mirage --json inspect` says of FILE into GOT, one line per entry:
# "bundle compressed id size processor kernels".
entries() {
	mirage --json inspect "$1"
	[ "$RC" = 0 ] || fail "inspect $1: exit $RC: $(cat "$ERR")"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for i, b in enumerate(d["bundles"]):
    c = b["compressed"]
    z = "v%d-%s" % (c["version"], c["method"]) if c else "plain"
    for e in b["entries"]:
        co = e["code_object"]
        print(i, z, e["id"], e["size"], co["processor"] if co else "-",
              ",".join(k["name"] for k in co["kernels"]) if co else "-")' "$OUT" >"$2"
}

# llvm-objdump's reading of the same file: "bundle id size" per entry it extracts.
objdump_entries() {
	local d
	d=$(mktemp -d "$T/od.XXXX")
	cp "$1" "$d/" && (cd "$d" && "$OBJDUMP" --offloading "$1" >/dev/null 2>&1) ||
		fail "llvm-objdump-22 --offloading $1 failed"
	rm "$d/$1"
	for f in "$d"/*; do
		local b=${f#"$d/$1".}
		echo "${b%%.*} ${b#*.} $(stat -c %s "$f")"
	done | sort
}

entries libplain.so "$T/plain.got"
assert_eq "$(cat "$T/plain.got")" "0 plain host-x86_64-unknown-linux-gnu- 0 - -
0 plain hipv4-amdgcn-amd-amdhsa--gfx1250 $(awk '$3 ~ /gfx1250/ {print $4}' "$T/plain.got") gfx1250 vadd" \
	"an uncompressed bundle: the host entry and the gfx1250 code object with its kernel"
assert_eq "$(awk '{print $1, $3, $4}' "$T/plain.got" | sort)" "$(objdump_entries libplain.so)" \
	"the entries and sizes are llvm-objdump-22's"
entries libtwo.so "$T/two.got"
assert_eq "$(awk '{print $1, $3, $4}' "$T/two.got" | sort)" "$(objdump_entries libtwo.so)" \
	"two translation units: two bundles in .hip_fatbin, as llvm-objdump-22 reads them"
assert_eq "$(awk '$5 != "-" {print $1, $6}' "$T/two.got")" "0 vadd
1 vsub" "each bundle's code object has its own kernel"
entries libboth.so "$T/both.got"
assert_eq "$(awk '$5 != "-" {print $5}' "$T/both.got" | sort | tr '\n' ' ')" "gfx1250 gfx942 " \
	"gfx1250 + gfx942: both device entries"

plain_line=$(grep gfx1250 "$T/plain.got" | cut -d' ' -f3-)
entries libccob3.so "$T/ccob3.got"
assert_eq "$(grep gfx1250 "$T/ccob3.got" | cut -d' ' -f2-)" "v3-zstd $plain_line" \
	"--offload-compress: CCOB v3 zstd, the same entry once decompressed"
entries libccob2.so "$T/ccob2.got"
assert_eq "$(grep gfx1250 "$T/ccob2.got" | cut -d' ' -f2-)" "v2-zstd $plain_line" \
	"COMPRESSED_BUNDLE_FORMAT_VERSION=2: CCOB v2 zstd"
mirage inspect libccob3.so
check "inspect, text" 0
expect_out "bundle 0 at offset 0x0: CCOB v3 zstd, "
expect_out "libccob3.so: bundle 0 entry 1 (hipv4-amdgcn-amd-amdhsa--gfx1250): amdgcn-amd-amdhsa--gfx1250 (gfx1250)"

# The bare bundle, and a CCOB v2 zlib of it (clang's bundler picks zstd when it has it).
llvm_objcopy=$(dirname "$(readlink -f "$OBJDUMP")")/llvm-objcopy
"$llvm_objcopy" -O binary --only-section=.hip_fatbin libplain.so plain.bundle || fail "llvm-objcopy"
python3 - plain.bundle zlib2.ccob <<'EOF2'
import hashlib, struct, sys, zlib
raw = open(sys.argv[1], 'rb').read()
n, = struct.unpack_from('<Q', raw, 24)
pos, end = 32, 0
for _ in range(n):
    off, size, idlen = struct.unpack_from('<QQQ', raw, pos)
    pos += 24 + idlen
    end = max(end, off + size)
raw = raw[:end]  # the bundle without the section's padding
z = zlib.compress(raw)
head = b'CCOB' + struct.pack('<HHII', 2, 0, 24 + len(z), len(raw)) + hashlib.md5(raw).digest()[:8]
open(sys.argv[2], 'wb').write(head + z)
EOF2
entries plain.bundle "$T/bare.got"
assert_eq "$(grep gfx1250 "$T/bare.got" | cut -d' ' -f3-)" "$plain_line" "a bundle file on its own"
entries zlib2.ccob "$T/zlib.got"
assert_eq "$(grep gfx1250 "$T/zlib.got" | cut -d' ' -f2-)" "v2-zlib $plain_line" "CCOB v2 zlib, hashed by Python's hashlib"

# mirage's writer, read back by clang-offload-bundler: the ids, and the payload byte for byte.
"$OBJDUMP" --offloading libplain.so >/dev/null 2>&1
co=libplain.so.0.hipv4-amdgcn-amd-amdhsa--gfx1250
[ -s "$co" ] || fail "llvm-objdump did not extract $co"
"$TEST_TOOLS/bundle_write" written.bundle host-x86_64-unknown-linux-gnu-= \
	"hipv4-amdgcn-amd-amdhsa--gfx1250=$co" "hipv4-amdgcn-amd-amdhsa--gfx942:xnack-=$co" ||
	fail "bundle_write failed"
assert_eq "$("$BUNDLER" --list --type=o --input=written.bundle | sort | tr '\n' ' ')" \
	"hipv4-amdgcn-amd-amdhsa--gfx1250 hipv4-amdgcn-amd-amdhsa--gfx942:xnack- host-x86_64-unknown-linux-gnu- " \
	"clang-offload-bundler --list reads the bundle mirage writes"
"$BUNDLER" --unbundle --type=o --input=written.bundle --targets=hipv4-amdgcn-amd-amdhsa--gfx942:xnack- \
	--output=back.co || fail "clang-offload-bundler --unbundle failed"
cmp -s back.co "$co" && ok "and unbundles its payload byte for byte" || fail "the unbundled payload differs"

# Malformed: named with the field and offset, exit 1, nothing else printed.
bad() { # NAME FILE WANT
	mirage inspect "$2"
	check "$1" 1 "$3"
}
head -c 100 plain.bundle >cut.bundle
bad "a bundle cut in its entry table" cut.bundle "cannot inspect 'cut.bundle': at offset 0x0: offload bundle: entry 1's header at offset 0x56 runs past the end (100 bytes)"
head -c 5000 plain.bundle >cut2.bundle
bad "a bundle cut in a payload" cut2.bundle "entry 1 ('hipv4-amdgcn-amd-amdhsa--gfx1250') at offset 0x1000"
expect_err "lies outside the bundle's 5000 bytes of payload"
python3 -c '
import sys; d = bytearray(open("zlib2.ccob", "rb").read()); d[16] ^= 1; open("hash.ccob", "wb").write(d)'
bad "a CCOB with a wrong hash" hash.ccob "the hash at offset 0x10 does not match the decompressed bytes"
python3 -c '
import struct; d = bytearray(open("zlib2.ccob", "rb").read()); d[12:16] = struct.pack("<I", 1 << 31); open("bomb.ccob", "wb").write(d)'
bad "a CCOB claiming 2 GiB" bomb.ccob "it claims 2147483648 uncompressed bytes"
printf 'CCOB\007\000\001\000' >version.ccob
bad "an unknown CCOB version" version.ccob "version 7 at offset 0x4"
mirage rewrite libccob3.so -o out.co --target gfx942
check "rewrite of a HIP library" 1 "cannot rewrite 'libccob3.so': it is a HIP program with a .hip_fatbin section, and rewrite takes one code object"
expect_err "hint: 'mirage inspect libccob3.so' lists its code objects"
[ ! -e out.co ] && ok "and writes nothing" || fail "rewrite of a HIP library wrote out.co"
mirage rewrite plain.bundle -o out.co
check "rewrite of a bundle" 1 "it is an offload bundle, and rewrite takes one code object"
mirage inspect /bin/true
check "a host program without .hip_fatbin" 1 "a host ELF file with no .hip_fatbin section, so no device code"
done_testing
