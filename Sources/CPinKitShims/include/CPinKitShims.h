#ifndef PINKIT_SHIMS_H
#define PINKIT_SHIMS_H
// Function-like macros, composite flags and variadic functions that Swift cannot import,
// as real, typed functions.
#include <curl/curl.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stddef.h>

// MARK: OpenSSL

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

int pinkit_sk_X509_num(const STACK_OF(X509) *_Nullable stack);
X509 *_Nullable pinkit_sk_X509_value(const STACK_OF(X509) *_Nonnull stack, int index);

/// SSL_CTX_set_tlsext_servername_callback + _arg: `callback` runs during the ClientHello.
void pinkit_SSL_CTX_set_servername_callback(
    SSL_CTX *_Nonnull context,
    int (*_Nullable callback)(SSL *_Nonnull ssl, int *_Nonnull alert, void *_Nullable argument),
    void *_Nullable argument);

/// SSL_CTX_add1_chain_cert: appends `certificate` to the chain the server sends (takes a reference).
int pinkit_SSL_CTX_add1_chain_cert(SSL_CTX *_Nonnull context, X509 *_Nonnull certificate);

int pinkit_SSL_CTX_set_min_proto_version(SSL_CTX *_Nonnull context, int version);
int pinkit_SSL_CTX_set_max_proto_version(SSL_CTX *_Nonnull context, int version);
long pinkit_SSL_CTX_set_session_cache_mode(SSL_CTX *_Nonnull context, long mode);

/// Hangs `object` on `context` for the context's lifetime: when OpenSSL frees the context (libcurl
/// frees a connection's SSL_CTX with the connection), `release(object)` runs exactly once.
/// `close_notify(object)` runs when a connection of the context receives a TLS close_notify
/// alert (an info callback on the context). Returns 1 on success; on failure nothing is
/// attached and the caller still owns `object`.
int pinkit_SSL_CTX_attach_owned(
    SSL_CTX *_Nonnull context, void *_Nonnull object, void (*_Nonnull release)(void *_Nonnull object),
    void (*_Nonnull close_notify)(void *_Nonnull object));

/// The object attached with pinkit_SSL_CTX_attach_owned, or NULL.
void *_Nullable pinkit_SSL_CTX_get_owned(const SSL_CTX *_Nonnull context);

/// SSL_OP_NO_RENEGOTIATION: a client answers a TLS 1.2 HelloRequest with a no_renegotiation
/// warning instead of running a second handshake on the same connection.
void pinkit_SSL_CTX_refuse_renegotiation(SSL_CTX *_Nonnull context);

/// SSL_renegotiate + SSL_do_handshake on a server connection: sends a TLS 1.2 HelloRequest for
/// a full handshake (no session resumption, so the client verifies the chain again).
/// Returns SSL_do_handshake's result (for the lab's hostile server only).
int pinkit_SSL_request_renegotiation(SSL *_Nonnull ssl);

/// Adds an X509v3 extension given in openssl's config syntax (e.g. "critical,CA:TRUE").
int pinkit_X509_add_extension(X509 *_Nonnull certificate, X509 *_Nullable issuer, int nid, const char *_Nonnull value);

// MARK: libcurl (curl_easy_setopt and curl_easy_getinfo are variadic)

typedef size_t (*pinkit_curl_data_callback)(char *_Nonnull data, size_t size, size_t count, void *_Nullable user);
typedef CURLcode (*pinkit_curl_ssl_ctx_callback)(CURL *_Nonnull curl, void *_Nonnull ssl_ctx, void *_Nullable user);

CURLcode pinkit_curl_easy_setopt_long(CURL *_Nonnull curl, CURLoption option, long value);
CURLcode pinkit_curl_easy_setopt_off_t(CURL *_Nonnull curl, CURLoption option, curl_off_t value);
CURLcode pinkit_curl_easy_setopt_string(CURL *_Nonnull curl, CURLoption option, const char *_Nullable value);
CURLcode pinkit_curl_easy_setopt_pointer(CURL *_Nonnull curl, CURLoption option, void *_Nullable value);
CURLcode pinkit_curl_easy_setopt_slist(CURL *_Nonnull curl, CURLoption option, struct curl_slist *_Nullable value);
CURLcode pinkit_curl_easy_setopt_data_callback(CURL *_Nonnull curl, CURLoption option, pinkit_curl_data_callback _Nullable callback);
CURLcode pinkit_curl_easy_setopt_ssl_ctx_callback(CURL *_Nonnull curl, pinkit_curl_ssl_ctx_callback _Nullable callback);

CURLcode pinkit_curl_easy_getinfo_long(CURL *_Nonnull curl, CURLINFO info, long *_Nonnull value);
CURLcode pinkit_curl_easy_getinfo_string(CURL *_Nonnull curl, CURLINFO info, const char *_Nullable *_Nonnull value);
CURLcode pinkit_curl_easy_getinfo_pointer(CURL *_Nonnull curl, CURLINFO info, void *_Nullable *_Nonnull value);

/// The object attached (pinkit_SSL_CTX_attach_owned) to the SSL_CTX of the OpenSSL connection
/// `curl` is using now, or NULL (no TLS connection yet, another TLS backend).
void *_Nullable pinkit_curl_connection_owned(CURL *_Nonnull curl);

CURLMcode pinkit_curl_multi_setopt_long(CURLM *_Nonnull multi, CURLMoption option, long value);
CURLSHcode pinkit_curl_share_setopt_long(CURLSH *_Nonnull share, CURLSHoption option, long value);

#endif
