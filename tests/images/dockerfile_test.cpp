#include "dockerfile/dockerfile.h"

#include <gtest/gtest.h>

#include "dockerfile/dockerfile_error.h"
#include "dockerfile/words.h"

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

TEST(DockerfileParse, RefusedInstructionsNameTheLineAndAPeer) {
  EXPECT_EQ(error_of("FROM scratch\nRUN make").substr(0, 4), "2:1:");
  EXPECT_NE(error_of("FROM scratch\nRUN make").find("buildah bud"), std::string::npos);
  EXPECT_NE(error_of("FROM scratch\n  ADD x /").find("2:3: ADD"), std::string::npos);
  EXPECT_NE(error_of("FROM scratch\nCOPY --from=build /a /b").find("2:6: COPY --from"), std::string::npos);
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
  EXPECT_NE(error_of("FROM scratch\nFROM scratch").find("2:1: a second FROM"), std::string::npos);
  EXPECT_EQ(error_of("FROM scratch\nCOPY --mode=1 a b"), "2:6: COPY does not support the flag --mode");
}

// Names from the file are echoed with their control characters escaped, never raw.
TEST(DockerfileParse, UnknownNamesAreEchoedPrintable) {
  EXPECT_EQ(error_of("FROM scratch\nFR\x1b]0;pwned\x07OB x"), "2:1: unknown instruction 'FR\\x1b]0;pwned\\x07OB'");
  EXPECT_EQ(error_of("FROM scratch\nCOPY --\x1b[2J a /"), "2:6: malformed flag '--\\x1b[2J': expected --name=value");
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
  EXPECT_THROW(split_words("\"open", vars, '\\'), std::invalid_argument);
  EXPECT_THROW(split_words("${A", vars, '\\'), std::invalid_argument);
}

}  // namespace
}  // namespace gkebuild::dockerfile
