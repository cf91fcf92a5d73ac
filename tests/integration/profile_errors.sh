# Every profile error a user can hit: the message and the exit code.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"

mirage profile create one --emulator native
check "setup" 0
mirage profile create one --emulator native
check "create over an existing profile" 1 "profile 'one' already exists at '$P/one.ini'"
expect_err "hint: delete it first ('mirage profile delete one') or choose another name"
mirage profile create MyProf --emulator native
check "mixed-case name" 2 "invalid profile name 'MyProf': profiles are stored lowercase"
expect_err "hint: use 'myprof' instead"
mirage profile create a/b
check "name with a slash" 2 "invalid profile name 'a/b': it contains '/'"
mirage profile create 'ünï'
check "name with a non-ASCII letter" 2 "invalid profile name 'ünï': it contains 'ü'"
mirage profile create "$(printf 'a\001b')"
check "name with a control byte" 2 "it contains the byte 0x01"
mirage profile create .hidden
check "name starting with a dot" 2 "it starts with '.'"
mirage profile create "$(printf 'x%.0s' $(seq 129))"
check "name over 128 bytes" 2 "(129 characters)"
mirage profile create two --targt gfx942
check "mistyped flag" 2 "unknown option '--targt' for 'profile create'"
expect_err "hint: did you mean '--target'?"
mirage profile create two --policy fast
check "bad enum" 2 "invalid value 'fast' for '--policy': expected one of none, env, native_build, triton, compile, full"
mirage profile create two --target gfx90a
check "target HotSwap cannot run on" 2 "key 'target': expected auto or one of gfx942, gfx950, gfx1250, gfx1251, not 'gfx90a'"
mirage profile create two --source-target gfx1250:48
check "bad wavefront size" 2 "wavefront size '48' must be 32 or 64"
mirage profile create two --source-target gfx9999
check "unknown source processor" 2 "unknown processor 'gfx9999'"
mirage profile create two --env NOEQUALS
check "--env without =" 2 "'NOEQUALS' is not an assignment"
mirage profile create two --env 1X=2
check "--env bad name" 2 "invalid environment variable name '1X'"
mirage profile create two --cache-dir relative/dir
check "relative cache dir" 2 "'relative/dir' is not an absolute path"
mirage profile create two --description "$(printf 'd%.0s' $(seq 200))"
check "overlong value" 2 "more than the 160 a profile keeps"
mirage profile create two --description "$(printf 'two\nlines')"
check "multi-line value" 2 "key 'description': value must be a single line"
mirage profile create two --description " padded"
check "value with a leading blank" 2 "key 'description': value must not start or end with blanks"
mirage profile create two --cache-dir "/dir "
check "value with a trailing blank" 2 "key 'cache_dir': value must not start or end with blanks"
mirage profile create two --description "a ;b"
check "value with an INI comment" 2 "key 'description': value must not contain ' ;' (it starts an INI comment)"
mirage profile create two --env "X=$(printf 'a\rb')"
check "env value with a carriage return" 2 "env 'X': value must be a single line"
LONG_NAME=$(printf 'N%.0s' $(seq 40))
mirage profile create two --env "$LONG_NAME=$(printf 'v%.0s' $(seq 160))"
check "env line over 199 bytes" 2 "env '$LONG_NAME': 'NAME = value' is longer than the 199 bytes a profile line may have"
mirage profile create two --target
check "flag without its value" 2 "option '--target' needs a value"
mirage profile create two extra --emulator native
check "too many arguments" 2 "too many arguments for 'profile create' (expected at most 1): 'extra'"
mirage profile create
check "missing name" 2 "'profile create' needs NAME"
[ ! -e "$P/two.ini" ] || fail "a failed create left a profile behind"
ok "failed creates write nothing"

mirage profile show nope
check "show a missing profile" 1 "profile 'nope' not found in '$P'"
expect_err "hint: 'mirage profile list' shows the profiles"
mirage --json profile show nope
check "--json error" 1
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert 'not found' in d['error'] and 'hint' in d" "$ERR" ||
	fail "--json error is not {\"error\": ..., \"hint\": ...}"
