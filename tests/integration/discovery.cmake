# Discovery, doctor, emulators and paths against the real mirage binary.
set(_disc_it_env "DISC_FX_DIR=${PROJECT_BINARY_DIR}/tests/unit/discovery_fx")
foreach(t discovery_not_found discovery_home_wrong discovery_trees discovery_paths doctor_gpus doctor_env doctor_json
          doctor_intree doctor_translate)
  mirage_shell_test(${t} ${t}.sh LABELS discovery)
  set_property(TEST integration/${t} APPEND PROPERTY ENVIRONMENT "${_disc_it_env}")
endforeach()
# Skips (77) until this build stages a native tree with the real rewriter.
set_tests_properties(integration/doctor_intree integration/doctor_translate PROPERTIES
                     SKIP_RETURN_CODE 77)
