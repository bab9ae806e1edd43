# embed_gkebuild_files(TARGET NAMESPACE SYMBOL BASE FILES…): compiles text files into TARGET as
# `const gkebuild::EmbeddedFile SYMBOL[]` and `SYMBOL_count` in NAMESPACE (base/embedded_file.h),
# so the binary carries its data (the catalog, the shipped templates) and needs no data folder.
set(GKEBUILD_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_text.cmake")
function(embed_gkebuild_files target namespace symbol base)
  set(files ${ARGN})
  set(inputs "")
  foreach(file IN LISTS files)
    list(APPEND inputs "${base}/${file}")
  endforeach()
  set(output "${CMAKE_CURRENT_BINARY_DIR}/${symbol}.cpp")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${output}" "-DNAMESPACE=${namespace}" "-DSYMBOL=${symbol}"
            "-DBASE=${base}" "-DFILES=${files}" -P "${GKEBUILD_EMBED_SCRIPT}"
    DEPENDS ${inputs} "${GKEBUILD_EMBED_SCRIPT}"
    COMMENT "Embedding ${symbol}"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
endfunction()
