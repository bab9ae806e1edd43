// Numbers as the report prints them: a few significant digits, never an exponent, so a
// table column reads at a glance; JSON keeps the full double.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gkebuild::report {

// 4 significant digits by default: 1234.5 -> "1235", 0.0123456 -> "0.01235", 52 -> "52".
std::string format_number(double value, int significant = 4);

// US dollars: "$0.8333", "$12.35"; "n/a" for nullopt.
std::string format_usd(std::optional<double> value);

// "1.50x"; "n/a" for nullopt.
std::string format_ratio(std::optional<double> value);

// Seconds as "68.5 s", "12.3 min" above 10 minutes, "2.1 h" above 5 hours.
std::string format_duration(double seconds);

}  // namespace gkebuild::report

namespace gkebuild::report {

// "1 Job", "3 Jobs".
std::string count_of(std::size_t count, const std::string& noun);

}  // namespace gkebuild::report
