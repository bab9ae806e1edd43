// Paths that a user's file names relative to a folder it must stay in (a project's
// templates, a build context, the files gkebuild keeps in `.gkebuild/`): `..` or a symlink
// must not lead out of that folder. And trees from an untrusted image layer or tar written
// into a folder they cannot leave.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild {

// `relative` under `root` with every symlink on the way resolved, or nullopt when it is
// absolute or the resolved path is not `root` or below it. A symlink is followed whether or not
// its target exists, so a dangling one that leads out is as much outside as one whose target
// exists (the answer never tells whether a path outside exists); what does not exist yet is
// taken as named, so a later `..` cannot climb out either.
std::optional<std::filesystem::path> confined_path(const std::filesystem::path& root,
                                                   const std::filesystem::path& relative);

// Creates `relative` beneath `root` as a new file holding `content`, for a folder a user named
// that may hold anything (`gkebuild init DIR`): the folders on the way below `root` are made
// (0755) or opened one at a time with O_NOFOLLOW, and the file is created with O_EXCL and
// O_NOFOLLOW, so that neither a symlinked folder (DIR/src -> elsewhere) nor a file or symlink
// already there is written through. `mode` is the new file's, less the umask. Throws Error (bad
// input) naming the path; `relative` is a tree_path() without `..`.
void create_new_file(const std::filesystem::path& root, std::string_view relative, std::string_view content,
                     unsigned mode = 0666);

// Whether `path` is `root` or below it, both taken as they are (no symlinks resolved).
bool is_within(const std::filesystem::path& root, const std::filesystem::path& path);

// A file gkebuild keeps for itself beneath `root` (a project's `.gkebuild/`: the pin file, run
// records), which a checkout under review may have planted: the folders on the way are
// confined to `root` as confined_path does, the file itself is opened with O_NOFOLLOW and
// must be a regular file of at most `max_bytes` (a symlink to /proc/self/environ, a FIFO or a
// device is refused, not read). Returns the open descriptor (the caller closes it), or -1 when
// there is no such file. Throws Error (bad input) naming the path, never quoting content.
int open_confined_file(const std::filesystem::path& root, const std::filesystem::path& relative,
                       std::size_t max_bytes);

// A folder gkebuild keeps for itself beneath `root` (`.gkebuild/oci`, `.gkebuild/runs`): each
// component of `relative` (plain names) made when missing, and checked, without following a
// symlink, to be a folder; returns root/relative. A checkout that planted `.gkebuild -> /etc`
// or a file where a folder belongs gets Error (bad input) naming the path, before anything is
// written or removed there.
std::filesystem::path confined_folder(const std::filesystem::path& root, const std::filesystem::path& relative);

// open_confined_file, then the whole file; nullopt when there is none.
std::optional<std::string> read_confined_file(const std::filesystem::path& root,
                                              const std::filesystem::path& relative, std::size_t max_bytes);

// The non-empty components of a '/'-separated path: "/a//b/" -> {"a", "b"}.
std::vector<std::string> path_components(std::string_view path);

// A tree's path ("usr/lib/x", "/etc/passwd", "./a//b/") as the relative, normal path it names
// ("usr/lib/x", "etc/passwd", "a/b"; "" for the root itself), or nullopt when a `..` climbs
// above the root. A leading '/' is dropped: an absolute name in a tar is relative to where the
// tar is unpacked, as tar, buildah and BuildKit take it.
std::optional<std::string> tree_path(std::string_view path);

// A folder that a tree from an untrusted source (an image layer, a tar) is written into, so
// that no name and no symlink of the tree makes a write land outside it. Each entry's folders
// are opened beneath the root one component at a time with O_NOFOLLOW; a symlink met on the way
// is read and resolved as the container will see it (an absolute target starts again at the
// root, `..` stops there: openat2's RESOLVE_IN_ROOT), never by the host's kernel. The entry's
// own name is never followed: a symlink there is replaced, not written through. Folders missing
// on the way are made (0755). Paths are tree_path()s: a `..` in one is refused.
class ConfinedTree {
 public:
  // Opens `root`, making it when missing. Throws std::runtime_error.
  explicit ConfinedTree(const std::filesystem::path& root);
  ~ConfinedTree();
  ConfinedTree(const ConfinedTree&) = delete;
  ConfinedTree& operator=(const ConfinedTree&) = delete;

  // Each throws std::runtime_error naming `path` when it cannot be written where it belongs.
  void make_directory(std::string_view path);
  void make_symlink(std::string_view path, const std::string& target);
  // `path` as another name of `existing`, a file outside the tree that gkebuild wrote itself.
  void make_hard_link(std::string_view path, const std::filesystem::path& existing);

 private:
  struct Folder {
    std::string name;
    int fd;
  };
  int parent_folder(std::string_view path, std::string& name);
  int resolve_rest(const std::vector<std::string>& parts, size_t from, std::string_view path);
  void forget(size_t depth);
  template <typename Make>
  void make(std::string_view path, bool directory, Make make_at);

  int root_ = -1;
  std::vector<Folder> cached_;  // the last parent's folders, as named, while no symlink was met
  int resolved_ = -1;           // the last parent reached through a symlink
};

}  // namespace gkebuild
