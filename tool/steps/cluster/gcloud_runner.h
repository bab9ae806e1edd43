// Runs gcloud (from PATH) with stdin from /dev/null and collects what it prints.
#pragma once

#include <functional>
#include <string>

#include "base/child_process.h"
#include "tool/steps/cluster/gcloud_commands.h"

namespace gkebuild::cluster {

using GcloudResult = ChildOutput;  // exit_code, out, err

// What `cluster up|down` calls; tests give their own.
using GcloudRunner = std::function<GcloudResult(const Argv& args)>;

// The gcloud on PATH; a missing gcloud is an Error (kBadInput) saying what to install.
GcloudResult run_gcloud(const Argv& args);

// gcloud's own words for a failure, without its "To search the help text…" footer.
std::string gcloud_message(const GcloudResult& result);

}  // namespace gkebuild::cluster
