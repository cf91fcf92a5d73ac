# The code's shape rules that a grep can hold (docs/HACKING.md): kernel descriptor fields are
# read by name through codeobj/kd.h (kd_decode, kd_get, co_kd) and written at KD_AT's offset,
# never at a byte offset outside the codec, and every name a caller gives is one the codec has (kd_get gives 0 for a
# field the kernel's family lacks, so a misspelt name would read as 0 without a word); and a
# refused kernel's sentence is formatted in one place; files and functions have one job; and
# the layout tables of docs/HACKING.md and the README list every folder, and the same ones.
source "$TEST_LIB"
cd "$MIRAGE_SRC" || fail "cannot cd to $MIRAGE_SRC"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout: cannot list the tracked files"

# The unit tests build raw descriptors on purpose; the codec is where offsets live.
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' |
	grep -v -e '^codeobj/kd\.[ch]$' -e '^tests/unit/')
[ ${#files[@]} -gt 0 ] || fail "no tracked C files"
# A descriptor's bytes (kd, raw_kd, kd_off, ...) indexed or offset by anything but the codec's
# KD_AT (where a patch writes) or KD_SIZE, with each statement's lines joined (an offset may be
# a conditional on the next line); and a read of a field at KD_AT's offset (reads are
# kd_decode's: the rewriter, the reader and the stand-in runtime all decode).
raw_offsets() {
	perl -0777 -ne 'my $f = $ARGV; s{//[^\n]*|/\*.*?\*/}{}gs; s{"(?:\\.|[^"\\])*"}{""}g;
		while (/(\b\w*kd(?:_off|_bytes)?\s*(?:\[|\+)\s*+(?!KD_AT\b|KD_SIZE\b)[^;{]{0,30}|\b\w*rd(?:16|32|64)\w*\s*\([^;]*?\bKD_AT\s*\()/g) {
			(my $m = $1) =~ s/\s+/ /g; print "$f: $m\n" }' "$@"
}
sample=$(mktemp)
printf '%s\n' 'v = hs_rd32(k->kd + 48);' 'memcpy(&v, s->kd +' '    (a ? 0 : 4), 4);' \
	'b = raw_kd[44];' 'v = hs_rd32(k->kd + KD_AT(kernarg_size));' 'p = k->kd_off + KD_AT(kernarg_size);' \
	'uint8_t kd[KD_SIZE];' 'char kd_symbol[512];' 'puts("x.kd + 1");' >"$sample"
caught=$(raw_offsets "$sample" | wc -l)
rm -f "$sample"
assert_eq "$caught" 4 "the raw-offset pattern catches an offset, one on the next line, an index and a read at KD_AT, and passes KD_AT's writes, declarations and strings"
raw=$(raw_offsets "${files[@]}")
assert_eq "$raw" "" "no kernel descriptor field is read at a raw byte offset outside codeobj/kd.c (${#files[@]} files)"

known=$(grep -oE '\{"[a-z0-9_]+", [0-9]+, [0-9]+\}' codeobj/kd.c | cut -d'"' -f2 | sort -u)
[ -n "$known" ] || fail "no field names found in codeobj/kd.c's tables"
used=$(grep -hoE '\b(co_kd|kd_get|kd_set|kd_find)\([^;"]*"[a-z0-9_]+"' -- "${files[@]}" codeobj/kd.c |
	grep -oE '"[a-z0-9_]+"$' | tr -d '"' | sort -u)
[ -n "$used" ] || fail "no caller of co_kd/kd_get found: the pattern is stale"
unknown=$(comm -13 <(printf '%s\n' "$known") <(printf '%s\n' "$used"))
assert_eq "$unknown" "" "every descriptor field name given to co_kd/kd_get is in codeobj/kd.c's tables ($(wc -w <<<"$used") names)"

# A refused kernel is said in one sentence, common/refusal.c's (docs/translate.md, "Refusals").
mapfile -t others < <(printf '%s\n' "${files[@]}" | grep -v -e '^common/refusal\.[ch]$')
own=$(grep -nE '"[^"]*refused at[^"]*%' -- "${others[@]}")
assert_eq "$own" "" "no refusal sentence is formatted outside common/refusal.c"

# Files with one job: no .c file of the libraries (translate/, rewrite/, isa/, codeobj/,
# intercept/) over 800 lines, no function over ~150 (docs/HACKING.md, "Layout"); the function
# limit leaves a little room, not a second function's worth.
mapfile -t big < <(printf '%s\n' "${files[@]}" | grep -E '^(translate|rewrite|isa|codeobj|intercept)/.*\.c$')
long=$(for f in "${big[@]}"; do n=$(wc -l <"$f"); [ "$n" -le 800 ] || echo "$f: $n lines"; done)
assert_eq "$long" "" "no .c file in translate/, rewrite/, isa/, codeobj/ or intercept/ is over 800 lines (${#big[@]} files)"
long=$(awk 'FNR == 1 { start = 0 }
	/^[A-Za-z].*\(/ && !/;[[:space:]]*$/ { start = FNR; name = $0 }
	/^}/ && start { if (FNR - start > 160) printf "%s:%d: %d lines: %s\n", FILENAME, start, FNR - start, name; start = 0 }' "${big[@]}")
assert_eq "$long" "" "no function in those folders is over 160 lines"

# The layout tables: the first column of the table under "## Layout", one path per `cell`.
layout_paths() {
	awk '/^## Layout/ { on = 1; next } on && /^## / { exit }
	     on && /^\| `/ { split($0, c, "|"); print c[2] }' "$1" | grep -oE '`[^`]+/`' | tr -d '`' | sort -u
}
hacking=$(layout_paths docs/HACKING.md)
[ -n "$hacking" ] || fail "no layout table under '## Layout' in docs/HACKING.md"
assert_eq "$(layout_paths README.md)" "$hacking" "the README's layout table lists the folders docs/HACKING.md's does"
# Every folder with a tracked file is in the table, itself or under a listed parent (the fuzz
# corpora and a test area's own subfolders are their parent's).
unlisted=$(git ls-files | grep / | xargs -n1 dirname | sort -u | while read -r d; do
	p=$d
	while [ "$p" != . ] && ! grep -qxF "$p/" <<<"$hacking"; do
		case $p in tests/*/* | fuzz/* | bench/* | launcher/complete | */include* | python/* | translate/* | rewrite/*) p=$(dirname "$p") ;; *) break ;; esac
	done
	[ "$p" != . ] && grep -qxF "$p/" <<<"$hacking" || echo "$d"
done)
assert_eq "$unlisted" "" "every folder of the tree is in docs/HACKING.md's layout table"
done_testing
