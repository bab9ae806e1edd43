#include "tool/steps/local_runner/container_user.h"

#include <charconv>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "base/error.h"
#include "base/input_file.h"
#include "tool/steps/local_runner/root_path.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

// One line of /etc/passwd or /etc/group, split at ':'.
using Fields = std::vector<std::string>;

std::vector<Fields> read_database(const fs::path& rootfs, const char* file) {
  std::vector<Fields> rows;
  // The image's own file, and an image may come from a checkout: a FIFO there would wait for ever,
  // a device never end. Only a regular file is read; anything else reads as no entries.
  std::string refusal;
  const int fd = open_input_file(resolve_in_root(rootfs, file), refusal);
  const auto text = fd < 0 ? std::nullopt : read_all(fd, std::size_t{64} << 20);
  std::istringstream in(text ? *text : std::string());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    Fields fields;
    std::istringstream split(line);
    std::string field;
    while (std::getline(split, field, ':')) fields.push_back(field);
    if (line.back() == ':') fields.emplace_back();
    if (fields.size() >= 3) rows.push_back(std::move(fields));
  }
  return rows;
}

std::optional<uint32_t> number(const std::string& text) {
  uint32_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The row whose name (field 0) or id (field 2) is `key`.
const Fields* find(const std::vector<Fields>& rows, const std::string& key, bool by_id) {
  for (const auto& row : rows) {
    if (by_id ? number(row[2]) == number(key) : row[0] == key) return &row;
  }
  return nullptr;
}

uint32_t id_of(const Fields& row, size_t field, const char* file) {
  auto id = field < row.size() ? number(row[field]) : std::nullopt;
  if (!id) throw Error(ErrorKind::kBadInput, std::string("the image's ") + file + " has a bad entry for '" + row[0] + "'");
  return *id;
}

std::vector<uint32_t> supplementary_groups(const std::vector<Fields>& groups, const std::string& name,
                                           uint32_t primary) {
  std::vector<uint32_t> out;
  for (const auto& row : groups) {
    if (row.size() < 4) continue;
    std::istringstream members(row[3]);
    std::string member;
    while (std::getline(members, member, ',')) {
      auto gid = number(row[2]);
      if (member == name && gid && *gid != primary) out.push_back(*gid);
    }
  }
  return out;
}

}  // namespace

ContainerUser resolve_user(const std::string& user, const fs::path& rootfs) {
  const size_t colon = user.find(':');
  const std::string user_part = user.substr(0, colon);
  const std::string group_part = colon == std::string::npos ? "" : user.substr(colon + 1);
  ContainerUser out;
  if (user_part.empty() && group_part.empty()) {
    out.home = "/root";
    return out;
  }

  const auto passwd = read_database(rootfs, "etc/passwd");
  const bool numeric_user = number(user_part).has_value();
  const Fields* entry = find(passwd, user_part, numeric_user);
  if (numeric_user) {
    out.uid = *number(user_part);
  } else if (entry) {
    out.uid = id_of(*entry, 2, "/etc/passwd");
  } else {
    throw Error(ErrorKind::kBadInput, "the image runs as user '" + user_part + "', which its /etc/passwd does not define");
  }
  if (entry) out.gid = id_of(*entry, 3, "/etc/passwd");
  if (entry && entry->size() > 5 && !(*entry)[5].empty()) out.home = (*entry)[5];

  const auto groups = read_database(rootfs, "etc/group");
  if (!group_part.empty()) {
    if (auto gid = number(group_part)) {
      out.gid = *gid;
    } else if (const Fields* group = find(groups, group_part, false)) {
      out.gid = id_of(*group, 2, "/etc/group");
    } else {
      throw Error(ErrorKind::kBadInput, "the image runs as group '" + group_part + "', which its /etc/group does not define");
    }
  }
  if (entry) out.additional_gids = supplementary_groups(groups, (*entry)[0], out.gid);
  return out;
}

}  // namespace gkebuild::local_runner
