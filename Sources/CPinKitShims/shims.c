#include "CPinKitShims.h"
#include <openssl/crypto.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* OpenSSL frees its global state (locks, thread-local keys, ex_data registry) in an atexit
 * handler. A transport thread still running while the process exits (a client the app never
 * shut down, a session draining after a policy change) then frees its SSL_CTX after that
 * cleanup: the ex_data free callbacks no longer run (the connection's verifier is never
 * released) and the thread's error queue and DRBGs are never freed, because their thread-local
 * keys are gone; LeakSanitizer reported exactly these, now and then, at the end of test runs.
 * The process is ending, so its OpenSSL state can simply stay. This must be the process's
 * first OpenSSL initialisation (the option only counts then), hence a load-time constructor. */
__attribute__((constructor)) static void pinkit_openssl_keep_state_at_exit(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

long pinkit_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

void pinkit_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }

unsigned long pinkit_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

size_t pinkit_X509_copy_dns_names(X509 *certificate, char *buffer, size_t capacity) {
    GENERAL_NAMES *names = X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    if (names == NULL) {
        return 0;
    }
    size_t needed = 0;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        if (name->type != GEN_DNS) {
            continue;
        }
        const unsigned char *data = ASN1_STRING_get0_data(name->d.dNSName);
        size_t length = (size_t)ASN1_STRING_length(name->d.dNSName);
        if (memchr(data, 0, length) != NULL) {
            continue;
        }
        if (buffer != NULL && needed + length + 1 <= capacity) {
            memcpy(buffer + needed, data, length);
            buffer[needed + length] = 0;
        }
        needed += length + 1;
    }
    GENERAL_NAMES_free(names);
    return needed;
}

int pinkit_sk_X509_num(const STACK_OF(X509) *stack) { return stack == NULL ? 0 : sk_X509_num(stack); }

X509 *pinkit_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

void pinkit_SSL_CTX_set_servername_callback(SSL_CTX *context, int (*callback)(SSL *, int *, void *), void *argument) {
    SSL_CTX_set_tlsext_servername_callback(context, callback);
    SSL_CTX_set_tlsext_servername_arg(context, argument);
}

int pinkit_SSL_CTX_add1_chain_cert(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add1_chain_cert(context, certificate);
}

int pinkit_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

int pinkit_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_max_proto_version(context, version);
}

long pinkit_SSL_CTX_set_session_cache_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_session_cache_mode(context, mode);
}

struct pinkit_owned {
    void *object;
    void (*release)(void *object);
    void (*close_notify)(void *object);
};

static int pinkit_owned_index = -1;
static pthread_once_t pinkit_owned_once = PTHREAD_ONCE_INIT;

static void pinkit_owned_free(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent;
    (void)data;
    (void)index;
    (void)argl;
    (void)argp;
    struct pinkit_owned *owned = pointer;
    if (owned == NULL) {
        return;
    }
    owned->release(owned->object);
    free(owned);
}

static void pinkit_owned_make_index(void) {
    pinkit_owned_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, pinkit_owned_free);
}

static void pinkit_owned_info(const SSL *ssl, int where, int value) {
    if ((where & SSL_CB_READ_ALERT) != SSL_CB_READ_ALERT || (value & 0xff) != SSL_AD_CLOSE_NOTIFY) {
        return;
    }
    SSL_CTX *context = SSL_get_SSL_CTX(ssl);
    struct pinkit_owned *owned = context == NULL ? NULL : SSL_CTX_get_ex_data(context, pinkit_owned_index);
    if (owned != NULL) {
        owned->close_notify(owned->object);
    }
}

int pinkit_SSL_CTX_attach_owned(
    SSL_CTX *context, void *object, void (*release)(void *object), void (*close_notify)(void *object)) {
    pthread_once(&pinkit_owned_once, pinkit_owned_make_index);
    if (pinkit_owned_index < 0 || SSL_CTX_get_ex_data(context, pinkit_owned_index) != NULL) {
        return 0;
    }
    struct pinkit_owned *owned = malloc(sizeof *owned);
    if (owned == NULL) {
        return 0;
    }
    owned->object = object;
    owned->release = release;
    owned->close_notify = close_notify;
    if (SSL_CTX_set_ex_data(context, pinkit_owned_index, owned) != 1) {
        free(owned);
        return 0;
    }
    SSL_CTX_set_info_callback(context, pinkit_owned_info);
    return 1;
}

void *pinkit_SSL_CTX_get_owned(const SSL_CTX *context) {
    pthread_once(&pinkit_owned_once, pinkit_owned_make_index);
    if (pinkit_owned_index < 0) {
        return NULL;
    }
    struct pinkit_owned *owned = SSL_CTX_get_ex_data(context, pinkit_owned_index);
    return owned == NULL ? NULL : owned->object;
}

void pinkit_SSL_CTX_refuse_renegotiation(SSL_CTX *context) { SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION); }

int pinkit_SSL_request_renegotiation(SSL *ssl) {
    // A full handshake, so that the client verifies the chain again (no resumption).
    SSL_set_options(ssl, SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION);
    if (SSL_renegotiate(ssl) != 1) {
        return 0;
    }
    return SSL_do_handshake(ssl);
}

int pinkit_X509_add_extension(X509 *certificate, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer != NULL ? issuer : certificate, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) {
        return 0;
    }
    int ok = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return ok;
}

CURLcode pinkit_curl_easy_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
CURLcode pinkit_curl_easy_setopt_off_t(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
CURLcode pinkit_curl_easy_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
CURLcode pinkit_curl_easy_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
CURLcode pinkit_curl_easy_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}
CURLcode pinkit_curl_easy_setopt_data_callback(CURL *curl, CURLoption option, pinkit_curl_data_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}
CURLcode pinkit_curl_easy_setopt_ssl_ctx_callback(CURL *curl, pinkit_curl_ssl_ctx_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_SSL_CTX_FUNCTION, callback);
}
CURLcode pinkit_curl_easy_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
CURLcode pinkit_curl_easy_getinfo_string(CURL *curl, CURLINFO info, const char **value) {
    return curl_easy_getinfo(curl, info, value);
}
CURLcode pinkit_curl_easy_getinfo_pointer(CURL *curl, CURLINFO info, void **value) {
    return curl_easy_getinfo(curl, info, value);
}
void *pinkit_curl_connection_owned(CURL *curl) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(curl, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL ||
        info->backend != CURLSSLBACKEND_OPENSSL || info->internals == NULL) {
        return NULL;
    }
    SSL_CTX *context = SSL_get_SSL_CTX((SSL *)info->internals);
    return context == NULL ? NULL : pinkit_SSL_CTX_get_owned(context);
}

CURLMcode pinkit_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
CURLSHcode pinkit_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}
