# CPack pre-build step (CPACK_PRE_BUILD_SCRIPTS): the .deb's manual pages compressed as Debian
# policy asks (12.3: gzip -9n, so no name or time stamp makes two builds differ). Run on the
# staging folder, CPACK_TEMPORARY_DIRECTORY, after install and before the package is made;
# `cmake --install` itself leaves the pages as written.
file(GLOB_RECURSE pages "${CPACK_TEMPORARY_DIRECTORY}/*/share/man/man1/*.1")
foreach(page IN LISTS pages)
  execute_process(COMMAND gzip -9nf "${page}" RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "gzip -9n ${page} failed")
  endif()
endforeach()
