// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpudesk {

// Tunes the C library's allocator for a UI thread that frees what decoding threads allocated.
// Call once at the start of main(), before any thread starts.
//
// Why: glibc keeps small freed blocks in per-arena "fast bins" and coalesces them all at once
// when a block of 64 KiB or more is freed into that arena. Decoding a 100,000-pod list leaves
// hundreds of thousands of small blocks in the decoding threads' arenas, and the UI thread
// freeing one page of decoded pods (a 100 KiB array) into such an arena paid for coalescing
// all of them: 50–115 ms stalls at first sync (perf: malloc_consolidate, 35 % of the UI thread).
// Without fast bins each free coalesces its own block; small allocations stay fast (tcache).
void configureAllocator();

} // namespace gpudesk
