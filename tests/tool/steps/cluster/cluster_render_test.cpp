// `gkebuild cluster render`, up and check's credentials checked by the real tools: every rendered gcloud command is
// parsed by the installed gcloud (offline it parses all flags before it asks for an
// account; the commands go through its gcloud_main in one process), and the Terraform module passes `terraform fmt -check` and is read back by
// python-hcl2 to check each node pool's attributes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "cluster_projects.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

using nlohmann::json;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class ClusterRender : public ::testing::Test {
 protected:
  CommandResult render(const std::string& project, const std::string& format) {
    const auto file = dir.write("gkebuild.yaml", project);
    return run_gkebuild("cluster render -f " + shell_quoted(file.string()) + " --format " + format);
  }
  TempDir dir;
};

// The gcloud command lines of a rendered script, continuation lines joined.
std::vector<std::string> commands_of(const std::string& script) {
  std::vector<std::string> commands;
  std::istringstream in(script);
  std::string command;
  for (std::string line; std::getline(in, line);) {
    const bool continued = line.ends_with(" \\");
    command += continued ? line.substr(0, line.size() - 2) : line;
    if (continued) continue;
    if (command.starts_with("gcloud ")) commands.push_back(command);
    command.clear();
  }
  return commands;
}

// Runs every command through the installed gcloud (tests/tool/steps/cluster/gcloud_parse.py: one process
// for all, as gcloud takes a second to start) under a scratch configuration without an account,
// and returns what each printed.
std::vector<std::string> run_without_account(const std::vector<std::string>& commands, const TempDir& dir) {
  std::string lines;
  for (const auto& command : commands) lines += command + "\n";
  const auto input = dir.write("commands.txt", lines);
  const auto run = run_command("CLOUDSDK_CONFIG=" + shell_quoted((dir / "gcloud-config").string()) +
                               " CLOUDSDK_CORE_DISABLE_PROMPTS=1 python3 " GKEBUILD_SOURCE_ROOT
                               "/tests/tool/steps/cluster/gcloud_parse.py < " + shell_quoted(input.string()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> outputs;
  for (const auto& result : json::parse(run.out, nullptr, false)) outputs.push_back(result.value("output", ""));
  outputs.resize(commands.size());
  return outputs;
}

// The gcloud calls of `cluster up` on an empty project and then of `cluster down` of the cluster it
// made, recorded by tests/tool/steps/cluster/fake_gcloud.sh.
std::vector<std::string> up_and_down_calls(const std::string& project, const TempDir& dir) {
  const auto file = dir.write("updown/gkebuild.yaml", project);
  const auto bin = dir / "updown-bin";
  std::filesystem::create_directories(bin);
  std::filesystem::create_symlink(GKEBUILD_SOURCE_ROOT "/tests/tool/steps/cluster/fake_gcloud.sh", bin / "gcloud");
  const std::string env = "PATH=" + shell_quoted(bin.string()) + ":\"$PATH\" FAKE_GCLOUD_DIR=" +
                          shell_quoted(file.parent_path().string()) + " ";
  const std::string flags = " -f " + shell_quoted(file.string());
  EXPECT_EQ(run_command(env + gkebuild_binary() + " cluster up" + flags).exit_code, 0);
  dir.write("updown/cluster.json", R"({"name": "demo", "resourceLabels": {"created-by": "gkebuild"}})");
  dir.write("updown/pools.json", R"([{"name": "t4-shared", "config": {"resourceLabels": {"created-by": "gkebuild"}}},
                                     {"name": "other", "config": {}}])");
  EXPECT_EQ(run_command(env + gkebuild_binary() + " cluster down" + flags).exit_code, 0);
  std::vector<std::string> calls;
  std::istringstream in(read(file.parent_path() / "calls"));
  for (std::string line; std::getline(in, line);) calls.push_back(line);
  return calls;
}

// gcloud read every flag and value and only then needed an account.
bool parsed_to_the_account_check(const std::string& output) {
  return output.find("You do not currently have an active account selected") != std::string::npos &&
         output.find("unrecognized arguments") == std::string::npos &&
         output.find("Invalid value") == std::string::npos;
}

TEST_F(ClusterRender, GcloudParsesEveryRenderedCommand) {
  std::vector<std::string> commands;
  for (const auto* project : {&kEveryPool, &kDerivedPools, &kAutopilot}) {
    const auto rendered = render(*project, "gcloud");
    ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
    for (const auto& command : commands_of(rendered.out)) commands.push_back(command);
  }
  // 1 + 4 pools + credentials, 1 + 2 derived pools + credentials, create-auto + credentials.
  ASSERT_EQ(commands.size(), 12u);
  // And the example's: 1 + 3 derived pools + credentials.
  const auto example = run_gkebuild("cluster render -f " GKEBUILD_SOURCE_ROOT "/examples/gemm-compare/gkebuild.yaml");
  ASSERT_EQ(example.exit_code, 0) << example.err;
  for (const auto& command : commands_of(example.out)) commands.push_back(command);
  ASSERT_EQ(commands.size(), 17u);
  EXPECT_NE(commands[2].find("--accelerator=type=nvidia-tesla-t4,count=1,gpu-driver-version=default,"
                             "gpu-sharing-strategy=time-sharing,max-shared-clients-per-gpu=4"),
            std::string::npos) << commands[2];
  EXPECT_NE(commands[3].find("gpu-driver-version=disabled,gpu-partition-size=1g.5gb"), std::string::npos);
  EXPECT_NE(commands[10].find("clusters create-auto demo"), std::string::npos);
  // And what `cluster up` and `down` send (describe, list, quota questions, creates, deletes), as
  // the stand-in gcloud recorded them.
  for (const auto& call : up_and_down_calls(kEveryPool, dir)) commands.push_back("gcloud " + call);
  // up: describe, 2 quota, the GPU zones, create, 4 pools; down: describe, list, delete
  ASSERT_EQ(commands.size(), 17u + 9u + 3u);
  // The control: a misspelt flag must be told apart, or the check proves nothing.
  commands.push_back("gcloud container node-pools create p --cluster=c --location=us-central1 --spott");
  const auto outputs = run_without_account(commands, dir);
  for (std::size_t i = 0; i + 1 < commands.size(); ++i)
    EXPECT_TRUE(parsed_to_the_account_check(outputs[i])) << commands[i] << "\n" << outputs[i];
  EXPECT_FALSE(parsed_to_the_account_check(outputs.back())) << outputs.back();
  EXPECT_NE(outputs.back().find("unrecognized arguments: --spott"), std::string::npos) << outputs.back();
}

// The module through `terraform fmt -check`, then as JSON through python-hcl2.
json terraform_json(const std::string& module, const TempDir& dir) {
  const auto file = dir.write("tf/main.tf", module);
  const auto fmt = run_command("cd " + shell_quoted(file.parent_path().string()) + " && terraform fmt -check -diff main.tf");
  EXPECT_EQ(fmt.exit_code, 0) << fmt.all();
  const auto parsed = run_command("python3 " GKEBUILD_SOURCE_ROOT "/tests/tool/steps/cluster/hcl_to_json.py " +
                                  shell_quoted(file.string()));
  EXPECT_EQ(parsed.exit_code, 0) << parsed.err;
  return json::parse(parsed.out, nullptr, false);
}

// resource "TYPE" "NAME" as python-hcl2 gives it.
json resource(const json& module, const std::string& type, const std::string& name) {
  for (const auto& entry : module.value("resource", json::array()))
    if (entry.contains(type) && entry[type].contains(name)) return entry[type][name];
  return nullptr;
}

TEST_F(ClusterRender, TerraformModuleHasEachPoolsAttributes) {
  const auto rendered = render(kEveryPool, "terraform");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const json module = terraform_json(rendered.out, dir);
  const json cluster = resource(module, "google_container_cluster", "cluster");
  ASSERT_TRUE(cluster.is_object()) << module.dump(1);
  EXPECT_EQ(cluster["location"], "us-central1");
  EXPECT_EQ(cluster["node_locations"], json({"us-central1-a", "us-central1-c"}));
  EXPECT_EQ(cluster["remove_default_node_pool"], true);
  EXPECT_EQ(cluster["resource_labels"]["created-by"], "gkebuild");
  EXPECT_EQ(resource(module, "google_container_node_pool", "admin")["node_config"][0]["machine_type"], "e2-standard-2");

  const json l4 = resource(module, "google_container_node_pool", "l4_spot");
  ASSERT_TRUE(l4.is_object());
  EXPECT_EQ(l4["name"], "l4-spot");
  EXPECT_EQ(l4["initial_node_count"], 0);
  EXPECT_EQ(l4["autoscaling"][0]["total_min_node_count"], 0);
  EXPECT_EQ(l4["autoscaling"][0]["total_max_node_count"], 3);
  EXPECT_EQ(l4["autoscaling"][0]["location_policy"], "ANY");
  const json l4_node = l4["node_config"][0];
  EXPECT_EQ(l4_node["machine_type"], "g2-standard-4");
  EXPECT_EQ(l4_node["spot"], true);
  ASSERT_EQ(l4_node["taint"].size(), 2u);
  EXPECT_EQ(l4_node["taint"][0]["key"], "nvidia.com/gpu");
  EXPECT_EQ(l4_node["taint"][0]["effect"], "NO_SCHEDULE");
  EXPECT_EQ(l4_node["taint"][1]["key"], "cloud.google.com/gke-spot");
  const json l4_gpu = l4_node["guest_accelerator"][0];
  EXPECT_EQ(l4_gpu["type"], "nvidia-l4");
  EXPECT_EQ(l4_gpu["count"], 1);
  EXPECT_EQ(l4_gpu["gpu_driver_installation_config"][0]["gpu_driver_version"], "LATEST");

  const json t4_gpu = resource(module, "google_container_node_pool", "t4_shared")["node_config"][0]["guest_accelerator"][0];
  EXPECT_EQ(t4_gpu["gpu_sharing_config"][0]["gpu_sharing_strategy"], "TIME_SHARING");
  EXPECT_EQ(t4_gpu["gpu_sharing_config"][0]["max_shared_clients_per_gpu"], 4);

  const json a100 = resource(module, "google_container_node_pool", "a100_mig");
  EXPECT_EQ(a100["autoscaling"][0]["total_min_node_count"], 1);
  EXPECT_EQ(a100["autoscaling"][0]["location_policy"], "BALANCED");
  const json a100_gpu = a100["node_config"][0]["guest_accelerator"][0];
  EXPECT_EQ(a100_gpu["gpu_partition_size"], "1g.5gb");
  EXPECT_EQ(a100_gpu["gpu_driver_installation_config"][0]["gpu_driver_version"], "INSTALLATION_DISABLED");

  const json h100_node = resource(module, "google_container_node_pool", "h100")["node_config"][0];
  EXPECT_EQ(h100_node["machine_type"], "a3-highgpu-8g");
  EXPECT_EQ(h100_node["guest_accelerator"][0]["count"], 8);
  EXPECT_EQ(h100_node["guest_accelerator"][0]["gpu_sharing_config"][0]["gpu_sharing_strategy"], "MPS");
  EXPECT_FALSE(h100_node.contains("taint"));
}

TEST_F(ClusterRender, AutopilotModuleHasNoPools) {
  const auto rendered = render(kAutopilot, "terraform");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const json module = terraform_json(rendered.out, dir);
  EXPECT_EQ(resource(module, "google_container_cluster", "cluster")["enable_autopilot"], true);
  EXPECT_TRUE(resource(module, "google_container_node_pool", "admin").is_null());
}

TEST_F(ClusterRender, AutopilotJobsCarryTheComputeClass) {
  const auto file = dir.write("gkebuild.yaml", kAutopilot + "  computeClass: Accelerator\n");
  const auto jobs = run_gkebuild("render a -f " + shell_quoted(file.string()));
  ASSERT_EQ(jobs.exit_code, 0) << jobs.err;
  EXPECT_NE(jobs.out.find("      nodeSelector:\n        cloud.google.com/gke-accelerator: \"nvidia-l4\"\n"
                          "        cloud.google.com/gke-spot: \"true\"\n"
                          "        cloud.google.com/compute-class: \"Accelerator\"\n"),
            std::string::npos)
      << jobs.out;
}

// Issue 30: the script's and the module's header comments quote the project file's name; a
// newline in it must not end the comment and become a command (or HCL) of its own.
TEST_F(ClusterRender, ANewlineInTheProjectFileNameStaysInTheComment) {
  const auto file = dir.write("a\ntouch PWNED\n.yaml", kDerivedPools);
  const std::string flags = " -f " + shell_quoted(file.string()) + " --format ";
  const auto script = run_gkebuild("cluster render" + flags + "gcloud");
  ASSERT_EQ(script.exit_code, 0) << script.err;
  EXPECT_NE(script.out.find("# GKE cluster demo of a\\x0atouch PWNED\\x0a.yaml, rendered by"), std::string::npos)
      << script.out;
  // Run as the shell would, with a gcloud that does nothing: nothing but gcloud may run.
  const auto bin = dir / "stub-bin";
  std::filesystem::create_directories(bin);
  dir.write("stub-bin/gcloud", "#!/bin/sh\nexit 0\n");
  std::filesystem::permissions(bin / "gcloud", std::filesystem::perms::owner_all);
  const auto script_file = dir.write("work/cluster.sh", script.out);
  const auto ran = run_command("cd " + shell_quoted(script_file.parent_path().string()) + " && PATH=" +
                               shell_quoted(bin.string()) + ":\"$PATH\" sh cluster.sh");
  EXPECT_EQ(ran.exit_code, 0) << ran.all();
  EXPECT_FALSE(std::filesystem::exists(script_file.parent_path() / "PWNED"));

  const auto module = run_gkebuild("cluster render" + flags + "terraform");
  ASSERT_EQ(module.exit_code, 0) << module.err;
  EXPECT_EQ(module.out.find("\ntouch PWNED"), std::string::npos) << module.out;
  EXPECT_TRUE(resource(terraform_json(module.out, dir), "google_container_cluster", "cluster").is_object());
}

TEST_F(ClusterRender, AProjectWithoutAClusterSaysWhatToAdd) {
  const auto rendered = render(kProjectHead, "gcloud");
  EXPECT_EQ(rendered.exit_code, 2);
  EXPECT_NE(rendered.err.find("cluster: describes no GKE cluster; add gcpProject and location"), std::string::npos)
      << rendered.err;
}

TEST_F(ClusterRender, UpWithoutAnAccountFailsWithGcloudsMessage) {
  const auto file = dir.write("gkebuild.yaml", kDerivedPools);
  const auto up = run_command("CLOUDSDK_CONFIG=" + shell_quoted((dir / "gcloud-config").string()) + " " +
                              gkebuild_binary() + " cluster up -f " + shell_quoted(file.string()));
  EXPECT_EQ(up.exit_code, 1) << up.all();
  EXPECT_NE(up.err.find("gkebuild cluster: error: gcloud container clusters describe demo --project=my-project "
                        "--location=us-central1 --format=json failed:\nERROR: (gcloud.container.clusters.describe) "
                        "You do not currently have an active account selected."),
            std::string::npos)
      << up.err;
  EXPECT_NE(up.err.find("gcloud auth login"), std::string::npos) << up.err;
  EXPECT_EQ(up.out, "");  // nothing was created, so nothing was printed as done
}

// The kubeconfig `gcloud container clusters get-credentials` writes, with the real
// gke-gcloud-auth-plugin as its exec plugin, and a gcloud without an account.
TEST_F(ClusterRender, GkeAuthPluginWithoutAnAccountNamesTheFix) {
  const auto kubeconfig = dir.write("kubeconfig",
                                    "apiVersion: v1\nkind: Config\ncurrent-context: gke_my-project_us-central1_demo\n"
                                    "clusters:\n- name: gke\n  cluster: {server: 'https://127.0.0.1:9'}\n"
                                    "users:\n- name: gke\n  user:\n    exec:\n"
                                    "      apiVersion: client.authentication.k8s.io/v1beta1\n"
                                    "      command: gke-gcloud-auth-plugin\n      provideClusterInfo: true\n"
                                    "      interactiveMode: IfAvailable\n"
                                    "contexts:\n- name: gke_my-project_us-central1_demo\n  context: {cluster: gke, user: gke}\n");
  const auto project = dir.write("gkebuild.yaml", kDerivedPools);
  const auto check = run_command("CLOUDSDK_CONFIG=" + shell_quoted((dir / "gcloud-config").string()) + " " +
                                 gkebuild_binary() + " cluster check -f " + shell_quoted(project.string()) +
                                 " --kubeconfig " + shell_quoted(kubeconfig.string()) + " < /dev/null");
  EXPECT_EQ(check.exit_code, 2) << check.all();
  // The plugin's own words come through, then where it is configured and what to do.
  EXPECT_NE(check.err.find("You do not currently have an active account selected"), std::string::npos) << check.err;
  EXPECT_NE(check.err.find("kubeconfig:11:7: error: exec credential plugin 'gke-gcloud-auth-plugin' exited with "
                           "status 1 (its own message, if any, is above)\ngke-gcloud-auth-plugin takes its token from "
                           "gcloud: without an account there, run `gcloud auth login`"),
            std::string::npos)
      << check.err;
}

}  // namespace
}  // namespace gkebuild::testing

