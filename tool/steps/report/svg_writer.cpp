#include "tool/steps/report/svg_writer.h"

#include <cstdio>

namespace gkebuild::report {
namespace {

// Two decimals are finer than a pixel; fewer characters than the default six.
std::string coordinate(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string text = buffer;
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

}  // namespace

SvgWriter::SvgWriter(double width, double height, std::string_view title) {
  out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << coordinate(width) << "\" height=\""
       << coordinate(height) << "\" viewBox=\"0 0 " << coordinate(width) << " " << coordinate(height)
       << "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n"
       << "<title>" << xml_escape(title) << "</title>\n"
       << "<rect x=\"0\" y=\"0\" width=\"" << coordinate(width) << "\" height=\"" << coordinate(height)
       << "\" fill=\"#ffffff\"/>\n";
}

void SvgWriter::begin_group(double dx, double dy) {
  out_ << "<g transform=\"translate(" << coordinate(dx) << "," << coordinate(dy) << ")\">\n";
}

void SvgWriter::end_group() { out_ << "</g>\n"; }

void SvgWriter::rect(double x, double y, double width, double height, std::string_view fill,
                     std::string_view tooltip) {
  out_ << "<rect x=\"" << coordinate(x) << "\" y=\"" << coordinate(y) << "\" width=\"" << coordinate(width)
       << "\" height=\"" << coordinate(height) << "\" fill=\"" << xml_escape(fill) << "\"";
  if (tooltip.empty()) {
    out_ << "/>\n";
  } else {
    out_ << "><title>" << xml_escape(tooltip) << "</title></rect>\n";
  }
}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width) {
  out_ << "<line x1=\"" << coordinate(x1) << "\" y1=\"" << coordinate(y1) << "\" x2=\"" << coordinate(x2)
       << "\" y2=\"" << coordinate(y2) << "\" stroke=\"" << xml_escape(stroke) << "\" stroke-width=\""
       << coordinate(width) << "\"/>\n";
}

void SvgWriter::text(double x, double y, std::string_view content, const TextStyle& style) {
  out_ << "<text x=\"" << coordinate(x) << "\" y=\"" << coordinate(y) << "\" font-size=\""
       << coordinate(style.size) << "\" text-anchor=\"" << xml_escape(style.anchor) << "\" fill=\""
       << xml_escape(style.fill) << "\"" << (style.bold ? " font-weight=\"bold\"" : "") << ">"
       << xml_escape(content) << "</text>\n";
}

std::string SvgWriter::finish() {
  out_ << "</svg>\n";
  return out_.str();
}

}  // namespace gkebuild::report
