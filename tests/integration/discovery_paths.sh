# `mirage paths`: MIRAGE_* first, then XDG, then HOME, for every directory.
source "$(dirname "$0")/discovery_lib.sh"

mirage paths
expect_rc 0 "paths, defaults"
expect_line "^config: +$HOME/.config/mirage$"
expect_line "^profiles: +$HOME/.config/mirage/profiles$"
expect_line "^data: +$HOME/.local/share/mirage$"
expect_line "^cache: +$HOME/.cache/mirage$"
expect_line "^translation cache: +$HOME/.cache/mirage/hotswap$"

XDG_CONFIG_HOME=$T/xc XDG_DATA_HOME=$T/xd XDG_CACHE_HOME=$T/xk mirage paths
expect_line "^config: +$T/xc/mirage$"
expect_line "^data: +$T/xd/mirage$"
expect_line "^cache: +$T/xk/mirage$"
expect_line "^translation cache: +$T/xk/mirage/hotswap$"

# The translation cache is where the intercept puts it, by the same rule: a relative
# XDG_CACHE_HOME is ignored (XDG), and with no absolute HOME there is none.
XDG_CACHE_HOME=relative mirage paths
expect_line "^translation cache: +$HOME/.cache/mirage/hotswap$"
XDG_CACHE_HOME=relative HOME=relative-home mirage --json paths
expect_rc 0 "paths with no usable home"
expect_json 'd["translation_cache"] is None'
XDG_CACHE_HOME= HOME=relative-home mirage paths
expect_line "^translation cache: +off \(neither XDG_CACHE_HOME nor HOME is an absolute path\)$"

MIRAGE_CONFIG=$T/mc MIRAGE_DATA=$T/md MIRAGE_CACHE=$T/mk XDG_CONFIG_HOME=$T/xc mirage --json paths
expect_rc 0 "--json paths"
expect_json 'd["config"] == "'"$T"'/mc" and d["profiles"] == "'"$T"'/mc/profiles"'
expect_json 'd["data"] == "'"$T"'/md" and d["cache"] == "'"$T"'/mk" and d["config_from"] == "MIRAGE_CONFIG"'

# the discovered tree: one installed under the data dir (a relocated mirage, so the
# build trees next to the real binary do not win the search)
mkdir -p "$T/pfx/bin"
cp "$MIRAGE_BIN" "$T/pfx/bin/mirage"
MIRAGE_EXE=$T/pfx/bin/mirage
export MIRAGE_DATA=$T/md
stage_native "$T/md/hotswap/v1"
mirage --json paths
expect_json 'd["hotswap"]["root"] == "'"$T"'/md/hotswap/v1" and d["hotswap"]["complete"] is True'
expect_json 'd["hotswap"]["found_by"] == "installed tree, $MIRAGE_DATA/hotswap/*"'
mirage paths
expect_line "^hotswap: +$T/md/hotswap/v1 \(installed tree, \\\$MIRAGE_DATA/hotswap/\*, native\)$"

finish
