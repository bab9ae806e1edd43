// Which projects' tags still reference each blob of the machine's blob store
// (images/oci/machine_store.h): each project layout that writes there is recorded in
// <store>/projects/KEY (its path); its index.json is followed down to configs and layers.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gkebuild::prune {

struct BlobUsers {
  std::map<std::string, std::vector<std::string>> by_blob;  // digest hex -> project layouts whose tags reach it
  std::vector<std::filesystem::path> stale_records;         // records of layouts that are gone
  std::vector<std::filesystem::path> projects;              // the layouts still there
};

// `store` is machine_cache_dir()/oci. A layout is read as input (a checkout's index.json may say
// anything): bounded reads, manifests taken from the store by digest, nothing followed outside it.
BlobUsers blob_users(const std::filesystem::path& store);

}  // namespace gkebuild::prune
