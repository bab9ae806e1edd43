#include "images/dockerfile_build/copy_sources.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "base/confined_path.h"

namespace gkebuild::build {
namespace fs = std::filesystem;

namespace {

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

struct stat lstat_or_throw(const fs::path& path, const std::string& shown) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    throw CopyError("cannot read COPY source '" + shown + "': " + std::strerror(errno));
  }
  return st;
}

fs::path checked_relative(const std::string& source) {
  if (source.starts_with('/')) {
    throw CopyError("COPY source '" + source +
                    "' is an absolute path; sources are paths inside the build context");
  }
  fs::path p = fs::path(source).lexically_normal();
  if (p.empty()) return ".";
  if (*p.begin() == "..") throw CopyError("COPY source '" + source + "' is outside the build context");
  return p;
}

[[noreturn]] void fail_outside(const std::string& written) {
  // Never the resolved path, nor what a listing outside found: the message must not reveal
  // anything about the files beyond the context.
  throw CopyError("COPY source '" + written + "' leads outside the build context (through a symlink)");
}

// The context paths a source names: globs expanded one path component at a time. A folder
// is listed only once it is known to be inside the context.
std::vector<fs::path> expand(const fs::path& context, const fs::path& relative, const std::string& written,
                             const Dockerignore* ignore) {
  std::vector<fs::path> current{fs::path()};
  for (const auto& part : relative) {
    std::string component = part.string();
    std::vector<fs::path> next;
    for (const auto& prefix : current) {
      if (!has_glob(component)) {
        next.push_back(prefix / part);
        continue;
      }
      if (!prefix.empty() && !confined_path(context, prefix)) fail_outside(written);
      std::error_code error;
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(context / prefix, error)) {
        std::string name = e.path().filename().string();
        bool ignored = ignore != nullptr && ignore->excluded((prefix / name).string());
        if (!ignored && ::fnmatch(component.c_str(), name.c_str(), 0) == 0) found.push_back(prefix / name);
      }
      std::sort(found.begin(), found.end());
      next.insert(next.end(), found.begin(), found.end());
    }
    current = std::move(next);
  }
  return current;
}

// Why a source that matches nothing may still name files of the context: .dockerignore (or
// gkebuild's own patterns) excludes them. "" when nothing it names is excluded. Lists only the
// folders the source's globs walk and stats only what is excluded; reads no file.
std::string exclusion_note(const fs::path& context, const fs::path& relative, const std::string& written,
                           const Dockerignore* ignore) {
  if (ignore == nullptr || ignore->empty()) return "";
  for (const auto& p : expand(context, relative, written, nullptr)) {
    const auto rule = ignore->exclusion(p.string());
    struct stat st {};
    if (!rule || !confined_path(context, p) || ::lstat((context / p).c_str(), &st) != 0) continue;
    if (rule->line == 0)
      return "COPY source '" + written + "' is excluded from the build context by gkebuild itself (pattern '" +
             rule->pattern + "')";
    return "COPY source '" + written + "' is excluded from the build context by .dockerignore:" +
           std::to_string(rule->line) + " ('" + rule->pattern + "'); remove that line, or add '!" + p.string() +
           "' below it, to copy it";
  }
  return "";
}

uint32_t normalised_mode(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return 0755;
  if (S_ISLNK(st.st_mode)) return 0777;
  return (st.st_mode & 0111) != 0 ? 0755 : 0644;
}

class Collector {
 public:
  explicit Collector(const CopyRequest& request) : request_(request) {
    std::error_code error;
    context_ = fs::canonical(request.context, error);
    if (error) throw CopyError("build context '" + request.context.string() + "' does not exist");
  }

