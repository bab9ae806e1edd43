#include "images/oci/layout.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/private_dirs.h"
#include "images/oci/media_types.h"

namespace gkebuild::oci {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kLayoutFile = R"({"imageLayoutVersion":"1.0.0"})";

std::string temporary_stem() { return "blob-" + std::to_string(::getpid()); }

// "<prefix>blob-<pid>.XXXXXX" -> pid, or 0 when the name is not one of ours.
pid_t owner_of(const std::string& name) {
  auto start = name.find("blob-");
  if (start == std::string::npos) return 0;
  try {
    return static_cast<pid_t>(std::stol(name.substr(start + 5)));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

BlobWriter::BlobWriter(const Layout& layout)
    : layout_(layout), file_(layout.scratch_dir(), temporary_stem()) {}

void BlobWriter::write(std::string_view bytes) {
  hasher_.update(bytes);
  file_.write(bytes);
}

Descriptor BlobWriter::commit(std::string_view media_type, const std::optional<Digest>& expected) {
  int64_t size = hasher_.bytes();
  Digest digest = hasher_.finish();
  if (expected && *expected != digest) {
    throw Error(ErrorKind::kFailed, "blob content does not match its digest: expected " +
                expected->str() + ", got " + digest.str());
  }
  fs::path target = layout_.blob_target(digest);
  fs::create_directories(target.parent_path());
  file_.commit(target);  // same content under the same name: a concurrent writer is harmless
  return Descriptor{std::string(media_type), digest, size, {}, {}};
}

Layout Layout::open(const fs::path& root, BlobHome home) {
  std::error_code error;
  if (!fs::is_regular_file(root / "oci-layout", error)) {
    throw Error(ErrorKind::kBadInput, root.string() + " is not an OCI image layout (no oci-layout file)");
  }
  Layout layout(root, std::move(home));
  try {
    auto marker = nlohmann::json::parse(read_file(root / "oci-layout"));
    if (!marker.contains("imageLayoutVersion")) throw Error(ErrorKind::kBadInput, "no imageLayoutVersion");
  } catch (const std::exception& e) {
    throw Error(ErrorKind::kBadInput, root.string() + "/oci-layout is invalid: " + e.what());
  }
  return layout;
}

Layout Layout::open_or_create(const fs::path& root, BlobHome home) {
  fs::create_directories(root / "blobs" / "sha256");
  if (home.write_to_store) fs::create_directories(home.store / "blobs" / "sha256");
  Layout layout(root, home);
  {
    FileLock held = layout.lock();
    if (!fs::exists(root / "oci-layout")) write_file_atomically(root / "oci-layout", kLayoutFile);
    if (!fs::exists(root / "index.json")) {
      write_file_atomically(root / "index.json",
                                to_json_text(Index{std::string(media::kOciIndex), {}, {}}));
    }
  }
  layout.remove_stale_temporaries();
  if (home.write_to_store) layout.register_in_store();
  return Layout::open(root, std::move(home));
}

// The store keeps the path of each layout that writes to it (projects/KEY), so that `gkebuild
// prune` can tell which blobs a project's tags still reference.
void Layout::register_in_store() const {
  std::error_code error;
  const fs::path real = fs::weakly_canonical(root_, error);
  const fs::path record = home_.store / "projects" / folder_key(root_);
  const std::string path = (error ? root_ : real).string();
  std::string recorded;
  try {
    if (fs::is_regular_file(record, error)) recorded = read_file(record);
  } catch (const std::exception&) {
  }
  if (recorded == path) {
    fs::last_write_time(record, fs::file_time_type::clock::now(), error);
    return;
  }
  fs::create_directories(record.parent_path());
  write_file_atomically(record, path);
}

void Layout::remove_stale_temporaries() const {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(scratch_dir(), error)) {
    pid_t owner = owner_of(entry.path().filename().string());
    if (owner > 0 && ::kill(owner, 0) != 0 && errno == ESRCH) fs::remove(entry.path(), error);
  }
}

Index Layout::index() const { return parse_index(read_file(root_ / "index.json")); }

std::optional<Descriptor> Layout::resolve(std::string_view tag) const {
  std::optional<Descriptor> found;
  for (const auto& d : index().manifests) {
    auto it = d.annotations.find(kRefNameAnnotation);
    if (it != d.annotations.end() && it->second == tag) found = d;
  }
  return found;
}

bool Layout::has_blob(const Digest& digest) const {
  std::error_code error;
  if (fs::is_regular_file(own_blob(digest), error)) return true;
  if (home_.store.empty()) return false;
  const fs::path stored = stored_blob(digest);
  if (!fs::is_regular_file(stored, error)) return false;
  fs::last_write_time(stored, fs::file_time_type::clock::now(), error);  // its last use, for prune
  return true;
}

fs::path Layout::own_blob(const Digest& digest) const { return root_ / "blobs" / digest.algorithm / digest.hex; }

fs::path Layout::stored_blob(const Digest& digest) const {
  return home_.store / "blobs" / digest.algorithm / digest.hex;
}

fs::path Layout::blob_target(const Digest& digest) const {
  return home_.write_to_store ? stored_blob(digest) : own_blob(digest);
}

fs::path Layout::blob_path(const Digest& digest) const {
  std::error_code error;
  const fs::path own = own_blob(digest);
  if (home_.store.empty() || fs::is_regular_file(own, error)) return own;
  const fs::path stored = stored_blob(digest);
  if (home_.write_to_store || fs::is_regular_file(stored, error)) return stored;
  return own;
}

std::string Layout::read_blob(const Digest& digest) const {
  if (!has_blob(digest)) {
    throw Error(ErrorKind::kFailed, "blob " + digest.str() + " is missing from " + root_.string() +
                (home_.store.empty() ? std::string()
                                     : " and from the machine's store " + home_.store.string() +
                                           " (pruned, or the store moved: build or pull the image again)"));
  }
  std::string bytes = read_file(blob_path(digest));
  if (digest.algorithm == "sha256" && sha256_of(bytes) != digest) {
    throw Error(ErrorKind::kFailed, "blob " + digest.str() + " at " + blob_path(digest).string() +
                " is corrupted (its content has another digest): delete that file, then build or pull the "
                "image again");
  }
  return bytes;
}

Descriptor Layout::write_blob(std::string_view media_type, std::string_view bytes) {
  BlobWriter writer(*this);
  writer.write(bytes);
  return writer.commit(media_type);
}

Descriptor Layout::write_blob(std::string_view media_type, std::istream& in,
                              const std::optional<Digest>& expected) {
  BlobWriter writer(*this);
  std::string buffer(1 << 20, '\0');
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    writer.write(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
  }
  if (in.bad()) throw Error(ErrorKind::kFailed, "cannot read the blob being added");
  return writer.commit(media_type, expected);
}

FileLock Layout::lock() const {  // the index's lock: the index is the layout's, wherever its blobs are
  fs::create_directories(root_ / "gkebuild");
  return FileLock(root_ / "gkebuild" / "index.lock");
}

void Layout::tag(std::string_view name, const Descriptor& manifest) {
  FileLock held = lock();
  Index current = index();
  std::erase_if(current.manifests, [&](const Descriptor& d) {
    auto it = d.annotations.find(kRefNameAnnotation);
    return it != d.annotations.end() && it->second == name;
  });
  Descriptor entry = manifest;
  entry.annotations[kRefNameAnnotation] = std::string(name);
  current.manifests.push_back(std::move(entry));
  if (current.media_type.empty()) current.media_type = std::string(media::kOciIndex);
  write_file_atomically(root_ / "index.json", to_json_text(current));
}

}  // namespace gkebuild::oci
