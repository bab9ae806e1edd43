// The top level of gkebuild.yaml: apiVersion, project, registry, cluster, images, storage, kueue.
#include <regex>

#include "base/confined_path.h"
#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/project/parse_helpers.h"
#include "tool/core/project/project_keys.h"
#include "tool/core/project/quantities.h"
#include "tool/core/yamlfile/fields.h"
#include "tool/core/yamlfile/scalars.h"

namespace gkebuild::project {
namespace detail {

using yamlfile::Document;
using yamlfile::Fields;

std::vector<std::pair<YAML::Node, YAML::Node>> entries(const Document& doc, const YAML::Node& node,
                                                       const std::string& what) {
  yamlfile::mapping_keys(doc, node, what);  // checks the shape and duplicate keys
  std::vector<std::pair<YAML::Node, YAML::Node>> out;
  if (node.IsMap())
    for (auto it = node.begin(); it != node.end(); ++it) out.emplace_back(it->first, it->second);
  return out;
}

EnvList parse_string_map(const Document& doc, const YAML::Node& node, const std::string& what) {
  // Keys become environment variable names or label keys, written into Dockerfiles
  // and manifests: keep them to the characters both accept.
  static const std::regex key_pattern("[A-Za-z_][-A-Za-z0-9_./]*");
  EnvList out;
  for (const auto& [key, value] : entries(doc, node, what)) {
    if (!std::regex_match(key.Scalar(), key_pattern))
      doc.fail(key, what + ": " + in_quotes(key.Scalar()) + " is not a valid name (letters, digits, _ - . /)");
    out.emplace_back(key.Scalar(), yamlfile::as_scalar_text(doc, value, what + "." + key.Scalar()));
  }
  return out;
}

void require_dns_label(const Document& doc, const YAML::Node& at, const std::string& name,
                       const std::string& what) {
  if (!is_dns_label(name, 40))
    doc.fail(at, what + " " + in_quotes(name) +
                     " must be lower-case letters, digits and '-', at most 40 characters "
                     "(it becomes part of Kubernetes names)");
}

}  // namespace detail

namespace {

using namespace detail;
using yamlfile::Document;
using yamlfile::Fields;

Cluster parse_cluster(const Document& doc, const YAML::Node& node, const std::string& project_name) {
  if (node && node.IsScalar() && node.Scalar() == "local") {  // `cluster: local`: submit runs on this machine
    Cluster local;
    local.local = true;
    local.namespace_name = is_dns_label(project_name) ? project_name : "default";
    return local;
  }
  Fields fields(doc, node, "cluster", cluster_keys());
  Cluster cluster;
  cluster.context = fields.string("context", "");
  cluster.namespace_name = fields.string("namespace", project_name);
  if (!is_dns_label(cluster.namespace_name))
    doc.fail(fields.has("namespace") ? fields.get("namespace") : node,
             "cluster.namespace " + in_quotes(cluster.namespace_name) + " is not a valid Kubernetes namespace name");
  cluster.service_account = fields.string("serviceAccount", "");
  if (fields.has("serviceAccount") && !is_dns_subdomain(cluster.service_account))
    doc.fail(fields.get("serviceAccount"), "cluster.serviceAccount: " + in_quotes(cluster.service_account) +
                                               " is not a ServiceAccount name (lower-case letters, digits, '-', '.')");
  cluster.jobset = fields.boolean("jobset", false);
  cluster.failover = parse_failover(fields);
  const std::string installer = fields.string("driverInstaller", "auto");
  const std::vector<std::string> choices{"auto", "cos", "ubuntu", "none"};
  if (installer == "auto") cluster.driver_installer = DriverInstaller::Auto;
  else if (installer == "cos") cluster.driver_installer = DriverInstaller::Cos;
  else if (installer == "ubuntu") cluster.driver_installer = DriverInstaller::Ubuntu;
  else if (installer == "none") cluster.driver_installer = DriverInstaller::None;
  else
    doc.fail(fields.get("driverInstaller"), "cluster.driverInstaller: expected auto, cos, ubuntu or none, got '" +
                                                printable(installer) + "'" + did_you_mean(installer, choices));
  return cluster;
}

// A dockerfile template is looked up in templates/ and then beside the project file; both
// must stay in the project folder once `..` and symlinks are resolved, so that a project
// cannot make gkebuild read (and print, in its messages) files from elsewhere.
void check_dockerfile_path(const Document& doc, const Fields& fields, const std::string& dockerfile,
                           const std::filesystem::path& project_dir) {
  if (dockerfile.empty()) return;
  if (confined_path(project_dir, "templates" / std::filesystem::path(dockerfile)) &&
      confined_path(project_dir, dockerfile))
    return;
  doc.fail(fields.get("dockerfile"), fields.name("dockerfile") + ": '" + printable(dockerfile) +
                                         "' leads outside the project folder; give a path inside it");
}

Image parse_image(const Document& doc, const YAML::Node& key, const YAML::Node& value,
                  const std::filesystem::path& project_dir) {
  Image image;
  image.name = key.Scalar();
  image.where = doc.where(key);
  require_dns_label(doc, key, image.name, "image name");
  const std::string what = "image '" + image.name + "'";
  check_keys(kImageKeys, doc, value, what);
  Fields fields(doc, value, what, key_names(kImageKeys));
  image.from = fields.string("from", "scratch");
  if (image.from.empty() || image.from.find_first_of(" \t\r\n") != std::string::npos)
    doc.fail(fields.get("from"), fields.name("from") + ": expected scratch, an image reference or oci:DIR");
  image.workload = fields.string("workload", "");
  image.source = fields.string("source", "");
  if (!image.source.empty() && image.workload.empty())
    doc.fail(fields.get("source"), fields.name("source") + ": names the CMake project of a workload; add workload: TARGET");
  if (!image.source.empty() && !confined_path(project_dir, image.source))
    doc.fail(fields.get("source"), fields.name("source") + ": '" + printable(image.source) +
                                       "' leads outside the project folder; give a folder inside it");
  image.cuda_libraries = fields.strings("cudaLibraries");
  image.dockerfile = fields.string("dockerfile", "");
  check_dockerfile_path(doc, fields, image.dockerfile, project_dir);
  image.context = fields.string("context", "");
  if (!image.context.empty() && image.dockerfile.empty())
    doc.fail(fields.get("context"), fields.name("context") + ": is the build context of your own Dockerfile; add "
                                                             "dockerfile: FILE (the shipped one reads only the staged workload)");
  if (!image.context.empty() && !confined_path(project_dir, image.context))
    doc.fail(fields.get("context"), fields.name("context") + ": '" + printable(image.context) +
                                        "' leads outside the project folder; give a folder inside it");
  image.entrypoint = fields.strings("entrypoint");
  if (image.workload.empty() && image.dockerfile.empty() && image.entrypoint.empty())
    doc.fail(value.IsMap() ? value : key, fields.what() + ": give a workload, an entrypoint or a dockerfile");
  static const std::regex workload_name("[A-Za-z0-9][-A-Za-z0-9_.]*");
  if (!image.workload.empty() && !std::regex_match(image.workload, workload_name))
    doc.fail(fields.get("workload"), fields.name("workload") + ": " + in_quotes(image.workload) + " is not a workload name");
  image.env = parse_string_map(doc, fields.get("env"), fields.name("env"));
  image.labels = parse_string_map(doc, fields.get("labels"), fields.name("labels"));
  image.secrets = parse_image_secrets(fields, project_dir);
  return image;
}

// A bucket name as Cloud Storage allows it (names with dots, up to 222 characters, included).
bool is_bucket_name(const std::string& name) {
  static const std::regex pattern("[a-z0-9][-a-z0-9_.]{1,220}[a-z0-9]");
  return std::regex_match(name, pattern) && (name.size() <= 63 || name.find('.') != std::string::npos) &&
         name.find("..") == std::string::npos;
}

GcsStorage parse_gcs(const Document& doc, const YAML::Node& node) {
  Fields fields(doc, node, "storage.gcs", {"bucket", "mountPath", "readOnly", "onlyDir"});
  GcsStorage gcs;
  gcs.where = doc.where(node);
  gcs.bucket = fields.required_string("bucket");
  if (gcs.bucket.starts_with("gs://")) gcs.bucket.erase(0, 5);
  if (!is_bucket_name(gcs.bucket))
    doc.fail(fields.get("bucket"), "storage.gcs.bucket: '" + printable(gcs.bucket) +
                                       "' is not a bucket name (lower-case letters, digits, '-', '_', '.')");
  gcs.mount_path = fields.string("mountPath", gcs.mount_path);
  if (gcs.mount_path.empty() || gcs.mount_path[0] != '/')
    doc.fail(fields.get("mountPath"), "storage.gcs.mountPath: expected an absolute path");
  gcs.read_only = fields.boolean("readOnly", false);
  gcs.only_dir = fields.string("onlyDir", "");
  while (gcs.only_dir.ends_with('/')) gcs.only_dir.pop_back();
  // The folder goes into gcsfuse's comma-separated mountOptions: no commas, no way out of the bucket.
  static const std::regex folder("[A-Za-z0-9_.=@+-]+(/[A-Za-z0-9_.=@+-]+)*");
  if (fields.has("onlyDir") &&
      (!std::regex_match(gcs.only_dir, folder) || ("/" + gcs.only_dir + "/").find("/../") != std::string::npos ||
       ("/" + gcs.only_dir + "/").find("/./") != std::string::npos))
    doc.fail(fields.get("onlyDir"), "storage.gcs.onlyDir: '" + printable(gcs.only_dir) +
                                        "' is not a folder of the bucket such as datasets/imagenet");
  return gcs;
}

NfsStorage parse_nfs(const Document& doc, const YAML::Node& node) {
  Fields fields(doc, node, "storage.nfs", {"size", "mountPath", "storageClass"});
  NfsStorage nfs;
  nfs.size = fields.string("size", nfs.size);
  if (!is_resource_quantity(nfs.size)) doc.fail(fields.get("size"), "storage.nfs.size: expected a quantity such as 100Gi");
  nfs.mount_path = fields.string("mountPath", nfs.mount_path);
  if (nfs.mount_path.empty() || nfs.mount_path[0] != '/')
    doc.fail(fields.get("mountPath"), "storage.nfs.mountPath: expected an absolute path");
  nfs.storage_class = fields.string("storageClass", "");
  return nfs;
}

void check_api_version(const Document& doc, const Fields& top) {
  const std::string version = top.required_string("apiVersion");
  if (version != kApiVersion)
    doc.fail(top.get("apiVersion"), "apiVersion: this gkebuild reads '" + std::string(kApiVersion) +
                                        "', the file says '" + version + "'");
}

}  // namespace

Project parse_project(std::string text, const std::filesystem::path& file_name,
                      const catalog::Catalog& catalog) {
  const Document doc = Document::parse(std::move(text), file_name.string());
  if (!doc.root().IsMap()) doc.fail(doc.root(), "the project file must be a mapping with apiVersion: gkebuild/v1");
  check_keys(kTopLevelKeys, doc, doc.root(), "the project file");
  Fields top(doc, doc.root(), "the project file", key_names(kTopLevelKeys));
  check_api_version(doc, top);
  Project project;
  project.file = file_name;
  project.dir = file_name.has_parent_path() ? file_name.parent_path() : std::filesystem::path(".");
  project.name = top.required_string("project");
  require_dns_label(doc, top.get("project"), project.name, "project");
  project.registry = top.required_string("registry");
  project.cluster = parse_cluster(doc, top.get("cluster"), project.name);
  for (const auto& [key, value] : entries(doc, top.get("images"), "images"))
    project.images.push_back(parse_image(doc, key, value, project.dir));
  if (top.has("storage")) {
    Fields storage(doc, top.get("storage"), "storage", {"nfs", "gcs"});
    if (!storage.has("nfs") && !storage.has("gcs"))
      doc.fail(top.get("storage"), "storage: expected nfs: or gcs: (or both)");
    if (storage.has("nfs")) project.nfs = parse_nfs(doc, storage.get("nfs"));
    if (storage.has("gcs")) project.gcs = parse_gcs(doc, storage.get("gcs"));
    if (project.nfs && project.gcs && project.nfs->mount_path == project.gcs->mount_path)
      doc.fail(storage.get("gcs"), "storage.gcs.mountPath: " + project.gcs->mount_path + " is storage.nfs's mountPath too");
  }
  if (top.has("kueue")) project.kueue = parse_kueue(doc, top.get("kueue"), project.name, catalog);
  const auto image_names = project.image_names();
  for (const auto& [key, value] : entries(doc, top.get("experiments"), "experiments")) {
    project.experiments.push_back(parse_experiment(doc, key, value, image_names, catalog, project.cluster.failover));
    if (project.kueue) check_queue_fits(doc, value, project.experiments.back(), *project.kueue);
  }
  if (!project.cluster.local) project.cluster.gke = parse_gke_cluster(doc, top.get("cluster"), project, catalog);
  // `gcloud container clusters get-credentials` names the context so; `context: ""` keeps current-context.
  const YAML::Node cluster = top.get("cluster");
  if (project.cluster.gke && !cluster["context"])
    project.cluster.context = project.cluster.gke->context_name();
  return project;
}

}  // namespace gkebuild::project
