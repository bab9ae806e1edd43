#include "validate/http_fetch.h"

#include <curl/curl.h>

#include <memory>
#include <stdexcept>

namespace gkebuild::validate {
namespace {
size_t append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}
}  // namespace

std::optional<std::string> http_get(const std::string& url) {
  static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!initialised) throw std::runtime_error("cannot initialise libcurl");
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) throw std::runtime_error("cannot initialise libcurl");
  std::string body;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 60L);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
  CURLcode rc = curl_easy_perform(curl.get());
  if (rc != CURLE_OK) throw std::runtime_error("cannot fetch " + url + ": " + curl_easy_strerror(rc));
  long status = 0;
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status == 404) return std::nullopt;
  if (status < 200 || status >= 300)
    throw std::runtime_error("cannot fetch " + url + ": HTTP " + std::to_string(status));
  return body;
}

}  // namespace gkebuild::validate
