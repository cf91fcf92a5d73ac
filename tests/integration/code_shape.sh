# The code's shape rules that a grep can hold (docs/HACKING.md): kernel descriptor fields are
# read and written by name through codeobj/kd.h (KD_AT, kd_get, co_kd), never at a byte offset
# outside the codec.
source "$TEST_LIB"
cd "$MIRAGE_SRC" || fail "cannot cd to $MIRAGE_SRC"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout: cannot list the tracked files"

# The unit tests build raw descriptors on purpose; the codec is where offsets live.
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' |
	grep -v -e '^codeobj/kd\.[ch]$' -e '^tests/unit/')
[ ${#files[@]} -gt 0 ] || fail "no tracked C files"
raw=$(grep -nE '(\bkd|->kd|\.kd)(\[[0-9]|\s*\+\s*[0-9])|\bkd_off\s*\+\s*[0-9]' -- "${files[@]}")
assert_eq "$raw" "" "no kernel descriptor field is read at a raw byte offset outside codeobj/kd.c"
done_testing
