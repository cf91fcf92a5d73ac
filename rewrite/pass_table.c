/* The pass table: one row per transform, in the order the rows run. */
#include "pass.h"

const struct hs_pass hs_pass_table[] = {
    {
        .name = "entry-trampolines",
        .report_bit = HS_PASS_ENTRY_TRAMPOLINES,
        .flag = HS_REWRITE_ENTRY_TRAMPOLINES,
        .applies = hs_pass_entry_applies,
        .plan = hs_pass_entry,
    },
    {
        /* Names the stubs the row above placed or found; nothing to name without it. */
        .name = "stub-symbols",
        .report_bit = HS_PASS_STUB_SYMBOLS,
        .flag = HS_REWRITE_STUB_SYMBOLS,
        .after = HS_PASS_ENTRY_TRAMPOLINES,
        .plan = hs_pass_stubsyms,
    },
    {
        /* Runs whenever the pair is gfx1250 B0 -> A0 (the defaults of a gfx1250 target). */
        .name = "b0a0",
        .report_bit = HS_PASS_B0A0,
        .off_flag = HS_REWRITE_NO_B0A0,
        .applies = hs_pass_b0a0_applies,
        .plan = hs_pass_b0a0,
    },
};
const size_t hs_pass_count = sizeof(hs_pass_table) / sizeof(hs_pass_table[0]);
