// `gkebuild render`: a project's Dockerfiles and manifests, rendered with the shipped
// templates (or the project's own) and checked as YAML before anything is written.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"
#include "tool/steps/render/options.h"
#include "tool/steps/render/plan.h"

namespace gkebuild::render {

struct RenderedFile {
  std::string file_name;  // under -o DIR: "job-gemm-nvidia-l4-0.yaml", "Dockerfile.gemm"
  std::string text;       // one YAML document (ending in a newline) or a Dockerfile
  OutputKind kind = OutputKind::Manifest;
  std::string object_kind;  // "Job", "Namespace"… (manifests)
  std::string object_name;
  // A Job's, JobSet's or Pod's: its accelerator and sweep point as planned; null otherwise.
  std::shared_ptr<const Workload> workload;
};

// Renders what `options` selects. Throws SourceError on any error; nothing is written.
// With `made_from`, what the files were rendered from (the templates, parsed, and every
// item's context) is handed there instead of being freed: a command that exits next may
// keep it, since freeing a sweep's contexts object by object is a tenth of its render.
std::vector<RenderedFile> render_project(const project::Project& project, const RenderOptions& options,
                                         const catalog::Catalog& catalog = catalog::Catalog::builtin(),
                                         std::shared_ptr<const void>* made_from = nullptr);

// The Dockerfile of one image, as render_project would write it for image/NAME with
// `reference` (where the image goes) and `values` (--values / --set) in its context.
// Renders that one template, nothing else. Throws SourceError.
std::string render_dockerfile(const project::Project& project, const project::Image& image,
                              const std::string& reference,
                              const nlohmann::ordered_json& values = nlohmann::ordered_json::object());

// Writes the manifests as one multi-document YAML stream ("---" between documents), in
// pieces of 64 KiB: a sweep's stream is megabytes that need not be held again at once.
void write_manifest_stream(std::ostream& out, const std::vector<RenderedFile>& files);

// Writes every file into `dir` all at once: first into a fresh temporary folder next
// to it, then each file renamed in. On error nothing is left behind in `dir`.
void write_files(const std::filesystem::path& dir, const std::vector<RenderedFile>& files);

}  // namespace gkebuild::render
