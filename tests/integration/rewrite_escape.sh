# Names from a code object and paths from the file system reach the terminal escaped: inspect
# and rewrite of hostile_name.co (a kernel named with ESC c, a tab and BEL) and of a file whose
# path holds ESC and BEL print them as \x1b, \t, \x07 on stdout and stderr; --json keeps the
# bytes, escaped by JSON.
source "$(dirname "$0")/run_lib.sh"
obj=$FIXTURES/hostile_name.co
name='evil\x1bcreset\tbell\x07'

# no_controls DESC FILE: FILE holds no control byte but its newlines.
no_controls() {
	if tr -d '\n' <"$2" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		fail "$1: a control character got through: $(cat -A "$2")"
	else
		ok "$1: no control character"
	fi
}

mirage inspect "$obj"
check "inspect a kernel with control characters in its name" 0
expect_out "  $name"
no_controls "inspect stdout" "$OUT"

mirage inspect "$obj" --notes --disasm
check "inspect --notes --disasm" 0
expect_out "<$name>:"
expect_out '"evil\u001bcreset\tbell\u0007"'
no_controls "inspect --notes --disasm stdout" "$OUT"

mirage --json inspect "$obj"
check "inspect --json" 0
[ "$(json_get "$OUT" "repr(d['kernels'][0]['name'])")" = "'evil\\x1bcreset\\tbell\\x07'" ] ||
	fail "--json does not carry the kernel's name: $(cat "$OUT")"
ok "--json keeps the name's bytes, escaped by JSON"

mirage rewrite "$obj" -o "$T/out.co" --entry-trampolines
check "rewrite failing on the hostile kernel" 1 "cannot rewrite '$obj': kernel '$name': .sgpr_count 109"
no_controls "rewrite stderr" "$ERR"
[ ! -e "$T/out.co" ] || fail "a failed rewrite left its output"

odd=$T/$'odd\e]0;x\aname.co'
cp "$FIXTURES/hello.co" "$odd"
mirage rewrite "$odd" -o "$T/hello.co"
check "rewrite a file whose path holds ESC and BEL" 0
expect_out "'$T/odd\\x1b]0;x\\x07name.co' -> '$T/hello.co': unchanged"
no_controls "rewrite stdout" "$OUT"

mirage inspect "$odd.missing"
check "inspect a missing file with a hostile path" 1 "cannot read '$T/odd\\x1b]0;x\\x07name.co.missing'"
no_controls "inspect's error" "$ERR"

done_testing
