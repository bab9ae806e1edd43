# Start-up time: gkebuild runs once per file from pre-commit and editors, so every command must
# start in a few milliseconds. Linked against the shared libraries of its dependencies it paid
# about 9 ms before main() (47 libraries to map, 12,000 symbol relocations to resolve), most of it
# for libcurl's closure, which only network commands use. So:
#  - libcurl is loaded on first use (base/libcurl_on_demand.cpp), never linked;
#  - the other dependencies are linked from their static archives, and libstdc++ statically into
#    the gkebuild executable (gkebuild_link_statically below);
# which leaves libc, libm, libgcc_s and libzstd. Two stay shared on purpose: libgcc_s, because
# libcurl's closure loads it, and two unwinders in one process abort on the first exception
# thrown through C frames; libzstd, because Debian's static archive is built without the
# multi-threaded compressor. GKEBUILD_STATIC_DEPS=OFF links everything shared (the sanitizer
# build does, since the sanitizer runtimes expect a shared libstdc++).
include_guard(GLOBAL)

# Points imported target `target` at the static archive `archive` (file name, e.g. libyaml.a) and
# adds the libraries that archive needs (`NEEDS` other archives, found the same way).
function(gkebuild_use_static_archive target archive)
  cmake_parse_arguments(ARG "" "" "NEEDS" ${ARGN})
  find_library(static_${archive} NAMES ${archive} REQUIRED)
  set(needs "")
  foreach(need IN LISTS ARG_NEEDS)
    find_library(static_${need} NAMES ${need} REQUIRED)
    list(APPEND needs "${static_${need}}")
  endforeach()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")  # pkg-config targets carry the library as a link item
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${static_${archive}}" ${needs})
  else()
    set_property(TARGET ${target} PROPERTY IMPORTED_LOCATION "${static_${archive}}")
    get_target_property(configurations ${target} IMPORTED_CONFIGURATIONS)
    foreach(configuration IN LISTS configurations)
      if(configuration)
        set_property(TARGET ${target} PROPERTY IMPORTED_LOCATION_${configuration} "${static_${archive}}")
      endif()
    endforeach()
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${needs})
  endif()
endfunction()

if(GKEBUILD_STATIC_DEPS)
  gkebuild_use_static_archive(yaml-cpp libyaml-cpp.a)
  gkebuild_use_static_archive(PkgConfig::LIBYAML libyaml.a)
  gkebuild_use_static_archive(PkgConfig::LIBDEFLATE libdeflate.a)
  gkebuild_use_static_archive(ZLIB::ZLIB libz.a)
  # What libarchive's tar reader, its decompression filters and its disk writer call. Its tar
  # *writer* (tests use it) drags in every write format, xar among them, which calls libxml2:
  # shared, and dropped by --as-needed from gkebuild, which never writes xar.
  gkebuild_use_static_archive(LibArchive::LibArchive libarchive.a
                              NEEDS libnettle.a libacl.a liblzma.a liblz4.a libbz2.a zstd libz.a xml2)
endif()

# libstdc++ inside `target` (an executable), when static dependencies are on; --as-needed drops
# the shared libraries it does not call (libxml2, see above).
function(gkebuild_link_statically target)
  if(GKEBUILD_STATIC_DEPS)
    target_link_options(${target} PRIVATE -static-libstdc++ -Wl,--as-needed)
  endif()
endfunction()
