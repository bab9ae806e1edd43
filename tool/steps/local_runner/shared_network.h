// One private network for the containers of a multi-node Job run here: a network namespace
// (loopback only, up) that several containers join, as the pods of a Job share a cluster's
// network. It is held by a child process that does nothing else, so that it lasts while the
// containers start and stop in any order; the destructor ends that process, and the
// namespace goes with the last process in it. The holder also dies with the thread that made it
// (PR_SET_PDEATHSIG), so a gkebuild killed with SIGKILL leaves none behind: make it on a thread
// that outlives the containers.
#pragma once

#include <sys/types.h>

#include <filesystem>

namespace gkebuild::local_runner {

class SharedNetwork {
 public:
  // Throws std::runtime_error when the namespace cannot be made (not root, no CLONE_NEWNET).
  SharedNetwork();
  ~SharedNetwork();
  SharedNetwork(const SharedNetwork&) = delete;
  SharedNetwork& operator=(const SharedNetwork&) = delete;

  // /proc/PID/ns/net of the holder: what a runtime spec's network namespace "path" names.
  std::filesystem::path path() const;

 private:
  pid_t holder_ = -1;
};

}  // namespace gkebuild::local_runner
