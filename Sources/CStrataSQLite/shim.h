// System SQLite, found through pkg-config `sqlite3` (Debian: libsqlite3-dev).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a destructor pointer, which Swift cannot import.
// It tells SQLite to copy a bound value before the bind call returns.
static inline sqlite3_destructor_type strata_sqlite_transient(void) { return SQLITE_TRANSIENT; }
