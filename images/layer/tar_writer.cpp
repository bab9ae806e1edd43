#include "images/layer/tar_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "base/error.h"

namespace gkebuild::layer {
namespace {

constexpr size_t kBlock = 512;
constexpr int64_t kMaxOctal11 = 077777777777;  // what an 11-digit size field holds
constexpr int64_t kMaxOctal7 = 07777777;

using Header = std::array<char, kBlock>;

void put_string(Header& h, size_t offset, size_t width, std::string_view value) {
  std::memcpy(h.data() + offset, value.data(), std::min(width, value.size()));
}

// Zero-padded octal, `width - 1` digits and a NUL, as ustar numeric fields are.
void put_octal(Header& h, size_t offset, size_t width, int64_t value) {
  std::string digits(width - 1, '0');
  for (size_t i = width - 1; i-- > 0 && value > 0; value >>= 3) digits[i] = char('0' + (value & 7));
  put_string(h, offset, width, digits);
}

// "<len> key=value\n" where len counts the whole record, itself included.
std::string pax_record(std::string_view key, std::string_view value) {
  size_t body = key.size() + value.size() + 3;  // ' ', '=', '\n'
  size_t length = body + std::to_string(body).size();
  if (std::to_string(length).size() + body != length) ++length;
  return std::to_string(length) + " " + std::string(key) + "=" + std::string(value) + "\n";
}

std::string tar_name(const Entry& e) {
  return e.type == EntryType::kDirectory ? e.path + "/" : e.path;
}

char type_flag(EntryType type) {
  switch (type) {
    case EntryType::kDirectory: return '5';
    case EntryType::kSymlink: return '2';
    case EntryType::kHardlink: return '1';
    case EntryType::kCharDevice: return '3';
    case EntryType::kBlockDevice: return '4';
    case EntryType::kFifo: return '6';
    case EntryType::kFile: break;
  }
  return '0';
}

struct HeaderFields {
  std::string name;
  char type;
  uint32_t mode, uid, gid;
  int64_t size, mtime;
  std::string link;
  bool device = false;  // devmajor and devminor are written only for devices, so other headers keep their bytes
  uint32_t major = 0, minor = 0;
};

Header make_header(const HeaderFields& f) {
  Header h{};
  put_string(h, 0, 100, f.name);
  put_octal(h, 100, 8, f.mode);
  put_octal(h, 108, 8, std::min<int64_t>(f.uid, kMaxOctal7));
  put_octal(h, 116, 8, std::min<int64_t>(f.gid, kMaxOctal7));
  put_octal(h, 124, 12, f.size > kMaxOctal11 ? 0 : f.size);
  put_octal(h, 136, 12, f.mtime);
  h[156] = f.type;
  put_string(h, 157, 100, f.link);
  put_string(h, 257, 6, std::string_view("ustar\0", 6));
  put_string(h, 263, 2, "00");
  if (f.device) {
    put_octal(h, 329, 8, f.major);
    put_octal(h, 337, 8, f.minor);
  }
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (char c : h) sum += static_cast<unsigned char>(c);
  put_octal(h, 148, 7, sum);  // six digits and a NUL; the eighth byte stays ' '
  return h;
}

}  // namespace

void TarWriter::pad(int64_t size) {
  static const char zeros[kBlock] = {};
  size_t rest = static_cast<size_t>(size % static_cast<int64_t>(kBlock));
  if (rest != 0) out_.write(std::string_view(zeros, kBlock - rest));
}

void TarWriter::write_header(const Entry& e) {
  std::string name = tar_name(e);
  std::string records;
  if (name.size() > 100) records += pax_record("path", name);
  if (e.link_target.size() > 100) records += pax_record("linkpath", e.link_target);
  if (e.size > kMaxOctal11) records += pax_record("size", std::to_string(e.size));
  if (e.uid > kMaxOctal7) records += pax_record("uid", std::to_string(e.uid));
  if (e.gid > kMaxOctal7) records += pax_record("gid", std::to_string(e.gid));
  if (!records.empty()) {
    std::string base = e.path.substr(e.path.rfind('/') + 1);
    Header x = make_header({("PaxHeaders/" + base).substr(0, 99), 'x', 0644, 0, 0,
                            static_cast<int64_t>(records.size()), mtime_, ""});
    out_.write(std::string_view(x.data(), x.size()));
    out_.write(records);
    pad(static_cast<int64_t>(records.size()));
  }
  int64_t size = e.type == EntryType::kFile ? e.size : 0;
  const bool device = e.type == EntryType::kCharDevice || e.type == EntryType::kBlockDevice;
  Header h = make_header({name.substr(0, 100), type_flag(e.type), e.mode & 07777, e.uid, e.gid, size, mtime_,
                          e.link_target.substr(0, 100), device, e.device_major, e.device_minor});
  out_.write(std::string_view(h.data(), h.size()));
}

namespace {

// Opens a file entry's source; one with `listed_as` must still be that very file.
int open_source(const Entry& e) {
  const int flags = O_RDONLY | O_CLOEXEC | (e.listed_as ? O_NOFOLLOW | O_NONBLOCK : 0);
  int fd = ::open(e.source.c_str(), flags);
  if (fd < 0 && e.listed_as && errno == ELOOP) {
    throw Error(ErrorKind::kFailed, e.source.string() + " was replaced by a symlink after it was listed; build again");
  }
  if (fd < 0) throw system_failure(errno, "cannot read " + e.source.string());
  if (!e.listed_as) return fd;
  struct stat st {};
  const bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == e.listed_as->device &&
                    st.st_ino == e.listed_as->inode && st.st_size == e.size;
  if (!same) {
    ::close(fd);
    throw Error(ErrorKind::kFailed, e.source.string() + " changed after it was listed (another file, or another size); "
                "build again");
  }
  return fd;
}

}  // namespace

void TarWriter::write_file_content(const Entry& e) {
  int fd = open_source(e);
  std::vector<char> buffer(1 << 20);
  int64_t done = 0;
  while (done < e.size) {
    size_t want = static_cast<size_t>(std::min<int64_t>(buffer.size(), e.size - done));
    ssize_t n = ::read(fd, buffer.data(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = n < 0 ? errno : 0;
      ::close(fd);
      if (error != 0) {
        throw system_failure(error, "cannot read " + e.source.string());
      }
      throw Error(ErrorKind::kFailed, e.source.string() + " shrank while it was being read");
    }
    out_.write(std::string_view(buffer.data(), static_cast<size_t>(n)));
    done += n;
  }
  ::close(fd);
  pad(e.size);
}

void TarWriter::add(const Entry& entry) {
  write_header(entry);
  // An empty file without a source (a whiteout) has no content to read.
  const bool has_content = entry.type == EntryType::kFile && !(entry.size == 0 && entry.source.empty());
  if (has_content) write_file_content(entry);
}

void TarWriter::finish() {
  static const char zeros[2 * kBlock] = {};
  out_.write(std::string_view(zeros, sizeof zeros));
}

}  // namespace gkebuild::layer
