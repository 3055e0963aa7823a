#ifndef PINKIT_CCURL_SHIM_H
#define PINKIT_CCURL_SHIM_H
#include <curl/curl.h>
#endif
