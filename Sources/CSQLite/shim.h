// The system's SQLite for Swift: Safari for iOS keeps its tabs in an SQLite database
// (BrowserState.db), which is read through SQLite itself rather than a reimplementation.
#ifndef SESSIONCTL_CSQLITE_SHIM_H
#define SESSIONCTL_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
