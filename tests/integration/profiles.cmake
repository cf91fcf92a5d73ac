mirage_shell_test(profile_workflow profile_workflow.sh LABELS profiles)
mirage_shell_test(profile_errors profile_errors.sh LABELS profiles)
mirage_shell_test(profile_race profile_race.sh LABELS profiles)
