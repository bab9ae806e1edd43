#include "registry/remote/progress.h"

#include <cstdio>

namespace gkebuild::registry {

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

void ProgressDisplay::update(const BlobProgress& progress) {
  std::lock_guard lock(mutex_);
  auto& blob = blobs_[progress.digest];
  blob.size = progress.size;
  blob.sent = progress.done ? static_cast<uint64_t>(progress.size) : progress.sent;
  blob.done = progress.done;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw();
}

void ProgressDisplay::finish() {
  std::lock_guard lock(mutex_);
  draw();
}

void ProgressDisplay::draw() {
  if (lines_drawn_ > 0) out_ << "\x1b[" << lines_drawn_ << "A";
  out_ << "\x1b[J";
  lines_drawn_ = 0;
  double total = 0, sent = 0;
  size_t done = 0;
  for (const auto& [digest, blob] : blobs_) {
    total += static_cast<double>(blob.size);
    sent += static_cast<double>(blob.sent);
    if (blob.done) {
      ++done;
      continue;
    }
    out_ << "  " << digest.substr(0, 19) << "  " << human_bytes(static_cast<double>(blob.sent))
         << " / " << human_bytes(static_cast<double>(blob.size)) << "\n";
    ++lines_drawn_;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = seconds > 0 ? sent / seconds : 0;
  out_ << "pushing " << done << "/" << blobs_.size() << " blobs  " << human_bytes(sent) << " / "
       << human_bytes(total) << "  " << human_bytes(rate) << "/s";
  if (rate > 0 && sent < total) out_ << "  " << static_cast<long>((total - sent) / rate) << " s left";
  out_ << "\n" << std::flush;
  ++lines_drawn_;
}

}  // namespace gkebuild::registry
