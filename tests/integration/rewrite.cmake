# libhotswap_rewrite's shipped shape: exports, soname, pkg-config file.
mirage_shell_test(rewrite_abi rewrite_abi.sh LABELS rewrite)
# `mirage rewrite` and `mirage inspect` from the shell: summaries, JSON, every error path.
mirage_shell_test(rewrite_cli rewrite_cli.sh LABELS rewrite)
# Every output of hs_rewrite / mirage rewrite / mirage inspect over every fixture, held to a list.
mirage_shell_test(rewrite_golden rewrite_golden.sh LABELS rewrite)
# The gfx1250 B0->A0 pass over its fixtures, judged by llvm-objdump-22 / llvm-readelf-22.
mirage_shell_test(rewrite_b0a0 rewrite_b0a0.sh LABELS rewrite)
# Kernel names and paths from outside reach the terminal escaped (hostile_name.co).
mirage_shell_test(rewrite_escape rewrite_escape.sh LABELS rewrite)
# ... and B0 semantics kept: mirage emulate of the original and the rewritten object agree.
mirage_shell_test(rewrite_b0a0_emulate rewrite_b0a0_emulate.sh LABELS rewrite emulate)
# The translation route (gfx1250 -> gfx942/gfx950) from the shell, with a test-double translator.
mirage_shell_test(rewrite_translate rewrite_translate.sh LABELS rewrite)
# ... for cluster loads, async copies to LDS and isfirst too (tests/b0a0/cluster_sites.s).
mirage_shell_test(rewrite_b0a0_cluster rewrite_b0a0_cluster.sh LABELS rewrite emulate)
# Offload bundles and HIP programs built by clang-22 through `mirage inspect` (codeobj/bundle.c).
mirage_shell_test(hip_bundle hip_bundle.sh LABELS rewrite hip)
# `mirage inspect --target`: what would run on a target, as is or translated.
mirage_shell_test(inspect_target inspect_target.sh LABELS rewrite translate)
# The stand-in HIP runtime against HIP programs built by clang-22 (tests/standin/hip).
mirage_shell_test(hip_standin hip_standin.sh LABELS rewrite hip)
set_property(TEST integration/hip_standin APPEND PROPERTY ENVIRONMENT
             "MIRAGE_SANITIZE=${MIRAGE_SANITIZE}")
