#include "registry/transport/status.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

bool is_retryable_status(long status) {
  return status == 408 || status == 429 || (status >= 500 && status <= 599);
}

// Registry messages are shown to the user; keep them one short line.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() > 200) text = text.substr(0, 200) + "…";
  return text;
}

}  // namespace

std::string registry_error_text(const HttpResponse& response) {
  auto body = nlohmann::json::parse(response.body, nullptr, false);
  if (!body.is_object() || !body.contains("errors") || !body["errors"].is_array()) return "";
  std::string text;
  for (const auto& error : body["errors"]) {
    if (!error.is_object()) continue;
    if (!text.empty()) text += "; ";
    text += error.value("code", "");
    std::string message = error.value("message", "");
    if (!message.empty()) text += (text.empty() ? "" : ": ") + message;
  }
  return one_line(text);
}

void expect_status(const HttpResponse& response, std::initializer_list<long> expected,
                   const std::string& what) {
  if (std::find(expected.begin(), expected.end(), response.status) != expected.end()) return;
  std::string message = what + ": the registry answered HTTP " + std::to_string(response.status);
  if (auto text = registry_error_text(response); !text.empty()) message += " (" + text + ")";
  throw RegistryError(is_retryable_status(response.status) ? ErrorKind::kRetryable
                                                           : ErrorKind::kRemote,
                      message);
}

}  // namespace gkebuild::registry
