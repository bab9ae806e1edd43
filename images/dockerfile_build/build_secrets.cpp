#include "images/dockerfile_build/build_secrets.h"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/error.h"
#include "base/printable.h"

namespace gkebuild::build {
namespace {

constexpr std::size_t kMostSecretBytes = 500 * 1024;

std::vector<std::pair<std::string, std::string>> fields_of(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in{std::string(text)};
  for (std::string field; std::getline(in, field, ',');) {
    const std::size_t eq = field.find('=');
    out.emplace_back(field.substr(0, eq), eq == std::string::npos ? "" : field.substr(eq + 1));
  }
  return out;
}

bool truth(const std::string& key, const std::string& value) {
  if (value.empty() || value == "true") return true;
  if (value == "false") return false;
  throw InputError("RUN --mount=type=secret: " + key + "=" + printable(value) + " is not true or false");
}

uint32_t number(const std::string& key, const std::string& value, int base) {
  std::size_t used = 0;
  unsigned long n = 0;
  try {
    n = std::stoul(value, &used, base);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || n > 0xFFFFFFFFul)
    throw InputError("RUN --mount=type=secret: " + key + "=" + printable(value) + " is not a number");
  return static_cast<uint32_t>(n);
}

}  // namespace

SecretSource parse_secret_source(std::string_view spec) {
  SecretSource source;
  std::string type;
  for (const auto& [key, value] : fields_of(spec)) {
    if (key == "id") source.id = value;
    else if (key == "src" || key == "source") source.src = value;
    else if (key == "env") source.env = value;
    else if (key == "type") type = value;
    else throw InputError("'" + printable(key) + "' is not a --secret option (id, src, env, type)");
  }
  if (source.id.empty()) throw InputError("--secret needs id=ID (then src=FILE or env=VAR)");
  if (!type.empty() && type != "file" && type != "env")
    throw InputError("--secret type=" + printable(type) + ": expected file or env");
  if (!source.src.empty() && !source.env.empty())
    throw InputError("--secret id=" + printable(source.id) + ": give src or env, not both");
  if (type == "env" && source.env.empty()) {  // buildx: with type=env, src names the variable
    source.env = source.src.empty() ? source.id : source.src;
    source.src.clear();
  }
  if (type == "file" && source.src.empty()) source.src = source.id;
  if (source.src.empty() && source.env.empty()) source.env = source.id;  // buildx: the variable named by id
  return source;
}

std::string read_secret(const SecretSource& source, const std::filesystem::path& base_dir) {
  const std::string what = "--secret id=" + printable(source.id);
  if (!source.env.empty()) {
    const char* value = std::getenv(source.env.c_str());
    if (!value) throw Error(ErrorKind::kBadInput, what + ": the variable " + printable(source.env) + " is not set");
    if (std::string_view(value).size() > kMostSecretBytes)
      throw Error(ErrorKind::kBadInput, what + ": the value is larger than 500 KiB");
    return value;
  }
  const std::filesystem::path path = std::filesystem::path(source.src).is_absolute() ? std::filesystem::path(source.src)
                                                                                     : base_dir / source.src;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::kBadInput, what + ": cannot read " + printable(path.string()));
  std::string value(kMostSecretBytes + 1, '\0');
  in.read(value.data(), static_cast<std::streamsize>(value.size()));
  value.resize(static_cast<std::size_t>(in.gcount()));
  if (value.size() > kMostSecretBytes)
    throw Error(ErrorKind::kBadInput, what + ": " + printable(path.string()) + " is larger than 500 KiB");
  return value;
}

std::string mount_type(std::string_view value) {
  for (const auto& [key, v] : fields_of(value))
    if (key == "type") return v;
  return "bind";
}

RunRequest::SecretMount parse_secret_mount(const std::string& value) {
  RunRequest::SecretMount mount;
  for (const auto& [key, v] : fields_of(value)) {
    if (key == "type") continue;
    if (key == "id") mount.id = v;
    else if (key == "target" || key == "dst" || key == "destination") mount.target = v;
    else if (key == "env") mount.env = v;
    else if (key == "required") mount.required = truth(key, v);
    else if (key == "mode") mount.mode = number(key, v, 8);
    else if (key == "uid") mount.uid = number(key, v, 10);
    else if (key == "gid") mount.gid = number(key, v, 10);
    else
      throw InputError("RUN --mount=type=secret option '" + printable(key) +
                       "' is not supported (id, target, env, required, mode, uid, gid)");
  }
  if (mount.id.empty() && !mount.target.empty())  // as BuildKit: the target's file name
    mount.id = std::filesystem::path(mount.target).filename().string();
  if (mount.id.empty()) throw InputError("RUN --mount=type=secret needs id=ID or target=PATH");
  if (mount.target.empty() && mount.env.empty()) mount.target = "/run/secrets/" + mount.id;
  if (!mount.target.empty() && !mount.target.starts_with('/'))
    throw InputError("RUN --mount=type=secret: target=" + printable(mount.target) +
                     " is not an absolute path");
  static const std::regex variable("[A-Za-z_][A-Za-z0-9_]*");
  if (!mount.env.empty() && !std::regex_match(mount.env, variable))
    throw InputError("RUN --mount=type=secret: env=" + printable(mount.env) + " is not a variable name");
  if (mount.mode > 07777) throw InputError("RUN --mount=type=secret: mode is more than 07777");
  return mount;
}

}  // namespace gkebuild::build
