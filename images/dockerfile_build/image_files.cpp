#include "images/dockerfile_build/image_files.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "base/error.h"
#include "base/printable.h"

namespace gkebuild::build {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kWhiteout = ".wh.";
constexpr std::string_view kOpaque = ".wh..wh..opq";

std::string clean_path(std::string path) {
  while (path.starts_with("./")) path.erase(0, 2);
  while (path.starts_with('/')) path.erase(0, 1);
  while (path.ends_with('/')) path.pop_back();
  return fs::path(path).lexically_normal().string();
}

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

void write_content(archive* a, const fs::path& target) {
  fs::create_directories(target.parent_path());
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  const void* block = nullptr;
  size_t size = 0;
  la_int64_t offset = 0;
  int r;
  while ((r = archive_read_data_block(a, &block, &size, &offset)) == ARCHIVE_OK) {
    out.write(static_cast<const char*>(block), static_cast<std::streamsize>(size));
  }
  if (r != ARCHIVE_EOF) throw Error(ErrorKind::kFailed, std::string("damaged archive: ") + archive_error_string(a));
  if (!out.flush()) throw Error(ErrorKind::kFailed, "cannot write " + target.string());
}

}  // namespace

// The entry's name as a path of the tree; a name that climbs above the tree's root is refused.
std::string entry_path(const char* raw, const char* role) {
  auto path = tree_path(raw ? raw : "");
  if (!path) {
    throw Error(ErrorKind::kFailed, std::string(role) + " '" + printable(raw) +
                "' leads outside the folder it is unpacked into (its '..' climb above the root); "
                "the archive is refused, as buildah and Docker refuse it");
  }
  return *path;
}

bool read_tar(const fs::path& file, const fs::path& scratch, const std::function<bool(const std::string&)>& extract,
              std::vector<layer::Entry>& out, std::optional<int64_t> max_bytes) {
  ArchivePtr a(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_tar(a.get());
  if (archive_read_open_filename(a.get(), file.c_str(), 1 << 16) != ARCHIVE_OK) return false;
  std::map<std::string, size_t> by_path;
  archive_entry* entry = nullptr;
  size_t count = 0;
  int64_t bytes = 0;  // what the entries' files hold, hard links counted again: what a layer of them holds
  auto count_bytes = [&](const layer::Entry& e) {
    bytes += e.size;
    if (max_bytes && bytes > *max_bytes) throw TarTooLarge("unpacks to more than " + std::to_string(*max_bytes) +
                                                           " bytes (at entry '" + printable(e.path) + "')");
  };
  for (int r; (r = archive_read_next_header(a.get(), &entry)) != ARCHIVE_EOF; ++count) {
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      if (count == 0) return false;  // not a tar at all: ADD copies such a file as it is
      throw Error(ErrorKind::kFailed, std::string("damaged archive: ") + archive_error_string(a.get()));
    }
    layer::Entry e;
    e.path = entry_path(archive_entry_pathname(entry), "entry");
    if (e.path.empty()) continue;  // "./": the root itself
    e.mode = archive_entry_perm(entry) & 07777;
    e.uid = static_cast<uint32_t>(archive_entry_uid(entry));
    e.gid = static_cast<uint32_t>(archive_entry_gid(entry));
    if (const char* link = archive_entry_hardlink(entry)) {
      auto target = by_path.find(entry_path(link, ("hard link '" + printable(e.path) + "' to").c_str()));
      if (target == by_path.end()) throw Error(ErrorKind::kFailed, "hard link to a missing file: " + printable(e.path));
      layer::Entry copy = out[target->second];
      copy.path = e.path;
      if (copy.type == layer::EntryType::kFile) count_bytes(copy);
      by_path[e.path] = out.size();
      out.push_back(std::move(copy));
      continue;
    }
    switch (archive_entry_filetype(entry)) {
      case AE_IFDIR: e.type = layer::EntryType::kDirectory; break;
      case AE_IFLNK:
        e.type = layer::EntryType::kSymlink;
        e.link_target = archive_entry_symlink(entry);
        break;
      case AE_IFREG:
        e.type = layer::EntryType::kFile;
        e.size = archive_entry_size(entry);
        count_bytes(e);
        if (extract(e.path)) {
          e.source = scratch / std::to_string(out.size());
          write_content(a.get(), e.source);
        }
        break;
      default: continue;  // devices and fifos are never in what gkebuild builds
    }
    by_path[e.path] = out.size();
    out.push_back(std::move(e));
  }
  // An empty file reads as an empty archive; ADD copies it as the file it is.
  std::error_code error;
  return count > 0 || fs::file_size(file, error) > 0;
}

std::vector<layer::Entry> ImageFiles::read_layer(size_t layer, const std::function<bool(const std::string&)>& extract) {
  const image::Layer& l = image_.layers().at(layer);
  std::vector<layer::Entry> entries;
  fs::path scratch = scratch_ / ("layer-" + std::to_string(extractions_++));
  try {
    if (!read_tar(l.store->blob_path(l.blob.digest), scratch, extract, entries)) {
      throw Error(ErrorKind::kFailed, "not a tar archive");
    }
  } catch (const std::runtime_error& e) {
    throw LayerReadError("layer " + l.blob.digest.str() + ": " + e.what());
  }
  return entries;
}