ok "--json errors are JSON on stderr"
mirage profile show onw
check "show a slip of an existing name" 1 "profile 'onw' not found in '$P'"
expect_err "hint: did you mean 'one'? 'mirage profile list' shows the profiles"
mirage run -p onee -- true
check "run a slip of an existing name" 1 "profile 'onee' not found"
expect_err "hint: did you mean 'one'?"

cat >"$P/broken.ini" <<'INI'
[profile]
name = broken
emulator = hotswap

[hotswap]
; the next line is wrong
target = gfx90a
INI
mirage profile show broken
check "INI value error names file:line:key" 1 "$P/broken.ini:7: key 'target': expected auto or one of gfx942"
printf '[profile]\nname = broken\n[hotswap]\ncolour = red\n' >"$P/broken.ini"
mirage profile show broken
check "INI unknown key" 1 "$P/broken.ini:4: key 'colour': unknown key in [hotswap]"
printf '[profile]\nname = broken\n[gpu]\nx = 1\n' >"$P/broken.ini"
mirage profile show broken
check "INI unknown section" 1 "$P/broken.ini:3: unknown section '[gpu]'"
printf '[profile]\nname = other\n' >"$P/broken.ini"
mirage profile show broken
check "INI name mismatch" 1 "key 'name': 'other' does not match the file name 'broken'"
mirage profile list -l
check "list -l shows an unreadable profile" 0
expect_out "broken                   (unreadable:"
mirage profile delete broken -f
check "a broken profile can still be deleted" 0

mirage profile edit one
check "edit with nothing to do" 2 "'profile edit' needs at least one --set or --unset"
mirage profile edit one --set colour=red
check "edit unknown key" 2 "unknown key 'colour'"
expect_err "hint: keys: description, emulator, source_target, target, adapter_policy, strict, all_kernels, entry_trampolines, stepping, cache_dir, env.NAME"
mirage profile edit one --set tagret=gfx942
check "edit a slip of a key" 2 "unknown key 'tagret'"
expect_err "hint: did you mean 'target'? keys: description,"
mirage profile edit one --set strict
check "edit without =" 2 "--set 'strict': expected KEY=VALUE"
mirage profile edit one --set strict=perhaps
check "edit bad bool" 2 "key 'strict': expected true or false, not 'perhaps'"
mirage profile edit one --unset env.NOPE
check "unset a missing variable" 2 "the profile has no such variable"

mirage profile delete one
check "delete with stdin at EOF" 1 "standard input ended without an answer"
expect_err "hint: pass -f to delete without asking"
[ -f "$P/one.ini" ] || fail "EOF deleted the profile"
mirage profile delete ghost -f
check "delete a missing profile" 1 "profile 'ghost' not found in '$P'"
expect_err "hint: 'mirage profile list' shows the profiles"
mirage profile delete ghost
check "delete a missing profile without -f" 1 "profile 'ghost' not found in '$P'"
! grep -qF "[y/N]" "$ERR" || fail "asked about a profile that is not there"
mirage profile delete Bad/Name -f
check "delete with an invalid name" 2 "invalid profile name 'Bad/Name'"
printf '[profile]\nname = broken\n[gpu]\n' >"$P/broken.ini"
printf 'y\n' >"$T/yes"
RUN_STDIN="$T/yes" mirage profile delete broken
check "a broken profile is deleted after asking" 0
expect_err "delete profile 'broken'? [y/N]"
expect_out "deleted profile 'broken'"
[ ! -e "$P/broken.ini" ] || fail "the broken profile is still there"

printf '{"name": "j",\n "colour": 1}\n' >"$T/bad.json"
mirage profile import "$T/bad.json"
check "import unknown key" 2 "$T/bad.json: unknown key 'colour'"
printf '{"name": "j",\n "emulator": \n' >"$T/trunc.json"
mirage profile import "$T/trunc.json"
check "import invalid JSON names file:line" 2 "$T/trunc.json:3: invalid JSON"
printf '{"name": "J"}' >"$T/upper.json"
mirage profile import "$T/upper.json"
check "import mixed-case name" 2 "profiles are stored lowercase"
printf '{"name": "one", "emulator": "native"}' >"$T/dup.json"
mirage profile import "$T/dup.json"
check "import over an existing profile" 1 "profile 'one' already exists"
mirage profile import "$T/missing.json"
check "import a missing file" 1 "cannot read '$T/missing.json': No such file or directory"
printf '{"name": "r", "emulator": {"emulator": "rocjitsu"}}' >"$T/rocjitsu.json"
mirage profile import "$T/rocjitsu.json"
check "import a backend we do not have" 2 "emulator 'rocjitsu' is not a backend of this mirage"

