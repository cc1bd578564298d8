#!/usr/bin/env bash
# Copyright 2026 urdf_link_tools contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Set up the development environment of urdf_link_tools from nothing, in the repository:
#
#   .venv/                    Python 3.11 venv: ROS 2 Jazzy wheels from PyPI, the core libraries,
#                             test tools, and this package (pip install -e)
#   build/urdf_link_tools/    CMake build of the repository root (the ROS package urdf_link_tools:
#                             its messages and services, executables, launch/config/samples)
#   install/urdf_link_tools/  its install prefix (the layout colcon would use)
#
# ROS_DISTRO=kilted selects the ROS 2 Kilted wheels instead; that environment lives in
# .venv-kilted/, build-kilted/ and install-kilted/, so the two distributions' wheels never mix.
#
# Each step is skipped when a stamp file in the venv says its inputs did not change, so a second
# run takes a second or two. Use the environment with scripts/env.sh.
#
# Environment: ROS_DISTRO=jazzy (default) or kilted; PYTHON=<interpreter> picks the Python 3.11
# to build the venv from.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
distro="${ROS_DISTRO:-jazzy}"
case "$distro" in
  jazzy) suffix="" ;;
  kilted) suffix="-kilted" ;;
  *)
    echo "[setup] ERROR: ROS_DISTRO=$distro: the development environment has ROS 2 wheels for" \
      "jazzy and kilted only (run with ROS_DISTRO=jazzy or ROS_DISTRO=kilted)" >&2
    exit 1 ;;
esac
venv="$repo/.venv$suffix"
pkg=urdf_link_tools
pkg_build="$repo/build$suffix/$pkg"
pkg_install="$repo/install$suffix/$pkg"
started=$SECONDS

say() { echo "[setup] $*"; }
die() { echo "[setup] ERROR: $*" >&2; exit 1; }

# sha256 of the named files (missing ones count as empty) and of extra words; one hex string.
fingerprint() {
  {
    for f in "$@"; do
      if [[ -f "$f" ]]; then
        printf '%s\n' "$f"
        sha256sum < "$f"
      else
        printf '%s (absent)\n' "$f"
      fi
    done
  } | sha256sum | cut -d' ' -f1
}
stamp_ok() { [[ -f "$venv/.stamp-$1" && "$(cat "$venv/.stamp-$1")" == "$2" ]]; }
stamp_set() { echo "$2" > "$venv/.stamp-$1"; }

# The machine's pip configuration names local wheel folders that may not exist; pip then warns
# once per package. Drop only that line, keep everything else pip says.
pip_quiet() {
  "$venv/bin/python" -m pip "$@" 2>&1 \
    | { grep -v "^WARNING: Location '.*' is ignored: it is neither a file nor a directory" || true; }
}

# Two set-ups at once in the same tree (make test in two shells) would race on pip and CMake.
mkdir -p "$repo/build$suffix"
exec 9> "$repo/build$suffix/.setup.lock"
if command -v flock > /dev/null; then
  flock -w 1200 9 || die "another scripts/setup.sh still holds build$suffix/.setup.lock"
fi

