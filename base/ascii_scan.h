// Finding the next byte that needs attention in text that is mostly plain ASCII: the JSON
// reader's strings, tojson's escaping, line splitting. Sixteen bytes a step where SSE2 is
// there (every x86-64), one at a time elsewhere; the same answer either way.
#pragma once

#include <array>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gkebuild {

// Which bytes find_ascii_stop stops at, as a table.
template <bool kStopHigh, char... kSpecials>
struct AsciiStops {
  static constexpr std::array<bool, 256> table = [] {
    std::array<bool, 256> stops{};
    for (int byte = 0; byte < 256; ++byte)
      stops[byte] = byte < 0x20 || (kStopHigh && byte >= 0x7F) || ((byte == static_cast<unsigned char>(kSpecials)) || ...);
    return stops;
  }();
};

// The first byte in [p, end) that is a control character (below 0x20), or, with kStopHigh,
// DEL or any byte of 0x80 and above, or one of kSpecials; `end` when there is none.
template <bool kStopHigh, char... kSpecials>
inline const char* find_ascii_stop(const char* p, const char* end) {
#if defined(__SSE2__)
  for (; end - p >= 16; p += 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed bytes: 0x80 and above are negative, so "less than 0x20" takes them in too.
    const __m128i below_space = _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20));
    __m128i stops = kStopHigh ? _mm_or_si128(below_space, _mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x7F)))
                              : _mm_andnot_si128(_mm_cmplt_epi8(chunk, _mm_setzero_si128()), below_space);
    ((stops = _mm_or_si128(stops, _mm_cmpeq_epi8(chunk, _mm_set1_epi8(kSpecials)))), ...);
    if (const int mask = _mm_movemask_epi8(stops)) return p + __builtin_ctz(static_cast<unsigned>(mask));
  }
#endif
  // The tail, and short strings whole: one table look-up a byte.
  for (; p < end; ++p)
    if (AsciiStops<kStopHigh, kSpecials...>::table[static_cast<unsigned char>(*p)]) return p;
  return end;
}

}  // namespace gkebuild