namespace gkebuild::testing {
namespace {

// Every flag of the scarce-GPU pools, the GCS add-on and the bucket binding, read by the real gcloud.
TEST_F(ClusterRender, GcloudParsesFlexQueuedReservationAndGcsCommands) {
  std::vector<std::string> commands;
  for (const auto* project : {&kScarce, &kScarcePools}) {
    const auto rendered = render(*project, "gcloud");
    ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
    for (const auto& command : commands_of(rendered.out)) commands.push_back(command);
  }
  // create, 3 pools, credentials, bucket binding; create, 1 pool, credentials, binding.
  ASSERT_EQ(commands.size(), 10u);
  const std::string& create = commands[0];
  EXPECT_NE(create.find(" --addons=HttpLoadBalancing,HorizontalPodAutoscaling,GcsFuseCsiDriver "), std::string::npos);
  EXPECT_NE(create.find(" --workload-pool=my-project.svc.id.goog "), std::string::npos);
  const std::string& flex = commands[1];
  for (const char* flag : {" --flex-start ", " --reservation-affinity=none ", " --num-nodes=0 ", " --total-min-nodes=0 ",
                           " --location-policy=ANY ", " --no-enable-autorepair ", " --workload-metadata=GKE_METADATA ",
                           "cloud.google.com/gke-flex-start=true:NoSchedule"})
    EXPECT_NE(flex.find(flag), std::string::npos) << flag << " in " << flex;
  EXPECT_EQ(flex.find("--enable-queued-provisioning"), std::string::npos);
  const std::string& queued = commands[2];
  for (const char* flag : {" --flex-start ", " --enable-queued-provisioning ", " --enable-gvnic "})
    EXPECT_NE(queued.find(flag), std::string::npos) << flag << " in " << queued;
  EXPECT_EQ(queued.find("--max-run-duration"), std::string::npos);
  const std::string& reserved = commands[3];
  for (const char* flag : {" --reservation-affinity=specific ", " --reservation=projects/owner-proj/reservations/h100-res ",
                           " --placement-type=COMPACT ", " --enable-gvnic "})
    EXPECT_NE(reserved.find(flag), std::string::npos) << flag << " in " << reserved;
  for (const char* part : {"gcloud storage buckets add-iam-policy-binding gs://my-bucket ",
                           " --member=principal://iam.googleapis.com/projects/\"$project_number\"/locations/global/"
                           "workloadIdentityPools/my-project.svc.id.goog/subject/ns/demo/sa/trainer ",
                           " --role=roles/storage.objectUser"})
    EXPECT_NE(commands[5].find(part), std::string::npos) << part << " in " << commands[5];
  EXPECT_NE(commands[7].find(" --max-run-duration=86400s "), std::string::npos) << commands[7];
  const auto outputs = run_without_account(commands, dir);
  for (std::size_t i = 0; i < commands.size(); ++i)
    EXPECT_TRUE(parsed_to_the_account_check(outputs[i])) << commands[i] << "\n" << outputs[i];
}

TEST_F(ClusterRender, TerraformModuleHasFlexQueuedReservationAndGcs) {
  const auto rendered = render(kScarce, "terraform");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const json module = terraform_json(rendered.out, dir);
  const json cluster = resource(module, "google_container_cluster", "cluster");
  EXPECT_EQ(cluster["workload_identity_config"][0]["workload_pool"], "my-project.svc.id.goog");
  EXPECT_EQ(cluster["addons_config"][0]["gcs_fuse_csi_driver_config"][0]["enabled"], true);
  EXPECT_EQ(resource(module, "google_container_node_pool", "admin")["node_config"][0]["workload_metadata_config"][0]["mode"],
            "GKE_METADATA");

  const json flex = resource(module, "google_container_node_pool", "l4_flex");
  EXPECT_EQ(flex["node_config"][0]["flex_start"], true);
  EXPECT_EQ(flex["node_config"][0]["reservation_affinity"][0]["consume_reservation_type"], "NO_RESERVATION");
  EXPECT_EQ(flex["management"][0]["auto_repair"], false);
  EXPECT_EQ(flex["autoscaling"][0]["location_policy"], "ANY");
  EXPECT_FALSE(flex.contains("queued_provisioning"));

  const json queued = resource(module, "google_container_node_pool", "h100_queued");
  EXPECT_EQ(queued["queued_provisioning"][0]["enabled"], true);
  EXPECT_EQ(queued["node_config"][0]["flex_start"], true);
  EXPECT_EQ(queued["node_config"][0]["gvnic"][0]["enabled"], true);

  const json reserved = resource(module, "google_container_node_pool", "h100_res_h100_res");
  const json affinity = reserved["node_config"][0]["reservation_affinity"][0];
  EXPECT_EQ(affinity["consume_reservation_type"], "SPECIFIC_RESERVATION");
  EXPECT_EQ(affinity["key"], "compute.googleapis.com/reservation-name");
  EXPECT_EQ(affinity["values"], json({"projects/owner-proj/reservations/h100-res"}));
  EXPECT_EQ(reserved["placement_policy"][0]["type"], "COMPACT");

  const json binding = resource(module, "google_storage_bucket_iam_member", "jobs");
  EXPECT_EQ(binding["bucket"], "my-bucket");
  EXPECT_EQ(binding["role"], "roles/storage.objectUser");
  EXPECT_NE(binding["member"].get<std::string>().find("${data.google_project.project.number}"), std::string::npos);

  const auto limited = render(kScarcePools, "terraform");
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  EXPECT_EQ(resource(terraform_json(limited.out, dir), "google_container_node_pool", "l4_flex")["node_config"][0]
                    ["max_run_duration"],
            "86400s");
}

// A compact pool and a reservation pool in a cluster of two zones: GKE refuses a COMPACT pool
// across zones and a reservation holds VMs in one, so each pool keeps to one zone, in gcloud's
// --node-locations and Terraform's node_locations, while the other pools take the cluster's.
TEST_F(ClusterRender, CompactAndReservationPoolsKeepToOneZone) {
  const std::string project = kProjectHead +
                              "  c: {image: gemm, accelerators: [nvidia-h100-80gb], gpus: 8, nodes: 2, compact: true}\n"
                              "  r: {image: gemm, accelerators: [nvidia-l4], reservation: {name: l4-res, zone: us-central1-c}}\n"
                              "cluster:\n  gcpProject: my-project\n  location: us-central1\n"
                              "  nodeLocations: [us-central1-a, us-central1-c]\n";
  const auto script = render(project, "gcloud");
  ASSERT_EQ(script.exit_code, 0) << script.err;
  std::map<std::string, std::string> zones;  // pool -> its --node-locations
  for (const auto& command : commands_of(script.out)) {
    if (command.find(" node-pools create ") == std::string::npos) continue;
    const auto name = command.substr(command.find("create ") + 7, command.find(' ', command.find("create ") + 7) -
                                                                       command.find("create ") - 7);
    const auto flag = command.find("--node-locations=");
    zones[name] = flag == std::string::npos ? "" : command.substr(flag + 17, command.find(' ', flag) - flag - 17);
  }
  EXPECT_EQ(zones["h100"], "us-central1-a");  // compact: the first cluster zone with H100s
  EXPECT_EQ(zones["l4-res-l4-res"], "us-central1-c");  // the reservation's zone
  EXPECT_EQ(zones["l4-spot"], "us-central1-a,us-central1-c");  // the cluster's
  const auto module = render(project, "terraform");
  ASSERT_EQ(module.exit_code, 0) << module.err;
  const json parsed = terraform_json(module.out, dir);
  EXPECT_EQ(resource(parsed, "google_container_node_pool", "h100")["node_locations"], json({"us-central1-a"}));
  EXPECT_EQ(resource(parsed, "google_container_node_pool", "l4_res_l4_res")["node_locations"], json({"us-central1-c"}));
  EXPECT_FALSE(resource(parsed, "google_container_node_pool", "l4_spot").contains("node_locations"));
}

}  // namespace
}  // namespace gkebuild::testing

