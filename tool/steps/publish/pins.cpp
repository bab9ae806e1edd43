#include "tool/steps/publish/pins.h"

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/confined_path.h"
#include "base/printable.h"
#include "images/oci/file_lock.h"
#include "registry/transport/errors.h"
#include "registry/transport/reference.h"
#include "tool/core/yamlfile/document.h"
#include "tool/core/yamlfile/fields.h"

namespace gkebuild::publish {
namespace fs = std::filesystem;

namespace {

// `text` of `key` must be a reference; a pinned one must carry a digest.
void check_reference(const yamlfile::Fields& fields, const std::string& key, bool digest) {
  const std::string text = fields.required_string(key);
  try {
    const auto parsed = registry::parse_reference(text);
    if (digest && parsed.digest.empty())
      fields.document().fail(fields.get(key), fields.name(key) + ": '" + text + "' names no digest (@sha256:…)");
  } catch (const registry::RegistryError& e) {
    fields.document().fail(fields.get(key), fields.name(key) + ": " + e.what());
  }
}

ImagePin read_pin(const yamlfile::Document& doc, const YAML::Node& node, const std::string& name) {
  if (!node.IsMap()) doc.fail(node, "image '" + name + "' must be a mapping");
  yamlfile::Fields fields(doc, node, "image '" + name + "'", {"reference", "tag", "built", "layout", "pushedAt"});
  check_reference(fields, "reference", true);
  check_reference(fields, "tag", false);
  return {fields.required_string("reference"), fields.required_string("tag"), fields.string("built", ""),
          fields.string("layout", ""), fields.string("pushedAt", "")};
}

nlohmann::ordered_json to_json(const ImagePin& pin) {
  return {{"reference", pin.reference}, {"tag", pin.tag}, {"built", pin.built}, {"layout", pin.layout},
          {"pushedAt", pin.pushed_at}};
}

}  // namespace

fs::path pins_file(const fs::path& project_dir) { return project_dir / ".gkebuild" / "images.json"; }

namespace {

ImagePins parse_pins(const yamlfile::Document& doc) {
  if (!doc.root().IsMap()) doc.fail(doc.root(), "the pin file must be a mapping with 'images'");
  yamlfile::Fields top(doc, doc.root(), "the pin file", {"images"});
  ImagePins pins;
  const YAML::Node images = top.get("images");
  if (!images) return pins;
  if (!images.IsMap()) doc.fail(images, "'images' must map image names to pins");
  for (const auto& entry : images) {
    const auto name = entry.first.as<std::string>();
    pins[name] = read_pin(doc, entry.second, name);
  }
  return pins;
}

}  // namespace

ImagePins read_pins(const fs::path& file) {
  // The pin file lies in PROJECT/.gkebuild/, which a checkout under review may have planted
  // (`ln -s /proc/self/environ .gkebuild/images.json`): read only as a regular file inside
  // the project folder.
  const fs::path gkebuild_dir = file.parent_path();
  const auto text = read_confined_file(gkebuild_dir.parent_path(), gkebuild_dir.filename() / file.filename(),
                                       yamlfile::kMaxFileBytes);
  if (!text) return {};
  try {
    // JSON is YAML, and the YAML reader knows where each node is, for errors.
    return parse_pins(yamlfile::Document::parse(*text, file.string()));
  } catch (const SourceError& e) {
    // gkebuild wrote this file: an error in it names the position, never quotes its lines.
    throw SourceError(e.where(), printable(e.message()) + " (gkebuild writes this file; remove it and push again)");
  }
}

void write_pins(const fs::path& file, const ImagePins& pins) {
  nlohmann::ordered_json images = nlohmann::ordered_json::object();
  for (const auto& [name, pin] : pins) images[name] = to_json(pin);
  const nlohmann::ordered_json top = {{"images", images}};
  // Owner only: pins name private registries and may sit beside credentials.
  write_file_atomically(file, top.dump(2) + "\n", FileAccess::kOwnerOnly);
}

void record_pin(const fs::path& file, const std::string& image, const ImagePin& pin) {
  fs::create_directories(file.parent_path());
  oci::FileLock lock(fs::path(file).concat(".lock"));
  ImagePins pins = read_pins(file);
  pins[image] = pin;
  write_pins(file, pins);
}

}  // namespace gkebuild::publish
