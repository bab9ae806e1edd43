// Server-side apply as the fake cluster models it (fake_cluster.h): who owns which field of an
// object, and what an apply by one manager does to fields another owns. A manager owns each leaf
// it set (a scalar, a list, an empty map: lists are atomic here, where a server merges lists with
// merge keys, which no object submit applies has); an apply sets the fields sent, removes the
// fields its manager set before and no longer sends (unless another manager owns them), and
// changing a field another manager owns to another value is a 409 Conflict naming the manager and
// the field, unless forced (the field then changes hands). A create's fields are owned by
// "create"; objects a test puts are owned by nobody unless put with a manager.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>

namespace gkebuild::testing {

class FieldManagers {
 public:
  // `manager` owns every field of `object` (a create, an update).
  void own_all(const std::string& manager, const nlohmann::json& object);

  // The object after `manager` applies `body` to `stored` (nullopt: a new object). Throws the
  // server's 409 kube::ApiError for `action` on a conflict unless `force`. Changes the
  // ownership only when `commit` (a dry run changes nothing).
  nlohmann::json apply(const std::optional<nlohmann::json>& stored, const nlohmann::json& body,
                       const std::string& manager, bool force, const std::string& action, bool commit);

  // The managers and the fields each owns, as JSON pointers, for tests.
  const std::map<std::string, std::set<std::string>>& owners() const { return owners_; }

 private:
  std::map<std::string, std::set<std::string>> owners_;  // "manager (Apply|Update)" -> pointers
};

}  // namespace gkebuild::testing
