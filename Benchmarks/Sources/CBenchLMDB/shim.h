// System LMDB, found through pkg-config `lmdb` (Debian: liblmdb-dev).
#include <lmdb.h>
