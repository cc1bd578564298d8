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
#
# The ROS-free test suite on Python 3.10 with Ubuntu 22.04's numpy, SciPy, lxml, PyYAML and
# pycollada (requirements/py310-jammy.txt): what ROS 2 Humble runs the package with, tested
# where it can be without Humble wheels. Finds a CPython 3.10 (pyenv's, then python3.10 on
# PATH, then URDF_LINK_TOOLS_PY310) and fails loudly when there is none. Builds .venv-py310/
# once (about two minutes); later runs reuse it while the requirements file is unchanged.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=""
for candidate in "${URDF_LINK_TOOLS_PY310:-}" $(ls -d /root/.pyenv/versions/3.10.*/bin/python3 \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10.*/bin/python3 2>/dev/null | sort -r) \
    "$(command -v python3.10 || true)"; do
  if [[ -n "$candidate" && -x "$candidate" ]] && \
      "$candidate" -c 'import sys, venv; assert sys.version_info[:2] == (3, 10)' 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [[ -z "$python" ]]; then
  echo "py310_suite: FAILED: no CPython 3.10 on this machine (looked in pyenv's versions and" \
    "for python3.10 on PATH; set URDF_LINK_TOOLS_PY310=/path/to/python3.10). The Humble" \
    "(Python 3.10, numpy 1.21) claim is not tested without it." >&2
  exit 1
fi

venv=.venv-py310
stamp="$venv/.stamp-$(sha1sum requirements/py310-jammy.txt | cut -c1-12)"
if [[ ! -f "$stamp" ]]; then
  echo "[py310] creating $venv with $python ($("$python" -V 2>&1)); installing" \
    "requirements/py310-jammy.txt (about two minutes)"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check 'pip==24.3.1' \
    'setuptools<70' wheel 'cython<3'
  # PyYAML 5.4.1 has no 3.10 wheel and its sdist does not build with Cython 3.
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation \
    'PyYAML==5.4.1'
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -r requirements/py310-jammy.txt
  touch "$stamp"
fi
"$venv/bin/python" - <<'PY'
import importlib.metadata, sys
import collada, lxml.etree, numpy, scipy, trimesh, yaml  # each must import
print('[py310] Python %s: %s' % (sys.version.split()[0], ', '.join(
    '%s %s' % (name, importlib.metadata.version(name))
    for name in ('numpy', 'scipy', 'lxml', 'PyYAML', 'pycollada', 'trimesh'))))
PY

# The ROS-free suite: every test file but those that need ROS (rclpy, the interfaces, launch),
# the ament linters (run in the distribution passes), the pip-install test (it makes its own
# 3.10 venv in the distribution passes) and the tests whose module needs the oracles only the
# distribution venvs carry (Pinocchio, MuJoCo, coal: their wheels need a newer NumPy than
# jammy's) or the browser (Playwright); what else skips is listed by -rs.
ignored=()
for file in test/test_ros_*.py test/test_launch_*.py test/test_hostile_*.py \
    test/test_flake8.py test/test_pep257.py test/test_copyright.py test/test_xmllint.py \
    test/test_ci_packaging.py test/test_kinematics_pinocchio.py test/test_checks_mujoco_*.py \
    test/test_fix_inertia.py test/test_checks_model_wide.py test/test_report_html_browser.py \
    test/test_checks_engines.py test/test_checks_bounds.py test/test_collision_*.py \
    test/test_checks_collision*.py test/test_cli_collisions.py \
    test/test_meshes_hull_native.py; do
  ignored+=("--ignore=$file")
done
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
exec "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider "${ignored[@]}" "$@" test
