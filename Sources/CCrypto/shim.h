// Re-exports the parts of OpenSSL's libcrypto Filterz uses (HMAC-SHA256 for signed URLs).
#ifndef FILTERZ_CCRYPTO_SHIM_H
#define FILTERZ_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
