#ifndef PINKIT_CPOSTGRES_SHIM_H
#define PINKIT_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
