// Small objects the client tests send.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace gkebuild::testing {

// A one-container Job; a name ending in '-' becomes metadata.generateName.
inline nlohmann::json test_job(const std::string& name, const std::string& restart_policy = "Never") {
  auto job = nlohmann::json::parse(R"({
    "apiVersion": "batch/v1", "kind": "Job", "metadata": {},
    "spec": {"template": {"spec": {
      "containers": [{"name": "main", "image": "registry.test/train@sha256:00"}]}}}})");
  job["spec"]["template"]["spec"]["restartPolicy"] = restart_policy;
  job["metadata"][name.ends_with("-") ? "generateName" : "name"] = name;
  return job;
}

}  // namespace gkebuild::testing
