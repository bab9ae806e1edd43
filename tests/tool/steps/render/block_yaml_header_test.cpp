// The line reader of rendered manifests (tool/steps/render/block_yaml_header.h) against libyaml: on
// every document it answers, libyaml must accept the document and read the same header.
// The documents are block YAML as templates render it, and every variant of them with one
// character deleted or one YAML-significant character inserted, at every position.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool/steps/render/block_yaml_header.h"
#include "tool/steps/render/manifest_header.h"

namespace gkebuild::render {
namespace {

const std::vector<std::string> kDocuments = {
    // A Job as the shipped job.yaml.j2 renders it (bench/render/sweep-1000.yaml, trimmed).
    "apiVersion: batch/v1\n"
    "kind: Job\n"
    "metadata:\n"
    "  name: \"sweep-l4-1-bench\"\n"
    "  namespace: \"bench\"\n"
    "  labels:\n"
    "    gkebuild.io/point: \"1\"\n"
    "  annotations:\n"
    "    gkebuild.io/point: \"{\\\"k\\\": 512, \\\"m\\\": 256}\"\n"
    "spec:\n"
    "  backoffLimit: 1\n"
    "  podFailurePolicy:\n"
    "    rules:\n"
    "      - action: Ignore\n"
    "        onPodConditions:\n"
    "          - type: DisruptionTarget\n"
    "            status: \"True\"\n"
    "  template:\n"
    "    spec:\n"
    "      restartPolicy: Never\n"
    "      containers:\n"
    "        - name: main\n"
    "          args:\n"
    "            - \"--m\"\n"
    "            - fp16\n"
    "          resources:\n"
    "            limits:\n"
    "              nvidia.com/gpu: 1\n",
    // Indentless sequences, empty values, comments, single quotes, empty collections.
    "# a comment\n"
    "kind: 'Config''s'\n"
    "metadata:\n"
    "  name: a-b.c   # trailing comment\n"
    "  namespace:\n"
    "items:\n"
    "- a\n"
    "-\n"
    "  x: 1\n"
    "- key: []\n"
    "  other: {}\n"
    "  list:\n"
    "  - \"q\\\\\"\n"
    "empty:\n"
    "last: (x) /y z:w\n",
    // Fields that are not scalars, repeated, or null.
    "kind:\n"
    "  nested: 1\n"
    "metadata:\n"
    "  name: first\n"
    "metadata:\n"
    "  namespace: ns\n"
    "kind: Second\n"
    "other:\n",
    "kind:\nmetadata:\n  name:\n",
    "metadata:\n- name: x\nkind: []\n",
    "# only a comment\n\n   \n",
    "a:\n  - b:\n      c: d\n    e: \"f\"\n  -   g: h\n  - - i\n",
};

void expect_same_as_libyaml(const std::string& document, int& answered) {
  const auto fast = read_block_yaml_header(document);
  if (!fast) return;
  ++answered;
  YamlSyntaxError error;
  const auto reference = read_manifest_header_with_libyaml(document, error);
  ASSERT_TRUE(reference.has_value()) << "libyaml refuses (" << error.message << ") what the line reader took:\n"
                                     << document;
  EXPECT_EQ(fast->is_mapping, reference->is_mapping) << document;
  EXPECT_EQ(fast->empty, reference->empty) << document;
  EXPECT_EQ(fast->kind, reference->kind) << document;
  EXPECT_EQ(fast->name, reference->name) << document;
  EXPECT_EQ(fast->namespace_name, reference->namespace_name) << document;
}

TEST(BlockYamlHeader, AnswersRenderedBlockYamlAsLibyamlDoes) {
  int answered = 0;
  for (const auto& document : kDocuments) expect_same_as_libyaml(document, answered);
  // All but the last (a nested sequence on one line: libyaml's to read) are in the subset.
  EXPECT_EQ(answered, static_cast<int>(kDocuments.size()) - 1);
  const auto job = read_block_yaml_header(kDocuments[0]);
  ASSERT_TRUE(job);
  EXPECT_EQ(job->kind, "Job");
  EXPECT_EQ(job->name, "sweep-l4-1-bench");
  EXPECT_EQ(job->namespace_name, "bench");
}

TEST(BlockYamlHeader, EveryOneCharacterVariantIsAnsweredAsLibyamlDoesOrLeftToIt) {
  const std::string inserted = " -:#\"'[]{}\n\\x?&*!|>%@\t.";
  int answered = 0;
  int variants = 0;
  for (const auto& document : kDocuments) {
    for (std::size_t at = 0; at <= document.size(); ++at) {
      if (at < document.size()) {
        ++variants;
        expect_same_as_libyaml(document.substr(0, at) + document.substr(at + 1), answered);
      }
      for (const char c : inserted) {
        ++variants;
        expect_same_as_libyaml(document.substr(0, at) + c + document.substr(at), answered);
      }
      if (HasFatalFailure()) return;
    }
  }
  // The reader must stay useful: about 28% of the variants are still in its subset.
  EXPECT_GT(answered, variants / 5) << answered << " of " << variants;
}

TEST(BlockYamlHeader, LeavesWhatItDoesNotReadToLibyaml) {
  for (const std::string document :
       {"kind: |\n  x\n", "kind: &a Job\n", "kind: !t Job\n", "kind: *a\n", "a: [1, 2]\n", "a: {b: c}\n",
        "kind: \"\\u00e9\"\n", "kind: caf\xC3\xA9\n", "a:\tb\n", "a: b\r\n", "  a: b\n", "- a\n", "a: b\n  c\n",
        "a: b: c\n", "\"a\": b\n", "? a\n: b\n", "a: \"x\n  y\"\n", "%YAML 1.1\n"})
    EXPECT_FALSE(read_block_yaml_header(document)) << document;
}

}  // namespace
}  // namespace gkebuild::render
