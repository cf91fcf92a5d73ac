# `mirage run --workdir DIR` looks for the program from DIR, exactly as execvp there would: a
# name with a '/' is relative to DIR and never searched, PATH entries that are relative (or
# empty: the current directory) are relative to DIR.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
# Shell-script workloads: a native profile (a sanitizer-built intercept cannot preload into sh).
mirage profile create n --emulator native
check "setup" 0

# prog DIR WORD: an executable DIR/prog that says WORD.
prog() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho %s\n' "$2" >"$1/prog"
	chmod 755 "$1/prog"
}
WD="$T/wd"
prog "$WD" workdir
prog "$WD/bin" workdir-bin
prog "$WD/sub" workdir-sub
# Decoys where mirage itself is started: what a search from the wrong directory would find.
HERE="$T/here"
prog "$HERE" decoy
prog "$HERE/bin" decoy-bin
mkdir -p "$T/onpath"
prog "$T/onpath/sub" onpath-sub

cd "$HERE" || fail "cd $HERE"

mirage run -p n --workdir "$WD" -- ./prog
check "./prog is the workdir's" 0
expect_out workdir
mirage run -p n --workdir "$WD" --env PATH=bin -- prog
check "a relative PATH entry is relative to the workdir" 0
[ "$(cat "$OUT")" = workdir-bin ] || fail "ran '$(cat "$OUT")', not the workdir's bin/prog"
mirage run -p n --workdir "$WD" --env PATH=/nonexistent::/usr/bin -- prog
check "an empty PATH entry is the workdir" 0
[ "$(cat "$OUT")" = workdir ] || fail "ran '$(cat "$OUT")', not the workdir's prog"
mirage run -p n --workdir "$WD" --env PATH= -- prog
check "an empty PATH is the workdir" 0
[ "$(cat "$OUT")" = workdir ] || fail "ran '$(cat "$OUT")', not the workdir's prog"
mirage run -p n --env PATH=/nonexistent: -- prog
check "without --workdir an empty PATH entry is mirage's directory" 0
[ "$(cat "$OUT")" = decoy ] || fail "ran '$(cat "$OUT")'"
mirage run -p n --workdir "$T/onpath" --env PATH="$WD" -- sub/prog
check "a name with a '/' is not searched on PATH" 0
[ "$(cat "$OUT")" = onpath-sub ] || fail "ran '$(cat "$OUT")', not the workdir's sub/prog"
mirage run -p n --workdir "$HERE" --env PATH="$WD" -- sub/prog
check "a name with a '/' missing from the workdir is not found" 127 "cannot run 'sub/prog': No such file or directory"
# A directory named like the program comes first on PATH: execvp skips it (EACCES) and goes on.
mkdir -p "$T/dirfirst/prog"
mirage run -p n --workdir "$WD" --env PATH="$T/dirfirst:bin" -- prog
check "a directory on PATH is skipped" 0
[ "$(cat "$OUT")" = workdir-bin ] || fail "ran '$(cat "$OUT")'"
mirage run -p n --workdir "$WD" --env PATH="$T/dirfirst" -- prog
check "only a directory on PATH: not executable" 126 "cannot run 'prog': '$T/dirfirst/prog' is not executable"

# --dry-run names the program the run would start, absolutely.
mirage run -p n --workdir "$WD" --env PATH=bin --dry-run -- prog
check "--dry-run with a relative PATH entry" 0
expect_out "exec env -C $WD -- PATH=bin PWD=$WD $WD/bin/prog"

# The workload's PWD is the directory it runs in (a shell's cd sets it so), not mirage's.
printf '#!/bin/sh\necho "$PWD"\n' >"$WD/pwd"
chmod 755 "$WD/pwd"
PWD=$HERE mirage run -p n --workdir "$WD" -- ./pwd
check "PWD follows --workdir" 0
expect_out "$WD"
mirage run -p n -C ../wd -- ./pwd
check "PWD follows a relative -C" 0
expect_out "$WD"
mirage run -p n --clear-env --workdir "$WD" -- ./pwd
check "PWD is set after --workdir even from an empty environment" 0
expect_out "$WD"
done_testing
