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

"""``make test`` fails on a skip that is not allowed (test/conftest.py), and says which."""

import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def _pytest(folder: pathlib.Path, enforce: bool) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if key not in ('URDF_LINK_TOOLS_FAIL_ON_SKIP', 'PYTEST_ADDOPTS')}
    if enforce:
        env['URDF_LINK_TOOLS_FAIL_ON_SKIP'] = '1'
    return subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                           str(folder)], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_skipped_interface_test_fails_the_enforced_run(tmp_path):
    shutil.copy(HERE / 'conftest.py', tmp_path / 'conftest.py')
    (tmp_path / 'test_needs_interfaces.py').write_text(
        'import pytest\n'
        "pytest.importorskip('urdf_link_tools_no_such_interfaces.srv', "
        "reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')\n\n\n"
        'def test_service():\n    pass\n')
    (tmp_path / 'test_launch.py').write_text(
        'import pytest\n'
        "pytest.importorskip('no_such_launch_module', reason='launch_ros is not installed: "
        "launch and launch_ros come with a ROS 2 installation')\n")
    (tmp_path / 'test_plain.py').write_text('def test_plain():\n    pass\n')
    done = _pytest(tmp_path, enforce=True)
    assert done.returncode == 1, done.stdout
    assert 'FAILED: 1 test(s) skipped that must run here' in done.stdout
    assert 'test_needs_interfaces.py: the interfaces of urdf_link_tools are not built' \
        in done.stdout
    assert '1 skipped: launch, launch_ros and launch_testing are not on PyPI' in done.stdout
    # Run by hand (no URDF_LINK_TOOLS_FAIL_ON_SKIP), a skip is only reported.
    assert _pytest(tmp_path, enforce=False).returncode == 0
    (tmp_path / 'test_needs_interfaces.py').unlink()
    done = _pytest(tmp_path, enforce=True)
    assert done.returncode == 0, done.stdout
