#include "base/rfc3339.h"

#include <cstdio>
#include <ctime>

namespace gkebuild {
namespace {

struct Parsed {
  std::time_t utc_seconds;
  long nanoseconds;
};

bool digits(std::string_view text, std::size_t at, std::size_t count, int& value) {
  if (at + count > text.size()) return false;
  value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  return true;
}

std::optional<Parsed> parse(std::string_view text) {
  std::tm tm{};
  int year, month, day, hour, minute, second;
  if (!digits(text, 0, 4, year) || text.size() < 20 || text[4] != '-' || !digits(text, 5, 2, month) ||
      text[7] != '-' || !digits(text, 8, 2, day) || (text[10] != 'T' && text[10] != 't') ||
      !digits(text, 11, 2, hour) || text[13] != ':' || !digits(text, 14, 2, minute) ||
      text[16] != ':' || !digits(text, 17, 2, second))
    return std::nullopt;
  std::size_t at = 19;
  long nanos = 0;
  if (text[at] == '.') {
    long scale = 100000000;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, scale /= 10)
      if (scale > 0) nanos += (text[at] - '0') * scale;
  }
  long offset = 0;
  if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    int oh, om;
    if (!digits(text, at + 1, 2, oh) || text.size() <= at + 3 || text[at + 3] != ':' ||
        !digits(text, at + 4, 2, om))
      return std::nullopt;
    offset = (text[at] == '+' ? 1 : -1) * (oh * 3600L + om * 60L);
    at += 6;
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return Parsed{timegm(&tm) - offset, nanos};
}

}  // namespace

std::optional<SystemClock::time_point> parse_rfc3339(std::string_view text) {
  auto parsed = parse(text);
  if (!parsed) return std::nullopt;
  return SystemClock::from_time_t(parsed->utc_seconds) +
         std::chrono::duration_cast<SystemClock::duration>(std::chrono::nanoseconds(parsed->nanoseconds));
}

std::optional<std::string> sortable_timestamp(std::string_view text) {
  auto parsed = parse(text);
  if (!parsed) return std::nullopt;
  std::tm tm{};
  gmtime_r(&parsed->utc_seconds, &tm);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%09ldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, parsed->nanoseconds);
  return std::string(buffer);
}

std::string format_rfc3339_seconds(int64_t unix_seconds) {
  const std::time_t seconds = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string format_rfc3339_seconds(SystemClock::time_point when) {
  return format_rfc3339_seconds(static_cast<int64_t>(SystemClock::to_time_t(when)));
}

std::string format_rfc3339_milliseconds(SystemClock::time_point when) {
  const auto millis = std::chrono::floor<std::chrono::milliseconds>(when);
  const auto seconds = std::chrono::floor<std::chrono::seconds>(millis);
  const std::time_t as_time_t = SystemClock::to_time_t(seconds);
  std::tm tm{};
  gmtime_r(&as_time_t, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>((millis - seconds).count()));
  return buffer;
}

}  // namespace gkebuild
