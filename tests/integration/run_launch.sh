# `mirage run` launching: exit statuses, signals, not found, workdir, usage errors, --dry-run.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
mirage profile create p --target gfx942
check "setup" 0
# /bin/sh cannot host a sanitizer-built intercept, so shell workloads run under a native profile.
mirage profile create n --emulator native
check "setup native" 0

for status in 0 3 255; do
	mirage run --profile p -- "$ENVDUMP" $status
	check "exit status $status passes through" $status
done
# The workload replaces mirage, so a shell sees the workload's own death by signal.
run bash -c '"$MIRAGE_BIN" run --profile p -- "$1" --kill 15 >/dev/null; echo "status=$?"' _ "$ENVDUMP"
expect_out "status=143"
ok "death by SIGTERM is 128+15 as a shell sees it"
run bash -c '"$MIRAGE_BIN" run --profile p -- "$1" --kill 9 >/dev/null; echo "status=$?"' _ "$ENVDUMP"
expect_out "status=137"
ok "death by SIGKILL is 128+9"

mirage run --profile p -- no-such-program-xyz
check "command not found" 127 "cannot run 'no-such-program-xyz': command not found"
mirage run --profile p -- "$T/missing/prog"
check "missing path" 127 "cannot run '$T/missing/prog': No such file or directory"
printf 'echo hi\n' >"$T/noexec"
chmod 644 "$T/noexec"
mirage run --profile p -- "$T/noexec"
check "not executable" 126 "cannot run '$T/noexec': Permission denied"
mirage run --profile p -- "$T"
check "a directory" 126 "it is a directory"
mkdir "$T/pathdir"
cp "$T/noexec" "$T/pathdir/noexec-tool"
mirage run --profile n --env PATH="$T/pathdir" -- noexec-tool
check "found on PATH but not executable" 126 "cannot run 'noexec-tool': '$T/pathdir/noexec-tool' is not executable"
printf 'echo "script ran with $#"\n' >"$T/noshebang"
chmod 755 "$T/noshebang"
mirage run --profile n -- "$T/noshebang" a b
check "a script without #! runs under sh" 0
expect_out "script ran with 2"

mkdir "$T/wd"
mirage run --profile p --workdir "$T/wd" -- "$ENVDUMP"
check "--workdir" 0
expect_err "cwd=$(cd "$T/wd" && pwd -P)"
mirage run --profile p --workdir "$T/nope" -- "$ENVDUMP"
check "missing workdir" 1 "--workdir '$T/nope': No such file or directory"
mirage run --profile p --workdir "$T/noexec" -- "$ENVDUMP"
check "workdir that is a file" 1 "--workdir '$T/noexec' is not a directory"

# Without search permission a directory cannot be entered; root has it on every directory.
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$T/closed"
	chmod 600 "$T/closed"
	mirage run --profile p --workdir "$T/closed" -- "$ENVDUMP"
	check "workdir without search permission" 1 "--workdir '$T/closed': Permission denied"
	chmod 700 "$T/closed"
else
	skip "workdir without search permission: running as root, which may enter any directory"
fi

# The short flags: -p, -e, -C, -n.
mirage run -p n -e SHORT=flag -C "$T/wd" -n -- "$ENVDUMP"
check "short flags" 0
expect_out "#   + SHORT=flag  [--env]"
expect_out "exec env -C $(cd "$T/wd" && pwd -P) -- "

mirage run --profile p --dryrun -- "$ENVDUMP"
check "mistyped flag before --" 2 "unknown option '--dryrun' for 'run'"
expect_err "hint: did you mean '--dry-run'?"
[ ! -s "$OUT" ] || fail "the workload ran"
mirage run --profile p "$ENVDUMP"
check "command without --" 2 "unexpected argument '$ENVDUMP' before '--' for 'run'"
# The argument is named whole however long it is (a deep checkout once cut it short).
LONG_CMD="$T/$(printf 'deep/%.0s' $(seq 1 30))tool"
mirage run --profile p "$LONG_CMD"
check "long command without --" 2 "unexpected argument '$LONG_CMD' before '--' for 'run'"
mirage run -- "$ENVDUMP"
check "no --profile" 2 "'run' needs --profile NAME"
mirage run --profile p --
check "nothing after --" 2 "'run' needs a command after '--'"
mirage run --profile p --env NOVALUE -- "$ENVDUMP"
check "--env without =" 2 "--env 'NOVALUE': expected NAME=VALUE"
mirage run --profile ghost -- "$ENVDUMP"
check "unknown profile" 1 "profile 'ghost' not found"
mirage run --profile p -- "$ENVDUMP" --not-mine --profile x
check "flags after -- belong to the workload" 0

# --dry-run --full-env prints a line that reproduces the environment exactly under sh -c, from
# any environment (run_dry_run.sh tests the default, mirage's changes only, and hostile values).
mirage run --dry-run --full-env --profile p --env 'QUOTED=it'"'"'s $HOME "x"' --workdir "$T/wd" -- "$ENVDUMP" 7
check "--dry-run" 0
expect_out "# mirage run: environment changes"
expect_out "HSA_HOTSWAP_ISA_OVERRIDE=gfx942  [contract]"
cp "$OUT" "$T/dry.sh"
run sh -c "$(cat "$T/dry.sh")"
expect_rc_of_sh=$RC
cp "$OUT" "$T/dry.dump"
cp "$ERR" "$T/dry.err"
mirage run --profile p --env 'QUOTED=it'"'"'s $HOME "x"' --workdir "$T/wd" -- "$ENVDUMP" 7
[ "$RC" -eq 7 ] && [ "$expect_rc_of_sh" -eq 7 ] || fail "exit statuses differ: $RC vs $expect_rc_of_sh"
diff -u "$OUT" "$T/dry.dump" >"$T/diff" || fail "dry-run environment differs: $(cat "$T/diff")"
cmp -s "$ERR" "$T/dry.err" || fail "dry-run working directory differs"
ok "--dry-run output fed to sh -c reproduces the environment, directory and status"
mirage --json run --profile p --dry-run -- "$ENVDUMP"
check "--dry-run --json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "d['env']['HSA_HOTSWAP_ISA_OVERRIDE']")" = gfx942 ] || fail "json env lacks the target"
ok "--dry-run --json parses"
done_testing
