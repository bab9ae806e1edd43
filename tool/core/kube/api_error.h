// A request the API server refused, in plain words: what was attempted, what the
// status code means for the user, the server's reason and message, and each cause
// (the field an admission webhook or validation rejected, a conflicting manager).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "base/error.h"

namespace gkebuild::kube {

struct StatusCause {
  std::string reason;   // FieldValueInvalid, FieldManagerConflict…
  std::string message;
  std::string field;
};

// A failed operation: the server refused a request gkebuild made for the user.
class ApiError : public Error {
 public:
  // `action` says what was attempted ("create Job team/train-x"); `body` is the
  // response body, a Status object when the server sent one.
  ApiError(std::string action, long status, const std::string& body);

  long status() const { return status_; }
  const std::string& reason() const { return reason_; }
  const std::string& server_message() const { return message_; }
  const std::vector<StatusCause>& causes() const { return causes_; }
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::string text_;
  long status_;
  std::string reason_;
  std::string message_;
  std::vector<StatusCause> causes_;
};

// The reason and message of a Status JSON object (for watch ERROR events).
ApiError status_error(const std::string& action, const nlohmann::json& status);

}  // namespace gkebuild::kube
