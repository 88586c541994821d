// Re-exports the parts of OpenSSL's libcrypto Filterz uses (HMAC-SHA256 for signed URLs, AES-128-CBC for
// segments), and getrandom(2) (Glibc's Swift module lacks it), the kernel CSPRNG that content keys come from.
#ifndef FILTERZ_CCRYPTO_SHIM_H
#define FILTERZ_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <sys/random.h>
#endif
