// Text gkebuild did not write (libcurl's error text, a server's answer, a child process's
// output) made fit for a message: it may carry a URL with its credentials (a proxy-url written
// `http://user:password@host`) and control bytes that a terminal would act on.
#pragma once

#include <string>
#include <string_view>

namespace gkebuild {

// `text` with the userinfo of every URL in it (`scheme://user:password@`) written as `***@`,
// and every occurrence of the userinfo of `url` (and of its password, as written and
// percent-decoded) replaced by `***`, even where `url` is too malformed to parse and the text
// quotes it whole. `url` may be empty.
std::string without_userinfo(std::string_view text, std::string_view url = {});

// without_userinfo, then printable_lines (base/printable.h): how such text enters a message.
std::string untrusted_text(std::string_view text, std::string_view url = {});

}  // namespace gkebuild
