// GPU and batch rules: each fires where the reference table says, at the offending
// key or value, and stays quiet for correct manifests and the driver installer.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "tool/steps/validate/rules.h"
#include "tool/steps/validate/yaml_loader.h"

namespace gkebuild::validate {
namespace {

std::vector<Finding> check(const std::string& yaml, std::set<std::string, std::less<>> disabled = {}) {
  auto loaded = load_manifests(yaml, "m.yaml");
  EXPECT_TRUE(loaded.findings.empty());
  std::vector<Finding> out;
  for (const auto& m : loaded.manifests) {
    RuleReporter r(m, disabled, out);
    check_api_version(r, {1, 37, 0});
    check_object_name(r);
    check_gpu_rules(r);
  }
  return out;
}

const Finding* find(const std::vector<Finding>& all, const std::string& rule) {
  auto it = std::find_if(all.begin(), all.end(), [&](const Finding& f) { return f.rule == rule; });
  return it == all.end() ? nullptr : &*it;
}

std::string gpu_pod(const std::string& resources, const std::string& extra_spec = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" + extra_spec +
         "  containers:\n  - name: c\n    image: x\n    resources:\n" + resources;
}

const std::string kSelector = "  nodeSelector:\n    cloud.google.com/gke-accelerator: nvidia-l4\n";

TEST(GpuRules, CorrectGpuPodIsClean) {
  EXPECT_TRUE(check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n", kSelector)).empty());
}

TEST(GpuRules, RequestWithoutLimitPointsAtTheRequestKey) {
  auto f = check(gpu_pod("      requests:\n        nvidia.com/gpu: 1\n", kSelector));
  const Finding* x = find(f, "gpu-request-without-limit");
  ASSERT_TRUE(x);
  EXPECT_EQ(x->severity, Severity::kError);
  EXPECT_EQ(x->line, 13);
  EXPECT_EQ(x->column, 9);
  EXPECT_NE(x->message.find("fix:"), std::string::npos);
}

TEST(GpuRules, RequestNotEqualLimitAndFractions) {
  auto f = check(gpu_pod("      requests:\n        nvidia.com/gpu: 1\n      limits:\n        nvidia.com/gpu: 2\n", kSelector));
  EXPECT_TRUE(find(f, "gpu-request-ne-limit"));
  auto g = check(gpu_pod("      limits:\n        nvidia.com/gpu: 0.5\n", kSelector));
  ASSERT_TRUE(find(g, "gpu-non-integer"));
  EXPECT_EQ(find(g, "gpu-non-integer")->column, 25);
  EXPECT_TRUE(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: 500m\n", kSelector)), "gpu-non-integer"));
  EXPECT_FALSE(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: \"2\"\n", kSelector)), "gpu-non-integer"));
  EXPECT_TRUE(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: 0\n", kSelector)), "gpu-zero"));
}

TEST(GpuRules, RemovedAndMisspeltResourceNames) {
  EXPECT_TRUE(find(check(gpu_pod("      limits:\n        alpha.kubernetes.io/nvidia-gpu: 1\n")), "gpu-deprecated-resource"));
  for (std::string typo : {"nvidia.com/gpus", "nvidia/gpu", "gpu", "nvidia.com/GPU"}) {
    auto f = check(gpu_pod("      limits:\n        " + typo + ": 1\n"));
    ASSERT_TRUE(find(f, "gpu-resource-typo")) << typo;
    EXPECT_NE(find(f, "gpu-resource-typo")->message.find("nvidia.com/gpu"), std::string::npos);
  }
  EXPECT_FALSE(find(check(gpu_pod("      limits:\n        nvidia.com/mig-1g.10gb: 1\n", kSelector)), "gpu-resource-typo"));
}

TEST(GpuRules, AcceleratorSelectorMissingOrUnknown) {
  EXPECT_TRUE(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n")), "gpu-no-accelerator-selector"));
  auto f = check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n",
                         "  nodeSelector:\n    cloud.google.com/gke-accelerator: nvidia-l5\n"));
  const Finding* x = find(f, "gpu-unknown-accelerator");
  ASSERT_TRUE(x);
  EXPECT_EQ(x->line, 7);
  EXPECT_NE(x->message.find("did you mean"), std::string::npos);
  // A label newer than the catalog (container-engine-accelerators' nri-device-injector.yaml
  // selects nvidia-rtx-pro-6000-vws) cannot be told from a typo: info, never a warning.
  EXPECT_EQ(x->severity, Severity::kInfo);
  // Clusters with one GPU type need no selector (the Kubernetes "Schedule GPUs" page).
  EXPECT_EQ(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n")), "gpu-no-accelerator-selector")->severity,
            Severity::kInfo);
  // A custom ComputeClass (gkebuild's fallback:) names the GPU in its rules; Autopilot's built-in
  // Accelerator class does not.
  EXPECT_FALSE(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n",
                                  "  nodeSelector:\n    cloud.google.com/compute-class: big-ddp\n")),
                    "gpu-no-accelerator-selector"));
  EXPECT_TRUE(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n",
                                 "  nodeSelector:\n    cloud.google.com/compute-class: Accelerator\n")),
                   "gpu-no-accelerator-selector"));
}

