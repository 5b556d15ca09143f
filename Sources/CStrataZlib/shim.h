// System zlib, found through pkg-config `zlib` (Debian: zlib1g-dev).
#include <zlib.h>

// inflateInit2 is a macro that passes the library's version and the stream's size, which Swift
// cannot import: this calls it for raw DEFLATE data (negative window bits: no zlib header).
static inline int strata_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}
