// The machine-wide blob store every project's own layout (.gkebuild/oci) shares: blobs kept once
// by digest, the build cache, temporaries. It lives in gkebuild's own cache folder
// (base/private_dirs.h: GKEBUILD_CACHE_DIR or --cache-dir moves it), never in a checkout.
#pragma once

#include "images/oci/layout.h"

namespace gkebuild::oci {

// machine_cache_dir()/oci, made 0700 without following a symlink. `write_to_store`: new blobs go
// there (a project's own layout); otherwise the store only fulfils blobs a layout lacks.
BlobHome machine_blob_home(bool write_to_store);

}  // namespace gkebuild::oci
