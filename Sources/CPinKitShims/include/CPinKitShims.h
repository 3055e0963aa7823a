#ifndef PINKIT_SHIMS_H
#define PINKIT_SHIMS_H
// Function-like macros and composite flags that Swift cannot import, as real functions.
#include <openssl/bio.h>
#include <openssl/x509.h>

/// BIO_get_mem_data: the bytes written so far to a memory BIO, and their count.
long pinkit_BIO_get_mem_data(BIO *_Nonnull bio, char *_Nullable *_Nonnull data);

/// OPENSSL_free for buffers that OpenSSL allocated (i2d_* with a NULL output pointer).
void pinkit_OPENSSL_free(void *_Nullable pointer);

/// The flags `openssl x509 -nameopt RFC2253` prints names with.
unsigned long pinkit_XN_FLAG_RFC2253(void);



/// Copies the DNS names of the certificate's subjectAltName into `buffer`, each followed by a
/// NUL byte. Returns the number of bytes needed (call with capacity 0 to size the buffer).
/// Names that contain a NUL byte are skipped: they are never valid host names.
size_t pinkit_X509_copy_dns_names(X509 *_Nonnull certificate, char *_Nullable buffer, size_t capacity);
#endif
