#include "tool/core/kube/logs.h"

#include <chrono>
#include <memory>
#include <stdexcept>

#include "base/error.h"
#include "base/rfc3339.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/kube/wait_for.h"
#include "tool/core/kube/resources.h"

namespace gkebuild::kube {
namespace {

// Remembers the newest timestamp delivered and how many lines carried it, so
// that a resumed stream (which starts at that second) repeats nothing.
class LineDeduplicator {
 public:
  // Called before each (re)connection: lines at the newest timestamp are skipped
  // as many times as they were delivered.
  void reconnect() { skip_at_last_ = delivered_at_last_; }

  bool is_new(const std::string& stamp) {
    if (stamp < last_) return false;
    if (stamp == last_ && skip_at_last_ > 0) {
      --skip_at_last_;
      return false;
    }
    if (stamp != last_) {
      last_ = stamp;
      delivered_at_last_ = 0;
      skip_at_last_ = 0;
    }
    ++delivered_at_last_;
    return true;
  }

  // The sinceTime for a resume: the newest timestamp's whole second.
  std::string since() const {
    return last_.empty() ? std::string() : format_rfc3339_seconds(*parse_rfc3339(last_));
  }

 private:
  std::string last_;
  int delivered_at_last_ = 0;
  int skip_at_last_ = 0;
};

// Each request's completion decides the next: done, or a resume after a pause.
class LogSession : public std::enable_shared_from_this<LogSession> {
 public:
  LogSession(Client& client, std::string ns, std::string pod, const LogOptions& options,
             std::function<bool(std::string_view)> on_line, LogCompletion done)
      : client_(client), ns_(std::move(ns)), pod_(std::move(pod)), options_(options), on_line_(std::move(on_line)),
        done_(std::move(done)) {}

  void request() {
    dedup_.reconnect();
    progressed_ = false;
    pending_.clear();
    ++stats_.requests;
    std::string target = object_path(resource_type("v1", "Pod"), ns_, pod_) + "/log?timestamps=true";
    if (options_.follow) target += "&follow=true";
    if (!options_.container.empty()) target += "&container=" + percent_encode(options_.container);
    if (const std::string since = dedup_.since(); !since.empty()) target += "&sinceTime=" + percent_encode(since);
    HttpRequest http;
    http.url = target;
    http.timeout_seconds = 0;
    http.cancel = options_.cancel;
    auto self = shared_from_this();
    client_.start(http, [self](std::string_view chunk) { return self->take(chunk); },
                  [self](HttpResult result, std::exception_ptr error) {
                    try {
                      if (error) std::rethrow_exception(error);
                      if (self->answered(result)) return self->done_(self->stats_, nullptr);
                    } catch (...) {
                      return self->done_(self->stats_, std::current_exception());
                    }
                    self->client_.after(std::chrono::milliseconds(50 * self->failures_), [self] { self->request(); });
                  });
  }

 private:
  // Whether the log is done; false: resume it after a pause.
  bool answered(const HttpResult& result) {
    if (result.end == HttpResult::End::Stopped) return true;  // perhaps before any answer
    if (!result.dropped_unanswered() && (result.status < 200 || result.status >= 300))
      throw ApiError("logs of pod " + ns_ + "/" + pod_, result.status, result.body);
    if (result.end == HttpResult::End::Complete) {
      if (!pending_.empty()) line(pending_);  // a last line without a newline
      return true;
    }
    ++stats_.drops;
    if (progressed_) failures_ = 0;
    if (++failures_ > options_.max_failures)
      throw Error(ErrorKind::kFailed, "log stream of pod " + ns_ + "/" + pod_ + " keeps dropping: " + result.drop_reason);
    return options_.cancel && options_.cancel->load();
  }

  bool line(std::string_view text) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    const auto space = text.find(' ');
    const auto stamp = sortable_timestamp(text.substr(0, space));
    if (!stamp) return on_line_(text);  // no timestamp to resume by: pass it on as it is
    if (!dedup_.is_new(*stamp)) return true;
    progressed_ = true;
    return on_line_(space == std::string_view::npos ? std::string_view() : text.substr(space + 1));
  }

  bool take(std::string_view chunk) {
    pending_.append(chunk);
    std::size_t start = 0;
    for (std::size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1)
      if (!line(std::string_view(pending_).substr(start, end - start))) return false;
    pending_.erase(0, start);  // an unfinished line waits for the rest (or a resume)
    return true;
  }

  Client& client_;
  const std::string ns_;
  const std::string pod_;
  const LogOptions options_;
  const std::function<bool(std::string_view)> on_line_;
  const LogCompletion done_;
  int failures_ = 0;  // drops in a row without a new line
  LineDeduplicator dedup_;
  std::string pending_;
  bool progressed_ = false;
  LogStats stats_;
};

}  // namespace

void start_follow_logs(Client& client, const std::string& namespace_name, const std::string& pod,
                       const LogOptions& options, std::function<bool(std::string_view line)> on_line,
                       LogCompletion done) {
  std::make_shared<LogSession>(client, namespace_name, pod, options, std::move(on_line), std::move(done))->request();
}

LogStats follow_logs(Client& client, const std::string& namespace_name, const std::string& pod,
                     const LogOptions& options, const std::function<bool(std::string_view line)>& on_line) {
  return wait_for<LogStats>(
      [&](LogCompletion done) { start_follow_logs(client, namespace_name, pod, options, on_line, std::move(done)); });
}

}  // namespace gkebuild::kube
