// System SQLite, found through pkg-config `sqlite3` (Debian: libsqlite3-dev).
#include <sqlite3.h>

// SQLITE_TRANSIENT casts -1 to a destructor pointer, which Swift cannot import: binding with
// it makes SQLite copy the value before the call returns.
static inline sqlite3_destructor_type bench_sqlite_transient(void) { return SQLITE_TRANSIENT; }
