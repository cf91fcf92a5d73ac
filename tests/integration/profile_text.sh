# A profile is UTF-8 text without NUL bytes and with each key once: anything else is refused at file:line.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"
mkdir -p "$P"

# A NUL byte used to end the profile there: the [env] after it silently vanished.
printf '[profile]\nname = nul\nemulator = native\n\0\n[env]\nA = 1\n' >"$P/nul.ini"
mirage profile show nul
check "a NUL byte in a profile" 1 "$P/nul.ini:4: NUL byte at column 1"
expect_err "hint: a profile is UTF-8 text without NUL bytes"
printf '[profile]\nname = nul2\nemulator = native\ndescription = ab\0cd\n' >"$P/nul2.ini"
mirage run --profile nul2 -- true
check "a NUL inside a value, read by run" 1 "$P/nul2.ini:4: NUL byte at column 17"

printf '[profile]\nname = latin\nemulator = native\ndescription = caf\xe9\n' >"$P/latin.ini"
mirage profile show latin
check "invalid UTF-8 in a profile" 1 "$P/latin.ini:4: invalid UTF-8 at column 18 (byte 0xe9)"
printf '[profile]\nname = utf\nemulator = native\ndescription = café ☕\n' >"$P/utf.ini"
mirage --json profile show utf
check "valid UTF-8 is read" 0
[ "$(json_get "$OUT" "d['description']")" = "café ☕" ] || fail "the UTF-8 description changed"
ok "a UTF-8 description survives"
mirage profile export utf -o "$T/utf.json"
check "export a UTF-8 profile" 0
json_ok "$T/utf.json"
ok "the export is valid JSON"

mirage profile create cli --emulator native --description "$(printf 'caf\xe9')"
check "invalid UTF-8 from the command line" 2 "key 'description': value is not valid UTF-8 (byte 4)"
mirage profile create cli --emulator native --env "X=$(printf '\xff')"
check "invalid UTF-8 in an --env value" 2 "env 'X': value is not valid UTF-8 (byte 1)"

# Duplicate [env] keys were silently last-wins while [profile] duplicates were refused.
printf '[profile]\nname = dup\nemulator = native\n[env]\nA = 1\nB = 2\nA = 3\n' >"$P/dup.ini"
mirage profile show dup
check "a duplicate [env] key" 1 "$P/dup.ini:7: env 'A': duplicate key"
printf '[profile]\nname = dup\nemulator = native\n[env]\nA = 1\n[env]\nA = 3\n' >"$P/dup.ini"
mirage profile show dup
check "a duplicate [env] key in a second [env] section" 1 "$P/dup.ini:7: env 'A': duplicate key"

# import: the same rules for JSON.
import_err() { # DESC FILE-CONTENT(printf format) MESSAGE
	printf "$2" >"$T/in.json"
	mirage profile import "$T/in.json"
	check "$1" 2 "$T/in.json:$3"
	[ ! -e "$P/j.ini" ] || fail "$1: a refused import wrote a profile"
}
import_err "import \\u0000 in a value names the key" \
	'{"name": "j",\n "description": "x\\u0000y"}' "2: key 'description': \\u0000 (a NUL byte) in a string"
import_err "import \\u0000 in an env value" \
	'{"name": "j", "env": {\n"A": "1", "SECRET": "a\\u0000b"}}' "2: key 'SECRET': \\u0000 (a NUL byte) in a string"
import_err "import a raw NUL byte" '{"name": "j",\n"description": "x\0y"}' "2: NUL byte at column 18"
import_err "import invalid UTF-8" '{"name": "j",\n"description": "caf\xe9"}' "2: invalid UTF-8 at column 20 (byte 0xe9)"
import_err "import a duplicate env name" '{"name": "j", "env": {"A": "1", "A": "2"}}' " env 'A': duplicate key"
printf '{"name": "j", "emulator": "native", "description": "back\\\\u0000slash"}' >"$T/ok.json"
mirage profile import "$T/ok.json"
check "an escaped backslash before u0000 is text, not a NUL" 0
mirage --json profile show j
[ "$(json_get "$OUT" "d['description']")" = 'back\u0000slash' ] || fail "the description changed"
ok "the description is kept as written"
done_testing
