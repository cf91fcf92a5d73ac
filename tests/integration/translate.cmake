# The translator's integration tests: the ISA decoder against LLVM 22 (tests/integration/isa_oracle.py).
# One set per table, the same scripts: ISA names the table and LLVM's -mcpu.
foreach(isa gfx1250 gfx942 gfx950)
  set(suffix "")
  if(NOT isa STREQUAL "gfx1250")
    set(suffix "_${isa}")
  endif()
  foreach(test isa_rows isa_corpus isa_fields raise_mod_bits)
    mirage_shell_test(${test}${suffix} ${test}.sh LABELS translate)
    set_property(TEST integration/${test}${suffix} APPEND PROPERTY ENVIRONMENT "ISA=${isa}")
  endforeach()
  # thousands of one-instruction kernels raised and run: minutes under the sanitizers
  set_tests_properties(integration/raise_mod_bits${suffix} PROPERTIES TIMEOUT 1500)
endforeach()
mirage_shell_test(isa_dump_tables isa_dump_tables.sh LABELS translate)

# mirage emulate over the kernel suite (tests/kernels, objects built by kernels.cmake): every
# launch file at -O0/-O2/-O3 against the host-C reference (and POCL at -O2), and shuffled;
# emulate/ runs the gfx1250 objects (wave32), emulate_gfx942/ the gfx942 builds of the same
# kernels (the gfx942 table, wave64; the references with 64-wide sub-groups).
file(GLOB emulate_launches CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/kernels/launch/*.json)
foreach(target gfx1250 gfx942)
  set(dir emulate)
  if(NOT target STREQUAL "gfx1250")
    set(dir emulate_${target})
  endif()
  foreach(launch ${emulate_launches})
    get_filename_component(kname ${launch} NAME_WE)
    get_filename_component(full ${launch} NAME)
    string(REGEX REPLACE "\\.json$" "" variant ${full})
    foreach(opt O0 O2 O3)
      mirage_shell_test(${dir}/${variant}.${opt} emulate_kernel.sh LABELS translate emulate)
      set_property(TEST integration/${dir}/${variant}.${opt} APPEND PROPERTY ENVIRONMENT
                   "KERNEL=${kname}" "LAUNCH=${launch}" "OPT=${opt}" "TARGET=${target}")
    endforeach()
  endforeach()
endforeach()
mirage_shell_test(raise_refusals raise_refusals.sh LABELS translate)
mirage_shell_test(translate_lazy translate_lazy.sh LABELS translate)
mirage_shell_test(emulate_crosslane emulate_crosslane.sh LABELS translate emulate)
mirage_shell_test(emulate_crosslane_gfx942 emulate_crosslane.sh LABELS translate emulate)
set_property(TEST integration/emulate_crosslane_gfx942 APPEND PROPERTY ENVIRONMENT "TARGET=gfx942")
mirage_shell_test(emulate_gfx9_forms emulate_gfx9_forms.sh LABELS translate emulate)
# The translator (gfx1250 -> gfx942/gfx950, docs/translate.md): refusals from assembled kernels.
mirage_shell_test(translate_refusals translate_refusals.sh LABELS translate)
# Partial objects: a refused kernel becomes an entry that traps; rewrite, emulate, mirage run.
mirage_shell_test(translate_partial translate_partial.sh LABELS translate intercept emulate)
# Every kernel of the suite (objects from kernels.cmake) translated and judged by LLVM's tools.
foreach(target gfx942 gfx950)
  foreach(opt O0 O2 O3)
    mirage_shell_test(translate_suite/${target}.${opt} translate_suite.sh LABELS translate)
    set_property(TEST integration/translate_suite/${target}.${opt} APPEND PROPERTY ENVIRONMENT
                 "TARGET=${target}" "OPT=${opt}")
  endforeach()
endforeach()
mirage_shell_test(emulate_movrel emulate_movrel.sh LABELS translate emulate)
mirage_shell_test(emulate_init emulate_init.sh LABELS translate emulate)
mirage_shell_test(emulate_add_pc emulate_add_pc.sh LABELS translate emulate)
mirage_shell_test(emulate_permute emulate_permute.sh LABELS translate emulate)
mirage_shell_test(emulate_pk16 emulate_pk16.sh LABELS translate emulate)
mirage_shell_test(emulate_minmax_num emulate_minmax_num.sh LABELS translate emulate)
mirage_shell_test(emulate_lds emulate_lds.sh LABELS translate emulate)
mirage_shell_test(emulate_int_minmax emulate_int_minmax.sh LABELS translate emulate)
mirage_shell_test(emulate_cvt_pk16 emulate_cvt_pk16.sh LABELS translate emulate)
mirage_shell_test(emulate_lds_order emulate_lds_order.sh LABELS translate emulate)
mirage_shell_test(raise_reach raise_reach.sh LABELS translate emulate)
mirage_shell_test(emulate_ds_d16 emulate_ds_d16.sh LABELS translate emulate)
mirage_shell_test(emulate_permlane16_swap emulate_permlane16_swap.sh LABELS translate emulate)
mirage_shell_test(emulate_ds_rmw emulate_ds_rmw.sh LABELS translate emulate)
mirage_shell_test(emulate_sfloat emulate_sfloat.sh LABELS translate emulate)
mirage_shell_test(emulate_minmax3_num emulate_minmax3_num.sh LABELS translate emulate)
mirage_shell_test(emulate_f16_round emulate_f16_round.sh LABELS translate emulate)
mirage_shell_test(emulate_cndmask_mods emulate_cndmask_mods.sh LABELS translate emulate)
mirage_shell_test(emulate_smem emulate_smem.sh LABELS translate emulate)
mirage_shell_test(emulate_inline64 emulate_inline64.sh LABELS translate emulate)
mirage_shell_test(emulate_vgpr_banks emulate_vgpr_banks.sh LABELS translate emulate)
# Whole-wave mode: the report, and the lanes of a partial source wave and a half with none.
mirage_shell_test(translate_whole_wave translate_whole_wave.sh LABELS translate emulate)
# Parallel translation: the same bytes on any number of threads (and under TSan, the threads).
mirage_shell_test(translate_jobs translate_jobs.sh LABELS translate emulate intercept tsan)
# The optimisation pipeline is LLVM 22's O2 but for the two passes it names.
mirage_shell_test(translate_pipeline translate_pipeline.sh LABELS translate)
# The round trip on the CPU: every launch file translated for gfx942/gfx950 at -O0/-O2/-O3
# (refusals pinned in tests/integration/translate_suite.expect), emulated against the gfx1250
# original and the host-C reference; known failures in translate_roundtrip.expect.
foreach(target gfx942 gfx950)
  foreach(launch ${emulate_launches})
    get_filename_component(kname ${launch} NAME_WE)
    get_filename_component(full ${launch} NAME)
    string(REGEX REPLACE "\\.json$" "" variant ${full})
    foreach(opt O0 O2 O3)
      mirage_shell_test(translate_roundtrip/${target}/${variant}.${opt} translate_roundtrip.sh
                        LABELS translate emulate)
      set_property(TEST integration/translate_roundtrip/${target}/${variant}.${opt} APPEND
                   PROPERTY ENVIRONMENT "KERNEL=${kname}" "LAUNCH=${launch}" "OPT=${opt}"
                   "TARGET=${target}")
    endforeach()
  endforeach()
endforeach()
# The fixtures' translations byte for byte (translate_golden.list, with translate_suite's rows).
mirage_shell_test(translate_golden translate_golden.sh LABELS translate)
# Two metadata notes in one object, read merged by the translator as by the rewriter.
mirage_shell_test(codeobj_notes codeobj_notes.sh LABELS translate emulate)
mirage_shell_test(codeobj_image codeobj_image.sh LABELS translate emulate)
