// Text for XML and HTML (SVG charts, JUnit reports, report pages).
#pragma once

#include <string>
#include <string_view>

namespace gkebuild {

// & < > " ' as entities, so the text is safe in element content and attribute values; control
// characters XML 1.0 cannot carry even escaped (all below 0x20 but tab, LF, CR) become '?'.
std::string xml_escape(std::string_view text);

}  // namespace gkebuild
