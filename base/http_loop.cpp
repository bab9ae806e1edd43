#include "base/http_loop.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

namespace gkebuild::http_detail {
namespace {

// libcurl calls progress callbacks (stall watch, cancel flags) only while it runs, so the
// loop runs at least this often even when no socket has anything to say.
constexpr std::chrono::milliseconds kLongestSleep{1000};

}  // namespace

Loop::Loop() {
  multi_ = curl_multi_init();
  if (!multi_) throw std::runtime_error("libcurl could not start an event loop");
  curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  thread_ = std::thread([this] { run(); });
}

Loop::~Loop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake();
  thread_.join();
  for (auto& [id, running] : running_) curl_multi_remove_handle(multi_, running.transfer->handle());
  running_.clear();
  added_.clear();
  curl_multi_cleanup(multi_);
}

uint64_t Loop::start(std::unique_ptr<Transfer> transfer, HttpCompletion done) {
  uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    added_.emplace_back(id, Running{std::move(transfer), std::move(done)});
  }
  wake();
  return id;
}

void Loop::cancel(uint64_t id) {
  {
    std::lock_guard lock(mutex_);
    cancelled_.push_back(id);
  }
  wake();
}

void Loop::after(std::chrono::milliseconds delay, std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    timers_.emplace(Clock::now() + delay, std::move(task));
  }
  wake();
}

void Loop::wake() { curl_multi_wakeup(multi_); }

std::chrono::milliseconds Loop::take_work() {
  std::vector<std::pair<uint64_t, Running>> added;
  std::vector<uint64_t> cancelled;
  std::vector<std::function<void()>> due;
  {
    std::lock_guard lock(mutex_);
    added.swap(added_);
    cancelled.swap(cancelled_);
    const auto now = Clock::now();
    while (!timers_.empty() && timers_.begin()->first <= now) {
      due.push_back(std::move(timers_.begin()->second));
      timers_.erase(timers_.begin());
    }
  }
  for (auto& [id, running] : added) {
    CURL* handle = running.transfer->handle();
    ids_[handle] = id;
    running_.emplace(id, std::move(running));
    curl_multi_add_handle(multi_, handle);
  }
  for (uint64_t id : cancelled) {
    auto found = running_.find(id);
    if (found == running_.end()) continue;  // finished already
    found->second.transfer->stop();
    complete(id, CURLE_OK);
  }
  for (auto& task : due) task();
  std::lock_guard lock(mutex_);
  if (timers_.empty()) return kLongestSleep;
  const auto until = std::chrono::ceil<std::chrono::milliseconds>(timers_.begin()->first - Clock::now());
  return std::clamp(until, std::chrono::milliseconds(0), kLongestSleep);
}

// The completion runs after libcurl has let go of the transfer, so that it may start another.
void Loop::complete(uint64_t id, CURLcode code) {
  auto found = running_.find(id);
  Running running = std::move(found->second);
  running_.erase(found);
  CURL* handle = running.transfer->handle();
  ids_.erase(handle);
  curl_multi_remove_handle(multi_, handle);
  HttpOutcome outcome;
  try {
    outcome.response = running.transfer->finish(code);
  } catch (...) {
    outcome.error = std::current_exception();
  }
  running.transfer.reset();
  // A completion that throws has nowhere to report to: that is a bug, and ends the program.
  [&]() noexcept { running.done(std::move(outcome)); }();
}

void Loop::run() {
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    const auto sleep = take_work();
    int still_running = 0;
    curl_multi_perform(multi_, &still_running);
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi_, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      auto id = ids_.find(message->easy_handle);
      if (id != ids_.end()) complete(id->second, message->data.result);
    }
    curl_multi_poll(multi_, nullptr, 0, static_cast<int>(sleep.count()), nullptr);
  }
}

}  // namespace gkebuild::http_detail
