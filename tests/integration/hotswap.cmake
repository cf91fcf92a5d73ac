# hotswap install/list/remove: real mirage against local archives, file:// and a loopback HTTP server.
mirage_shell_test(hotswap_install hotswap_install.sh LABELS hotswap)
mirage_shell_test(hotswap_http hotswap_http.sh LABELS hotswap)
mirage_shell_test(hotswap_refuse hotswap_refuse.sh LABELS hotswap)
mirage_shell_test(hotswap_lazy hotswap_lazy.sh LABELS hotswap)
mirage_shell_test(hotswap_swap hotswap_swap.sh LABELS hotswap)
mirage_shell_test(hotswap_limits hotswap_limits.sh LABELS hotswap)
mirage_shell_test(hotswap_redact hotswap_redact.sh LABELS hotswap)
