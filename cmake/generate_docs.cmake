# Build-time step: the manual pages and shell completions, written by the built gkebuild
# itself (`gkebuild __man DIR`, `gkebuild completion SHELL`) so they never drift from its
# command line. Laid out as they install under PREFIX/share.
# Usage: cmake -DGKEBUILD=path/to/gkebuild -DSHARE=dir -DSTAMP=file -P generate_docs.cmake
file(REMOVE_RECURSE "${SHARE}")
execute_process(COMMAND "${GKEBUILD}" __man "${SHARE}/man/man1" RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "gkebuild __man failed")
endif()
foreach(shell_and_file IN ITEMS "bash|bash-completion/completions/gkebuild" "zsh|zsh/site-functions/_gkebuild"
                               "fish|fish/vendor_completions.d/gkebuild.fish")
  string(REPLACE "|" ";" parts "${shell_and_file}")
  list(GET parts 0 shell)
  list(GET parts 1 file)
  get_filename_component(dir "${SHARE}/${file}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND "${GKEBUILD}" completion "${shell}" OUTPUT_FILE "${SHARE}/${file}" RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "gkebuild completion ${shell} failed")
  endif()
endforeach()
file(TOUCH "${STAMP}")
