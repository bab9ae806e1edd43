// Inside base/http_client: one libcurl transfer as http_client.h describes it (the easy
// handle set up from an HttpRequest; the body limit, sink, stall watch and cancel flag as
// callbacks; what the transfer came to), whichever driver moves it: HttpClient::send() on the
// caller's thread, or the client's event loop (http_loop.h). Not for use outside base/.
#pragma once

#include <curl/curl.h>

#include <array>
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "base/http_client.h"

namespace gkebuild::http_detail {

// Connections, TLS sessions and DNS answers shared by a client's transfers (a libcurl share
// handle, locked by data kind). reset_connections() replaces it; transfers keep theirs alive.
class ConnectionPool {
 public:
  ConnectionPool();
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;
  CURLSH* handle() const { return handle_; }

 private:
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user);
  static void unlock(CURL*, curl_lock_data data, void* user);
  std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes_;
  CURLSH* handle_ = nullptr;
};

class StallWatch;

// Owns its copy of the request and everything libcurl points into; it must not move
// (callbacks find it by address), hence only ever held by unique_ptr.
class Transfer {
 public:
  Transfer(HttpRequest request, const HttpClientOptions& options, std::shared_ptr<ConnectionPool> pool);
  ~Transfer();
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  CURL* handle() const { return curl_; }
  // Marks the transfer stopped by its owner (HttpClient::cancel): it ends as End::Stopped.
  void stop() { stopped_ = true; }
  // What the transfer came to once libcurl returned `code`: the response, or throws what
  // send() throws (HttpError, or what a callback threw).
  HttpResponse finish(CURLcode code);

  // libcurl's callbacks; `user` is the Transfer.
  static size_t on_header(char* data, size_t size, size_t count, void* user);
  static size_t on_body(char* data, size_t size, size_t count, void* user);
  static size_t on_read(char* buffer, size_t size, size_t count, void* user);
  static int on_progress(void* user, curl_off_t, curl_off_t downloaded, curl_off_t, curl_off_t uploaded);

 private:
  void configure(const HttpClientOptions& options);
  bool success() const;

  HttpRequest request_;
  HttpResponse response_;
  std::shared_ptr<ConnectionPool> pool_;
  CURL* curl_ = nullptr;
  curl_slist* headers_ = nullptr;
  curl_slist* connect_to_ = nullptr;  // tls-server-name's route (see route_by_server_name)
  std::string url_;                   // what libcurl is asked for (the server name's URL)
  std::string proxy_;                 // the client's proxy URL, kept out of messages
  std::unique_ptr<StallWatch> stall_;
  std::array<char, CURL_ERROR_SIZE> error_text_{};
  bool answer_started_ = false;  // a status line arrived
  uint64_t body_bytes_ = 0;      // of the current answer (a redirect or 100 starts another)
  uint64_t limit_passed_ = 0;    // the body limit the answer went past, 0 when none
  bool stopped_ = false;         // by the sink, the cancel flag or stop()
  bool stalled_ = false;         // by the stall watch
  // What a caller's callback threw: kept until libcurl has returned, because an exception
  // must not unwind through C frames.
  std::exception_ptr thrown_;
};

}  // namespace gkebuild::http_detail
