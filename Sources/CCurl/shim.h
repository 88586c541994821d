// libcurl's easy interface for one blocking HTTP transfer. curl_easy_setopt is variadic,
// which Swift cannot call: these wrappers give each kind of argument a typed entry point.
#ifndef FILTERZ_CCURL_SHIM_H
#define FILTERZ_CCURL_SHIM_H
#include <curl/curl.h>

/// A write or header callback: `count` bytes at `data`; returning anything but `count` stops the transfer.
typedef size_t (*filterz_curl_receive)(char *data, size_t size, size_t count, void *context);

static inline CURLcode filterz_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode filterz_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode filterz_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode filterz_curl_set_receiver(CURL *handle, CURLoption option, filterz_curl_receive receiver) {
    return curl_easy_setopt(handle, option, receiver);
}
#endif
