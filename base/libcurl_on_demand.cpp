// libcurl loaded when the first request is made, not when gkebuild starts.
//
// libcurl pulls in about 35 shared libraries (TLS, HTTP/2, IDN, SSH, LDAP, Kerberos…), and the
// dynamic loader's symbol lookups and relocations for them were most of the start-up time of
// every command, including the many that never touch the network (render, validate, version).
// So gkebuild is not linked with -lcurl: these definitions of the libcurl functions it calls
// dlopen libcurl.so.4 on first use and forward to it. The call sites keep libcurl's own API.
//
// The variadic setters take exactly one argument whose type libcurl itself derives from the
// option number (long, object pointer, function pointer, curl_off_t, blob pointer); the
// forwarders read it the same way and pass it on with its real type.
#include <curl/curl.h>
#include <dlfcn.h>

#include <cstdarg>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace {

void* libcurl() {
  static void* const handle = [] {
    void* opened = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (opened == nullptr)
      throw std::runtime_error(std::string("cannot load libcurl (install Debian's libcurl4): ") + ::dlerror());
    return opened;
  }();
  return handle;
}

template <typename Function>
Function* symbol(const char* name) {
  void* address = ::dlsym(libcurl(), name);
  if (address == nullptr) throw std::runtime_error(std::string("libcurl.so.4 lacks ") + name);
  return reinterpret_cast<Function*>(address);
}

// The real function `name` of type `Function`, looked up once.
#define REAL(name) \
  ([]() -> decltype(&::name) { static auto* const f = symbol<std::remove_pointer_t<decltype(&::name)>>(#name); return f; }())

using AnyFunction = void (*)();

// Forwards the one argument of a setopt-style call with the type libcurl expects for `option`.
template <typename Real, typename Handle, typename Option>
auto forward_typed(Real real, Handle* handle, Option option, va_list args) {
  const long number = option;
  if (number < CURLOPTTYPE_OBJECTPOINT) return real(handle, option, va_arg(args, long));
  if (number < CURLOPTTYPE_FUNCTIONPOINT) return real(handle, option, va_arg(args, void*));
  if (number < CURLOPTTYPE_OFF_T) return real(handle, option, va_arg(args, AnyFunction));
  if (number < CURLOPTTYPE_BLOB) return real(handle, option, va_arg(args, curl_off_t));
  return real(handle, option, va_arg(args, void*));
}

}  // namespace

extern "C" {

CURLcode curl_global_init(long flags) { return REAL(curl_global_init)(flags); }

CURL* curl_easy_init() { return REAL(curl_easy_init)(); }
void curl_easy_cleanup(CURL* handle) { REAL(curl_easy_cleanup)(handle); }
void curl_easy_reset(CURL* handle) { REAL(curl_easy_reset)(handle); }
CURLcode curl_easy_perform(CURL* handle) { return REAL(curl_easy_perform)(handle); }
const char* curl_easy_strerror(CURLcode code) { return REAL(curl_easy_strerror)(code); }
char* curl_easy_escape(CURL* handle, const char* text, int length) {
  return REAL(curl_easy_escape)(handle, text, length);
}
CURLcode curl_easy_pause(CURL* handle, int bitmask) { return REAL(curl_easy_pause)(handle, bitmask); }
void curl_free(void* pointer) { REAL(curl_free)(pointer); }

CURLcode curl_easy_setopt(CURL* handle, CURLoption option, ...) {
  va_list args;
  va_start(args, option);
  const CURLcode code = forward_typed(REAL(curl_easy_setopt), handle, option, args);
  va_end(args);
  return code;
}

// Every CURLINFO_* takes a pointer to where the answer goes.
CURLcode curl_easy_getinfo(CURL* handle, CURLINFO info, ...) {
  va_list args;
  va_start(args, info);
  const CURLcode code = REAL(curl_easy_getinfo)(handle, info, va_arg(args, void*));
  va_end(args);
  return code;
}

curl_slist* curl_slist_append(curl_slist* list, const char* text) { return REAL(curl_slist_append)(list, text); }
void curl_slist_free_all(curl_slist* list) { REAL(curl_slist_free_all)(list); }

CURLU* curl_url() { return REAL(curl_url)(); }
void curl_url_cleanup(CURLU* url) { REAL(curl_url_cleanup)(url); }
CURLUcode curl_url_get(CURLU* url, CURLUPart part, char** text, unsigned int flags) {
  return REAL(curl_url_get)(url, part, text, flags);
}
CURLUcode curl_url_set(CURLU* url, CURLUPart part, const char* text, unsigned int flags) {
  return REAL(curl_url_set)(url, part, text, flags);
}

CURLSH* curl_share_init() { return REAL(curl_share_init)(); }
CURLSHcode curl_share_cleanup(CURLSH* share) { return REAL(curl_share_cleanup)(share); }

CURLSHcode curl_share_setopt(CURLSH* share, CURLSHoption option, ...) {
  va_list args;
  va_start(args, option);
  CURLSHcode code;
  auto* real = REAL(curl_share_setopt);
  if (option == CURLSHOPT_SHARE || option == CURLSHOPT_UNSHARE)
    code = real(share, option, va_arg(args, int));  // a curl_lock_data, promoted to int
  else if (option == CURLSHOPT_LOCKFUNC || option == CURLSHOPT_UNLOCKFUNC)
    code = real(share, option, va_arg(args, AnyFunction));
  else
    code = real(share, option, va_arg(args, void*));
  va_end(args);
  return code;
}

CURLM* curl_multi_init() { return REAL(curl_multi_init)(); }
CURLMcode curl_multi_cleanup(CURLM* multi) { return REAL(curl_multi_cleanup)(multi); }
CURLMcode curl_multi_add_handle(CURLM* multi, CURL* handle) { return REAL(curl_multi_add_handle)(multi, handle); }
CURLMcode curl_multi_remove_handle(CURLM* multi, CURL* handle) {
  return REAL(curl_multi_remove_handle)(multi, handle);
}
CURLMcode curl_multi_perform(CURLM* multi, int* running) { return REAL(curl_multi_perform)(multi, running); }
CURLMcode curl_multi_poll(CURLM* multi, curl_waitfd* extra, unsigned count, int timeout_ms, int* ready) {
  return REAL(curl_multi_poll)(multi, extra, count, timeout_ms, ready);
}
CURLMcode curl_multi_wakeup(CURLM* multi) { return REAL(curl_multi_wakeup)(multi); }
CURLMsg* curl_multi_info_read(CURLM* multi, int* left) { return REAL(curl_multi_info_read)(multi, left); }
const char* curl_multi_strerror(CURLMcode code) { return REAL(curl_multi_strerror)(code); }

CURLMcode curl_multi_setopt(CURLM* multi, CURLMoption option, ...) {
  va_list args;
  va_start(args, option);
  const CURLMcode code = forward_typed(REAL(curl_multi_setopt), multi, option, args);
  va_end(args);
  return code;
}

}  // extern "C"
