#include "tool/steps/validate/schema_locator.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/http_client.h"
#include "tool/steps/validate/embedded_schemas.h"
#include "tool/steps/validate/package_schemas.h"

namespace gkebuild::validate {
namespace fs = std::filesystem;

namespace {

bool is_url(std::string_view s) { return s.starts_with("http://") || s.starts_with("https://"); }

std::string parent_of(const std::string& id) {
  size_t slash = id.rfind('/');
  return slash == std::string::npos ? std::string("./") : id.substr(0, slash + 1);
}

// The body of `url`, a --schema-location the user gave; nullopt on HTTP 404
// (kubeconform's "try the next location"). Any other failure names the URL: the
// user wrote it, so it holds nothing they have not seen.
std::optional<std::string> http_get(const std::string& url) {
  static HttpClient client({.timeouts = {.connect_seconds = 10, .total_seconds = 60}});
  HttpRequest request;
  request.url = url;
  request.follow_redirects = true;
  request.body_limit = 64 << 20;  // the largest Kubernetes schema bundles are a few MiB
  HttpResponse response;
  try {
    response = client.send(request);
  } catch (const HttpError& e) {
    throw Error(ErrorKind::kFailed, "cannot fetch " + url + ": " + e.reason());
  }
  if (response.status == 404) return std::nullopt;
  if (response.status < 200 || response.status >= 300)
    throw Error(ErrorKind::kFailed, "cannot fetch " + url + ": HTTP " + std::to_string(response.status));
  return std::move(response.body);
}

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

namespace {

constexpr std::string_view kEmbeddedPrefix = "embedded:";

bool same_minor(const KubernetesVersion& a, const KubernetesVersion& b) {
  return a.major == b.major && a.minor == b.minor;
}

}  // namespace

// The package is asked (a Python start) only for a version gkebuild has no schemas of: the
// embedded ones answer every run that names none or one of theirs.
SchemaLocator::SchemaLocator(SchemaLocatorOptions options) : options_(std::move(options)) {
  const auto embedded = embedded_schema_versions();
  std::optional<KubernetesVersion> newest;
  if (!embedded.empty()) newest = embedded.back();
  std::vector<fs::path> roots;
  const bool embedded_exact = options_.version && embedded_version_for(*options_.version) &&
                              same_minor(*embedded_version_for(*options_.version), *options_.version);
  if (options_.version && !embedded_exact)
    if (auto package = kubernetes_validate_schema_root(options_.cache_dir)) roots.push_back(*package);
  roots.push_back(options_.cache_dir / "kubernetes-json-schema");
  for (const auto& root : roots) {
    auto versions = VersionedSchemaRoot{root}.versions(options_.strict);
    if (versions.empty()) continue;
    bundled_dirs_.push_back(root);
    if (!newest || versions.back() > *newest) newest = versions.back();
  }
  version_ = options_.version.value_or(newest.value_or(kFallbackKubernetesVersion));
  embedded_ = embedded_version_for(version_);
}

std::optional<SchemaSource> SchemaLocator::find(std::string_view api_version, std::string_view kind) const {
  SchemaNames names = schema_names(api_version, kind);
  for (const auto& location : options_.locations)
    if (auto found = from_location(location, names)) return found;
  for (const auto& root : bundled_dirs_) {
    auto dir = VersionedSchemaRoot{root}.directory_for(version_, options_.strict);
    if (!dir) continue;
    if (auto found = from_file(*dir / names.file_name())) return found;
  }
  if (embedded_ && has_embedded_schema(*embedded_, names.file_name())) {
    const std::string base = std::string(kEmbeddedPrefix) + "v" + embedded_->to_string() +
                             (options_.strict ? "-local-strict/" : "-local/");
    // The text is read on a cache miss only (text_of): most runs never decompress it.
    return SchemaSource{base + names.file_name(), base, "", embedded_schemas_stamp()};
  }
  return std::nullopt;
}

std::string SchemaLocator::text_of(const SchemaSource& source) const {
  if (!source.text.empty() || !source.id.starts_with(kEmbeddedPrefix)) return source.text;
  return read_sibling(source, source.id.substr(source.base.size()));
}

std::optional<std::string> SchemaLocator::from_embedded(const std::string& target) const {
  if (!embedded_) return std::nullopt;
  return embedded_schema(*embedded_, target.substr(target.rfind('/') + 1), options_.strict);
}

std::optional<SchemaSource> SchemaLocator::from_location(const std::string& location,
                                                         const SchemaNames& names) const {
  // A template, or (as in kubeconform) a path ending in .json: that one schema file,
  // for every kind the earlier locations do not have.
  if (location.find("{{") != std::string::npos || location.ends_with(".json")) {
    std::string target = expand_location_template(location, names, version_, options_.strict);
    return is_url(target) ? from_url(target) : from_file(target);
  }
  const std::string flavour = std::string(options_.strict ? "-standalone-strict" : "-standalone");
  const std::string versioned = "v" + version_.to_string();
  if (is_url(location)) {
    std::string base = location.ends_with("/") ? location : location + "/";
    return from_url(base + versioned + flavour + "/" + names.file_name());
  }
  fs::path dir(location);
  const std::string local = options_.strict ? "-local-strict" : "-local";
  // Built-in kinds in kubeconform's folder layouts; custom resources as the CRDs-catalog
  // lays them out ({{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json) and as
  // openapi2jsonschema.py writes them ({kind}_{version}.json).
  const std::string crd_name = names.resource_kind + "_" + names.resource_api_version + ".json";
  for (const fs::path& candidate : {dir / names.file_name(), dir / (versioned + flavour) / names.file_name(),
                                    dir / (versioned + local) / names.file_name(), dir / names.group / crd_name,
                                    dir / crd_name})
    if (auto found = from_file(candidate)) return found;
  return std::nullopt;
}

std::optional<SchemaSource> SchemaLocator::from_file(const fs::path& path) const {
  auto text = read_text(path);
  if (!text) return std::nullopt;
  std::error_code ec;
  auto stamp = fs::last_write_time(path, ec).time_since_epoch().count();
  std::string id = path.string();
  return SchemaSource{id, parent_of(id), std::move(*text), static_cast<long long>(stamp)};
}

std::optional<SchemaSource> SchemaLocator::from_url(const std::string& url) const {
  fs::path cached = options_.cache_dir / "downloads" / (fnv1a_hex(url) + ".json");
  auto text = read_text(cached);
  if (!text) {
    text = http_get(url);
    if (!text) return std::nullopt;
    try {
      write_file_atomically(cached, *text);
    } catch (const std::exception&) {
      // Without a writable cache the schema is simply fetched again next time.
    }
  }
  return SchemaSource{url, parent_of(url), std::move(*text), 0};
}

std::string SchemaLocator::read_sibling(const SchemaSource& from, const std::string& name) const {
  std::string leaf = name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1);
  std::string target = from.base + leaf;
  if (target.starts_with(kEmbeddedPrefix)) {
    if (auto text = from_embedded(target)) return std::move(*text);
    throw Error(ErrorKind::kBadInput, "schema " + from.id + " refers to " + name + ", which gkebuild does not embed");
  }
  std::optional<SchemaSource> sibling = is_url(target) ? from_url(target) : from_file(target);
  if (!sibling) throw Error(ErrorKind::kBadInput, "schema " + from.id + " refers to " + name + ", which is not at " + target);
  return std::move(sibling->text);
}

std::string SchemaLocator::searched() const {
  std::string out;
  for (const auto& location : options_.locations) out += (out.empty() ? "" : ", ") + location;
  for (const auto& root : bundled_dirs_) out += (out.empty() ? "" : ", ") + root.string();
  if (embedded_) out += (out.empty() ? "" : ", ") + std::string("the schemas built into gkebuild (") + embedded_->to_string() + ")";
  return out.empty() ? "no schema source" : out;
}

}  // namespace gkebuild::validate
