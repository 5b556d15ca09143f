// System SQLite, found through pkg-config `sqlite3` (Debian: libsqlite3-dev).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a destructor pointer, which Swift cannot import.
// It tells SQLite to copy a bound value before the bind call returns.
static inline sqlite3_destructor_type strata_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call: these wrap the one option Strata uses.
// SQLITE_DBCONFIG_RESET_DATABASE on, then VACUUM, empties a database safely while other
// connections may have it open; then off again.
static inline int strata_sqlite_set_reset_database(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_RESET_DATABASE, on, 0);
}
