// The system's SQLite for Swift: Safari for iOS keeps its tabs in an SQLite database
// (BrowserState.db), which is read through SQLite itself rather than a reimplementation.
#ifndef SESSIONCTL_CSQLITE_SHIM_H
#define SESSIONCTL_CSQLITE_SHIM_H
#include <sqlite3.h>

/// Whether `db` leaves its WAL as it is when it closes (sqlite3_db_config is variadic, which
/// Swift cannot call): a read of a private copy has nothing to checkpoint into it.
static inline int sessionctl_sqlite3_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
#endif
