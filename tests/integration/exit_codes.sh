# The exit-code rule (launcher/commands.c's exit_statuses, `mirage --help`, the README) walked
# over every command: each has a bad value that exits 2 and a failure that exits 1, and a
# command added without rows here fails this test.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
mirage profile create nat --emulator native
check "setup" 0
mirage profile create nat2 --emulator native
check "setup" 0
printf '{"name": "nat", "emulator": "native"}\n' >"$T/nat.json"
printf '{"name": "j", "colour": 1}\n' >"$T/badkey.json"
printf '{"name": "j", "hotswap": {"target": "gfx9999"}}\n' >"$T/badtarget.json"
printf '{"code_object": "x.co", "kernel": 7}\n' >"$T/badlaunch.json"
CO=$FIXTURES/hello.co

seen=()
# expect STATUS COMMAND DESC -- ARGS...: `mirage ARGS` exits STATUS; COMMAND is what it covers.
expect() {
	local status=$1 cmd=$2 desc=$3
	shift 4
	mirage "$@"
	check "$cmd: $desc" "$status"
	seen+=("$cmd")
}
expect 2 "(none)" "an unknown command" -- nosuch
expect 2 "(none)" "an unknown global flag" -- --bogus

expect 2 "profile create" "an unknown target" -- profile create x --target gfx9999
expect 2 "profile create" "a pair without a route" -- profile create x --target gfx1251
expect 1 "profile create" "a profile that exists" -- profile create nat --emulator native
expect 2 "profile list" "an unknown flag" -- profile list --bogus
expect 2 "profile show" "a bad name" -- profile show a/b
expect 1 "profile show" "a profile that does not exist" -- profile show nosuch
expect 2 "profile edit" "an unknown key" -- profile edit nat --set bogus=1
expect 2 "profile edit" "a bad value" -- profile edit nat --set emulator=rocjitsu
expect 1 "profile edit" "a profile that does not exist" -- profile edit nosuch --set description=x
expect 2 "profile delete" "a bad name" -- profile delete a/b
expect 1 "profile delete" "a profile that does not exist" -- profile delete -f nosuch
expect 2 "profile export" "a bad name" -- profile export a/b
expect 1 "profile export" "a profile that does not exist" -- profile export nosuch
expect 2 "profile import" "an unknown key in the document" -- profile import "$T/badkey.json"
expect 2 "profile import" "a bad value in the document" -- profile import "$T/badtarget.json"
expect 1 "profile import" "a file that is not there" -- profile import "$T/missing.json"
expect 1 "profile import" "a profile that exists" -- profile import "$T/nat.json"
expect 2 "profile copy" "a bad new name" -- profile copy nat a/b
expect 2 "profile copy" "no new name" -- profile copy nat
expect 1 "profile copy" "a profile that does not exist" -- profile copy nosuch x
expect 1 "profile copy" "onto a profile that exists" -- profile copy nat nat2
expect 2 "profile rename" "the same name" -- profile rename nat nat
expect 1 "profile rename" "a profile that does not exist" -- profile rename nosuch x

expect 2 "run" "no command" -- run -p nat
expect 2 "run" "a bad profile name" -- run -p a/b -- true
expect 1 "run" "a profile that does not exist" -- run -p nosuch -- true
expect 127 "run" "a command that is not there (the workload's status)" -- run -p nat -- "$T/missing"

expect 2 "rewrite" "an unknown target" -- rewrite "$CO" -o "$T/x.co" --target gfx9999
expect 2 "rewrite" "a pair without a route" -- rewrite "$CO" -o "$T/x.co" --target gfx1251
expect 2 "rewrite" "no -o" -- rewrite "$CO"
expect 1 "rewrite" "an input that is not there" -- rewrite "$T/missing.co" -o "$T/x.co"
expect 1 "rewrite" "an input that is not a code object" -- rewrite "$T/badkey.json" -o "$T/x.co"

expect 2 "raise" "no code object" -- raise
expect 1 "raise" "an input that is not there" -- raise "$T/missing.co"
expect 1 "raise" "a kernel that is not in the object" -- raise "$CO" --kernel nosuch

expect 2 "emulate" "no launch file" -- emulate
expect 2 "emulate" "a launch file with a bad value" -- emulate "$T/badlaunch.json"
expect 1 "emulate" "a launch file that is not there" -- emulate "$T/missing.json"

expect 2 "inspect" "no input" -- inspect
expect 1 "inspect" "an input that is not there" -- inspect "$T/missing.co"

expect 2 "doctor" "an unknown flag" -- doctor --bogus
expect 1 "doctor" "a profile that does not exist" -- doctor --profile nosuch
expect 2 "emulators" "an extra argument" -- emulators extra
expect 2 "paths" "an unknown flag" -- paths --bogus
expect 2 "hotswap install" "no source" -- hotswap install
expect 1 "hotswap install" "an archive that is not there" -- hotswap install "$T/missing.tar.gz"
expect 2 "hotswap list" "an unknown flag" -- hotswap list --bogus
expect 1 "hotswap remove" "a tree that is not installed" -- hotswap remove -f nosuch
printf 'x' >"$T/afile"
expect 2 "cache warm" "no --target" -- cache warm "$T"
expect 1 "cache warm" "a path that is not there" -- cache warm "$T/nosuch" --target gfx942 --dir "$T/wcache"
expect 2 "cache stats" "an empty --dir" -- cache stats --dir ""
expect 1 "cache stats" "a cache root that is a file" -- cache stats --dir "$T/afile"
expect 2 "cache verify" "an unknown flag" -- cache verify --bogus
expect 1 "cache verify" "a cache root that is a file" -- cache verify --dir "$T/afile"
expect 2 "cache prune" "neither --max-size nor --older-than" -- cache prune
expect 1 "cache prune" "a cache root that is a file" -- cache prune --dir "$T/afile" --max-size 1G
expect 2 "cache clear" "an extra argument" -- cache clear extra
expect 1 "cache clear" "a cache root that is a file" -- cache clear --dir "$T/afile"
expect 2 "completions" "an unknown shell" -- completions klingon
expect 2 "help" "an unknown command" -- help nosuch
expect 2 "help" "a subcommand of a command without any" -- help run extra

# Every command of --help (and every subcommand of its groups) has rows above.
mirage --help
check "--help" 0
mapfile -t top < <(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$OUT")
[ ${#top[@]} -gt 8 ] || fail "no command list in --help"
all=()
for c in "${top[@]}"; do
	mirage "$c" --help
	if grep -q '^subcommands:' "$OUT"; then
		mapfile -t subs < <(sed -n '/^subcommands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$OUT")
		for s in "${subs[@]}"; do all+=("$c $s"); done
	else
		all+=("$c")
	fi
done
missing=$(for c in "${all[@]}"; do printf '%s\n' "${seen[@]}" | grep -qxF "$c" || echo "$c"; done)
assert_eq "$missing" "" "every command has exit-status rows here (${#all[@]} commands)"

# The rule is stated once: --help prints every row of it, the README says the same codes.
mirage --help
for code in 0 1 2 3; do
	grep -qE "^  $code  " "$OUT" || fail "--help has no exit status $code"
done
ok "--help states exit statuses 0, 1, 2 and 3 (integration/translate_partial exits 3)"
grep -qF "2 means a bad command" "$MIRAGE_SRC/README.md" &&
	grep -qF "3 means done, but partially" "$MIRAGE_SRC/README.md" ||
	fail "the README does not state the rule"
ok "the README states the rule"
done_testing