# import_err DESC JSON MESSAGE: importing JSON fails with exit 2 (a bad value) and MESSAGE, writing nothing.
import_err() {
	printf '%s' "$2" >"$T/shape.json"
	mirage profile import "$T/shape.json"
	check "$1" 2 "$T/shape.json: $3"
	[ ! -e "$P/j.ini" ] || fail "$1: a failed import wrote a profile"
}
import_err "import an array" '[1]' "expected a JSON object describing one profile"
import_err "import without a name" '{"emulator": "native"}' "'name' is missing or not a string"
import_err "import a numeric name" '{"name": 7}' "'name' is missing or not a string"
import_err "import hotswap not an object" '{"name": "j", "hotswap": 1}' "'hotswap' must be an object"
import_err "import an array value" '{"name": "j", "hotswap": {"strict": [1]}}' \
	"key 'strict': expected a string or boolean"
import_err "import an unknown hotswap key" '{"name": "j", "hotswap": {"colour": "red"}}' \
	"unknown key 'hotswap.colour'"
import_err "import env not an object" '{"name": "j", "env": ["A=1"]}' "'env' must be an object"
import_err "import an env object value" '{"name": "j", "env": {"A": {}}}' "env 'A': expected a string"
import_err "import a reference mirage emulator without a backend" '{"name": "j", "emulator": {"plugins": []}}' \
	"'emulator.emulator' must name a backend"
import_err "import an unknown reference mirage emulator key" \
	'{"name": "j", "emulator": {"emulator": "native", "colour": 1}}' "unknown key 'emulator.colour'"
import_err "import an unknown reference mirage option" \
	'{"name": "j", "emulator": {"emulator": "native", "options": {"colour": 1}}}' \
	"unknown key 'hotswap.colour'"

mirage profile export one -o "$T/no-such-dir/one.json"
check "export -o into a missing directory" 1 "cannot write '$T/no-such-dir/one.json': No such file or directory"
[ ! -s "$OUT" ] || fail "a failed export -o printed the profile"

mirage profle list
check "mistyped command" 2 "unknown command 'profle'"
expect_err "hint: did you mean 'profile'?"
mirage profile lst
check "mistyped subcommand" 2 "unknown subcommand 'lst' for 'profile'"
mirage profile
check "a group without its subcommand" 2 "usage: mirage profile <subcommand>"
[ ! -s "$OUT" ] || fail "usage for a mistake went to stdout"
mirage
check "no command at all" 2 "usage: mirage [--json]"
mirage profile --help
check "--help is not an error" 0
expect_out "usage: mirage profile <subcommand>"
mirage --bogus profile list
check "unknown global option" 2 "unknown option '--bogus'"

MIRAGE_CONFIG=/proc/mirage-cannot-exist mirage profile create x --emulator native
check "unwritable config dir" 1 "cannot create the profile directory '/proc/mirage-cannot-exist/profiles'"
expect_err "hint: set MIRAGE_CONFIG to a writable directory"

# A hotswap profile needs a complete tree: a copy of mirage away from the build tree finds none.
mkdir -p "$T/elsewhere/bin"
cp "$MIRAGE_BIN" "$T/elsewhere/bin/mirage"
run env -u HOTSWAP_HOME "$T/elsewhere/bin/mirage" profile create hs --emulator hotswap
check "hotswap profile without a HotSwap tree" 1 "HotSwap is not installed, or mirage could not find libhotswap_intercept.so"
expect_err "$T/elsewhere/hotswap/lib/libhotswap_intercept.so"
expect_err "export HOTSWAP_HOME="
[ ! -e "$P/hs.ini" ] || fail "refused create wrote a profile"
ok "refused hotswap create writes nothing"
done_testing
