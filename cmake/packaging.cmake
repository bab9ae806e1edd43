# `cpack -G DEB` in a build folder: a .deb of what `cmake --install` installs (tool/cli:
# the binary, manual pages, completions) under /usr. The dependencies are linked statically
# by default (cmake/static_deps.cmake); dpkg-shlibdeps names the shared libraries left. The
# manual pages go in gzipped (cmake/compress_man_pages.cmake); runc or crun is recommended.
set(CPACK_PACKAGE_NAME gkebuild)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Render, build, push, validate and run GPU experiments on GKE, daemonless")
set(CPACK_PACKAGE_CONTACT "gkebuild maintainers <gkebuild@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# `submit --local` runs Jobs under an OCI runtime; the rest of gkebuild needs none.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "runc | crun")
set(CPACK_PRE_BUILD_SCRIPTS "${CMAKE_CURRENT_LIST_DIR}/compress_man_pages.cmake")
include(CPack)
