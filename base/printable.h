// Untrusted text (names from a user's file, a server's reply) made safe to echo in a message:
// a terminal must never receive its control characters, which could move the cursor, rewrite
// earlier lines or change the window title.
#pragma once

#include <string>
#include <string_view>

namespace gkebuild {

// `text` with every control character (C0, DEL, C1) and every byte that is not part of valid
// UTF-8 written as a \x1b-style escape. Printable ASCII (backslashes included, so that regular
// expressions in messages read as written) and valid UTF-8 pass unchanged.
std::string printable(std::string_view text);

}  // namespace gkebuild
