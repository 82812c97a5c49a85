// zlib for Swift: the header, plus the init macros (which Swift cannot import) as inline functions.
#ifndef SESSIONCTL_CZLIB_SHIM_H
#define SESSIONCTL_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 for a raw deflate stream (no zlib or gzip wrapper; the caller writes the gzip
/// framing) with a strategy (Z_DEFAULT_STRATEGY, Z_FILTERED, ...).
static inline int czlib_deflate_init_raw(z_streamp stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, strategy);
}

/// inflateInit2 for a raw deflate stream (the caller parses the gzip framing).
static inline int czlib_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
