#include "images/oci/machine_store.h"

#include "base/private_dirs.h"

namespace gkebuild::oci {

BlobHome machine_blob_home(bool write_to_store) {
  return BlobHome{private_subfolder(machine_cache_dir(), "oci"), write_to_store};
}

}  // namespace gkebuild::oci
