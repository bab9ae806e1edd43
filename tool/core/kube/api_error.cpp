#include "tool/core/kube/api_error.h"

#include "base/printable.h"
#include "base/untrusted_text.h"

namespace gkebuild::kube {
namespace {

using nlohmann::json;

// What each status means for someone who only wanted their run submitted.
std::string meaning(long status, const std::string& reason) {
  if (reason == "AlreadyExists") return "it already exists";
  if (reason == "Conflict" || status == 409)
    return "conflict: another field manager owns fields this apply sets "
           "(apply with force to take them over)";
  switch (status) {
    case 400: return "the request was refused as malformed";
    case 401: return "the cluster did not accept the credentials (log in again, e.g. `gcloud auth login`)";
    case 403: return "forbidden: your account lacks the permission (ask for an RBAC role that grants it)";
    case 404: return "not found";
    case 410: return "the resource version expired";
    case 422: return "the cluster rejected the object (validation or an admission webhook)";
    case 429: return "the cluster is throttling requests";
    default:
      if (status >= 500) return "the API server failed (" + std::to_string(status) + ")";
      return "HTTP " + std::to_string(status);
  }
}

// A field of the server's answer, on one line of the message: escaped (a newline in it must not
// forge a line of ours) and without the credentials of any URL it quotes.
std::string server_text(const std::string& text) { return printable(without_userinfo(text)); }

std::string describe(const std::string& action, long status, const std::string& reason,
                     const std::string& message, const std::vector<StatusCause>& causes) {
  std::string text = action + ": " + meaning(status, reason);
  if (!reason.empty()) text += "\n  reason: " + server_text(reason);
  if (!message.empty()) text += "\n  message: " + server_text(message);
  for (const auto& cause : causes) {
    text += "\n  - ";
    if (!cause.field.empty()) text += server_text(cause.field) + ": ";
    text += server_text(cause.message.empty() ? cause.reason : cause.message);
    if (!cause.reason.empty() && !cause.message.empty()) text += " (" + server_text(cause.reason) + ")";
  }
  return text;
}

struct Parsed {
  std::string reason, message;
  std::vector<StatusCause> causes;
};

Parsed parse_status(const json& status) {
  Parsed parsed;
  if (!status.is_object()) return parsed;
  parsed.reason = status.value("reason", "");
  parsed.message = status.value("message", "");
  const json details = status.value("details", json::object());
  for (const json& cause : details.value("causes", json::array()))
    if (cause.is_object())
      parsed.causes.push_back({cause.value("reason", ""), cause.value("message", ""), cause.value("field", "")});
  return parsed;
}

Parsed parse_body(const std::string& body) {
  const json status = json::parse(body, nullptr, false);
  if (!status.is_discarded() && status.is_object()) return parse_status(status);
  Parsed parsed;
  // A non-JSON body (a proxy's page, a plain-text log error): its first line, briefly.
  parsed.message = body.substr(0, std::min(body.find('\n'), std::size_t{300}));
  return parsed;
}

}  // namespace

ApiError::ApiError(std::string action, long status, const std::string& body)
    : Error(ErrorKind::kFailed, action), status_(status) {
  Parsed parsed = parse_body(body);
  reason_ = std::move(parsed.reason);
  message_ = std::move(parsed.message);
  causes_ = std::move(parsed.causes);
  text_ = describe(action, status, reason_, message_, causes_);
}

ApiError status_error(const std::string& action, const json& status) {
  const long code = status.is_object() ? status.value("code", 500L) : 500L;
  return ApiError(action, code, status.dump());
}

}  // namespace gkebuild::kube
