# Profiles and imports that are not regular files, or too big: refused by name, never read.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"
mirage profile create good --emulator native
check "setup" 0

# Every reader of a profile: show, list -l, run --profile, edit; none may hang.
readers_refuse() { # DESC NAME MESSAGE
	run timeout 10 "$MIRAGE_BIN" profile show "$2"
	check "$1: show" 1 "cannot read profile '$P/$2.ini': $3"
	run timeout 10 "$MIRAGE_BIN" profile list -l
	check "$1: list -l" 0
	expect_out "(unreadable: cannot read profile '$P/$2.ini': $3)"
	run timeout 10 "$MIRAGE_BIN" run --profile "$2" -- true
	check "$1: run" 1 "cannot read profile '$P/$2.ini': $3"
	run timeout 10 "$MIRAGE_BIN" profile edit "$2" --set description=x
	check "$1: edit" 1 "cannot read profile '$P/$2.ini': $3"
}

mkfifo "$P/fifo.ini"
readers_refuse "a FIFO" fifo "it is a FIFO, not a regular file"
mirage profile show fifo
expect_err "hint: 'mirage profile delete fifo -f' removes it"
mirage profile delete fifo -f
check "a FIFO profile can be deleted" 0
ln -s /dev/zero "$P/zero.ini"
readers_refuse "a symlink to /dev/zero" zero "it is a character device, not a regular file"
rm "$P/zero.ini"
mkdir "$P/dir.ini"
readers_refuse "a directory" dir "it is a directory, not a regular file"
mirage profile show dir
expect_err "hint: a profile is a regular file of text"
mkdir "$T/dir.json"
mirage profile import "$T/dir.json"
check "import a directory" 1 "cannot read '$T/dir.json': it is a directory, not a regular file"
expect_err "hint: import reads a regular file, or standard input with '-'"
rmdir "$P/dir.ini"
truncate -s 2G "$P/huge.ini"
readers_refuse "a 2 GiB sparse file" huge "it is larger than the 1 MiB a profile may have"
mirage profile show huge
expect_err "hint: 'mirage profile delete huge -f' removes it"
mirage profile delete huge -f
check "an oversize profile can be deleted as the hint says" 0
[ ! -e "$P/huge.ini" ] || fail "the oversize profile is still there"

# A symlink to a real profile is fine (dotfile managers do that).
cp "$P/good.ini" "$T/linked.ini"
sed -i 's/^name = good/name = linked/' "$T/linked.ini"
ln -s "$T/linked.ini" "$P/linked.ini"
mirage profile show linked
check "a symlink to a regular profile file is read" 0

# profile import: regular files only; standard input with a cap.
mkfifo "$T/in.fifo"
run timeout 10 "$MIRAGE_BIN" profile import "$T/in.fifo"
check "import a FIFO" 1 "cannot read '$T/in.fifo': it is a FIFO, not a regular file"
expect_err "hint: import reads a regular file, or standard input with '-'"
run timeout 10 "$MIRAGE_BIN" profile import /dev/zero
check "import /dev/zero" 1 "cannot read '/dev/zero': it is a character device, not a regular file"
truncate -s 2M "$T/big.json"
mirage profile import "$T/big.json"
check "import an oversize file" 1 "cannot read '$T/big.json': it is larger than the 1 MiB a profile may have"
RUN_STDIN=/dev/zero run timeout 10 "$MIRAGE_BIN" profile import -
check "import - from an endless stream" 1 "<stdin>: more than the 1 MiB a profile may have"
printf '{"name": "piped", "emulator": "native"}' >"$T/piped.json"
RUN_STDIN=<(cat "$T/piped.json") mirage profile import -
check "import - from a pipe still works" 0
expect_out "imported profile 'piped'"
[ "$(ls "$P" | sort | tr '\n' ' ')" = "good.ini linked.ini piped.ini " ] ||
	fail "refused imports left files: $(ls "$P")"
ok "refused imports write nothing"
done_testing
