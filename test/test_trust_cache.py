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
The result cache on a pull request's files: an entry never runs code, and never comes from it.

A red-team review planted a pickle that ran ``os.system`` in a ``--cache`` folder the
README's GitHub recipe put inside the checkout, where a pull request can commit it.
"""

import os
import pickle
import shutil

from cli_harness import run
from urdf_link_tools.cli import EXIT_USAGE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, 'samples', 'sample_robot.urdf')


class _Payload:
    """What an attacker's entry holds: unpickling it would run a command."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f'touch {self.marker}',))


def _robot(folder):
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE, folder / 'robot.urdf')
    return folder / 'robot.urdf'


def _cached(tmp_path):
    """Check the sample robot once with a cache; return its arguments, result and entry."""
    robot = _robot(tmp_path / 'robots')
    cache = tmp_path / 'cache'
    args = ['check', str(robot), '--format', 'jsonl', '--fail-on', 'never', '--no-meshes',
            '--cache', str(cache)]
    status, honest, _ = run(args)
    (entry,) = cache.rglob('*.pickle')
    return args, status, honest, entry


def test_a_planted_entry_runs_no_code_and_is_a_miss(tmp_path):
    args, status, honest, entry = _cached(tmp_path)
    marker = tmp_path / 'code-ran'
    entry.write_bytes(pickle.dumps(([], _Payload(marker))))
    assert run(args)[:2] == (status, honest)
    assert not marker.exists()
    # A pickle of a function call, whatever function, is refused the same way.
    entry.write_bytes(pickle.dumps(([], (print, ('x',)))))
    assert run(args)[:2] == (status, honest)


def test_a_cache_inside_the_robots_repository_is_refused(tmp_path):
    checkout = tmp_path / 'checkout'
    (checkout / '.git').mkdir(parents=True)
    robot = _robot(checkout / 'my_pkg' / 'urdf')
    status, out, err = run(['check', str(robot), '--no-meshes', '--cache',
                            str(checkout / '.urdf-link-tools-cache')])
    assert status == EXIT_USAGE and out == ''
    assert 'is inside' in err and 'a pull request could put entries there' in err
    assert not (checkout / '.urdf-link-tools-cache').exists()
    # The same cache outside the checkout is used.
    status, _, err = run(['check', str(robot), '--no-meshes', '--fail-on', 'never', '--cache',
                          str(tmp_path / 'cache')])
    assert status == 0, err
    assert list((tmp_path / 'cache').rglob('*.pickle'))


def test_a_cache_others_may_write_is_refused(tmp_path):
    robot = _robot(tmp_path / 'robots')
    shared = tmp_path / 'shared'
    shared.mkdir()
    shared.chmod(0o777)
    status, _, err = run(['check', str(robot), '--no-meshes', '--cache', str(shared)])
    assert status == EXIT_USAGE and 'may be written by other users' in err


def test_an_entry_depends_on_which_package_each_file_is_in(tmp_path):
    # A package.xml added (or removed) between a xacro macro and its package changes whose
    # fault a finding is (the robot's, a dependency's, one --ignore-package leaves out): the
    # cached run kept the old answer while every file read was byte-identical.
    robot_folder = tmp_path / 'ws' / 'my_robot' / 'urdf'
    (robot_folder / 'vendor').mkdir(parents=True)
    (tmp_path / 'ws' / 'my_robot' / 'package.xml').write_text(
        '<?xml version="1.0"?><package format="3"><name>my_robot</name></package>')
    (robot_folder / 'vendor' / 'arm.xacro').write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="arm">'
        '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        '<link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" '
        'iyy="0.01" iyz="0" izz="0.05"/></inertial></link></xacro:macro></robot>')
    robot = robot_folder / 'robot.urdf.xacro'
    robot.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="vendor/arm.xacro"/><link name="base"/><xacro:arm/></robot>')
    cache = tmp_path / 'cache'
    args = ['check', str(robot), '--format', 'jsonl', '--fail-on', 'never', '--cache',
            str(cache), '--ignore-package', 'vendor_arm']
    fresh = run(args[:-4] + ['--ignore-package', 'vendor_arm'])
    assert run(args)[:2] == fresh[:2] and 'triangle' in fresh[1]
    # The vendor folder becomes a package of its own (outside any repository: a dependency).
    (robot_folder / 'vendor' / 'package.xml').write_text(
        '<?xml version="1.0"?><package format="3"><name>vendor_arm</name></package>')
    fresh = run(args[:-4] + ['--ignore-package', 'vendor_arm'])
    assert 'triangle' not in fresh[1]
    assert run(args)[:2] == fresh[:2]
    # ... and back.
    (robot_folder / 'vendor' / 'package.xml').unlink()
    assert 'triangle' in run(args)[1]


