// A tiny busybox image made from layer entries, the base the RUN tests run on: FROM scratch,
// Debian's busybox-static as /bin/busybox with its applets as symlinks, /etc/passwd and
// /etc/group with a user "app" (1000:1000, home /home/app, also in group "users") and a few
// files to change.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "images/image/image.h"
#include "images/layer/entry.h"
#include "images/oci/layout.h"

namespace gkebuild::run_step::testing {

// The first layer: busybox, its applets, /etc, /home/app, /data/{one,gone,sub/two}, /tmp.
// Files' sources are written under `files`.
std::vector<layer::Entry> busybox_entries(const std::filesystem::path& files);

// The folders and files a runtime mounts over (/proc, /dev, /sys, /run, /etc/hosts,
// /etc/resolv.conf, /etc/hostname), which buildah leaves in its layer when they are missing.
std::vector<layer::Entry> mount_point_entries(const std::filesystem::path& files);

// `base` with one more layer of `entries`, written into `layout` (mtime 0).
image::Image with_layer(const image::Image& base, std::vector<layer::Entry> entries,
                        const std::shared_ptr<oci::Layout>& layout);

// Writes `image` into `layout` as `tag`.
void tag_image(oci::Layout& layout, const image::Image& image, const std::string& tag);

}  // namespace gkebuild::run_step::testing
