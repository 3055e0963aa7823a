#ifndef PINKIT_CMICROHTTPD_SHIM_H
#define PINKIT_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
