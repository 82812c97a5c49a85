#ifndef CFILEMAPPING_H
#define CFILEMAPPING_H

#include <stddef.h>

/// Maps the first `length` bytes of the file open on `fd` read-only and private, and registers
/// the mapping with the truncation guard: if the file shrinks while it is mapped, a read of a
/// page past its new end reads zeros (the page is replaced by a zero page) instead of ending the
/// process with SIGBUS, and `cfilemapping_was_cut` says so afterwards. Returns NULL, with errno,
/// when the file cannot be mapped or the guard has no free slot (the caller reads the file then).
const void *cfilemapping_map(int fd, size_t length);

/// Whether a read of the mapping at `address` met a page past the file's end since it was mapped.
int cfilemapping_was_cut(const void *address);

/// Unregisters and unmaps a mapping made by `cfilemapping_map`.
void cfilemapping_unmap(const void *address, size_t length);

/// Asks for the cache line at `address` to be loaded ahead of its use; never faults.
static inline void cfilemapping_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

#endif
