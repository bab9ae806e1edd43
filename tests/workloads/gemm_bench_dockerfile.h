// The Dockerfile the gemm-bench image tests build (tests/workloads, tests/tool/steps/local_runner).
#pragma once

namespace gkebuild::testing {

// The shape of templates/Dockerfile.j2 for a scratch image, plus the staged loader.
inline constexpr const char* kGemmBenchDockerfile = R"(FROM scratch
ENV PATH="/usr/local/nvidia/bin:/opt/gkebuild/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
ENV LD_LIBRARY_PATH="/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/opt/gkebuild/lib"
COPY lib/ /opt/gkebuild/lib/
COPY lib/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2
COPY bin/ /opt/gkebuild/bin/
WORKDIR /opt/gkebuild
ENTRYPOINT ["/opt/gkebuild/bin/gemm-bench"]
)";

}  // namespace gkebuild::testing
