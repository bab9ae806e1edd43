#include "kube/logs.h"

#include <chrono>
#include <thread>

#include "base/rfc3339.h"
#include "kube/api_error.h"
#include "kube/resources.h"

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

class LogSession {
 public:
  LogSession(Client& client, const std::string& ns, const std::string& pod, const LogOptions& options,
             const std::function<bool(std::string_view)>& on_line)
      : client_(client), ns_(ns), pod_(pod), options_(options), on_line_(on_line) {}

  LogStats run() {
    int failures = 0;
    while (true) {
      dedup_.reconnect();
      progressed_ = false;
      pending_.clear();
      HttpResult result = request();
      if (result.status < 200 || result.status >= 300)
        throw ApiError("logs of pod " + ns_ + "/" + pod_, result.status, result.body);
      if (result.end == HttpResult::End::Stopped) break;
      if (result.end == HttpResult::End::Complete) {
        if (!pending_.empty()) line(pending_);  // a last line without a newline
        break;
      }
      ++stats_.drops;
      if (progressed_) failures = 0;
      if (++failures > options_.max_failures)
        throw std::runtime_error("log stream of pod " + ns_ + "/" + pod_ + " keeps dropping: " + result.drop_reason);
      std::this_thread::sleep_for(std::chrono::milliseconds(50 * failures));
    }
    return stats_;
  }

 private:
  HttpResult request() {
    ++stats_.requests;
    std::string target = object_path(resource_type("v1", "Pod"), ns_, pod_) + "/log?timestamps=true";
    if (options_.follow) target += "&follow=true";
    if (!options_.container.empty()) target += "&container=" + percent_encode(options_.container);
    if (const std::string since = dedup_.since(); !since.empty()) target += "&sinceTime=" + percent_encode(since);
    HttpRequest http;
    http.url = target;
    http.timeout_seconds = 0;
    http.cancel = options_.cancel;
    const BodySink sink = [this](std::string_view chunk) { return take(chunk); };
    return client_.stream(http, sink);
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
  const std::string& ns_;
  const std::string& pod_;
  const LogOptions& options_;
  const std::function<bool(std::string_view)>& on_line_;
  LineDeduplicator dedup_;
  std::string pending_;
  bool progressed_ = false;
  LogStats stats_;
};

}  // namespace

LogStats follow_logs(Client& client, const std::string& namespace_name, const std::string& pod,
                     const LogOptions& options, const std::function<bool(std::string_view line)>& on_line) {
  return LogSession(client, namespace_name, pod, options, on_line).run();
}

}  // namespace gkebuild::kube
