#include "images/oci/manifest.h"

#include <ctime>
#include <stdexcept>

#include "base/error.h"
#include "images/oci/media_types.h"

namespace gkebuild::oci {
namespace {

using nlohmann::json;

json parse_object(std::string_view text, const char* what) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw Error(ErrorKind::kFailed, std::string("invalid ") + what + ": not a JSON object");
  }
  return j;
}

json set_of(const std::set<std::string>& names) {
  json j = json::object();
  for (const auto& n : names) j[n] = json::object();
  return j;
}

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> out;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
  }
  return out;
}

json container_config_json(const ContainerConfig& c) {
  json j = c.other.is_object() ? c.other : json::object();
  if (!c.env.empty()) j["Env"] = c.env;
  if (c.entrypoint) j["Entrypoint"] = *c.entrypoint;
  if (c.cmd) j["Cmd"] = *c.cmd;
  if (!c.working_dir.empty()) j["WorkingDir"] = c.working_dir;
  if (!c.user.empty()) j["User"] = c.user;
  if (!c.stop_signal.empty()) j["StopSignal"] = c.stop_signal;
  if (!c.labels.empty()) j["Labels"] = c.labels;
  if (!c.exposed_ports.empty()) j["ExposedPorts"] = set_of(c.exposed_ports);
  if (!c.volumes.empty()) j["Volumes"] = set_of(c.volumes);
  return j;
}

std::optional<std::vector<std::string>> optional_strings(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::vector<std::string>>();
}

ContainerConfig container_config_from(const json& j) {
  ContainerConfig c;
  if (!j.is_object()) return c;
  if (j.contains("Env") && !j["Env"].is_null()) c.env = j["Env"].get<std::vector<std::string>>();
  c.entrypoint = optional_strings(j, "Entrypoint");
  c.cmd = optional_strings(j, "Cmd");
  c.working_dir = j.value("WorkingDir", "");
  c.user = j.value("User", "");
  c.stop_signal = j.value("StopSignal", "");
  if (j.contains("Labels") && j["Labels"].is_object()) {
    c.labels = j["Labels"].get<std::map<std::string, std::string>>();
  }
  if (j.contains("ExposedPorts")) c.exposed_ports = keys_of(j["ExposedPorts"]);
  if (j.contains("Volumes")) c.volumes = keys_of(j["Volumes"]);
  // Docker-format keys that an image built FROM this one inherits (others, like Hostname, are
  // not carried over, as buildah does not).
  for (const char* key : {"Healthcheck", "Shell", "OnBuild"}) {
    if (j.contains(key) && !j[key].is_null()) c.other[key] = j[key];
  }
  return c;
}

json history_json(const History& h) {
  json j = json::object();
  if (!h.created.empty()) j["created"] = h.created;
  if (!h.created_by.empty()) j["created_by"] = h.created_by;
  if (!h.comment.empty()) j["comment"] = h.comment;
  if (h.empty_layer) j["empty_layer"] = true;
  return j;
}

History history_from(const json& j) {
  return History{j.value("created", ""), j.value("created_by", ""), j.value("comment", ""),
                 j.value("empty_layer", false)};
}

}  // namespace

std::string to_json_text(const Manifest& m) {
  json j{{"schemaVersion", 2}, {"mediaType", m.media_type}, {"config", m.config},
         {"layers", m.layers}};
  if (!m.annotations.empty()) j["annotations"] = m.annotations;
  return j.dump();
}

std::string to_json_text(const Index& i) {
  json j{{"schemaVersion", 2}, {"manifests", i.manifests}};
  if (!i.media_type.empty()) j["mediaType"] = i.media_type;
  if (!i.annotations.empty()) j["annotations"] = i.annotations;
  return j.dump();
}

std::string to_json_text(const ImageConfig& c) {
  json j = c.other;
  if (!c.created.empty()) j["created"] = c.created;
  j["architecture"] = c.architecture;
  j["os"] = c.os;
  j["config"] = container_config_json(c.config);
  json diff_ids = json::array();
  for (const auto& d : c.diff_ids) diff_ids.push_back(d.str());
  j["rootfs"] = json{{"type", "layers"}, {"diff_ids", diff_ids}};
  json history = json::array();
  for (const auto& h : c.history) history.push_back(history_json(h));
  if (!history.empty()) j["history"] = history;
  return j.dump();
}

Manifest parse_manifest(std::string_view text) {
  json j = parse_object(text, "image manifest");
  try {
    Manifest m;
    m.media_type = j.value("mediaType", std::string(media::kOciManifest));
    if (!media::is_manifest(m.media_type)) {
      throw Error(ErrorKind::kFailed, "media type " + m.media_type + " is not an image manifest");
    }
    m.config = j.at("config").get<Descriptor>();
    m.layers = j.value("layers", std::vector<Descriptor>{});
    m.annotations = j.value("annotations", std::map<std::string, std::string>{});
    return m;
  } catch (const json::exception& e) {
    throw Error(ErrorKind::kFailed, std::string("invalid image manifest: ") + e.what());
  } catch (const InputError& e) {  // a malformed digest in a descriptor
    throw Error(ErrorKind::kFailed, std::string("invalid image manifest: ") + e.what());
  }
}

Index parse_index(std::string_view text) {
  json j = parse_object(text, "image index");
  try {
    Index i;
    i.media_type = j.value("mediaType", "");
    i.manifests = j.value("manifests", std::vector<Descriptor>{});
    i.annotations = j.value("annotations", std::map<std::string, std::string>{});
    return i;
  } catch (const json::exception& e) {
    throw Error(ErrorKind::kFailed, std::string("invalid image index: ") + e.what());
  } catch (const InputError& e) {  // a malformed digest in a descriptor
    throw Error(ErrorKind::kFailed, std::string("invalid image index: ") + e.what());
  }
}

ImageConfig parse_image_config(std::string_view text) {
  json j = parse_object(text, "image config");
  try {
    ImageConfig c;
    c.created = j.value("created", "");
    c.architecture = j.value("architecture", "amd64");
    c.os = j.value("os", "linux");
    c.config = container_config_from(j.value("config", json::object()));
    if (j.contains("rootfs")) {
      for (const auto& d : j["rootfs"].value("diff_ids", json::array())) {
        c.diff_ids.push_back(Digest::parse(d.get<std::string>()));
      }
    }
    for (const auto& h : j.value("history", json::array())) c.history.push_back(history_from(h));
    for (const char* known : {"created", "architecture", "os", "config", "rootfs", "history"}) {
      j.erase(known);
    }
    c.other = std::move(j);
    return c;
  } catch (const json::exception& e) {
    throw Error(ErrorKind::kFailed, std::string("invalid image config: ") + e.what());
  } catch (const InputError& e) {
    throw Error(ErrorKind::kFailed, std::string("invalid image config: ") + e.what());
  }
}

}  // namespace gkebuild::oci
