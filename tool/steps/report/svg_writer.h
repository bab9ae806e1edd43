// A small SVG writer: rectangles, lines and text, with every text XML-escaped. Enough for
// bar charts; nothing here knows about reports.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

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
  // The whole document; the writer is finished after this.
  std::string finish();

 private:
  std::ostringstream out_;
};

}  // namespace gkebuild::report
