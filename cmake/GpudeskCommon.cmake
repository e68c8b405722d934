# SPDX-License-Identifier: GPL-3.0-or-later
# One INTERFACE target carries the flags every gpudesk target shares.
add_library(gpudesk_common INTERFACE)
target_compile_features(gpudesk_common INTERFACE cxx_std_20)
target_compile_definitions(gpudesk_common INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_USE_QSTRINGBUILDER
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_FOREACH)
target_compile_options(gpudesk_common INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
if(GPUDESK_WERROR)
    target_compile_options(gpudesk_common INTERFACE -Werror)
endif()
if(GPUDESK_SANITIZE)
    target_compile_options(gpudesk_common INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(gpudesk_common INTERFACE -fsanitize=address,undefined)
endif()
if(GPUDESK_FUZZ)
    # libFuzzer is guided by the coverage of what is instrumented: the libraries the fuzz
    # targets call must be, not only the targets (which alone gave it ~135 points to see).
    target_compile_options(gpudesk_common INTERFACE -fsanitize=fuzzer-no-link)
endif()
