// Files a user names as input (a Dockerfile, a project, values or template file, a manifest to
// validate), which a checkout may have made something else: only a regular file, or a symlink
// to one, is read. A FIFO would wait for ever, a device never end.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace gkebuild {

// Opens `path` for reading, with O_NONBLOCK so that not even the open waits for a FIFO's writer.
// Returns the descriptor (blocking again; the caller closes it); or -1 with errno set when it
// cannot be opened; or -1 with `refusal` saying what it is ("is a folder", "is not a regular
// file (a FIFO, a device or a socket)…") when it is no regular file. read_file
// (base/atomic_file.h) reads through it and throws Error (bad input) with the refusal.
// `pipes` kRead: a FIFO is read too, blocking as a shell would, for what the user names on the
// command line (`--values <(…)`, bash's process substitution is a pipe); a device never is.
enum class Pipes { kRefuse, kRead };
int open_input_file(const std::filesystem::path& path, std::string& refusal, Pipes pipes = Pipes::kRefuse);

// The rest of the open file `fd` (closed on return), up to `max_bytes`: nullopt with errno set
// when a read fails; more than `max_bytes` bytes read mean the file is larger.
std::optional<std::string> read_all(int fd, std::size_t max_bytes);

}  // namespace gkebuild
