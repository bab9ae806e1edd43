// One Kubernetes object read from a file: its JSON value for the validators, and its
// YAML node so that any path inside it maps back to a line and column of the file.
#pragma once

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace gkebuild::validate {

// A path inside an object: map keys and array indices (as decimal text), outermost first.
using Path = std::vector<std::string>;

// "spec.template.spec.containers[0].resources" for messages.
std::string to_display(const Path& path);

// object[name] when it is a string; "" otherwise (also when object is not an object).
std::string string_field(const nlohmann::json& object, const char* name);

struct Position {
  int line = 0;    // 1-based, in the file
  int column = 0;  // 1-based
};

struct Manifest {
  std::string file;    // as the user named it
  int line_offset = 0; // 0-based file line on which the document's text starts
  YAML::Node node;     // the object (a document root, or an item of a kind: List)
  nlohmann::json value;

  // Where the value at `path` starts; with `key`, where its key starts instead.
  // A path that does not exist (a missing field) resolves to its deepest existing parent.
  Position position(const Path& path, bool key = false) const;
  Position position_of(const YAML::Mark& mark) const;

  std::string kind() const;
  std::string api_version() const;
  std::string name() const;
};

}  // namespace gkebuild::validate
