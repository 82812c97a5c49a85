// SHA-256 block compression with the x86 SHA extensions, for Archive's SHA256.
#ifndef SESSIONCTL_CSHA256_H
#define SESSIONCTL_CSHA256_H
#include <stddef.h>
#include <stdint.h>

/// The 64 round constants of SHA-256 (FIPS 180-4, 4.2.2), for the portable code too.
const uint32_t *csha256_round_constants(void);

/// 1 when this processor has the SHA extensions (and SSSE3 and SSE4.1, which the code also uses).
int csha256_accelerated(void);

/// Runs the SHA-256 compression function over `blocks` 64-byte blocks of `data`, updating `state`
/// (the eight words H0..H7). Call only when csha256_accelerated() returns 1.
void csha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);
#endif
