mirage_shell_test(run_contract run_contract.sh LABELS run)
mirage_shell_test(run_launch run_launch.sh LABELS run)
