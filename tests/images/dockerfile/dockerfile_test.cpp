#include "base/error.h"
#include "images/dockerfile/dockerfile.h"

#include <gtest/gtest.h>

#include "images/dockerfile/dockerfile_error.h"
#include "images/dockerfile/words.h"

namespace gkebuild::dockerfile {
namespace {

// The error parse() gives for `text`, as "line:column: message".
std::string error_of(const std::string& text) {
  try {
    parse(text, "Dockerfile");
  } catch (const DockerfileError& e) {
    return std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.message();
  }
  return "no error";
}

TEST(DockerfileParse, InstructionsWithLinesFlagsAndContinuations) {
  auto df = parse("# syntax=docker/dockerfile:1\nARG BASE=scratch\nFROM $BASE\n\n"
                  "# a comment\nENV A=1 \\\n    B=2\ncopy --chown=1:2 a b /dst/\nCMD [\"x\", \"y\"]\n",
                  "Dockerfile");
  ASSERT_EQ(df.instructions.size(), 5u);
  EXPECT_EQ(df.instructions[1].keyword, Keyword::kFrom);
  EXPECT_EQ(df.instructions[1].line, 3);
  EXPECT_EQ(df.instructions[2].line, 6);
  EXPECT_EQ(df.instructions[2].arguments, "A=1     B=2");
  const auto& copy = df.instructions[3];
  EXPECT_EQ(copy.name, "COPY");
  ASSERT_EQ(copy.flags.size(), 1u);
  EXPECT_EQ(copy.flags[0].name, "chown");
  EXPECT_EQ(copy.flags[0].value, "1:2");
  EXPECT_EQ(copy.arguments, "a b /dst/");
  EXPECT_EQ(copy.column, 18);
  ASSERT_TRUE(df.instructions[4].json);
  EXPECT_EQ(*df.instructions[4].json, (std::vector<std::string>{"x", "y"}));
}

TEST(DockerfileParse, EscapeDirective) {
  auto df = parse("# escape=`\nFROM scratch\nENV A=1 `\n  B=2\n", "Dockerfile");
  EXPECT_EQ(df.escape, '`');
  EXPECT_EQ(df.instructions[1].arguments, "A=1   B=2");
}

TEST(DockerfileParse, EveryInstructionAndMultiStage) {
  auto df = parse("ARG BASE=scratch\nFROM $BASE AS build\nRUN make\nADD a.tar /x/\nSHELL [\"/bin/bash\", \"-c\"]\n"
                  "HEALTHCHECK --interval=5s CMD true\nONBUILD COPY a /b\nMAINTAINER me\n"
                  "FROM scratch\nCOPY --from=build --link /a /b\nCOPY --link=false a b\n",
                  "Dockerfile");
  ASSERT_EQ(df.instructions.size(), 11u);
  EXPECT_EQ(df.instructions[2].keyword, Keyword::kRun);
  EXPECT_EQ(df.instructions[3].keyword, Keyword::kAdd);
  EXPECT_EQ(df.instructions[4].keyword, Keyword::kShell);
  EXPECT_EQ(df.instructions[5].flag("interval")->value, "5s");
  EXPECT_EQ(df.instructions[6].keyword, Keyword::kOnbuild);
  EXPECT_EQ(df.instructions[7].keyword, Keyword::kMaintainer);
  const auto& copy = df.instructions[9];
  ASSERT_EQ(copy.flags.size(), 2u);
  EXPECT_EQ(copy.flag("from")->value, "build");
  EXPECT_EQ(copy.flag("from")->column, 6);
  EXPECT_FALSE(copy.flag("link")->has_value);
  EXPECT_EQ(copy.flag("link")->column, 19);
  EXPECT_EQ(df.instructions[10].flag("link")->value, "false");
}

TEST(DockerfileParse, RunFlagsKeepTheirColumns) {
  auto df = parse("FROM scratch\nRUN --mount=type=cache,target=/root/.cache,id=pip --network=host pip install x\n",
                  "Dockerfile");
  const auto& run = df.instructions[1];
  EXPECT_EQ(run.flag("mount")->value, "type=cache,target=/root/.cache,id=pip");
  EXPECT_EQ(run.flag("network")->column, 51);
  EXPECT_EQ(run.arguments, "pip install x");
  EXPECT_EQ(run.column, 66);
  EXPECT_EQ(error_of("FROM scratch\nRUN --security=insecure x"),
            "2:5: RUN --security is not supported: RUN steps never run privileged");
  EXPECT_EQ(error_of("FROM scratch\nCOPY --exclude=*.md . /"),
            "2:6: COPY --exclude (a Dockerfile 1.7 labs feature) is not supported; use .dockerignore");
  EXPECT_EQ(error_of("FROM scratch\nCOPY --chown a /"), "2:6: the flag --chown needs a value: --chown=VALUE");
}

TEST(DockerfileParse, Heredocs) {
  auto df = parse("FROM scratch\nRUN <<EOF\necho hello\n# not a comment\nEOF\n"
                  "COPY <<one <<\"two\" /dst/\n1 $A\none\n2 $A\ntwo\n"
                  "RUN <<-EOT cat\n\t\tindented\n\tEOT\nENV X=1\n",
                  "Dockerfile");
  ASSERT_EQ(df.instructions.size(), 5u);
  const auto& run = df.instructions[1];
  EXPECT_EQ(run.arguments, "<<EOF");
  ASSERT_EQ(run.heredocs.size(), 1u);
  EXPECT_EQ(run.heredocs[0].body, "echo hello\n# not a comment\n");
  const auto& copy = df.instructions[2];
  ASSERT_EQ(copy.heredocs.size(), 2u);
  EXPECT_EQ(copy.heredocs[0].name, "one");
  EXPECT_TRUE(copy.heredocs[0].expand);
  EXPECT_EQ(copy.heredocs[1].body, "2 $A\n");
  EXPECT_FALSE(copy.heredocs[1].expand);
  EXPECT_EQ(copy.line, 6);
  EXPECT_EQ(heredoc_text(df.instructions[3].heredocs[0]), "indented\n");
  EXPECT_EQ(df.instructions[4].line, 14);
  EXPECT_EQ(error_of("FROM scratch\nRUN <<EOF\nhello\n"), "2:1: the heredoc <<EOF has no line 'EOF' that ends it");
  EXPECT_FALSE(heredoc_marker("<<<EOF"));
  EXPECT_TRUE(heredoc_marker("3<<'X'"));
}

TEST(DockerfileParse, MalformedInput) {
  EXPECT_EQ(error_of("FROM scratch\nFROB x"), "2:1: unknown instruction 'FROB'");
  EXPECT_EQ(error_of("COPY a b"), "1:1: COPY before FROM: a Dockerfile must start with FROM (ARG may precede it)");
  EXPECT_EQ(error_of("FROM scratch\nCOPY"), "2:1: COPY needs arguments");
  EXPECT_EQ(error_of("FROM scratch\nENV A=1 \\"), "2:9: the last instruction ends with a line continuation");
  EXPECT_EQ(error_of("FROM scratch\nENV A=1 \\\n  B=2 \\\n# c\n"),
            "3:7: the last instruction ends with a line continuation");
  EXPECT_EQ(error_of("FROM scratch\nCOPY  --chown=1 --mode=0 a /"), "2:17: COPY does not support the flag --mode");
  EXPECT_EQ(error_of("# nothing\n"), "0:0: no FROM instruction");
  EXPECT_EQ(error_of("FROM scratch\nONBUILD FROM x"), "2:9: ONBUILD FROM is not allowed");
  EXPECT_EQ(error_of("FROM scratch\nCOPY --mode=1 a b"), "2:6: COPY does not support the flag --mode");
}

// Names from the file are echoed with their control characters escaped, never raw.
TEST(DockerfileParse, UnknownNamesAreEchoedPrintable) {
  EXPECT_EQ(error_of("FROM scratch\nFR\x1b]0;pwned\x07OB x"), "2:1: unknown instruction 'FR\\x1b]0;pwned\\x07OB'");
  EXPECT_EQ(error_of("FROM scratch\nCOPY --\x1b[2J a /"), "2:6: COPY does not support the flag --\\x1b[2J");
  EXPECT_EQ(error_of("FROM scratch\nCOPY --x\x1b[2J=1 a /"), "2:6: COPY does not support the flag --x\\x1b[2J");
}

// `ENTRYPOINT ["/a",` is not a JSON array: BuildKit's parser (used by buildah and docker) then
// takes the line as shell form, and `buildah bud` builds it as ["/bin/sh", "-c", "[\"/a\","]
// (checked with buildah 1.28.2). gkebuild follows them rather than refusing the line.
TEST(DockerfileParse, MalformedJsonFormFallsBackToShellFormAsBuildKitDoes) {
  auto df = parse("FROM scratch\nENTRYPOINT [\"/a\",\n", "Dockerfile");
  ASSERT_EQ(df.instructions.size(), 2u);
  EXPECT_FALSE(df.instructions[1].json);
  EXPECT_EQ(df.instructions[1].arguments, "[\"/a\",");
}

TEST(Words, QuotesEscapesAndExpansion) {
  Lookup vars = [](std::string_view name) -> std::optional<std::string> {
    if (name == "A") return "one";
    if (name == "EMPTY") return "";
    return std::nullopt;
  };
  EXPECT_EQ(split_words(R"(x=$A "y z"='$A' ${A}b \$A)", vars, '\\'),
            (std::vector<std::string>{"x=one", "y z=$A", "oneb", "$A"}));
  EXPECT_EQ(expand_word("${MISSING:-d} ${EMPTY:-e} ${EMPTY-f} ${A:+set} ${MISSING:+no}", vars, '\\'),
            "d e  set ");
  EXPECT_THROW(split_words("\"open", vars, '\\'), gkebuild::InputError);
  EXPECT_THROW(split_words("${A", vars, '\\'), gkebuild::InputError);
}

}  // namespace
}  // namespace gkebuild::dockerfile
