// libcurl's easy interface for one blocking HTTP transfer. curl_easy_setopt is variadic,
// which Swift cannot call: these wrappers give each kind of argument a typed entry point.
#ifndef FILTERZ_CCURL_SHIM_H
#define FILTERZ_CCURL_SHIM_H
#include <curl/curl.h>

/// A write or header callback: `count` bytes at `data`; returning anything but `count` stops the transfer.
typedef size_t (*filterz_curl_receive)(char *data, size_t size, size_t count, void *context);

/// A transfer-progress callback (CURLOPT_XFERINFOFUNCTION): bytes so far and expected, down and up; returning
/// anything but 0 stops the transfer.
typedef int (*filterz_curl_progress)(void *context, curl_off_t download_total, curl_off_t download_now,
                                     curl_off_t upload_total, curl_off_t upload_now);

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
static inline CURLcode filterz_curl_set_progress(CURL *handle, filterz_curl_progress progress) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
}

static inline CURLcode filterz_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
#endif