def test_damaged_or_linked_entries_and_shards_are_misses_never_a_hang(tmp_path):
    # Ninth red-team review: an entry replaced by a link to a FIFO hung the check (a blocking
    # open); a shard folder that is a file, or an entry that is a folder, printed a
    # traceback from put; a shard linked elsewhere had the entry written there.
    import subprocess
    import sys
    args, status, honest, entry = _cached(tmp_path)
    shard = entry.parent

    def again():
        done = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli'] + args,
                              capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert 'Traceback' not in done.stderr, done.stderr
        assert (done.returncode, done.stdout) == (status, honest), done.stderr
        return done.stderr

    entry.unlink()
    os.mkfifo(tmp_path / 'fifo')
    entry.symlink_to(tmp_path / 'fifo')
    again()  # (timeout=60: the hang guard)
    entry.unlink()
    entry.mkdir()
    assert 'the result was not stored' in again()
    shutil.rmtree(shard)
    shard.write_text('')
    assert 'the result was not stored' in again()
    shard.unlink()
    (tmp_path / 'elsewhere').mkdir()
    shard.symlink_to(tmp_path / 'elsewhere')
    assert 'is a symbolic link; nothing stored' in again()
    assert not list((tmp_path / 'elsewhere').iterdir())


def _pull_request(tmp_path):
    """Return a package holding a robot whose collision mesh is missing, and a cache."""
    package = tmp_path / 'pr'
    (package / 'urdf').mkdir(parents=True)
    (package / 'meshes').mkdir()
    (package / 'package.xml').write_text(
        '<?xml version="1.0"?><package format="3"><name>pr_robot</name></package>')
    robot = package / 'urdf' / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="base"><collision><geometry>'
                     '<mesh filename="../meshes/gone.stl"/></geometry></collision></link>'
                     '</robot>')
    return package, robot, tmp_path / 'cache'


def _check_with_timeout(args):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, '-m', 'urdf_link_tools.cli'] + args,
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert 'Traceback' not in done.stderr, done.stderr
    return done.returncode, done.stdout


def test_a_robot_or_file_linked_to_a_device_is_not_hashed_and_never_hangs(tmp_path):
    # Red-team review 16: --cache hashed the description and the files a cached run had read
    # with a plain open(), before the check's own refusals: a pull request's robot.urdf
    # linked to /dev/zero hung the job until its timeout (without --cache: "not a regular
    # file", exit 3), and so did a mesh missing on the base branch, committed as such a link.
    package, robot, cache = _pull_request(tmp_path)
    zero = package / 'urdf' / 'zero.urdf'
    zero.symlink_to('/dev/zero')
    args = ['check', '--format', 'jsonl', '--fail-on', 'never', '--', str(robot), str(zero)]
    assert _check_with_timeout(args[:1] + ['--cache', str(cache)] + args[1:]) == \
        _check_with_timeout(args)
    args = ['check', str(robot), '--format', 'jsonl', '--fail-on', 'never']
    cached = args + ['--cache', str(cache)]
    assert 'mesh-not-found' in _check_with_timeout(cached)[1]  # the base branch's run
    (package / 'meshes' / 'gone.stl').symlink_to('/dev/zero')
    again = _check_with_timeout(cached)
    assert again == _check_with_timeout(args) and 'leads out of' in again[1]


def test_a_file_linked_out_of_its_package_is_not_read_for_the_cache(tmp_path):
    # ... and a robot.urdf linked to a file elsewhere on the runner was read (hashed) before
    # the check refused it: the cache now stands for it without opening it.
    from urdf_link_tools.result_cache import file_digest, UNREAD
    package, robot, cache = _pull_request(tmp_path)
    secret = tmp_path / 'secret.urdf'
    secret.write_text(robot.read_text())
    leak = package / 'urdf' / 'leak.urdf'
    leak.symlink_to(secret)
    assert file_digest(str(leak)) == UNREAD + 'outside its package'
    assert file_digest(str(secret)) == file_digest(str(robot))
    status, _, err = run(['check', str(leak), '--cache', str(cache)])
    assert status == 3 and 'leads out of' in err
    assert not list(cache.rglob('*.pickle'))