  CopyLayer run() {
    std::vector<std::pair<std::string, fs::path>> matches;  // (as written, context path)
    for (const auto& source : request_.sources) {
      fs::path relative = checked_relative(source);
      auto found = expand(context_, relative, source, request_.ignore);
      // Outside first, so that whether a file exists beyond the context is not told either.
      for (const auto& p : found)
        if (!p.empty() && !confined_path(context_, p)) fail_outside(source);
      std::erase_if(found, [&](const fs::path& p) {
        if (ignored(p, resolved(p))) return true;
        struct stat st {};
        return ::lstat((context_ / p).c_str(), &st) != 0;
      });
      if (found.empty()) {
        if (auto note = exclusion_note(context_, relative, source, request_.ignore); !note.empty())
          throw CopyError(note);
        throw CopyError("COPY source '" + source + "' matches nothing in the build context " +
                        context_.string());
      }
      for (auto& p : found) matches.emplace_back(source, std::move(p));
    }
    const std::string& dest = request_.destination;
    bool dest_is_dir = dest.ends_with('/') || dest == "/";
    if (matches.size() > 1 && !dest_is_dir) {
      throw CopyError("COPY with more than one source needs a destination ending in '/' (got '" +
                      dest + "')");
    }
    fs::path dest_path = fs::path(dest).lexically_normal();
    for (const auto& [written, relative] : matches) add_match(written, relative, dest_path, dest_is_dir);
    add_parents();
    return finish();
  }

 private:
  void add_match(const std::string& written, const fs::path& relative, const fs::path& dest,
                 bool dest_is_dir) {
    fs::path real = fs::weakly_canonical(context_ / relative);
    if (!is_within(context_, real)) fail_outside(written);
    struct stat st = lstat_or_throw(real, written);
    if (S_ISDIR(st.st_mode)) {
      // The destination folder itself: one the image has is left as it is; a new one is made
      // as a parent is (buildah does not apply --chmod to it).
      std::string top = dest.relative_path().string();
      while (top.ends_with('/')) top.pop_back();
      if (!request_.existing || !request_.existing(top)) {
        add(dest, real, st, written);
        if (request_.chmod && entries_.contains(top)) entries_[top].mode = normalised_mode(st);
      }
      add_tree(real, dest, written, relative);
    } else if (S_ISREG(st.st_mode)) {
      fs::path target = dest_is_dir ? dest / relative.filename() : dest;
      add(target, real, st, written);
    } else {
      throw CopyError("COPY source '" + written + "' is not a file, directory or symlink");
    }
  }

