#include "tool/steps/report/svg_writer.h"

#include <algorithm>
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

void SvgWriter::polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke,
                         double width, bool dashed, std::string_view tooltip) {
  out_ << "<polyline points=\"";
  for (std::size_t i = 0; i < points.size(); ++i)
    out_ << (i ? " " : "") << coordinate(points[i].first) << "," << coordinate(points[i].second);
  out_ << "\" fill=\"none\" stroke=\"" << xml_escape(stroke) << "\" stroke-width=\"" << coordinate(width) << "\""
       << " stroke-linejoin=\"round\"" << (dashed ? " stroke-dasharray=\"6,3\"" : "");
  if (tooltip.empty()) {
    out_ << "/>\n";
  } else {
    out_ << "><title>" << xml_escape(tooltip) << "</title></polyline>\n";
  }
}

void SvgWriter::circle(double x, double y, double radius, std::string_view fill, std::string_view tooltip) {
  out_ << "<circle cx=\"" << coordinate(x) << "\" cy=\"" << coordinate(y) << "\" r=\"" << coordinate(radius)
       << "\" fill=\"" << xml_escape(fill) << "\"";
  if (tooltip.empty()) {
    out_ << "/>\n";
  } else {
    out_ << "><title>" << xml_escape(tooltip) << "</title></circle>\n";
  }
}

std::string SvgWriter::finish() {
  out_ << "</svg>\n";
  return out_.str();
}

}  // namespace gkebuild::report

namespace gkebuild::report {
namespace {

// DejaVu Sans averages about 0.55 em a character; 0.62 keeps bold titles inside too.
constexpr double kCharacterWidth = 0.62;

std::size_t characters(std::string_view text) {
  std::size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;  // UTF-8 continuation bytes are no character
  return count;
}

// The byte where character `index` starts (UTF-8), or the size.
std::size_t byte_of_character(std::string_view text, std::size_t index) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == index) return i;
  return text.size();
}

}  // namespace

double text_width(std::string_view content, double size) {
  return static_cast<double>(characters(content)) * size * kCharacterWidth;
}

std::vector<std::string> wrap_text(std::string_view content, double width, double size) {
  const auto room = static_cast<std::size_t>(std::max(width / (size * kCharacterWidth), 1.0));
  std::vector<std::string> lines;
  std::string line;
  auto flush = [&] {
    if (!line.empty()) lines.push_back(std::move(line));
    line.clear();
  };
  std::size_t start = 0;
  while (start <= content.size()) {
    std::size_t end = std::min(content.find(' ', start), content.size());
    std::string_view word = content.substr(start, end - start);
    if (!word.empty()) {
      if (!line.empty() && characters(line) + 1 + characters(word) > room) flush();
      while (characters(word) > room) {  // longer than a line: broken inside, between characters
        flush();
        const std::size_t cut = byte_of_character(word, room);
        lines.emplace_back(word.substr(0, cut));
        word.remove_prefix(cut);
      }
      if (!word.empty()) line += (line.empty() ? "" : " ") + std::string(word);
    }
    start = end + 1;
  }
  flush();
  if (lines.empty()) lines.emplace_back();
  return lines;
}

}  // namespace gkebuild::report
