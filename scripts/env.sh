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

# The environment of urdf_link_tools, as made by scripts/setup.sh.
#
#   source scripts/env.sh          # in bash: this shell gets the environment
#   scripts/env.sh CMD [ARGS...]   # run one command in it
#
# It activates the venv of the ROS distribution (ROS_DISTRO=jazzy, the default: .venv; kilted:
# .venv-kilted), and puts the package's CMake install prefix (install/urdf_link_tools: its
# messages, services, executables and share data), the venv prefix where the ROS wheels install
# share/ and lib/, and example-robot-data's prefix on the ROS search paths. The source tree comes
# first on PYTHONPATH: `import urdf_link_tools` runs the sources, and urdf_link_tools/__init__.py
# extends the package with the installed msg/ and srv/. Nothing is installed or built here.

_ult_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROS_DISTRO="${ROS_DISTRO:-jazzy}"
case "$ROS_DISTRO" in
  jazzy) _ult_suffix="" ;;
  kilted) _ult_suffix=-kilted ;;
  *)
    echo "scripts/env.sh: ROS_DISTRO=$ROS_DISTRO: the development environment has ROS 2 wheels" \
      "for jazzy and kilted only" >&2
    if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then return 1; else exit 1; fi ;;
esac
_ult_venv="$_ult_repo/.venv$_ult_suffix"
_ult_pkg="$_ult_repo/install$_ult_suffix/urdf_link_tools"

if [[ ! -x "$_ult_venv/bin/python" ]]; then
  echo "scripts/env.sh: no $_ult_venv yet; run scripts/setup.sh (or make setup) first" \
    "with ROS_DISTRO=$ROS_DISTRO" >&2
  if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then return 1; else exit 1; fi
fi

# Prepend DIR to the :-separated variable NAME unless it is there already.
_ult_prepend() {
  local name="$1" dir="$2" current="${!1:-}"
  case ":$current:" in
    *":$dir:"*) ;;
    *) export "$name=$dir${current:+:$current}" ;;
  esac
}

# shellcheck source=/dev/null
source "$_ult_venv/bin/activate"

_ult_site="$_ult_venv/lib/python3.11/site-packages"
# example-robot-data is a cmeel package: its share/ (robots and ament index) lives in cmeel.prefix.
_ult_prepend AMENT_PREFIX_PATH "$_ult_site/cmeel.prefix"
# The ROS wheels install their share/, lib/ and include/ into the venv prefix itself.
_ult_prepend AMENT_PREFIX_PATH "$_ult_venv"
_ult_prepend AMENT_PREFIX_PATH "$_ult_pkg"
_ult_prepend CMAKE_PREFIX_PATH "$_ult_venv"
_ult_prepend CMAKE_PREFIX_PATH "$_ult_pkg"
_ult_prepend PYTHONPATH "$_ult_pkg/lib/python3.11/site-packages"
_ult_prepend PYTHONPATH "$_ult_repo"

# Shared libraries: the package's interface libraries, the venv prefix's, and those the ROS wheels keep in
# site-packages/ros_*.libs. With all of them here, ros_wheels_bootstrapper.pth need not re-exec
# every Python process to set LD_LIBRARY_PATH, which it skips when told it is done.
for _ult_lib in "$_ult_site"/ros_*.libs; do
  if [[ -d "$_ult_lib" ]]; then _ult_prepend LD_LIBRARY_PATH "$_ult_lib"; fi
done
_ult_prepend LD_LIBRARY_PATH "$_ult_venv/lib"
_ult_prepend LD_LIBRARY_PATH "$_ult_pkg/lib"
export _ROS_WHEELS_BOOTSTRAP_COMPLETE=1

export ROS_VERSION=2
export ROS_PYTHON_VERSION=3
export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_fastrtps_cpp}"

# DDS stays on this machine. ROS_AUTOMATIC_DISCOVERY_RANGE exists from Iron on. Humble (and
# older) only know ROS_LOCALHOST_ONLY; from Jazzy on that one is deprecated and warns, so it is
# set only for the older distributions.
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
case "$ROS_DISTRO" in
  foxy | galactic | humble) export ROS_LOCALHOST_ONLY=1 ;;
esac
# A domain of its own per shell, so that parallel runs (two shells, CI) do not see each other's
# nodes: 1..101, the range Fast DDS can open ports for on Linux; never the default 0.
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$(($$ % 101 + 1))}"

# colcon build gets the CMake arguments the wheels need (see README.md, "Build with colcon").
if [[ -f "$_ult_venv/colcon-defaults.yaml" ]]; then
  export COLCON_DEFAULTS_FILE="${COLCON_DEFAULTS_FILE:-$_ult_venv/colcon-defaults.yaml}"
fi

unset -f _ult_prepend
unset _ult_lib _ult_site _ult_venv _ult_pkg _ult_suffix

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  unset _ult_repo
  if [[ $# -eq 0 ]]; then
    echo "usage: source scripts/env.sh | scripts/env.sh CMD [ARGS...]" >&2
    exit 2
  fi
  exec "$@"
fi
unset _ult_repo
