#include "CPinKitShims.h"
#include <openssl/crypto.h>

long pinkit_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

void pinkit_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }

unsigned long pinkit_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

#include <openssl/x509v3.h>
#include <string.h>

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
