# libhotswap_rewrite's shipped shape: exports, soname, pkg-config file.
mirage_shell_test(rewrite_abi rewrite_abi.sh LABELS rewrite)
