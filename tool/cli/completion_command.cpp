// `gkebuild completion bash|zsh|fish`: a shell script that asks `gkebuild __complete` for
// each completion, so commands, flags, experiments and runs are always the binary's own.
// bash: `source <(gkebuild completion bash)`, or install it as
// share/bash-completion/completions/gkebuild (cmake --install does).
#include <iostream>
#include <memory>
#include <string>

#include "base/exit_codes.h"
#include "tool/cli/command.h"

namespace gkebuild::cli {
namespace {

// With no candidate, bash falls back to file names (-o default): validate's files, -f FILE.
// Each candidate reaches COMPREPLY as it is, compared with the word typed as plain text: never
// through `compgen -W`, which expands $(...) and `...` in its word list (a run folder named
// `$(touch x)` would run on TAB).
constexpr const char* kBash = R"(# bash completion for gkebuild (gkebuild completion bash)
_gkebuild() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local candidates candidate
  candidates=$("${COMP_WORDS[0]}" __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
  COMPREPLY=()
  while IFS= read -r candidate; do
    [[ -n $candidate && $candidate == "$cur"* ]] && COMPREPLY+=("$candidate")
  done <<< "$candidates"
}
complete -o default -F _gkebuild gkebuild
)";

constexpr const char* kZsh = R"(#compdef gkebuild
# zsh completion for gkebuild (gkebuild completion zsh): put it on $fpath as _gkebuild, or source it.
_gkebuild() {
  local -a candidates
  candidates=("${(@f)$(${words[1]} __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  candidates=(${candidates:#})
  if (( ${#candidates} )); then
    compadd -a candidates
  else
    _files
  fi
}
if [[ "${funcstack[1]}" == "_gkebuild" ]]; then
  _gkebuild "$@"
else
  compdef _gkebuild gkebuild
fi
)";

// Files only where gkebuild offers nothing (validate's files, -f FILE), as bash's -o default.
constexpr const char* kFish = R"(# fish completion for gkebuild (gkebuild completion fish)
function __gkebuild_complete
    set -l words (commandline -opc)
    set -e words[1]
    gkebuild __complete -- $words (commandline -ct) 2>/dev/null
end
complete -c gkebuild -f -n '__gkebuild_complete | string length -q' -a '(__gkebuild_complete)'
complete -c gkebuild -F -n 'not __gkebuild_complete | string length -q'
)";

void setup(CLI::App& app, Action& action) {
  auto shell = std::make_shared<std::string>();
  auto* command = app.add_subcommand("completion", "Print a shell completion script: bash, zsh or fish");
  command->add_option("shell", *shell, "bash, zsh or fish")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  command->callback([&action, shell] {
    action = [shell] {
      std::cout << (*shell == "bash" ? kBash : *shell == "zsh" ? kZsh : kFish);
      return kExitSuccess;
    };
  });
}

const CommandRegistration registration(90, "completion", setup);

}  // namespace
}  // namespace gkebuild::cli