namespace gkebuild::testing {
namespace {

// CPU-only experiments (issue 42): a CPU pool per machine type and provisioning, from zero
// nodes, with no accelerator and no nvidia.com/gpu taint, read back by gcloud and terraform.
const std::string kCpuOnly = R"(apiVersion: gkebuild/v1
project: demo
registry: registry.test/p
images:
  numpy: {workload: gpu-info}
experiments:
  prep: {image: numpy, machineType: n2-standard-8}
  again: {image: numpy, gpus: 0, machineType: n2-standard-8}
  cheap: {image: numpy, spot: true}
  l4: {image: numpy, accelerators: [nvidia-l4]}
cluster:
  gcpProject: my-project
  location: us-central1
)";

TEST_F(ClusterRender, CpuOnlyExperimentsGetCpuPools) {
  const auto rendered = render(kCpuOnly, "gcloud");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const auto commands = commands_of(rendered.out);
  // create, l4, 2 CPU pools (prep and again share one), credentials.
  ASSERT_EQ(commands.size(), 5u) << rendered.out;
  const std::string& cpu = commands[2];
  for (const char* flag : {"node-pools create cpu-n2-standard-8 ", " --machine-type=n2-standard-8 ", " --num-nodes=0 ",
                           " --enable-autoscaling ", " --total-min-nodes=0 ", " --location-policy=BALANCED "})
    EXPECT_NE(cpu.find(flag), std::string::npos) << flag << " in " << cpu;
  EXPECT_EQ(cpu.find("--accelerator"), std::string::npos) << cpu;
  EXPECT_EQ(cpu.find("nvidia"), std::string::npos) << cpu;
  const std::string& spot = commands[3];
  for (const char* flag : {"node-pools create cpu-e2-standard-4-spot ", " --machine-type=e2-standard-4 ", " --spot ",
                           "--node-taints=cloud.google.com/gke-spot=true:NoSchedule"})
    EXPECT_NE(spot.find(flag), std::string::npos) << flag << " in " << spot;
  EXPECT_EQ(spot.find("--accelerator"), std::string::npos) << spot;
  const auto outputs = run_without_account(commands, dir);
  for (std::size_t i = 0; i < commands.size(); ++i)
    EXPECT_TRUE(parsed_to_the_account_check(outputs[i])) << commands[i] << "\n" << outputs[i];

  const auto module_text = render(kCpuOnly, "terraform");
  ASSERT_EQ(module_text.exit_code, 0) << module_text.err;
  const json module = terraform_json(module_text.out, dir);
  const json pool = resource(module, "google_container_node_pool", "cpu_n2_standard_8");
  ASSERT_TRUE(pool.is_object()) << module.dump(1);
  EXPECT_EQ(pool["node_config"][0]["machine_type"], "n2-standard-8");
  EXPECT_FALSE(pool["node_config"][0].contains("guest_accelerator")) << pool.dump(1);
  EXPECT_FALSE(pool["node_config"][0].contains("taint")) << pool.dump(1);
  EXPECT_EQ(pool["autoscaling"][0]["total_min_node_count"], 0);
  const json spot_pool = resource(module, "google_container_node_pool", "cpu_e2_standard_4_spot");
  ASSERT_TRUE(spot_pool.is_object());
  EXPECT_EQ(spot_pool["node_config"][0]["spot"], true);
  EXPECT_FALSE(spot_pool["node_config"][0].contains("guest_accelerator"));
}

}  // namespace
}  // namespace gkebuild::testing
