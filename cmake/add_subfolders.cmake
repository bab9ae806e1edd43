# gkebuild_add_subfolders([EXCEPT NAME…]): add_subdirectory() of every subfolder of the current
# source folder that has its own CMakeLists.txt, in name order, but those named after EXCEPT.
# A macro, not a function, so that each subfolder's scope is the caller's (as a plain
# add_subdirectory there would give it).
macro(gkebuild_add_subfolders)
  cmake_parse_arguments(gkebuild_subfolders "" "" "EXCEPT" ${ARGN})
  file(GLOB gkebuild_subfolders_all LIST_DIRECTORIES true RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}"
       "${CMAKE_CURRENT_SOURCE_DIR}/*")
  list(SORT gkebuild_subfolders_all)
  foreach(gkebuild_subfolder IN LISTS gkebuild_subfolders_all)
    if(NOT gkebuild_subfolder IN_LIST gkebuild_subfolders_EXCEPT
       AND EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${gkebuild_subfolder}/CMakeLists.txt")
      add_subdirectory(${gkebuild_subfolder})
    endif()
  endforeach()
endmacro()