const std::map<std::string, layer::Entry>& ImageFiles::listing(size_t layer) {
  std::string diff_id = image_.layers()[layer].diff_id.str();
  auto it = listings_.find(diff_id);
  if (it != listings_.end()) return it->second;
  auto& map = listings_[diff_id];
  fs::path cached = listing_cache_.empty() ? fs::path() : listing_cache_ / (image_.layers()[layer].diff_id.hex + ".json");
  std::error_code error;
  if (!cached.empty() && fs::is_regular_file(cached, error)) {
    try {
      for (const auto& j : nlohmann::json::parse(read_file(cached))) {
        layer::Entry e{j[0], static_cast<layer::EntryType>(j[1].get<int>()), j[2], j[3], j[4]};
        e.link_target = j[5];
        map[e.path] = std::move(e);
      }
      return map;
    } catch (const std::exception&) {
      map.clear();  // a damaged cache entry is read again from the layer
    }
  }
  nlohmann::json text = nlohmann::json::array();
  for (auto& e : read_layer(layer, [](const std::string&) { return false; })) {
    text.push_back({e.path, static_cast<int>(e.type), e.mode, e.uid, e.gid, e.link_target});
    map[e.path] = std::move(e);
  }
  if (!cached.empty()) write_file_atomically(cached, text.dump());
  return map;
}

std::optional<layer::Entry> ImageFiles::find(const std::string& wanted) {
  std::string path = clean_path(wanted);
  if (path == ".") return layer::Entry{"", layer::EntryType::kDirectory, 0755};
  for (size_t i = image_.layers().size(); i-- > 0;) {
    const auto& entries = listing(i);
    if (auto it = entries.find(path); it != entries.end()) return it->second;
    // Hidden by this layer: a whiteout of the path or an ancestor, an opaque ancestor, or an
    // ancestor that this layer made something other than a directory.
    for (fs::path p = path; !p.empty() && p != "/"; p = p.parent_path()) {
      fs::path whiteout = p.parent_path() / (std::string(kWhiteout) + p.filename().string());
      if (entries.contains(whiteout.string())) return std::nullopt;
      if (p.string() != path) {
        if (entries.contains((p / std::string(kOpaque)).string())) return std::nullopt;
        auto ancestor = entries.find(p.string());
        if (ancestor != entries.end() && ancestor->second.type != layer::EntryType::kDirectory) return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

std::string ImageFiles::resolve(const std::string& path, bool last_too) {
  std::vector<std::string> rest;
  for (const auto& part : fs::path(path).relative_path()) rest.push_back(part.string());
  std::reverse(rest.begin(), rest.end());  // a stack: the next component last
  fs::path done = "/";
  for (int hops = 0; !rest.empty();) {
    std::string part = rest.back();
    rest.pop_back();
    if (part.empty() || part == ".") continue;
    fs::path next = (done / part).lexically_normal();
    bool last = rest.empty();
    auto entry = (last && !last_too) ? std::nullopt : find(next.string());
    if (!entry || entry->type != layer::EntryType::kSymlink || ++hops > 40) {
      done = next;
      continue;
    }
    // Follow the link: its target's components come next, from the root or from here.
    std::vector<std::string> target;
    for (const auto& t : fs::path(entry->link_target)) target.push_back(t.string());
    if (entry->link_target.starts_with('/')) done = "/";
    for (auto it = target.rbegin(); it != target.rend(); ++it)
      if (*it != "/") rest.push_back(*it);
  }
  std::string out = done.lexically_normal().string();
  while (out.size() > 1 && out.ends_with('/')) out.pop_back();
  return out;
}

std::optional<std::string> ImageFiles::read(const std::string& wanted) {
  std::string path = clean_path(wanted);
  auto found = find(path);
  if (!found || found->type != layer::EntryType::kFile) return std::nullopt;
  for (size_t i = image_.layers().size(); i-- > 0;) {
    if (!listing(i).contains(path)) continue;
    for (const auto& e : read_layer(i, [&](const std::string& p) { return p == path; })) {
      if (e.path == path && !e.source.empty()) return read_file(e.source);
    }
  }
  return std::nullopt;
}

std::map<std::string, layer::Entry> ImageFiles::all() {
  std::map<std::string, layer::Entry> merged;
  auto remove_tree = [&](const std::string& path, bool keep_root) {
    auto it = merged.lower_bound(path);
    while (it != merged.end() && (it->first == path || it->first.starts_with(path + "/"))) {
      it = (keep_root && it->first == path) ? std::next(it) : merged.erase(it);
    }
  };
  for (size_t i = 0; i < image_.layers().size(); ++i) {
    auto entries = read_layer(i, [](const std::string&) { return true; });
    for (const auto& e : entries) {  // whiteouts hide what is below this layer only
      fs::path p(e.path);
      std::string name = p.filename().string();
      if (name == kOpaque) {
        remove_tree(p.parent_path().string(), true);
      } else if (name.starts_with(kWhiteout)) {
        remove_tree((p.parent_path() / name.substr(kWhiteout.size())).string(), false);
      }
    }
    for (auto& e : entries) {
      if (fs::path(e.path).filename().string().starts_with(kWhiteout)) continue;
      if (e.type != layer::EntryType::kDirectory) remove_tree(e.path, false);
      merged[e.path] = std::move(e);
    }
  }
  return merged;
}

}  // namespace gkebuild::build