# --- 1. Python 3.11 venv ---------------------------------------------------------------------
# The ROS 2 Jazzy and Kilted wheels on PyPI are built for CPython 3.11 only (cp311 manylinux_2_28).
is_py311() { "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' > /dev/null 2>&1; }
if [[ -x "$venv/bin/python" ]] && ! is_py311 "$venv/bin/python"; then
  say "existing ${venv#"$repo"/} is not Python 3.11: recreating it"
  rm -rf "$venv"
fi
if [[ ! -x "$venv/bin/python" ]]; then
  python=""
  for candidate in "${PYTHON:-}" python3 python3.11; do
    if [[ -n "$candidate" ]] && command -v "$candidate" > /dev/null && is_py311 "$candidate"; then
      python="$candidate"
      break
    fi
  done
  [[ -n "$python" ]] || die "need Python 3.11 (set PYTHON=/path/to/python3.11)"
  say "creating ${venv#"$repo"/} ($distro) with $(command -v "$python") ($("$python" --version 2>&1))"
  "$python" -m venv "$venv"
fi

# --- 2. pinned requirements ------------------------------------------------------------------
req="requirements/ros-$distro.txt"
con="requirements/constraints-$distro.txt"
key="$(fingerprint "$req" "$con")-$("$venv/bin/python" -V 2>&1)"
if stamp_ok requirements "$key"; then
  say "requirements: up to date"
else
  say "requirements: upgrading pip, then installing $req with $con (about a minute)"
  t=$SECONDS
  pip_quiet install -q --upgrade pip -c "$con"
  pip_quiet install -q -r "$req" -c "$con"
  stamp_set requirements "$key"
  say "requirements: installed in $((SECONDS - t)) s"
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"

# --- 3. linters that PyPI does not have, from Debian ----------------------------------------
# ament_copyright is on PyPI neither as a ROS wheel nor otherwise, and ament_xmllint's wheel
# does not ship the package.xml schemas (xmllint would fetch them from the network). Debian
# packages both: unpack them into the venv (no system change, no root unless the package lists
# must be fetched).
# The xmllint of libxml2-utils is unpacked too (into .venv/bin), machine or not: it only needs
# libxml2, which Debian-based images carry.
debs=(python3-ament-copyright=0.13.2-4 python3-ament-xmllint=0.13.2-4 libxml2-utils)
key="v2 ${debs[*]}"  # bump v when this step changes
if stamp_ok debian "$key" && [[ -d "$site/ament_copyright" && -x "$venv/bin/xmllint" ]]; then
  say "debian extras (ament_copyright, package.xml schemas): up to date"
else
  say "debian extras: fetching ${debs[*]}"
  command -v apt-get > /dev/null || die "apt-get is needed to fetch ${debs[*]}"
  tmp="$(mktemp -d)"
  chmod 777 "$tmp"  # apt-get download drops to user _apt, which must be able to write here
  fetch_debs() { (cd "$tmp" && apt-get download -q "${debs[@]}") > "$tmp/apt.log" 2>&1; }
  if ! fetch_debs; then
    # A machine fresh from its image may have no package lists yet.
    if [[ "$(id -u)" == 0 ]]; then
      say "debian extras: refreshing the package lists (apt-get update)"
      apt-get update -q > "$tmp/apt-update.log" 2>&1 || cat "$tmp/apt-update.log" >&2
    fi
    if ! fetch_debs; then
      cat "$tmp/apt.log" >&2
      die "apt-get download ${debs[*]} failed (as root, run apt-get update first)"
    fi
  fi
  root="$venv/debian"
  rm -rf "$root"
  mkdir -p "$root"
  for deb in "$tmp"/*.deb; do
    dpkg-deb -x "$deb" "$root"
  done
  rm -rf "$tmp"
  dist="$root/usr/lib/python3/dist-packages"
  rm -rf "$site"/ament_copyright "$site"/ament_copyright-*.egg-info
  cp -r "$dist"/ament_copyright "$dist"/ament_copyright-*.egg-info "$site/"
  # A catalog that maps the schema addresses of package.xml files to the local copies, and an
  # xmllint that always uses it and never goes to the network (ament_xmllint runs the xmllint
  # found on PATH).
  schemas="$root/usr/share/ament_xmllint/xml-catalog/download.ros.org/schema/"
  [[ -f "$schemas/package_format3.xsd" ]] || die "no package_format3.xsd in python3-ament-xmllint"
  mkdir -p "$venv/etc/xml"
  cat > "$venv/etc/xml/catalog.xml" << EOF
<?xml version="1.0"?>
<!-- Written by scripts/setup.sh: local copies of the ROS package.xml schemas. -->
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <rewriteURI uriStartString="http://download.ros.org/schema/" rewritePrefix="file://$schemas"/>
  <rewriteSystem systemIdStartString="http://download.ros.org/schema/" rewritePrefix="file://$schemas"/>
</catalog>
EOF
  rm -f "$venv/bin/xmllint"
  cat > "$venv/bin/xmllint" << EOF
#!/bin/sh
# Written by scripts/setup.sh: Debian's xmllint with the local package.xml schemas, offline.
XML_CATALOG_FILES="$venv/etc/xml/catalog.xml\${XML_CATALOG_FILES:+ \$XML_CATALOG_FILES}"
export XML_CATALOG_FILES
exec "$root/usr/bin/xmllint" --nonet "\$@"
EOF
  chmod +x "$venv/bin/xmllint"
  stamp_set debian "$key"
fi

# --- 3b. a browser for the HTML report's tests ---------------------------------------------
# test/test_report_html_browser.py opens the page in Debian's chromium-headless-shell through
# Playwright (pip, step 2); Playwright's own browser download is never used. A system package:
# installed when missing and running as root, else the tests say what to install.
browser=chromium-headless-shell
if [[ -x /usr/lib/chromium/$browser ]]; then
  say "browser for the HTML report tests: $browser is installed"
elif [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null; then
  say "browser for the HTML report tests: installing $browser (apt-get)"
  log="$(mktemp)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$browser" > "$log" 2>&1; then
    apt-get update -q >> "$log" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$browser" >> "$log" 2>&1 \
      || { cat "$log" >&2; die "apt-get install $browser failed"; }
  fi
  rm -f "$log"
else
  say "browser for the HTML report tests: $browser is missing (as root: apt-get install $browser)"
fi

# --- 4. the ROS package: the repository root with CMake (colcon's layout) ---------------------
# Linters and colcon must not descend into build/, install/ and log/.
for d in "build$suffix" "install$suffix" log; do
  mkdir -p "$repo/$d"
  touch "$repo/$d/AMENT_IGNORE" "$repo/$d/COLCON_IGNORE"
done
# Leftovers of the layout before urdf_link_tools owned its interfaces (a nested
# urdf_link_tools_interfaces package, data files linked into the venv) would shadow this build.
rm -rf "$repo/build$suffix/urdf_link_tools_interfaces" "$repo/install$suffix/urdf_link_tools_interfaces" \
  "$venv/share/$pkg" "$venv/share/ament_index/resource_index/packages/$pkg" "$venv/lib/$pkg"
# shellcheck source=scripts/env.sh
source "$repo/scripts/env.sh"
fix_cmake="$repo/cmake/drop_missing_include_dirs.cmake"
# The Python sources are not installed (the environment runs the source tree, see env.sh), and
# launch/, config/ and samples/ are installed as symbolic links (colcon's --symlink-install), so
# edits show at once; new or removed files are picked up on the next set-up (the key covers the
# file list).
mapfile -t pkg_files < <(
  { printf '%s\n' CMakeLists.txt package.xml
    find msg srv launch config samples -type f 2> /dev/null || true; } | LC_ALL=C sort -u)
key="v2-$(fingerprint CMakeLists.txt package.xml msg/* srv/* "$fix_cmake" \
  "$venv/.stamp-requirements")-$(printf '%s\n' "${pkg_files[@]}" | sha256sum | cut -d' ' -f1)"
if stamp_ok cmake "$key" && [[ -f "$pkg_install/share/$pkg/package.xml" ]]; then
  say "ROS package: up to date (${pkg_install#"$repo"/})"
else
  say "ROS package: building $pkg (CMake: interfaces, executables; about a minute)" \
    "into ${pkg_install#"$repo"/}"
  t=$SECONDS
  log="$pkg_build.log"
  mkdir -p "$pkg_build"
  if ! {
    cmake -S "$repo" -B "$pkg_build" \
      -DCMAKE_INSTALL_PREFIX="$pkg_install" \
      -DCMAKE_BUILD_TYPE=Release \
      -DBUILD_TESTING=OFF \
      -DAMENT_CMAKE_SYMLINK_INSTALL=ON \
      -DURDF_LINK_TOOLS_INSTALL_PYTHON_SOURCES=OFF \
      -DPython3_EXECUTABLE="$venv/bin/python" \
      -DCMAKE_PROJECT_INCLUDE="$fix_cmake" \
      && cmake --build "$pkg_build" -j "$(nproc 2> /dev/null || echo 2)" \
      && (cd "$pkg_build" && cmake --install .)  # symlink_install_manifest.txt lands in the cwd
  } > "$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "building $pkg failed; full log: $log"
  fi
  stamp_set cmake "$key"
  say "ROS package: built in $((SECONDS - t)) s"
fi

# --- 5. this package, editable -------------------------------------------------------------
# pip install -e puts the console scripts urdf-link-tools and urdf_link_tools_node in the venv's
# bin/ (the ROS executables are in install/urdf_link_tools/lib/urdf_link_tools).
key="$(fingerprint setup.py setup.cfg "$venv/.stamp-requirements")"
if stamp_ok package "$key" && [[ -x "$venv/bin/urdf-link-tools" ]]; then
  say "urdf_link_tools: up to date (editable install)"
else
  say "urdf_link_tools: pip install -e ."
  pip_quiet install -qq --no-deps --no-build-isolation -e "$repo"
  stamp_set package "$key"
fi

# --- 6. colcon defaults ---------------------------------------------------------------------
# colcon build (see README) needs the same CMake arguments; env.sh points COLCON_DEFAULTS_FILE
# here. Absolute paths, hence generated.
cat > "$venv/colcon-defaults.yaml.tmp" << EOF
# Written by scripts/setup.sh; see README.md, "Build with colcon".
build:
  cmake-args:
    - -DCMAKE_PROJECT_INCLUDE=$fix_cmake
    - -DPython3_EXECUTABLE=$venv/bin/python
EOF
mv "$venv/colcon-defaults.yaml.tmp" "$venv/colcon-defaults.yaml"

say "done in $((SECONDS - started)) s; run commands with scripts/env.sh CMD, or: source scripts/env.sh"
