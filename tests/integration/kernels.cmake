# The kernel suite (tests/kernels): OpenCL C kernels built for the GPU at test-build time,
# their two CPU references (host C, POCL), the output comparer, and the tests over them.
find_package(Threads REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(KERNELS_SRC ${PROJECT_SOURCE_DIR}/tests/kernels)
set(KERNELS_OUT ${PROJECT_BINARY_DIR}/tests/kernels)
# One row per kernel source; tests/kernels/launch/<kernel>[.<variant>].json are its launches
# and tests/kernels/check/<kernel>.json how their outputs compare.
set(MIRAGE_KERNELS int_ops float_ops saxpy transpose reduce_lds divergence divergent_loop
    subgroup atomics scratch ragged calls f16_convert f16_arith approx regindex
    private_calls tables)
set(MIRAGE_KERNEL_OPT_LEVELS O0 O2 O3)
# gfx1250 is the suite's subject; gfx942 objects are built for the gfx942 decoder's corpus.
set(MIRAGE_KERNEL_TARGETS gfx1250 gfx942)

# Code objects: compiled as HIP/OpenCL toolchains do (clang, then ld.lld -shared), never
# checked in.  -ffp-contract=off everywhere: the float kernels are compared bit-exact.
set(kernel_objects)
foreach(target ${MIRAGE_KERNEL_TARGETS})
  set(wave)
  if(target STREQUAL "gfx942")
    set(wave -DMIRAGE_WAVE64)
  endif()
  foreach(opt ${MIRAGE_KERNEL_OPT_LEVELS})
    foreach(k ${MIRAGE_KERNELS})
      set(dir ${KERNELS_OUT}/${target}/${opt})
      add_custom_command(
        OUTPUT ${dir}/${k}.co
        COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
        COMMAND ${CLANG_EXE} -x cl -cl-std=CL1.2 -cl-no-stdinc
                -include ${KERNELS_SRC}/prelude/amdgcn.h ${wave}
                -target amdgcn-amd-amdhsa -mcpu=${target} -nogpulib -${opt} -ffp-contract=off
                -c ${KERNELS_SRC}/${k}.cl -o ${dir}/${k}.o
        COMMAND ${LD_LLD_EXE} -shared ${dir}/${k}.o -o ${dir}/${k}.co
        DEPENDS ${KERNELS_SRC}/${k}.cl ${KERNELS_SRC}/prelude/amdgcn.h
        COMMENT "kernel ${k}.cl for ${target} -${opt}" VERBATIM)
      list(APPEND kernel_objects ${dir}/${k}.co)
    endforeach()
  endforeach()
endforeach()
add_custom_target(kernel_objects ALL DEPENDS ${kernel_objects})

# The references and the comparer.
add_library(kernel_ref_common STATIC ${KERNELS_SRC}/ref/ref_common.c)
target_include_directories(kernel_ref_common PUBLIC ${KERNELS_SRC}/ref)
target_link_libraries(kernel_ref_common PUBLIC mirage_launch)

add_executable(kernel_compare ${KERNELS_SRC}/tools/kernel_compare.c)
target_link_libraries(kernel_compare PRIVATE mirage_launch)
set(kernel_tools kernel_compare)

# Host C: each kernel source compiled as C (prelude/host.h first) with its generated entry
# table; float as IEEE single/double with no contraction, f16 as _Float16.
foreach(k ${MIRAGE_KERNELS})
  set(entry ${KERNELS_OUT}/host/${k}_entry.c)
  add_custom_command(
    OUTPUT ${entry}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${KERNELS_OUT}/host
    COMMAND ${Python3_EXECUTABLE} ${KERNELS_SRC}/tools/gen_host_entry.py ${KERNELS_SRC}/${k}.cl
            ${entry}
    DEPENDS ${KERNELS_SRC}/${k}.cl ${KERNELS_SRC}/tools/gen_host_entry.py VERBATIM)
  add_executable(host_ref_${k} ${entry} ${KERNELS_SRC}/ref/host_runtime.c
                 ${KERNELS_SRC}/ref/host_main.c)
  set_source_files_properties(${entry} PROPERTIES
    COMPILE_OPTIONS "-include;${KERNELS_SRC}/prelude/host.h;-Wno-unknown-pragmas;-ffp-contract=off"
    OBJECT_DEPENDS ${KERNELS_SRC}/prelude/host.h)
  target_link_libraries(host_ref_${k} PRIVATE kernel_ref_common Threads::Threads m)
  list(APPEND kernel_tools host_ref_${k})
endforeach()

find_library(OPENCL_LIB NAMES OpenCL)
find_path(OPENCL_INCLUDE_DIR CL/cl.h)
if(OPENCL_LIB AND OPENCL_INCLUDE_DIR)
  add_executable(pocl_ref ${KERNELS_SRC}/ref/pocl_main.c)
  target_include_directories(pocl_ref PRIVATE ${OPENCL_INCLUDE_DIR})
  target_link_libraries(pocl_ref PRIVATE kernel_ref_common ${OPENCL_LIB})
  list(APPEND kernel_tools pocl_ref)
endif()
set_target_properties(${kernel_tools} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${KERNELS_OUT}/bin)

set(kernels_env "KERNELS_SRC=${KERNELS_SRC}" "KERNELS_OUT=${KERNELS_OUT}"
    "KERNELS_BIN=${KERNELS_OUT}/bin" "KERNEL_LIST=${MIRAGE_KERNELS}"
    "KERNEL_TARGETS=${MIRAGE_KERNEL_TARGETS}" "PYTHON=${Python3_EXECUTABLE}" "KERNEL_OPT_LEVELS=${MIRAGE_KERNEL_OPT_LEVELS}")

# Every object: the kernel's .kd, and metadata .args matching its launch files' args.
mirage_shell_test(kernels_objects kernels_objects.sh LABELS kernels)
set_property(TEST integration/kernels_objects APPEND PROPERTY ENVIRONMENT ${kernels_env})

# Per launch file: host C and POCL on the same launch give the same outputs.
file(GLOB kernel_launches CONFIGURE_DEPENDS ${KERNELS_SRC}/launch/*.json)
foreach(launch ${kernel_launches})
  get_filename_component(name ${launch} NAME_WE)
  get_filename_component(full ${launch} NAME)
  string(REGEX REPLACE "\\.json$" "" variant ${full})
  mirage_shell_test(kernels_ref/${variant} kernels_reference.sh LABELS kernels)
  set_property(TEST integration/kernels_ref/${variant} APPEND PROPERTY ENVIRONMENT
               ${kernels_env} "KERNEL=${name}" "LAUNCH=${launch}")
endforeach()

# The comparer itself: equal, different, within and beyond a ULP tolerance, NaN classes.
mirage_shell_test(kernels_compare kernels_compare.sh LABELS kernels)
set_property(TEST integration/kernels_compare APPEND PROPERTY ENVIRONMENT ${kernels_env})

# The real-kernel corpus for the raiser's coverage report (hashcat's kernels, built from the
# Debian package's sources; long: about 5 s per source, 1189 sources): on demand only,
# `cmake --build build --target kernel_corpus`, results in build/corpus/.
add_custom_target(kernel_corpus
  COMMAND env CLANG=${CLANG_EXE} LD_LLD=${LD_LLD_EXE} LLVM_READELF=${LLVM_READELF_EXE}
          LLVM_OBJDUMP=${LLVM_OBJDUMP_EXE} bash ${KERNELS_SRC}/corpus/corpus.sh
          --out ${PROJECT_BINARY_DIR}/corpus
  USES_TERMINAL VERBATIM)
# Its run-correctness stage (corpus/run.sh): every raised kernel through mirage emulate and
# POCL, compared byte for byte; on demand, `cmake --build build --target kernel_corpus_run`,
# results in build/corpus/run/.
if(TARGET pocl_ref)
  add_custom_target(kernel_corpus_run
    COMMAND env LLVM_READELF=${LLVM_READELF_EXE} bash ${KERNELS_SRC}/corpus/run.sh
            --corpus ${PROJECT_BINARY_DIR}/corpus --mirage $<TARGET_FILE:mirage>
            --tools ${KERNELS_OUT}/bin
    DEPENDS mirage pocl_ref kernel_compare USES_TERMINAL VERBATIM)
endif()
# The coverage report's script (README: real-kernel coverage).
mirage_shell_test(kernels_coverage kernels_coverage.sh LABELS translate)
# The run-correctness stage (README: real-kernel coverage): one hashcat source, two kernels
# through mirage emulate and POCL, and a corrupted result counted as a mismatch.
mirage_shell_test(kernels_corpus_run kernels_corpus_run.sh LABELS translate)
set_property(TEST integration/kernels_corpus_run APPEND PROPERTY ENVIRONMENT ${kernels_env}
             "CLANG=${CLANG_EXE}" "LD_LLD=${LD_LLD_EXE}" "LLVM_READELF=${LLVM_READELF_EXE}"
             "LLVM_OBJDUMP=${LLVM_OBJDUMP_EXE}")
