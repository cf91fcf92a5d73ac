# A HotSwap tree whose path ld.so or the HSA runtime would split (a space, ':', '$', ...) is
# refused by `profile create`, `run` and `doctor` alike, never injected split: a split
# LD_PRELOAD/HSA_TOOLS_LIB entry loads nothing, and the workload would run unemulated.
source "$(dirname "$0")/run_lib.sh"
export MIRAGE_CONFIG="$T/cfg"

mirage profile create p --target gfx1250 --entry-trampolines
check "a profile on the in-tree tree" 0

for dir in "with space" "with:colon" 'with$ORIGIN'; do
	mkdir -p "$T/$dir"
	cp -a "$TREE" "$T/$dir/hotswap"
	BAD=$(cd "$T/$dir/hotswap" && pwd -P)
	export HOTSWAP_HOME="$BAD"

	# What the contract would have produced: the runtime never gets the intercept.
	mkdir -p "$T/rec"
	rm -f "$T/rec"/*
	run env STANDIN_RECORD_DIR="$T/rec" STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 \
		HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_TOOLS_LIB="$BAD/lib/libhotswap_intercept.so" \
		"$CLIENT" "$HELLO"
	cmp -s "$T/rec/load-1.co" "$HELLO" || fail "'$dir': a split HSA_TOOLS_LIB still rewrote the object"
	ok "'$dir': split, the tools library never loads and the object goes in unrewritten"

	mirage profile create q --target gfx1250
	check "'$dir': profile create refuses" 1 "cannot use the hotswap emulator for profile 'q': the HotSwap tree at '$BAD' cannot be handed to a workload: LD_PRELOAD would carry '$BAD/lib/libhotswap_intercept.so'"
	expect_err "hint: move or copy the tree to a path without spaces"
	[ ! -e "$MIRAGE_CONFIG/profiles/q.ini" ] || fail "'$dir': the profile was written"

	rm -f "$T/rec"/*
	run env STANDIN_RECORD_DIR="$T/rec" STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 \
		"$MIRAGE_BIN" run -p p -- "$CLIENT" "$HELLO"
	check "'$dir': run refuses" 1 "cannot run profile 'p' under HotSwap: the HotSwap tree at '$BAD' cannot be handed to a workload"
	expect_err "hint: move or copy the tree"
	[ -z "$(ls "$T/rec")" ] || fail "'$dir': the workload ran"
	ok "'$dir': the workload did not start"

	mirage doctor
	check "'$dir': doctor fails" 1
	expect_out "FAIL  the HotSwap tree at '$BAD' cannot be handed to a workload"
done
HOTSWAP_HOME="$T/with space/hotswap" mirage run -p p -- "$CLIENT" "$HELLO"
expect_err "which has a space, and ld.so splits LD_PRELOAD at spaces and colons and expands '\$' tokens"

# The same tree at a safe path is used, and the workload gets the intercept.
mkdir -p "$T/safe"
cp -a "$TREE" "$T/safe/hotswap"
export HOTSWAP_HOME="$T/safe/hotswap"
rm -f "$T/rec"/*
run env STANDIN_RECORD_DIR="$T/rec" STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 \
	"$MIRAGE_BIN" run -p p -- "$CLIENT" "$HELLO"
check "a copy at a safe path runs" 0
expect_rewritten "$T/rec/load-1.co" "the workload's loader received the rewritten object"
done_testing
