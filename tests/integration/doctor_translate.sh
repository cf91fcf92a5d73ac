#!/usr/bin/env bash
# `mirage doctor`'s translate check: only for a profile targeting gfx942/gfx950, one line per
# target saying whether this tree can translate (the built-in gfx1250 kernel through the
# rewriter and its translator: the target's e_flags, the kernel's .kd, the translator's API
# and build), with the fix when it cannot: a test-double translator that works, one that
# refuses or returns a wrong object, none at all, and this build's own.
source "$(dirname "$0")/discovery_lib.sh"
# The translator API's version, as its header says (translate/api/mirage_translate.h).
TRANSLATE_API=$(sed -n 's/^#define TRANSLATE_API_VERSION *\([0-9]*\).*/\1/p' "$MIRAGE_SRC/translate/api/mirage_translate.h")

tree=$MIRAGE_BUILD/hotswap
double=$MIRAGE_BUILD/tests/standin/translate_double/libmirage_translate.so
[ -f "$tree/lib/libhotswap_rewrite.so" ] && [ -f "$double" ] ||
	{ echo "SKIP: no staged native tree or test-double translator in this build" >&2; exit 77; }
copy=$T/tree/hotswap
mkdir -p "$T/tree"
cp -a "$tree" "$copy"
cp "$double" "$copy/lib/libmirage_translate.so"
export MIRAGE_TEST_TRANSLATE_OUTPUT=$MIRAGE_BUILD/tests/fixtures/xlat_gfx942.co
export MIRAGE_TEST_TRANSLATE_KERNELS=mirage_selftest
unset MIRAGE_TEST_TRANSLATE_REFUSE MIRAGE_TEST_TRANSLATE_ERROR MIRAGE_TEST_TRANSLATE_BUILD

# A gfx1250 profile translates nothing: no translate line.
export HOTSWAP_HOME=$copy
mirage profile create same --target gfx1250
expect_rc 0 "profile same created"
mirage doctor --profile same
expect_rc 0 "doctor, a gfx1250 profile"
expect_no_out "translated the built-in"
expect_no_out "cannot translate"

# A gfx942 profile, a working translator: ok, with what it checked.
mirage profile create mi300 --target gfx942
expect_rc 0 "profile mi300 created"
mirage doctor --profile mi300
expect_rc 0 "doctor, gfx942 profile, a working translator"
expect_line "^ok    translated the built-in gfx1250 kernel for gfx942: gfx942 e_flags, mirage_selftest\.kd present, [0-9]+ -> [0-9]+ bytes \(translator API $TRANSLATE_API, build double-1\)$"
mirage --json doctor --profile mi300
expect_rc 0 "doctor --json"
expect_json "[c['status'] for c in d['checks'] if c['check'] == 'translate:gfx942'] == ['ok']"

# Two targets: one line each.  The double hands out a gfx942 object, so gfx950 is a wrong one.
mirage profile create mi350 --target gfx950
mirage doctor
expect_rc 0 "doctor, gfx942 and gfx950 profiles"
expect_line '^ok    translated the built-in gfx1250 kernel for gfx942: '
expect_line '^warn  cannot translate for gfx950: the translator returned a gfx942 object, not gfx950; gfx1250 code objects will not load on gfx950 \(the intercept refuses them, naming why\)$'
expect_line '^      fix: report it: the translator produced a wrong object$'

# The translator refuses the kernel.
MIRAGE_TEST_TRANSLATE_REFUSE="mirage_selftest:0x4:s_mov_b32:unsupported-register:no such SGPR" \
	mirage doctor --profile mi300
expect_rc 0 "doctor, a refusing translator (a warning)"
expect_line "^warn  cannot translate for gfx942: translation to gfx942 refused 1 of 1 kernels: kernel 'mirage_selftest' is refused at 0x4 \(s_mov_b32\): unsupported-register: no such SGPR; gfx1250 code objects will not load on gfx942 "
expect_line '^      fix: this tree.s translator cannot translate gfx1250 code yet: update mirage, or run gfx1250 workloads on a gfx1250$'

# No translator at all.
rm "$copy/lib/libmirage_translate.so"
mirage doctor --profile mi300
expect_rc 0 "doctor, no translator (a warning)"
expect_line "^warn  cannot translate for gfx942: cannot translate gfx1250 to gfx942: the translator is not available: cannot load '$copy/lib/libmirage_translate.so': "
expect_line '^      fix: rebuild mirage \(cmake --build build\) or reinstall it, so that the tree has a loadable lib/libmirage_translate.so of this build beside libhotswap_rewrite.so$'
mirage --json doctor --profile mi300
expect_json "[(c['status'], 'fix' in c) for c in d['checks'] if c['check'] == 'translate:gfx942'] == [('warn', True)]"

# This build's own translator (the stub until lowering lands): ok, or a warning with a reason.
export HOTSWAP_HOME=$tree
mirage doctor --profile mi300
expect_rc 0 "in-tree doctor, gfx942 profile"
expect_line '^(ok    translated the built-in gfx1250 kernel for gfx942: |warn  cannot translate for gfx942: .+; gfx1250 code objects will not load on gfx942 )'
finish
