// Parallel gzip: the input is cut into fixed 1 MiB chunks, each compressed by
// libdeflate into a complete gzip member on a worker thread; members are written
// in order. Concatenated members are one valid gzip stream (RFC 1952 2.2). Fixed
// chunk boundaries make the output independent of the thread count.
#include <libdeflate.h>

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "images/layer/compression.h"

namespace gkebuild::layer {
namespace {

constexpr size_t kChunk = 1 << 20;

class GzipCompressor final : public Compressor {
 public:
  GzipCompressor(int level, int threads, ByteSink& out)
      : level_(level), max_in_flight_(static_cast<size_t>(threads) * 2), out_(out) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
    pending_.reserve(kChunk);
  }

  ~GzipCompressor() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  void write(std::string_view bytes) override {
    while (!bytes.empty()) {
      size_t take = std::min(bytes.size(), kChunk - pending_.size());
      pending_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (pending_.size() == kChunk) submit();
    }
  }

  void finish() override {
    if (!pending_.empty() || results_.empty()) submit();
    while (!results_.empty()) drain_one();
  }

 private:
  struct Job {
    std::string input;
    std::promise<std::string> output;
  };

  void submit() {
    if (results_.size() >= max_in_flight_) drain_one();
    Job job{std::move(pending_), {}};
    results_.push_back(job.output.get_future());
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    pending_ = std::string();
    pending_.reserve(kChunk);
  }

  void drain_one() {
    std::string member = results_.front().get();
    results_.pop_front();
    out_.write(member);
  }

  void work() {
    libdeflate_compressor* compressor = libdeflate_alloc_compressor(level_);
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) break;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      if (compressor == nullptr) {
        job.output.set_exception(std::make_exception_ptr(std::runtime_error("libdeflate: out of memory")));
        continue;
      }
      std::string member(libdeflate_gzip_compress_bound(compressor, job.input.size()), '\0');
      size_t n = libdeflate_gzip_compress(compressor, job.input.data(), job.input.size(),
                                          member.data(), member.size());
      member.resize(n);
      job.output.set_value(std::move(member));
    }
    libdeflate_free_compressor(compressor);
  }

  int level_;
  size_t max_in_flight_;
  ByteSink& out_;
  std::string pending_;
  std::deque<std::future<std::string>> results_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

std::unique_ptr<Compressor> make_gzip_compressor(int level, int threads, ByteSink& out) {
  return std::make_unique<GzipCompressor>(level, threads, out);
}

}  // namespace gkebuild::layer
