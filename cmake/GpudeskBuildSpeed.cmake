# SPDX-License-Identifier: GPL-3.0-or-later
# What keeps a build of gpudesk short on a two-core machine (docs/benchmarks.md has the figures):
# ccache when present (CI builds on the machine the code was just built on, so its cache is warm),
# the gold linker (a hundred executables link against the same static libraries),
# and precompiled headers per library (Qt and nlohmann/json are parsed once a library, not once
# a file). Each is skipped, never required: a stock machine without them builds the same code.

find_program(GPUDESK_CCACHE ccache)
if(GPUDESK_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    # Precompiled headers hash as their defines and mtimes; these sloppinesses let ccache cache
    # the files that include them (the ccache manual, "Precompiled headers"). base_dir and
    # nohashdir make two checkouts of the same code share entries: CI builds a fresh clone in
    # another folder (its objects' debug info then names the folder that first built them).
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
        "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
        "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1 ${GPUDESK_CCACHE})
endif()

# Qt's test library stamps every test with the absolute folders of its source and build
# (QT_TESTCASE_SOURCEDIR, QT_TESTCASE_BUILDDIR), for QFINDTESTDATA alone; no test here uses it.
# Left in, they make each test's compile differ between two checkouts, and a fresh clone could
# take none of the 80 test files from the cache.
if(TARGET Qt6::Test)
    get_target_property(_gpudesk_test_defs Qt6::Test INTERFACE_COMPILE_DEFINITIONS)
    if(_gpudesk_test_defs)
        list(FILTER _gpudesk_test_defs EXCLUDE REGEX "^QT_TESTCASE_(SOURCE|BUILD)DIR")
        set_target_properties(Qt6::Test PROPERTIES
            INTERFACE_COMPILE_DEFINITIONS "${_gpudesk_test_defs}")
    endif()
endif()

# Linked with gold (binutils' own, on every Debian machine; a hundred executables link against the
# same static libraries, several times faster than ld.bfd). Not mold: Debian 12's mold 1.10.1
# writes a PT_GNU_RELRO that starts a few bytes before its RW segment with file offset 0, and
# where that segment starts on a page boundary the loader's mprotect reaches an unmapped page and
# fails ("cannot apply additional memory protection after relocation: Cannot allocate memory"):
# tst_prometheus in the normal build, tst_harborimages under ASan, depending on the layout.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=gold GPUDESK_HAVE_GOLD)
    if(GPUDESK_HAVE_GOLD)
        add_link_options(-fuse-ld=gold)
    endif()
endif()

option(GPUDESK_PCH "Precompile the headers each library includes most" ON)

# gpudesk_precompile(target header...): the target parses these headers once. Headers in <>.
function(gpudesk_precompile target)
    if(GPUDESK_PCH)
        list(TRANSFORM ARGN PREPEND "<")
        list(TRANSFORM ARGN APPEND ">")
        target_precompile_headers(${target} PRIVATE ${ARGN})
    endif()
endfunction()

# gpudesk_test_code_flags(target): a test's own code is compiled for a short compile, not for
# speed. Half of a build from nothing was the 80 test files at -O2 -g, each 11–12 s, nearly all of
# it code generation for QtTest's macros (parsing is 4 s); at -Og -g1 each takes 6 s. The code under
# test is the libraries, built as every other build builds them; -g1 keeps the line tables a
# failing test's backtrace needs (gdb's locals are what is lost: rebuild with -g to step through).
function(gpudesk_test_code_flags target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        # After the build type's flags on the command line, so these win.
        target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-Og> -g1)
    endif()
endfunction()

# The optimised builds (the dev preset's RelWithDebInfo, make demo's and make test's) keep line
# tables only (-g1): a crash's backtrace, perf and the sanitizers' reports still name files, lines
# and inlined frames, and each library file compiles a third faster (operationplanner.cpp 11.7 s
# at -O2 -g, 7.8 s at -O2 -g1). gdb's locals are what is lost, and at -O2 most are optimised out
# anyway: the asan preset (Debug, -g) is the one to step through, or configure with
# -DGPUDESK_FULL_DEBUG_INFO=ON.
option(GPUDESK_FULL_DEBUG_INFO "Full debug info (-g) in optimised builds" OFF)
if(NOT GPUDESK_FULL_DEBUG_INFO AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    # After the build type's -g on the command line, so this one wins.
    add_compile_options($<$<CONFIG:RelWithDebInfo>:-g1>)
endif()
