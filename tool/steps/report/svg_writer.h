// A small SVG writer: rectangles, lines, polylines, circles and text, with every text
// XML-escaped. Enough for bar and line charts; nothing here knows about reports.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/xml_escape.h"

namespace gkebuild::report {

struct TextStyle {
  double size = 12;
  std::string_view anchor = "start";  // start, middle, end
  bool bold = false;
  std::string_view fill = "#222222";
};

class SvgWriter {
 public:
  SvgWriter(double width, double height, std::string_view title);

  // Shifts what follows by (dx, dy) until the matching end_group.
  void begin_group(double dx, double dy);
  void end_group();
  // `tooltip` becomes a <title> child, which viewers show on hover.
  void rect(double x, double y, double width, double height, std::string_view fill,
            std::string_view tooltip = {});
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width = 1);
  void text(double x, double y, std::string_view content, const TextStyle& style = {});
  // One line through `points`; `dashed` for series past the palette's colours.
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke, double width,
                bool dashed = false, std::string_view tooltip = {});
  void circle(double x, double y, double radius, std::string_view fill, std::string_view tooltip = {});
  // The whole document; the writer is finished after this.
  std::string finish();

 private:
  std::ostringstream out_;
};

// `content` broken at spaces into lines that fit `width` pixels at `size` (a word longer than a
// line is broken inside), so a long title wraps instead of running past the picture's edge.
// SVG has no text layout of its own; the width of a character is estimated, on the wide side.
std::vector<std::string> wrap_text(std::string_view content, double width, double size);

// The estimated width of `content` at `size`, as wrap_text counts it.
double text_width(std::string_view content, double size);

}  // namespace gkebuild::report
