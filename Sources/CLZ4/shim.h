// liblz4 for Swift: the block API (LZ4_compress_default, LZ4_decompress_safe,
// LZ4_decompress_safe_partial) that Mozilla's mozLz4 container wraps.
#ifndef SESSIONCTL_CLZ4_SHIM_H
#define SESSIONCTL_CLZ4_SHIM_H
#include <lz4.h>
#endif
