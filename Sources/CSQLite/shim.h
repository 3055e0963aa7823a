#ifndef PINKIT_CSQLITE_SHIM_H
#define PINKIT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
