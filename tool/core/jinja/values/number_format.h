// Python's number semantics on int64 and double: repr of floats, checked integer
// arithmetic (Python ints are unbounded; we stop with a clear error at int64) and round().
#pragma once

#include <cstdint>
#include <string>

namespace gkebuild::jinja {

// Appends repr(float) as Python 3 prints it: 1.0, 0.1, 1e+16, 1e-05, inf, nan.
void append_float(std::string& out, double value);
std::string format_float(double value);
void append_int(std::string& out, int64_t value);

// The error for a result that Python would hold in a big integer.
[[noreturn]] void throw_int_overflow();
// Checked int64 arithmetic with Python's floor semantics; throws EvalError on overflow.
int64_t checked_add(int64_t a, int64_t b);
int64_t checked_sub(int64_t a, int64_t b);
int64_t checked_mul(int64_t a, int64_t b);
int64_t checked_pow(int64_t base, int64_t exponent);
int64_t floor_div(int64_t a, int64_t b);  // b != 0
int64_t floor_mod(int64_t a, int64_t b);  // b != 0
double float_floor_div(double a, double b);
double float_mod(double a, double b);

// Python round(x, digits) for floats: correctly rounded half-to-even.
double python_round(double value, int digits);

// Python int(str(...)) helpers: parse an integer literal the way int(text, base) does.
// TooBig: a valid literal that Python would read as an integer beyond int64.
enum class ParsedInt { Ok, Invalid, TooBig };
ParsedInt parse_python_int(std::string_view text, int base, int64_t& out);
// Python float(text): accepts surrounding whitespace, '_' between digits, inf/nan.
bool parse_python_float(std::string_view text, double& out);

}  // namespace gkebuild::jinja
