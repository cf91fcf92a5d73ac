# `mirage run --dry-run` prints a sh script that reproduces the run: hostile values stay data,
# nothing extra executes, and the workload gets the same environment, directory and arguments.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
mirage profile create p --target gfx942
check "setup" 0
# A program path with '=' runs through /bin/sh, which cannot host a sanitizer-built intercept.
mirage profile create n --emulator native
check "setup native" 0

# Everything a run sees comes from this fixed environment, for mirage and for the sh alike:
# bash would add '_' and its own PWD to whatever it starts.
mkdir "$T/here"
cd "$T/here" || fail "cd $T/here"
BASE=(PATH="$PATH" HOME="$HOME" PWD="$T/here" MIRAGE_CONFIG="$MIRAGE_CONFIG"
	HOTSWAP_HOME="$HOTSWAP_HOME" MIRAGE_SYSFS_ROOT="$MIRAGE_SYSFS_ROOT" NO_COLOR=1
	STALE_HOOK=$'a\ntouch '"$T/pwned-inherited")
# hostile VALUE: every way a value could escape its quoting or its comment line.
HOSTILE=$'it\'s "q" $(touch '"$T"$'/pwned-subst) `touch '"$T"$'/pwned-tick` ;\ntouch '"$T"$'/pwned-nl\n# \\'
# A program path with '=' (env would take it for an assignment), a space and a quote.
PROGDIR="$T/bin=x y'z"
mkdir -p "$PROGDIR"
cp "$ENVDUMP" "$PROGDIR/dump=me"
WD="$T/work dir"$'\n'"x"
mkdir -p "$WD"

# dry_run_matches DESC [--full-env] MIRAGE-ARGS... -- CMD...: the script, fed to sh, runs CMD as
# mirage would.
dry_run_matches() {
	local desc=$1 full=()
	shift
	[ "$1" = --full-env ] && full=(--full-env) && shift
	run env -i "${BASE[@]}" "$MIRAGE_BIN" run --dry-run "${full[@]}" "$@"
	check "$desc: --dry-run" 0
	cp "$OUT" "$T/dry.sh"
	run env -i "${BASE[@]}" sh "$T/dry.sh"
	local rc_sh=$RC
	cp "$OUT" "$T/sh.out"
	cp "$ERR" "$T/sh.err"
	run env -i "${BASE[@]}" "$MIRAGE_BIN" run "$@"
	[ "$RC" -eq "$rc_sh" ] || fail "$desc: exit status $rc_sh from the script, $RC from mirage run"
	diff -u "$OUT" "$T/sh.out" >"$T/diff" || fail "$desc: environments differ: $(cat "$T/diff")"
	diff -u "$ERR" "$T/sh.err" >"$T/diff" || fail "$desc: directory or arguments differ: $(cat "$T/diff")"
	ls "$T" | grep -q pwned && fail "$desc: the script executed a value: $(ls "$T" | grep pwned)"
	ok "$desc: the script reproduces the run and executes nothing else"
}

dry_run_matches "hostile --env value" -p p --env "HOSTILE=$HOSTILE" --env "DASH=-u X" -- \
	"$ENVDUMP" 5 "$HOSTILE" '*' ''
expect_file_has "$T/dry.sh" "#   + HOSTILE='it'\\''s"
# Comment lines, then the exec line: newlines inside its quoted words are the only other lines.
awk '/^exec /{exit} !/^#/{bad=1} END{exit bad}' "$T/dry.sh" ||
	fail "a line before the exec line is not a comment: $(cat "$T/dry.sh")"
expect_file_has "$T/dry.sh" ";\\ntouch $T/pwned-nl\\n# \\'  [--env]"
ok "comments stay comments: a newline in a value is shown as \\n"
# Only what mirage changes is listed by default: the inherited HOME is not.
grep -q "HOME=$HOME" "$T/dry.sh" && fail "the default lists an unchanged variable"
grep -q ' HOTSWAP_HOME=' "$T/dry.sh" && fail "the default lists HOTSWAP_HOME, which did not change"
grep -q "exec env -- " "$T/dry.sh" || fail "no 'exec env --' line: $(cat "$T/dry.sh")"
ok "--dry-run lists only mirage's changes"

dry_run_matches "program path with '=', a space and a quote, in a --workdir with a newline" \
	-p n --env "HOSTILE=$HOSTILE" --workdir "$WD" -- "$PROGDIR/dump=me" 3 "$HOSTILE"
expect_file_has "$T/dry.sh" "/bin/sh -c 'PWD=\$1; shift; exec \"\$@\"' sh"

dry_run_matches "--full-env" --full-env -p p --env "HOSTILE=$HOSTILE" -- "$ENVDUMP" 0
grep -q "exec env -i -- " "$T/dry.sh" || fail "--full-env has no 'env -i': $(cat "$T/dry.sh")"
expect_file_has "$T/dry.sh" "HOME=$HOME"
ok "--full-env lists every variable after env -i"
dry_run_matches "--full-env, program path with '='" --full-env -p n -- "$PROGDIR/dump=me" 0

dry_run_matches "--clear-env drops a hostile inherited name and value" -p p --clear-env -- \
	"$ENVDUMP" 0
expect_file_has "$T/dry.sh" "#   - STALE_HOOK  [--clear-env]"

# A stale HSA_HOTSWAP_* variable the contract drops is an 'env -u'.
BASE+=(HSA_HOTSWAP_DISABLE=1)
dry_run_matches "a stale HSA_HOTSWAP_DISABLE" -p p -- "$ENVDUMP" 0
expect_file_has "$T/dry.sh" "#   - HSA_HOTSWAP_DISABLE  [contract]"
grep -q "exec env -u HSA_HOTSWAP_DISABLE -- " "$T/dry.sh" || fail "no -u: $(cat "$T/dry.sh")"
ok "a dropped variable is unset by the script"

# A dry run previews what cannot run here too: the script, and a warning of what would stop it.
mirage profile create auto --target auto
check "setup auto" 0
MIRAGE_SYSFS_ROOT="$T/no-sysfs" mirage run -p auto --dry-run -- "$ENVDUMP"
check "--dry-run on a host without a GPU still previews" 0 \
	"warning: profile 'auto' cannot run here: no GPU to retarget gfx1250 code onto: this host has no KFD topology (no amdgpu driver); the run would stop here"
expect_out "HSA_HOTSWAP_ISA_OVERRIDE= "
MIRAGE_SYSFS_ROOT="$T/no-sysfs" mirage run -p auto -- "$ENVDUMP"
check "the run itself refuses" 1 "mirage: profile 'auto' cannot run here"
mirage run -p p --dry-run -- ./missing
check "--dry-run of a program that is not there still previews" 0 \
	"warning: cannot run './missing': No such file or directory; the run would stop here"
expect_out "$T/here/./missing"
mirage run -p p -- ./missing
check "the run itself exits 127" 127 "cannot run './missing': No such file or directory"

mirage run -p p --full-env -- "$ENVDUMP"
check "--full-env without --dry-run" 2 "'--full-env' only goes with '--dry-run'"
[ ! -s "$OUT" ] || fail "the workload ran"
done_testing