  void add_tree(const fs::path& dir, const fs::path& dest, const std::string& written, const fs::path& relative) {
    std::error_code error;
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, error);
    if (error) throw CopyError("cannot list COPY source '" + written + "': " + error.message());
    for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (error) throw CopyError("cannot list COPY source '" + written + "': " + error.message());
      fs::path source = it->path();
      // Below `dir` nothing is followed, so what the entry resolves to is `dir`'s own path in
      // the context with the rest appended.
      const fs::path below = source.lexically_relative(dir);
      if (ignored((relative / below).lexically_normal(), (dir.lexically_relative(context_) / below).lexically_normal())) {
        // An excluded folder is not even listed unless a '!' pattern may re-include something in it.
        if (it->is_directory(error) && !request_.ignore->has_negations()) it.disable_recursion_pending();
        continue;
      }
      struct stat st = lstat_or_throw(source, (fs::path(written) / source.lexically_relative(dir)).string());
      add(dest / source.lexically_relative(dir), source, st,
          (fs::path(written) / source.lexically_relative(dir)).string());
    }
  }

  // Where a context path leads once its symlinks are resolved, relative to the context; empty
  // when that is the context itself or outside it (which the confinement checks refuse).
  fs::path resolved(const fs::path& relative) const {
    std::error_code error;
    const fs::path real = fs::weakly_canonical(context_ / relative, error);
    if (error) return {};
    const fs::path inside = real.lexically_relative(context_);
    if (inside.empty() || inside == "." || *inside.begin() == "..") return {};
    return inside;
  }

  // .dockerignore (and what is always left out, such as .gkebuild/) applies to a path by its
  // name and by what it resolves to: `state -> .gkebuild` or `notes -> .env` hides nothing.
  bool ignored(const fs::path& named, const fs::path& resolved_to) const {
    if (request_.ignore == nullptr) return false;
    if (request_.ignore->excluded(named.string())) return true;
    return !resolved_to.empty() && resolved_to != "." && request_.ignore->excluded(resolved_to.string());
  }

  void add(const fs::path& image_path, const fs::path& source, const struct stat& st,
           const std::string& shown) {
    std::string path = image_path.relative_path().string();
    while (path.ends_with('/')) path.pop_back();
    if (path.empty()) return;  // "/" itself is never an entry
    layer::Entry e;
    e.path = path;
    e.uid = request_.uid ? *request_.uid : 0;
    e.gid = request_.gid ? *request_.gid : 0;
    e.mode = normalised_mode(st);
    if (request_.source_metadata) {
      std::error_code error;
      auto relative = fs::relative(source, context_, error).lexically_normal().string();
      if (auto original = request_.source_metadata(relative)) {
        e.mode = original->mode;
        if (!request_.uid) e.uid = original->uid, e.gid = original->gid;
      }
    }
    if (S_ISDIR(st.st_mode)) {
      e.type = layer::EntryType::kDirectory;
    } else if (S_ISLNK(st.st_mode)) {
      e.type = layer::EntryType::kSymlink;
      e.link_target = fs::read_symlink(source).string();
    } else if (S_ISREG(st.st_mode)) {
      e.type = layer::EntryType::kFile;
      e.size = st.st_size;
      e.source = source;
      e.listed_as = layer::FileIdentity{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
      check_readable(source, shown);
    } else {
      throw CopyError("COPY source '" + shown + "' is not a file, directory or symlink");
    }
    if (request_.chmod && e.type != layer::EntryType::kSymlink) e.mode = *request_.chmod;
    entries_[path] = e;
    stats_[path] = st;
  }

  static void check_readable(const fs::path& source, const std::string& shown) {
    int fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
      throw CopyError("cannot read COPY source '" + shown + "': " + std::strerror(errno));
    }
    ::close(fd);
  }

  void add_parents() {
    std::vector<std::string> parents;
    for (const auto& [path, e] : entries_) {
      for (auto p = fs::path(path).parent_path(); !p.empty(); p = p.parent_path()) {
        parents.push_back(p.string());
      }
    }
    for (const auto& p : parents) {
      if (entries_.contains(p)) continue;
      auto there = request_.existing ? request_.existing(p) : std::nullopt;
      if (there && there->type != layer::EntryType::kDirectory) continue;  // a symlink to a folder stays one
      layer::Entry parent{p, layer::EntryType::kDirectory, 0755, request_.uid.value_or(0), request_.gid.value_or(0)};
      if (there) parent.mode = there->mode, parent.uid = there->uid, parent.gid = there->gid;
      entries_[p] = parent;
    }
  }

  CopyLayer finish() {
    CopyLayer out;
    for (auto& [path, e] : entries_) {
      std::string line = e.path + '\0' + std::to_string(static_cast<int>(e.type)) + '\0' +
                         std::to_string(e.mode) + '\0' + std::to_string(e.uid) + ':' +
                         std::to_string(e.gid) + '\0' + std::to_string(e.size) + '\0' +
                         e.link_target + '\n';
      out.list_fingerprint += line;
      out.stat_fingerprint += line;
      if (auto s = stats_.find(path); s != stats_.end() && e.type == layer::EntryType::kFile) {
        const struct stat& st = s->second;
        out.stat_fingerprint += e.source.string() + '\0' + std::to_string(st.st_mtim.tv_sec) + '.' +
                                std::to_string(st.st_mtim.tv_nsec) + '\0' +
                                std::to_string(st.st_ctim.tv_sec) + '.' +
                                std::to_string(st.st_ctim.tv_nsec) + '\0' +
                                std::to_string(st.st_ino) + '\0' + std::to_string(st.st_dev) + '\n';
      }
      out.entries.push_back(std::move(e));
    }
    return out;
  }

  const CopyRequest& request_;
  fs::path context_;
  std::map<std::string, layer::Entry> entries_;
  std::map<std::string, struct stat> stats_;
};

}  // namespace

CopyLayer collect_copy(const CopyRequest& request) { return Collector(request).run(); }

uint32_t parse_chmod(const std::string& value) {
  if (value.empty() || value.size() > 4 || value.find_first_not_of("01234567") != std::string::npos) {
    throw CopyError("--chmod=" + value + ": expected an octal mode such as 0755");
  }
  return static_cast<uint32_t>(std::stoul(value, nullptr, 8));
}

}  // namespace gkebuild::build
