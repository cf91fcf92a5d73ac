# libhotswap_rewrite's shipped shape: exports, soname, pkg-config file.
mirage_shell_test(rewrite_abi rewrite_abi.sh LABELS rewrite)
# `mirage rewrite` and `mirage inspect` from the shell: summaries, JSON, every error path.
mirage_shell_test(rewrite_cli rewrite_cli.sh LABELS rewrite)
# Every output of hs_rewrite / mirage rewrite / mirage inspect over every fixture, held to a list.
mirage_shell_test(rewrite_golden rewrite_golden.sh LABELS rewrite)
