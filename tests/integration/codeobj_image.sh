#!/usr/bin/env bash
# A code object's loaded image (codeobj/code_object.c, co->image): what a kernel reads of its
# own object.  The kernel suite's tables.cl reads .rodata tables from its code address and is
# judged by host C there; here, what that rests on: `mirage raise` of an object whose
# PT_LOAD program headers point past the file or claim a gigabyte is refused, naming the
# header (never read, never allocated); the gfx942 translation of tables.co carries the image
# as a data section of its own (llvm-readelf-22 -S), and the bytes of the source's .rodata
# tables are in it (llvm-objcopy-22 reads both).
# shellcheck source=lib.sh
source "$TEST_LIB"

src=$MIRAGE_BUILD/tests/kernels/gfx1250/O2/tables.co
[ -f "$src" ] || skip_all "the kernel suite is not built"
cd "$TEST_TMP" || exit 1
READELF=${LLVM_READELF:-llvm-readelf-22}
OBJCOPY=$(command -v llvm-objcopy-22 || true)

# plant NAME FIELD VALUE: a copy of tables.co whose first PT_LOAD (program header 1, after
# PT_PHDR) has FIELD set to VALUE.
plant() {
	python3 - "$src" "$1.co" "$2" "$3" <<'PY' || fail "cannot plant $1.co"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
phoff, = struct.unpack_from("<Q", d, 0x20)
phentsize, phnum = struct.unpack_from("<HH", d, 0x36)
fields = {"offset": 8, "filesz": 32, "memsz": 40}
for i in range(phnum):
    base = phoff + i * phentsize
    if struct.unpack_from("<I", d, base)[0] == 1:  # PT_LOAD
        struct.pack_into("<Q", d, base + fields[sys.argv[3]], int(sys.argv[4], 0))
        break
open(sys.argv[2], "wb").write(d)
PY
}
plant past_end filesz 0x10000000
plant huge memsz 0x80000000
plant offset offset 0x7fffffffffff
for bad in past_end huge offset; do
	run_capture "$MIRAGE_BIN" raise "$bad.co" --json
	assert_eq "$RUN_STATUS" 1 "$bad: raise refuses the object"
	assert_contains "$RUN_STDERR" "$bad.co: program header 1 (PT_LOAD at 0x0) lies outside the file or spans more than 1 GiB" \
		"$bad: the message names the program header"
done

# section FILE NAME: "ADDRESS SIZE" of section NAME (hex, as llvm-readelf-22 -S prints them).
section() {
	"$READELF" -S --wide "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk -v n="$2" '$1 == n {print $3, $5}'
}

run_capture "$MIRAGE_BIN" rewrite "$src" -o tables.gfx942.co --target gfx942
assert_eq "$RUN_STATUS" 0 "tables.co translates for gfx942: $RUN_STDERR"
data=$(section tables.gfx942.co .data | cut -d' ' -f2)
[ -n "$data" ] || fail "the translation has no .data section: $("$READELF" -S --wide tables.gfx942.co)"
image_span=$("$READELF" -l --wide "$src" |
	python3 -c 'import sys; print("%06x" % max(int(f[2], 16) + int(f[5], 16) for f in (l.split() for l in sys.stdin) if f and f[0] == "LOAD"))')
assert_eq "$data" "$image_span" "its .data is the source's loaded image, 0x$image_span bytes"
if [ -n "$OBJCOPY" ]; then
	"$OBJCOPY" -O binary --only-section=.rodata "$src" rodata.bin
	"$OBJCOPY" -O binary --only-section=.data tables.gfx942.co image.bin
	rodata=$(section "$src" .rodata)
	[ -n "$rodata" ] || fail "tables.co has no .rodata"
	rodata_at=$((16#${rodata%% *}))
	cmp -s rodata.bin <(tail -c +$((rodata_at + 1)) image.bin | head -c "$(stat -c %s rodata.bin)") ||
		fail "the source's .rodata is not at its address in the translation's image"
	ok "the source's .rodata tables are in the translation's image at their own address"
else
	skip "llvm-objcopy-22 is not installed: the image's bytes are not compared"
fi
done_testing
