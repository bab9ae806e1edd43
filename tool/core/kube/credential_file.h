// The files a kubeconfig user or a pod's service account names for credentials: `tokenFile:`,
// the in-cluster token, CA certificate and namespace. A kubeconfig may come from a checkout
// or a colleague, so such a file is read only when it is a regular file (a symlink to one is
// followed: the kubelet rotates the token by swapping `..data` links), never a FIFO that
// would wait forever or a device that never ends, and within a size and a time limit.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>

namespace gkebuild::kube {

// A token is a few KiB at most (a service account JWT is about one).
inline constexpr std::size_t kMaxTokenFileBytes = std::size_t{64} << 10;
// A CA bundle may hold many certificates.
inline constexpr std::size_t kMaxCaFileBytes = std::size_t{1} << 20;
// A regular file that does not arrive in this time (a hung network mount) is an error.
inline constexpr std::chrono::seconds kCredentialFileTimeLimit{10};

// The whole file; SourceError naming the path when it is missing, not a regular file, larger
// than `max_bytes` or not read within kCredentialFileTimeLimit. Never quotes the content.
std::string read_credential_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace gkebuild::kube
