#include "images/dockerfile_build/image_users.h"

#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/error.h"

namespace gkebuild::build {
namespace {

bool is_number(const std::string& s) {
  return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
}

// The fields of the line whose first field (name) or third (id) is `key`.
std::optional<std::vector<std::string>> find_line(const std::optional<std::string>& file, const std::string& key) {
  if (!file) return std::nullopt;
  std::istringstream in(*file);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string f; std::getline(parts, f, ':');) fields.push_back(f);
    if (fields.size() >= 3 && (fields[0] == key || (is_number(key) && fields[2] == key))) return fields;
  }
  return std::nullopt;
}

uint32_t number(const std::string& s) { return static_cast<uint32_t>(std::stoul(s)); }

}  // namespace

std::pair<uint32_t, uint32_t> resolve_owner(const std::string& spec, const std::optional<std::string>& passwd,
                                            const std::optional<std::string>& group) {
  size_t colon = spec.find(':');
  std::string user = spec.substr(0, colon);
  if (user.empty()) throw InputError("'" + spec + "' names no user");
  uint32_t uid = 0, gid = 0;
  auto entry = find_line(passwd, user);
  if (entry && entry->size() >= 4 && is_number((*entry)[2]) && is_number((*entry)[3])) {
    uid = number((*entry)[2]);
    gid = number((*entry)[3]);
  } else if (is_number(user)) {
    uid = gid = number(user);
  } else {
    throw InputError("no user '" + user + "' in the image's /etc/passwd");
  }
  if (colon == std::string::npos) return {uid, gid};
  std::string name = spec.substr(colon + 1);
  if (is_number(name)) return {uid, number(name)};
  auto g = find_line(group, name);
  if (!g || !is_number((*g)[2])) throw InputError("no group '" + name + "' in the image's /etc/group");
  return {uid, number((*g)[2])};
}

}  // namespace gkebuild::build
