// Inside base/http_client: the event loop that drives a client's started transfers. One
// thread and one curl multi handle, so that HTTP/2 streams to one origin share one
// connection (CURLPIPE_MULTIPLEX), however many watches and log streams are open; timers and
// posted tasks run on the same thread, for the retries of what runs on it. Not for use
// outside base/.
#pragma once

#include <curl/curl.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/http_client.h"
#include "base/http_transfer.h"

namespace gkebuild::http_detail {

class Loop {
 public:
  Loop();
  // Stops the thread; transfers still under way end without their completion.
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  uint64_t start(std::unique_ptr<Transfer> transfer, HttpCompletion done);
  void cancel(uint64_t id);
  void after(std::chrono::milliseconds delay, std::function<void()> task);
  bool on_loop_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

 private:
  using Clock = std::chrono::steady_clock;
  struct Running {
    std::unique_ptr<Transfer> transfer;
    HttpCompletion done;
  };

  void run();
  // Takes what other threads handed over (new transfers, cancels, due timers) and acts on it;
  // returns how long the loop may sleep.
  std::chrono::milliseconds take_work();
  void complete(uint64_t id, CURLcode code);
  void wake();

  CURLM* multi_ = nullptr;
  std::mutex mutex_;  // guards what other threads hand over: the next four
  std::vector<std::pair<uint64_t, Running>> added_;
  std::vector<uint64_t> cancelled_;
  std::multimap<Clock::time_point, std::function<void()>> timers_;
  bool stopping_ = false;
  uint64_t next_id_ = 1;
  std::map<uint64_t, Running> running_;  // the loop thread's own
  std::map<CURL*, uint64_t> ids_;        // the loop thread's own
  std::thread thread_;
};

}  // namespace gkebuild::http_detail
