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

// "'text'" with printable(text): how a message quotes a name or value it was given.
std::string in_quotes(std::string_view text);

// A whole message, as the CLI prints it: printable() line by line, keeping its own line breaks
// and tabs. The last guard for text that reached a message without printable(); a newline in
// an echoed name must still be escaped where it is quoted (in_quotes).
std::string printable_lines(std::string_view text);

}  // namespace gkebuild
