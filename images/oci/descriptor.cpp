#include "images/oci/descriptor.h"

namespace gkebuild::oci {

void to_json(nlohmann::json& j, const Digest& d) { j = d.str(); }
void from_json(const nlohmann::json& j, Digest& d) { d = Digest::parse(j.get<std::string>()); }

void to_json(nlohmann::json& j, const Platform& p) {
  j = nlohmann::json{{"architecture", p.architecture}, {"os", p.os}};
  if (!p.variant.empty()) j["variant"] = p.variant;
}

void from_json(const nlohmann::json& j, Platform& p) {
  p.architecture = j.at("architecture").get<std::string>();
  p.os = j.at("os").get<std::string>();
  p.variant = j.value("variant", "");
}

void to_json(nlohmann::json& j, const Descriptor& d) {
  j = nlohmann::json{{"mediaType", d.media_type}, {"digest", d.digest.str()}, {"size", d.size}};
  if (!d.annotations.empty()) j["annotations"] = d.annotations;
  if (d.platform) j["platform"] = *d.platform;
}

void from_json(const nlohmann::json& j, Descriptor& d) {
  d.media_type = j.value("mediaType", "");
  d.digest = Digest::parse(j.at("digest").get<std::string>());
  d.size = j.at("size").get<int64_t>();
  d.annotations = j.value("annotations", std::map<std::string, std::string>{});
  if (j.contains("platform")) d.platform = j.at("platform").get<Platform>();
}

}  // namespace gkebuild::oci