TEST(GpuRules, TemplatePlaceholderCountIsNotAFinding) {
  // kubernetes-engine-samples' custom-compute-classes/reservations/deployment-gpu.yaml is run
  // through envsubst before kubectl sees it.
  auto f = check(gpu_pod("      limits:\n        nvidia.com/gpu: \"${ACCELERATOR_QUANTITY}\"\n", kSelector));
  ASSERT_TRUE(find(f, "gpu-non-integer"));
  EXPECT_EQ(find(f, "gpu-non-integer")->severity, Severity::kInfo);
  EXPECT_EQ(find(check(gpu_pod("      limits:\n        nvidia.com/gpu: \"1.5\"\n", kSelector)), "gpu-non-integer")->severity,
            Severity::kError);
}

TEST(GpuRules, NonRequestingPodOnGpuNodesNeedsToleration) {
  std::string pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" + kSelector +
                    "  containers:\n  - name: c\n    image: x\n";
  EXPECT_TRUE(find(check(pod), "gpu-toleration-missing-nonrequesting"));
  std::string tolerating = pod + "  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n";
  EXPECT_FALSE(find(check(tolerating), "gpu-toleration-missing-nonrequesting"));
}

TEST(GpuRules, HostPathDriverMountAndInstallerExemption) {
  std::string volumes = "  volumes:\n  - name: nv\n    hostPath:\n      path: /home/kubernetes/bin/nvidia\n";
  auto f = check(gpu_pod("      limits:\n        nvidia.com/gpu: 1\n", kSelector + volumes));
  ASSERT_TRUE(find(f, "gpu-hostpath-driver-mount"));
  EXPECT_EQ(find(f, "gpu-hostpath-driver-mount")->line, 11);
  // GPUDirect installers and NCCL tests mount these on purpose: a hint, not a warning.
  EXPECT_EQ(find(f, "gpu-hostpath-driver-mount")->severity, Severity::kInfo);

  std::string installer =
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: nvidia-driver-installer\n  namespace: kube-system\n"
      "spec:\n  selector:\n    matchLabels: {k8s-app: nvidia-driver-installer}\n  template:\n"
      "    metadata:\n      labels: {k8s-app: nvidia-driver-installer}\n    spec:\n"
      "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "            nodeSelectorTerms:\n            - matchExpressions:\n"
      "              - {key: cloud.google.com/gke-accelerator, operator: Exists}\n"
      "              - {key: cloud.google.com/gke-gpu-driver-version, operator: DoesNotExist}\n"
      "      tolerations:\n      - operator: Exists\n      hostNetwork: true\n      hostPID: true\n"
      "      volumes:\n      - name: nvidia-install-dir-host\n        hostPath: {path: /home/kubernetes/bin/nvidia}\n"
      "      - name: root-mount\n        hostPath: {path: /}\n"
      "      initContainers:\n      - name: nvidia-driver-installer\n        image: cos-nvidia-installer:fixed\n"
      "      containers:\n      - name: pause\n        image: gcr.io/google-containers/pause:2.0\n";
  EXPECT_TRUE(check(installer).empty());
  std::string legacy = installer;
  legacy.replace(0, std::string("apiVersion: apps/v1").size(), "apiVersion: extensions/v1beta1");
  auto l = check(legacy);
  EXPECT_TRUE(find(l, "removed-api"));  // the old apiVersion is removed-api's finding alone
  EXPECT_FALSE(find(l, "gpu-driver-installer-legacy"));
  std::string no_exclusion = installer;
  no_exclusion.erase(no_exclusion.find("              - {key: cloud.google.com/gke-gpu-driver-version"),
                     std::string("              - {key: cloud.google.com/gke-gpu-driver-version, operator: DoesNotExist}\n").size());
  // Upstream's ubuntu/daemonset.yaml and cos/daemonset-nvidia-mig.yaml are like this today.
  auto n = check(no_exclusion);
  ASSERT_TRUE(find(n, "gpu-driver-installer-legacy"));
  EXPECT_EQ(find(n, "gpu-driver-installer-legacy")->severity, Severity::kInfo);
  // minikube/daemonset.yaml targets no GKE node label, so GKE-managed drivers never meet it.
  std::string minikube = no_exclusion;
  minikube.erase(minikube.find("              - {key: cloud.google.com/gke-accelerator"),
                 std::string("              - {key: cloud.google.com/gke-accelerator, operator: Exists}\n").size());
  EXPECT_FALSE(find(check(minikube), "gpu-driver-installer-legacy"));
}

