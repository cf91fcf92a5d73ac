# The command line itself: global options before and after the command, the parser's own
# errors, did-you-mean for commands, and a stdout that cannot be written.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"

# expect_err_is TEXT: stderr is exactly TEXT.
expect_err_is() {
	[ "$(cat "$ERR")" = "$1" ] || fail "stderr is '$(cat "$ERR")', expected '$1'"
}

# full CMD...: runs mirage with stdout on /dev/full; sets RC and the stderr capture.
full() {
	"$MIRAGE_BIN" "$@" </dev/null >/dev/full 2>"$ERR"
	RC=$?
}

# Commands and subcommands get the same did-you-mean as options.
mirage dcotor
check "a transposed command" 2
expect_err_is "mirage: unknown command 'dcotor'
hint: did you mean 'doctor'?"
mirage profile lst
check "a subcommand with a letter missing" 2
expect_err_is "mirage: unknown subcommand 'lst' for 'profile'
hint: did you mean 'list'?"
mirage profile xyz
check "an unknown subcommand" 2
expect_err_is "mirage: unknown subcommand 'xyz' for 'profile'
hint: 'mirage profile --help' lists the subcommands"
mirage xyz
check "an unknown command" 2
expect_err_is "mirage: unknown command 'xyz'
hint: 'mirage --help' lists the commands"
mirage --verison
check "a mistyped global option" 2
expect_err_is "mirage: unknown option '--verison'
hint: did you mean '--version'?"
# A typo of a negated option ("no-" + name) suggests that spelling; the parser once kept a
# pointer to a loop-scoped buffer for it and suggested whatever the stack held next (the
# sanitizer stage catches the use after scope).
mirage profile create x --no-stict
check "a mistyped --no- option" 2
expect_err_is "mirage: unknown option '--no-stict' for 'profile create'
hint: did you mean '--no-strict'?"
mirage profile create x --no-entry-trampoline
check "another mistyped --no- option" 2
expect_err_is "mirage: unknown option '--no-entry-trampoline' for 'profile create'
hint: did you mean '--no-entry-trampolines'?"
mirage --bogus paths
check "an unknown global option" 2
expect_err_is "mirage: unknown option '--bogus'
hint: global options are --json, -v, --color, --help and --version; command options go after the command"

# --version and --help answer on stdout.
mirage --version
check "--version" 0
grep -qxE 'mirage [0-9]+\.[0-9]+\.[0-9]+' "$OUT" || fail "--version printed '$(cat "$OUT")'"
[ ! -s "$ERR" ] || fail "--version wrote to stderr: $(cat "$ERR")"
ok "--version prints 'mirage X.Y.Z' and nothing else"
mirage --json --version
check "--json --version" 0
python3 -c 'import json,sys,re; d=json.load(open(sys.argv[1])); assert d["name"] == "mirage" and re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", d["version"]), d' "$OUT" ||
	fail "--json --version is not {\"name\": \"mirage\", \"version\": ...}: $(cat "$OUT")"
ok "--json --version prints a JSON document"
mirage --version --bogus
check "--version answers whatever follows" 0
mirage -h
check "-h" 0
expect_out "usage: mirage [--json] [-v] [--color=WHEN] [--help] [--version] <command> [<args>]"
expect_out "      --version                      print the version"
mirage paths -h
check "a command's -h" 0
expect_out "usage: mirage paths"

# A stdout that cannot be written is an error, answers included.
for args in "--version" "--help" "paths" "paths --help" "profile --help"; do
	full $args
	check "mirage $args >/dev/full" 1
	expect_err_is "mirage: cannot write to standard output"
done

# Global options, combined short flags included, before and after the command.
mirage profile create p --target gfx942
check "setup" 0
mirage run -p p --dry-run -- true
check "run without -v" 0
grep -q "target gfx942" "$ERR" && fail "the target note shows without -v"
for args in "-v run -p p --dry-run" "-vv run -p p --dry-run" "run -p p --dry-run -vv" \
	"run --verbose -p p --dry-run" "run -vp p --dry-run"; do
	mirage $args -- true
	check "mirage $args" 0
	expect_err "mirage: target gfx942 (from profile)"
done
mirage -vv paths
check "-vv before the command" 0
mirage paths -vv
check "-vv after the command" 0
mirage run -pv p --dry-run -- true
check "a short option taking a value must end its bundle" 2 "unknown option '-pv' for 'run'"
mirage paths --json --bogus
check "--json after the command also makes mistakes JSON" 2
[ "$(json_get "$ERR" "d['error']")" = "unknown option '--bogus' for 'paths'" ] ||
	fail "not a JSON error: $(cat "$ERR")"

# The parser's own errors.
mirage profile create x --strict=yes
check "a flag given a value" 2
expect_err_is "mirage: option '--strict' takes no value"
mirage profile create x --no-strict=yes
check "a negated flag given a value" 2 "option '--no-strict' takes no value"
mirage profile create x --target=
check "an empty value" 2
expect_err_is "mirage: option '--target' needs a non-empty value"
mirage profile create x --target ""
check "an empty next word" 2 "option '--target' needs a non-empty value"
mirage profile create x --target
check "no value at all" 2 "option '--target' needs a value (auto|GFX)"
[ ! -e "$MIRAGE_CONFIG/profiles/x.ini" ] || fail "a refused create left a profile"
done_testing
