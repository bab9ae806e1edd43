#include "images/dockerfile_build/stage_builder.h"

#include <algorithm>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "base/http_client.h"
#include "images/dockerfile_build/remote_source.h"

namespace gkebuild::build {
namespace fs = std::filesystem;

CopyRequest StageBuilder::copy_request(const Instruction& in, bool add, std::vector<std::string> parts) {
  CopyRequest request;
  request.context = options_.context;
  request.ignore = &shared_.ignore;
  request.sources.assign(parts.begin(), parts.end() - 1);
  std::string dest = parts.back();
  bool trailing = dest.ends_with('/') || dest == "." || dest.ends_with("/.");
  if (!dest.starts_with('/')) {
    dest = (config_.working_dir.empty() ? std::string("/") : config_.working_dir + "/") + dest;
  }
  auto image = std::make_shared<ImageFiles>(files(image_));
  // Symlinked folders of the image are followed, as BuildKit does (/lib/x lands in /usr/lib/x).
  dest = image->resolve(fs::path(dest).lexically_normal().string(), trailing);
  if (trailing && !dest.ends_with('/')) dest += '/';
  request.destination = dest;
  for (const auto& flag : in.flags) {
    std::string value = word(in, flag.value);
    if (flag.name == "chown") std::tie(request.uid, request.gid) = owner(in, value);
    if (flag.name == "chmod") {
      try {
        request.chmod = parse_chmod(value);
      } catch (const CopyError& e) {
        fail_at(in, flag.column, e.what());
      }
    }
    if (flag.name == "link" && flag.has_value && value != "true" && value != "false") {
      fail_at(in, flag.column, "--link takes true or false, not '" + value + "'");
    }
    if (flag.name == "checksum" && add &&
        std::none_of(request.sources.begin(), request.sources.end(), is_remote_source)) {
      fail_at(in, flag.column, "ADD --checksum is only for sources given by URL");
    }
  }
  request.existing = [image](const std::string& path) { return image->find(path); };
  return request;
}

void StageBuilder::copy(const Instruction& in, bool add) {
  auto parts = words(in);
  if (parts.size() < (in.heredocs.empty() ? 2u : 1u)) {
    fail(in, in.name + " needs at least one source and a destination");
  }
  CopyRequest request = copy_request(in, add, parts);
  // Heredoc markers are sources that are not files of the context.
  std::erase_if(request.sources, [&](const std::string& s) {
    return std::any_of(in.heredocs.begin(), in.heredocs.end(), [&](const auto& h) {
      auto marker = dockerfile::heredoc_marker(s);
      return marker && marker->name == h.name;
    });
  });
  try {
    CopyLayer collected;
    if (auto from = shared_.plan.copy_from(in)) {
      if (add) fail(in, "ADD does not take --from");
      copy_from_image(in, *from, request);
    }
    if (add) add_remote(in, request, collected);
    if (add) add_archives(in, request.sources, request.destination, request, collected);
    if (!request.sources.empty()) {
      CopyLayer files = collect_copy(request);
      for (auto& e : files.entries) collected.entries.push_back(std::move(e));
      collected.list_fingerprint += files.list_fingerprint;
      collected.stat_fingerprint += files.stat_fingerprint;
    }
    add_heredocs(in, request, collected);
    if (collected.entries.empty()) {
      progress("nothing to copy");
      return record(in);
    }
    append(in, std::move(collected));
  } catch (const CopyError& e) {
    fail(in, e.what());
  }
}

// COPY --from: the source stage's or image's files, extracted with their modes and owners,
// are the context.
void StageBuilder::copy_from_image(const Instruction& in, const std::string& from, CopyRequest& request) {
  image::Image source;
  const auto stage = shared_.plan.stage_named(from, shared_.plan.stage_of(index_of(in)));
  if (auto named = options_.named_contexts.find(from); !stage && named != options_.named_contexts.end()) {
    request.context = named->second;  // a build context of its own: files normalised as the main one's
    request.ignore = nullptr;
    return;
  }
  if (auto s = stage) {
    source = shared_.results.at(*s);
  } else if (is_stage_index(from)) {
    source = shared_.results.at(std::stoul(from));
  } else {
    source = load_image(in, from, "COPY --from image");
  }
  auto tree = std::make_shared<std::map<std::string, layer::Entry>>();
  fs::path root = shared_.scratch.next("from");
  try {
    *tree = files(source).all();
    materialise(*tree, root);
  } catch (const std::runtime_error& e) {
    fail(in, "COPY --from=" + from + ": " + e.what());
  }
  request.context = root;
  request.ignore = nullptr;  // .dockerignore is about the build context only
  for (auto& s : request.sources) {
    s.erase(0, s.find_first_not_of('/'));
    if (s.empty()) s = ".";
  }
  request.source_metadata = [tree](const std::string& path) -> std::optional<layer::Entry> {
    auto it = tree->find(path);
    return it == tree->end() ? std::nullopt : std::optional(it->second);
  };
}

// The image's tree under `root`, every path written beneath it (base/confined_path.h): symlinks
// are made as symlinks and never written through, and a path through one stays inside `root`.
void StageBuilder::materialise(const std::map<std::string, layer::Entry>& tree, const fs::path& root) {
  ConfinedTree out(root);
  for (const auto& [path, e] : tree) {
    if (e.type == layer::EntryType::kDirectory) out.make_directory(path);
    if (e.type == layer::EntryType::kSymlink) out.make_symlink(path, e.link_target);
    if (e.type == layer::EntryType::kFile && !e.source.empty()) out.make_hard_link(path, e.source);
  }
}

// COPY <<EOF /dest: each heredoc becomes a file named after its delimiter (in a folder
// destination) or the destination itself; unquoted delimiters expand variables.
void StageBuilder::add_heredocs(const Instruction& in, const CopyRequest& request, CopyLayer& layer) {
  if (in.heredocs.empty()) return;
  const std::string& dest = request.destination;
  bool into_folder = dest.ends_with('/');
  if (in.heredocs.size() > 1 && !into_folder) {
    fail(in, in.name + " with more than one source needs a destination ending in '/' (got '" + dest + "')");
  }
  fs::path folder = shared_.scratch.next("heredoc");
  fs::create_directories(folder);
  for (size_t i = 0; i < in.heredocs.size(); ++i) {
    const auto& h = in.heredocs[i];
    std::string text = dockerfile::heredoc_text(h);
    if (h.expand) text = word(in, text);
    fs::path source = folder / std::to_string(i);
    write_file_atomically(source, text);
    std::string path = fs::path(into_folder ? dest + h.name : dest).relative_path().lexically_normal().string();
    layer::Entry e{path, layer::EntryType::kFile, request.chmod.value_or(0644), request.uid.value_or(0),
                   request.gid.value_or(0)};
    e.size = static_cast<int64_t>(text.size());
    e.source = source;
    layer.entries.push_back(e);
    add_folders(request, fs::path(path).parent_path(), layer);
    std::string fingerprint = path + " " + std::to_string(e.mode) + " " + std::to_string(e.uid) + ":" +
                              std::to_string(e.gid) + "\n" + text + "\n";
    layer.list_fingerprint += fingerprint;
    layer.stat_fingerprint += fingerprint;
  }
}

// `folder` and the folders above it, where the layer does not hold them yet: those the image
// has keep their mode and owner, new ones are 0755 and owned as the copied files are.
void StageBuilder::add_folders(const CopyRequest& request, const fs::path& folder, CopyLayer& layer) {
  for (fs::path p = folder; !p.empty() && p != "."; p = p.parent_path()) {
    bool held = std::any_of(layer.entries.begin(), layer.entries.end(),
                            [&](const layer::Entry& e) { return e.path == p.string(); });
    if (held) continue;
    auto there = request.existing ? request.existing(p.string()) : std::nullopt;
    if (there && there->type != layer::EntryType::kDirectory) continue;  // a symlink to a folder stays one
    layer::Entry dir{p.string(), layer::EntryType::kDirectory, 0755, request.uid.value_or(0), request.gid.value_or(0)};
    if (there) dir.mode = there->mode, dir.uid = there->uid, dir.gid = there->gid;
    layer.entries.push_back(dir);
  }
}

// ADD URL: only with --checksum, which makes the download reproducible; the file is not
// unpacked and gets mode 0600, as BuildKit does.
void StageBuilder::add_remote(const Instruction& in, CopyRequest& request, CopyLayer& layer) {
  const auto* checksum = in.flag("checksum");
  for (const auto& source : request.sources) {
    if (!is_remote_source(source)) continue;
    if (checksum == nullptr) {
      fail(in, "ADD " + source + ": gkebuild downloads a URL only with --checksum=sha256:… (so that the build "
               "does not depend on what the server answers today); add it, or fetch the file beforehand and COPY it");
    }
    if (request.sources.size() > 1) fail(in, "ADD --checksum takes a single source");
    fs::path file = fetch_verified(source, word(in, checksum->value), store_->cache_dir() / "remote");
    std::string name = fs::path(without_query(source)).filename().string();
    std::string dest = request.destination.ends_with('/') ? request.destination + name : request.destination;
    std::string path = fs::path(dest).relative_path().lexically_normal().string();
    layer::Entry e{path, layer::EntryType::kFile, 0600, request.uid.value_or(0), request.gid.value_or(0)};
    if (request.chmod) e.mode = *request.chmod;
    e.size = static_cast<int64_t>(fs::file_size(file));
    e.source = file;
    layer.entries.push_back(e);
    add_folders(request, fs::path(path).parent_path(), layer);
    layer.list_fingerprint += "remote " + source + " " + checksum->value + "\n";
    layer.stat_fingerprint += "remote " + source + " " + checksum->value + "\n";
    request.sources.clear();
  }
}

// ADD of a local tar (any compression): its entries are unpacked at the destination with the
// archive's modes and owners, as BuildKit and buildah do; other sources are copied as COPY copies them.
void StageBuilder::add_archives(const Instruction& in, std::vector<std::string>& sources, const std::string& dest,
                                const CopyRequest& request, CopyLayer& layer) {
  std::vector<std::string> kept;
  int64_t unpacked = 0;  // by the archives before this one: the limit is on the whole ADD
  for (const auto& source : sources) {
    CopyRequest probe = request;
    probe.sources = {source};
    probe.destination = "/probe";
    CopyLayer found = collect_copy(probe);  // the checks COPY makes: confinement, .dockerignore
    if (found.entries.size() != 1 || found.entries[0].type != layer::EntryType::kFile) {
      kept.push_back(source);
      continue;
    }
    fs::path folder = shared_.scratch.next("add");
    std::vector<layer::Entry> entries;
    bool archive = false;
    try {
      archive = read_tar(found.entries[0].source, folder, [](const std::string&) { return true; }, entries,
                         options_.max_add_bytes - unpacked);
    } catch (const TarTooLarge& e) {
      fail(in, "ADD " + source + ": the archive " + e.what() +
                   (unpacked > 0 ? " after the " + std::to_string(unpacked) + " bytes of the archives before it" : "") +
                   "; one ADD may write at most " + std::to_string(options_.max_add_bytes) +
                   " bytes (gkebuild image --max-add-size)");
    } catch (const std::runtime_error& e) {
      fail(in, "ADD " + source + ": " + e.what());
    }
    if (!archive) {
      kept.push_back(source);
      continue;
    }
    std::string base = fs::path(dest).relative_path().lexically_normal().string();
    while (base.ends_with('/')) base.pop_back();  // entries never end in '/'
    if (base == ".") base.clear();
    // As buildah: the archive's own owners stay; --chown owns only the folders made for it.
    for (auto& e : entries) {
      if (e.type == layer::EntryType::kFile) unpacked += e.size;
      e.path = base.empty() ? e.path : base + "/" + e.path;
      layer.entries.push_back(e);
    }
    add_folders(request, base, layer);
    layer.list_fingerprint += "archive " + source + " " + found.list_fingerprint;
    layer.stat_fingerprint += "archive " + source + " " + found.stat_fingerprint;
  }
  sources = kept;
}

}  // namespace gkebuild::build
