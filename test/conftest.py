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

"""
Skips fail the run where nothing should be missing (``make test``, so CI).

A test that skips because the package's interfaces were not built (``urdf_link_tools.srv``),
or because a test dependency is missing, would otherwise leave CI green with a broken
build. With ``URDF_LINK_TOOLS_FAIL_ON_SKIP=1`` (set by ``make test``) every skip fails the
session unless its reason is in :data:`ALLOWED_SKIPS`, which is printed with each run: skips
that cannot run in this environment at all.

It also holds the fixtures several test files share (``workdir``: a checkout-like directory
with the samples, for the report format tests).
"""

import os
from pathlib import Path
import re

import pytest

#: (reason pattern, why it may skip here), printed at the end of every enforcing run.
ALLOWED_SKIPS = (
    (re.compile(r'\b(launch|launch_ros|launch_testing) is not installed'),
     'launch, launch_ros and launch_testing are not on PyPI (they come with a ROS '
     'installation), so the launch tests cannot run in this pip-built environment'),
    (re.compile(r'^no ROS involved: run once, in the Jazzy pass'),
     'ROS-free packaging tests run once, in the Jazzy pass of .ci/run'),
    (re.compile(r'^no CPython 3\.\d+ on this machine'),
     'pip install into a plain venv of a Python version this machine does not have (the '
     'Python 3.10 stage of .ci/run finds its own interpreter or fails)'),
)

_SKIPS = []


def _find_the_corpus() -> None:
    """
    Put example-robot-data's prefix on AMENT_PREFIX_PATH, as scripts/env.sh does.

    Its robots name their meshes package://example-robot-data/...; in a colcon workspace over
    a venv that has it (``colcon test``), the venv's cmeel.prefix is on no ament path: the
    tests that need those meshes failed (panda's overlaps, its SRDF) instead of running.
    """
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import corpus
    except ImportError:  # this conftest copied alone (test_ci_skips' runs)
        return
    prefixes = corpus.ament_prefixes()
    if prefixes != [item for item in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                    if item]:
        os.environ['AMENT_PREFIX_PATH'] = os.pathsep.join(prefixes)


_find_the_corpus()


def _reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).replace('Skipped: ', '', 1)
    return str(longrepr)


def _plain_module(module_path: Path, parent):
    """
    Return the collector of a test module that is no launch test, before launch_testing's.

    launch_testing's pytest plugin (in every ROS install) imports each test module to look
    for ``generate_test_description``; a module-level ``pytest.importorskip`` (a linter test
    without its ament package) then raises in that hook and skips the whole folder:
    ``colcon test`` ran 0 tests and failed with exit 5. Collected by pytest itself, such a
    module is skipped alone, as without the plugin.
    """
    if module_path.name == '__init__.py' or module_path.suffix != '.py':
        return None
    try:
        text = module_path.read_text(encoding='utf-8', errors='replace')
    except OSError:
        return None
    if 'generate_test_description' in text and _launch_importable():
        return None  # a launch test: launch_testing's to collect
    # (without launch_ros, pytest collects it: its own importorskip skips it alone)
    if int(pytest.__version__.split('.')[0]) >= 7:
        return pytest.Module.from_parent(parent, path=module_path)
    return pytest.Module.from_parent(parent, fspath=parent.fspath.__class__(str(module_path)))


def _launch_importable() -> bool:
    """Return True when launch_testing can run a launch test here (launch_ros imports)."""
    try:
        import launch_ros  # noqa: F401
        import launch_testing  # noqa: F401
        import urdf_link_tools.srv  # noqa: F401 (the launch test's last importorskip)
    except Exception:  # ImportError, or a broken install (a missing message package)
        return False
    return True


if int(pytest.__version__.split('.')[0]) >= 7:
    @pytest.hookimpl(tryfirst=True)
    def pytest_pycollect_makemodule(module_path, parent):  # noqa: D103 (pytest hook)
        return _plain_module(Path(module_path), parent)
else:  # pytest 6 (Ubuntu 22.04's, Humble's): py.path arguments
    @pytest.hookimpl(tryfirst=True)
    def pytest_pycollect_makemodule(path, parent):  # noqa: D103 (pytest hook)
        return _plain_module(Path(str(path)), parent)


def pytest_collectreport(report):  # noqa: D103 (pytest hook)
    if report.skipped:
        _SKIPS.append((report.nodeid, _reason(report)))


def pytest_runtest_logreport(report):  # noqa: D103 (pytest hook)
    if report.skipped and not hasattr(report, 'wasxfail'):
        _SKIPS.append((report.nodeid, _reason(report)))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):  # noqa: D103 (pytest hook)
    if os.environ.get('URDF_LINK_TOOLS_FAIL_ON_SKIP') != '1':
        return
    reporter = session.config.pluginmanager.get_plugin('terminalreporter')
    write = reporter.write_line if reporter is not None else print
    allowed = {}
    refused = []
    for nodeid, reason in _SKIPS:
        why = next((why for pattern, why in ALLOWED_SKIPS if pattern.search(reason)), None)
        if why is None:
            refused.append((nodeid, reason))
        else:
            allowed.setdefault(why, []).append(nodeid)
    write('')
    write('skips allowed here (test/conftest.py ALLOWED_SKIPS):')
    for why, nodeids in allowed.items():
        write(f'  {len(nodeids)} skipped: {why}')
    if not allowed:
        write('  none')
    if refused:
        write(f'FAILED: {len(refused)} test(s) skipped that must run here '
              '(URDF_LINK_TOOLS_FAIL_ON_SKIP=1):', red=True)
        for nodeid, reason in refused:
            write(f'  {nodeid}: {reason}', red=True)
        if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """Make a checkout-like working directory holding samples/ (robot and meshes)."""
    # Imported here: test_ci_skips.py runs this file in a throwaway suite without the harness.
    from cli_harness import checkout_with_samples
    return checkout_with_samples(tmp_path, monkeypatch)
