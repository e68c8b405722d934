// SPDX-License-Identifier: GPL-3.0-or-later
#include "allocatorpolicy.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gpudesk {

void configureAllocator()
{
#if defined(__GLIBC__)
    mallopt(M_MXFAST, 0); // no fast bins: see the header
#endif
}

} // namespace gpudesk
