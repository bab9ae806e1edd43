// Image manifests, image indexes and image configs, as the OCI image spec and
// Docker schema 2 define them. JSON is written with sorted keys and no spaces, so
// the same values always give the same bytes (and the same digest).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "images/oci/descriptor.h"

namespace gkebuild::oci {

struct Manifest {
  std::string media_type;  // kOciManifest or kDockerManifest
  Descriptor config;
  std::vector<Descriptor> layers;
  std::map<std::string, std::string> annotations;
};

struct Index {
  std::string media_type;  // kOciIndex or kDockerManifestList
  std::vector<Descriptor> manifests;
  std::map<std::string, std::string> annotations;
};

// The runtime part of an image config ("config" in the JSON).
struct ContainerConfig {
  std::vector<std::string> env;  // "NAME=value", in order of first definition
  std::optional<std::vector<std::string>> entrypoint;
  std::optional<std::vector<std::string>> cmd;
  std::string working_dir;
  std::string user;
  std::string stop_signal;
  std::map<std::string, std::string> labels;
  std::set<std::string> exposed_ports;  // "80/tcp"
  std::set<std::string> volumes;
  // Keys gkebuild does not model (Healthcheck, Shell, OnBuild in Docker's format), kept as they are.
  nlohmann::json other = nlohmann::json::object();
};

struct History {
  std::string created;
  std::string created_by;
  std::string comment;
  bool empty_layer = false;
};

struct ImageConfig {
  std::string created;  // RFC 3339
  std::string architecture = "amd64";
  std::string os = "linux";
  ContainerConfig config;
  std::vector<Digest> diff_ids;
  std::vector<History> history;
  // Top-level fields gkebuild does not model, kept as they came from a base image.
  nlohmann::json other = nlohmann::json::object();
};

std::string to_json_text(const Manifest& m);
std::string to_json_text(const Index& i);
std::string to_json_text(const ImageConfig& c);

// Parsers throw gkebuild::Error (a failed operation: what a registry or a layout holds is
// damaged) naming what is wrong.
Manifest parse_manifest(std::string_view text);
Index parse_index(std::string_view text);
ImageConfig parse_image_config(std::string_view text);

}  // namespace gkebuild::oci
