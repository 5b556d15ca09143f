// System libpq, found through pkg-config `libpq` (Debian: libpq-dev).
#include <libpq-fe.h>