// Real upstream files (tests/tool/steps/validate/upstream), as they are and with one mistake put in:
// the rules stay silent on the first and catch the second.
std::string upstream(const std::string& path) {
  std::ifstream in(std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/steps/validate/upstream/" + path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_FALSE(text.empty()) << path;
  return text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

bool has_warning_or_error(const std::vector<Finding>& all) {
  return std::any_of(all.begin(), all.end(), [](const Finding& f) { return f.severity != Severity::kInfo; });
}

TEST(GpuRulesOnUpstream, SilentOnTheFilesCatchTheMistakePutIn) {
  const std::string vllm = upstream("kubernetes-engine-samples/ai-ml/llm-serving-gemma/vllm/vllm-2-2b-it.yaml");
  EXPECT_FALSE(has_warning_or_error(check(vllm)));
  const std::string request = "            nvidia.com/gpu: \"1\"\n          limits:";
  EXPECT_EQ(find(check(replaced(vllm, request, "            nvidia.com/gpu: \"0.5\"\n          limits:")),
                 "gpu-request-ne-limit")->severity, Severity::kError);
  auto half = check(replaced(replaced(vllm, request, "            nvidia.com/gpu: \"0.5\"\n          limits:"),
                             "            nvidia.com/gpu: \"1\"\n        command", "            nvidia.com/gpu: \"0.5\"\n        command"));
  EXPECT_EQ(find(half, "gpu-non-integer")->severity, Severity::kError);
  EXPECT_EQ(find(check(replaced(vllm, "            nvidia.com/gpu: \"1\"\n        command",
                                "            nvidia.com/gpus: \"1\"\n        command")),
                 "gpu-request-without-limit")->severity, Severity::kError);

  const std::string tcpx = upstream("container-engine-accelerators/gpudirect-tcpx/nccl-tcpx-installer.yaml");
  EXPECT_FALSE(has_warning_or_error(check(tcpx)));
  auto untolerated = check(replaced(tcpx, "      tolerations:\n        - operator: \"Exists\"\n", ""));
  ASSERT_TRUE(find(untolerated, "gpu-toleration-missing-nonrequesting"));
  EXPECT_EQ(find(untolerated, "gpu-toleration-missing-nonrequesting")->severity, Severity::kWarning);

  const std::string cos = upstream("container-engine-accelerators/nvidia-driver-installer/cos/daemonset-preloaded.yaml");
  EXPECT_TRUE(check(cos).empty());
  auto without_term = check(replaced(cos, "              - key: cloud.google.com/gke-gpu-driver-version\n                operator: DoesNotExist\n", ""));
  ASSERT_TRUE(find(without_term, "gpu-driver-installer-legacy"));
  EXPECT_FALSE(has_warning_or_error(without_term));
}

TEST(BatchRules, GpuJobWithoutTtlBackoffOrDeadline) {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  template:\n    spec:\n"
      "      restartPolicy: Never\n" "      nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}\n"
      "      containers:\n      - name: c\n        image: x\n        resources: {limits: {nvidia.com/gpu: 1}}\n";
  auto f = check(job);
  EXPECT_TRUE(find(f, "job-gpu-no-ttl"));
  EXPECT_TRUE(find(f, "job-gpu-no-backoff-limit"));
  EXPECT_TRUE(find(f, "job-gpu-no-deadline"));
  EXPECT_EQ(find(f, "job-gpu-no-ttl")->line, 5);
  // Advice, not a mistake (kubernetes-engine-samples' GPU Jobs set none of them): info.
  for (const char* rule : {"job-gpu-no-ttl", "job-gpu-no-backoff-limit", "job-gpu-no-deadline"})
    EXPECT_EQ(find(f, rule)->severity, Severity::kInfo) << rule;
  EXPECT_FALSE(find(check(job, {"job-gpu-no-ttl"}), "job-gpu-no-ttl"));
  std::string annotated = job;
  annotated.replace(annotated.find("  name: j\n"), 10,
                    "  name: j\n  annotations:\n    gkebuild.io/disable-rules: \"job-gpu-no-ttl, job-gpu-no-deadline\"\n");
  auto a = check(annotated);
  EXPECT_FALSE(find(a, "job-gpu-no-ttl"));
  EXPECT_FALSE(find(a, "job-gpu-no-deadline"));
  EXPECT_TRUE(find(a, "job-gpu-no-backoff-limit"));
  // A misspelt id in the annotation turns nothing off; the finding it meant says so (issue 45).
  annotated.replace(annotated.find("job-gpu-no-ttl,"), 15, "job-gpu-no-tl,");
  const auto misspelt = check(annotated);  // kept: find() points into it (ASan found it freed)
  const Finding* missed = find(misspelt, "job-gpu-no-ttl");
  ASSERT_TRUE(missed);
  EXPECT_NE(missed->message.find("(the gkebuild.io/disable-rules annotation names 'job-gpu-no-tl': did you mean "
                                 "'job-gpu-no-ttl'?)"),
            std::string::npos)
      << missed->message;
}

// A Service's name must start with a letter (DNS-1035): the headless Service of a multi-node
// Job named after an experiment "3d-unet" was refused by the API server, and validate passed it.
TEST(ObjectNameRule, EachKindsNamingRuleAtTheName) {
  const auto named = [](const std::string& api_version, const std::string& kind, const std::string& name) {
    return check("apiVersion: " + api_version + "\nkind: " + kind + "\nmetadata:\n  name: '" + name + "'\n");
  };
  const auto service = named("v1", "Service", "3d-unet-h100-0-r1");
  const Finding* x = find(service, "object-name");
  ASSERT_TRUE(x);
  EXPECT_EQ(x->severity, Severity::kError);
  EXPECT_EQ(x->line, 4);
  EXPECT_EQ(x->column, 9);
  EXPECT_NE(x->message.find("DNS-1035 label"), std::string::npos) << x->message;
  EXPECT_TRUE(find(named("jobset.x-k8s.io/v1alpha2", "JobSet", "3d-unet"), "object-name"));
  EXPECT_TRUE(find(named("v1", "Namespace", "a.b"), "object-name"));
  EXPECT_TRUE(find(named("batch/v1", "Job", std::string(64, 'j')), "object-name"));
  EXPECT_TRUE(find(named("v1", "ConfigMap", "Points"), "object-name"));
  EXPECT_TRUE(find(named("kueue.x-k8s.io/v1beta1", "ClusterQueue", "team_a"), "object-name"));
  // What each kind allows: a Job or Pod may start with a digit, a ConfigMap hold dots, an RBAC
  // role a colon; an object without a name (generateName) is not judged.
  for (const auto& ok : {named("v1", "Service", "svc-3d-unet"), named("batch/v1", "Job", "3d-unet-h100-0-r1"),
                         named("v1", "Pod", "3d-unet"), named("v1", "ConfigMap", "a.b-c"),
                         named("rbac.authorization.k8s.io/v1", "ClusterRole", "system:gkebuild"),
                         check("apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: x-\n")})
    EXPECT_FALSE(find(ok, "object-name"));
}

TEST(BatchRules, JobRestartPolicyAndDuplicateEnv) {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  template:\n    spec:\n"
      "      restartPolicy: Always\n      containers:\n      - name: c\n        image: x\n"
      "        env:\n        - {name: A, value: '1'}\n        - {name: A, value: '2'}\n";
  auto f = check(job);
  ASSERT_TRUE(find(f, "job-restart-policy"));
  EXPECT_EQ(find(f, "job-restart-policy")->line, 8);
  ASSERT_TRUE(find(f, "duplicate-env-var"));
  EXPECT_EQ(find(f, "duplicate-env-var")->line, 14);
}

// Names that say "credential" with their value written out warn at the value; references to
// Secrets, $(VAR) references, empty values and other names stay quiet.
TEST(CredentialRule, LiteralCredentialsInContainerEnvWarnAtTheirValue) {
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  template:\n    spec:\n"
      "      restartPolicy: Never\n      containers:\n      - name: c\n        image: x\n        env:\n"
      "        - {name: WANDB_API_KEY, value: 0123abcd}\n"                                    // 13
      "        - {name: HF_TOKEN, valueFrom: {secretKeyRef: {name: hf, key: token}}}\n"       // 14
      "        - {name: github_token, value: '$(GH_TOKEN)'}\n"                                // 15
      "        - {name: DB_PASSWORD, value: ''}\n"                                           // 16
      "        - {name: TOKEN_COUNT, value: '5'}\n"                                          // 17
      "        - {name: AWS_SECRET_ACCESS_KEY, value: abc}\n"                                // 18
      "        - name: POSTGRES_PASSWORD\n          value: hunter2\n";                       // 19, 20
  auto f = check(job);
  std::vector<int> lines;
  for (const auto& finding : f)
    if (finding.rule == "literal-credential") {
      EXPECT_EQ(finding.severity, Severity::kWarning);
      lines.push_back(finding.line);
    }
  EXPECT_EQ(lines, (std::vector<int>{13, 18, 20}));
  EXPECT_NE(find(f, "literal-credential")->message.find("WANDB_API_KEY looks like a credential"), std::string::npos);
  EXPECT_TRUE(find_rule("literal-credential"));
  EXPECT_EQ(check(job, {"literal-credential"}).size(), f.size() - 3);
}

TEST(ApiRules, DeprecatedAndRemovedForTheTargetVersion) {
  std::string cron = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\n";
  auto loaded = load_manifests(cron, "c.yaml");
  std::vector<Finding> old_out, new_out;
  const std::set<std::string, std::less<>> none;
  RuleReporter old_r(loaded.manifests[0], none, old_out);
  EXPECT_FALSE(check_api_version(old_r, {1, 22, 0}));
  ASSERT_EQ(old_out.size(), 1u);
  EXPECT_EQ(old_out[0].rule, "deprecated-api");
  RuleReporter new_r(loaded.manifests[0], none, new_out);
  EXPECT_TRUE(check_api_version(new_r, {1, 25, 0}));
  EXPECT_EQ(new_out[0].rule, "removed-api");
  EXPECT_EQ(new_out[0].line, 1);
  EXPECT_EQ(new_out[0].column, 13);
}

}  // namespace
}  // namespace gkebuild::validate
