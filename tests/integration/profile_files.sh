# What the store leaves on disk: killed writers' temp files swept, the umask honoured, XDG rules.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"
mirage profile create keep --emulator native
check "setup" 0

# Temp files of killed writers: swept by the next write, if old, regular and ours.
printf 'half' >"$P/keep.ini.tmp.AbC123"
touch -d '1 hour ago' "$P/keep.ini.tmp.AbC123"
printf 'live' >"$P/keep.ini.tmp.LiVe99"
printf 'target' >"$T/target"
touch -d '1 hour ago' "$T/target"
ln -s "$T/target" "$P/keep.ini.tmp.Link01"
touch -h -d '1 hour ago' "$P/keep.ini.tmp.Link01"
mkdir "$P/keep.ini.tmp.Dir001"
touch -d '1 hour ago' "$P/keep.ini.tmp.Dir001"
printf 'notes' >"$P/notes.tmp.AbC123"
touch -d '1 hour ago' "$P/notes.tmp.AbC123"
mirage profile edit keep --set description=swept
check "an edit after a killed writer" 0
[ ! -e "$P/keep.ini.tmp.AbC123" ] || fail "an old temp file was not swept"
ok "an old temp file is swept"
[ -f "$P/keep.ini.tmp.LiVe99" ] || fail "a fresh temp file (a writer at work) was swept"
ok "a fresh temp file is kept"
[ -L "$P/keep.ini.tmp.Link01" ] && [ "$(cat "$T/target")" = target ] ||
	fail "a symlink with a temp name, or its target, was touched"
ok "a symlink with a temp name and its target are kept"
[ -d "$P/keep.ini.tmp.Dir001" ] || fail "a directory with a temp name was removed"
[ -f "$P/notes.tmp.AbC123" ] || fail "a file not named like a profile's temp file was removed"
ok "only a profile's temp files are swept"
mirage profile list
check "list" 0
[ "$(cat "$OUT")" = keep ] || fail "temp files show up in list"
ok "list shows profiles only"
rm -rf "$P"/*.tmp.*

# New files honour the umask (they were always 0644).
mode() { stat -c %a "$1"; }
(umask 077 && "$MIRAGE_BIN" profile create private --emulator native >/dev/null) || fail "create under umask 077"
[ "$(mode "$P/private.ini")" = 600 ] || fail "umask 077 gave a $(mode "$P/private.ini") profile"
ok "umask 077 makes a private profile"
(umask 077 && "$MIRAGE_BIN" profile edit keep --set description=private >/dev/null) || fail "edit under umask 077"
[ "$(mode "$P/keep.ini")" = 600 ] || fail "umask 077 gave a $(mode "$P/keep.ini") profile on edit"
ok "umask 077 applies to an edited profile"
(umask 022 && "$MIRAGE_BIN" profile create shared --emulator native >/dev/null) || fail "create under umask 022"
[ "$(mode "$P/shared.ini")" = 644 ] || fail "umask 022 gave a $(mode "$P/shared.ini") profile"
ok "umask 022 makes a 644 profile"
(umask 077 && "$MIRAGE_BIN" profile export shared -o "$T/shared.json" 2>/dev/null) || fail "export under umask 077"
[ "$(mode "$T/shared.json")" = 600 ] || fail "umask 077 gave a $(mode "$T/shared.json") export"
ok "umask 077 applies to an export"

# A relative XDG_CONFIG_HOME / XDG_DATA_HOME is ignored (the XDG spec), as for the cache.
mkdir -p "$T/cwd"
cd "$T/cwd" || fail "cd"
unset MIRAGE_CONFIG
XDG_CONFIG_HOME=rel-config XDG_DATA_HOME=rel-data mirage --json paths
check "paths with relative XDG dirs" 0
[ "$(json_get "$OUT" "d['config']")" = "$HOME/.config/mirage" ] || fail "a relative XDG_CONFIG_HOME was used"
[ "$(json_get "$OUT" "d['config_from']")" = HOME ] || fail "config_from is not HOME"
[ "$(json_get "$OUT" "d['data']")" = "$HOME/.local/share/mirage" ] || fail "a relative XDG_DATA_HOME was used"
ok "paths ignores relative XDG_CONFIG_HOME and XDG_DATA_HOME"
XDG_CONFIG_HOME=rel-config mirage profile create rel --emulator native
check "create with a relative XDG_CONFIG_HOME" 0
[ -f "$HOME/.config/mirage/profiles/rel.ini" ] && [ ! -e "$T/cwd/rel-config" ] ||
	fail "the profile went under the relative XDG_CONFIG_HOME"
ok "the profile goes under \$HOME/.config, nothing under the working directory"
done_testing
