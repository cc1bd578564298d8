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
``check`` on many files: --jobs, --shard, --cache and --format jsonl.

The findings of worker processes are compared with one process's on real corpus robots
with meshes; the cache is shown to check a robot again when one of its meshes changes.
No timing is asserted (bench/bench_corpus.py measures the speed-ups).
"""

import json
import os
import shutil
import time

from cli_harness import run
import corpus
import pytest
from urdf_link_tools import batch
from urdf_link_tools.cli import EXIT_USAGE

ROBOTS = ('ur_description/urdf/ur5_robot.urdf', 'panda_description/urdf/panda.urdf',
          'double_pendulum_description/urdf/double_pendulum.urdf',
          'so_arm_description/urdf/so100.urdf', 'solo_description/robots/solo.urdf')


def _corpus_args():
    base = corpus.robots_dir()
    assert base is not None, 'example-robot-data is not installed: run make setup'
    share = corpus.prefix() / 'share' / 'example-robot-data'
    return ([str(base / name) for name in ROBOTS],
            ['--package-dir', f'example-robot-data={share}', '--fail-on', 'never'])


def _lines(text):
    return [json.loads(line) for line in text.splitlines()]


def test_jobs_give_the_findings_of_one_process():
    paths, options = _corpus_args()
    status, alone, _ = run(['check', *paths, *options, '--format', 'jsonl', '--jobs', '1'])
    assert status == 0
    status, shared, _ = run(['check', *paths, *options, '--format', 'jsonl', '--jobs', '2'])
    assert status == 0
    assert shared == alone
    lines = _lines(alone)
    assert [line['source'] for line in lines] == paths
    assert sum(len(line['findings']) for line in lines) > 0
    # The text report is the same too.
    assert run(['check', *paths, *options, '--jobs', '2'])[1] == \
        run(['check', *paths, *options, '--jobs', '1'])[1]


def test_an_unreadable_input_is_a_jsonl_line_and_exit_3(tmp_path):
    paths, options = _corpus_args()
    missing = str(tmp_path / 'nowhere.urdf')
    status, out, err = run(['check', paths[0], missing, *options, '--format', 'jsonl',
                            '--jobs', '2'])
    assert status == 3
    lines = _lines(out)
    assert lines[0]['source'] == paths[0] and lines[1] == {
        'source': missing, 'error': f'{missing}: no such file'}
    assert 'no such file' in err


def test_an_unreadable_input_is_in_the_json_document(tmp_path):
    # One readable robot and one missing file, and the missing file alone: the document
    # names it (and is a document at all), as every other format does.
    paths, options = _corpus_args()
    missing = str(tmp_path / 'nowhere.urdf')
    status, out, _ = run(['check', paths[0], missing, *options, '--format', 'json'])
    assert status == 3
    document = json.loads(out)
    assert [report['source'] for report in document['reports']] == [paths[0]]
    assert document['errors'] == [{'source': missing, 'error': f'{missing}: no such file'}]
    assert document['summary']['input_errors'] == 1
    status, out, _ = run(['check', missing, *options, '--format', 'json'])
    assert status == 3
    assert json.loads(out) == {'reports': [], 'errors': [
        {'source': missing, 'error': f'{missing}: no such file'}], 'summary': {
        'error': 0, 'warning': 0, 'info': 0, 'suppressed': 0, 'baselined': 0,
        'input_errors': 1}}
    # A relative path is written absolute, as a robot's source is.
    relative = os.path.relpath(missing)
    status, out, _ = run(['check', relative, *options, '--format', 'jsonl'])
    assert json.loads(out)['source'] == missing
    # One readable robot alone keeps its own object.
    status, out, _ = run(['check', paths[0], *options, '--format', 'json'])
    assert status == 0 and json.loads(out)['source'] == paths[0]


def test_shards_partition_exactly():
    paths = [str(path) for path in corpus.urdf_paths()]
    assert len(paths) > 50
    for count in (1, 2, 3, 7):
        parts = [batch.select_shard(paths, index, count) for index in range(1, count + 1)]
        assert sorted(sum(parts, [])) == sorted(paths)
        assert sum(len(part) for part in parts) == len(paths)
        for part in parts:
            assert part == [path for path in paths if path in set(part)]  # order kept
    # The same list in another order splits the same way.
    assert batch.select_shard(paths[::-1], 2, 3) == batch.select_shard(paths, 2, 3)[::-1]


def test_shard_option_checks_its_part_only():
    paths, options = _corpus_args()
    seen = []
    for index in (1, 2, 3):
        status, out, _ = run(['check', *paths, *options, '--format', 'jsonl',
                              '--shard', f'{index}/3'])
        assert status == 0
        seen += [line['source'] for line in _lines(out)]
    assert sorted(seen) == sorted(paths)
    for bad in ('0/3', '4/3', '3', 'a/b'):
        assert run(['check', *paths, '--shard', bad])[0] == EXIT_USAGE


def test_cache_reuses_a_report_until_a_mesh_changes(tmp_path):
    shutil.copytree(corpus.robots_dir() / 'ur_description', tmp_path / 'ur_description')
    robot = tmp_path / 'ur_description' / 'urdf' / 'ur5_robot.urdf'
    text = robot.read_text().replace('package://example-robot-data/robots/', '../../')
    robot.write_text(text)
    cache = tmp_path / 'cache'
    args = ['check', str(robot), '--format', 'jsonl', '--fail-on', 'never', '--cache',
            str(cache)]
    first = run(args)[1]
    entries = list(cache.rglob('*.pickle'))
    assert len(entries) == 1
    written = entries[0].stat().st_mtime_ns
    assert run(args)[1] == first
    assert list(cache.rglob('*.pickle')) == entries
    assert entries[0].stat().st_mtime_ns == written  # read from the cache, not written again
    # The same robot checked again after a collision mesh is replaced by a broken file.
    mesh = tmp_path / 'ur_description' / 'meshes' / 'ur5' / 'collision' / 'forearm.stl'
    assert f'meshes/ur5/collision/{mesh.name}' in text
    mesh.write_bytes(b'solid broken\nfacet\nendsolid\n')
    again = _lines(run(args)[1])[0]
    assert again != _lines(first)[0]
    assert any(finding['rule'] == 'mesh-unreadable' for finding in again['findings'])
    assert again == _lines(run(['check', str(robot), '--format', 'jsonl', '--fail-on',
                                'never'])[1])[0]


TENSOR = '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>'


def _including_robot(tmp_path, name, include):
    """Write a package NAME whose robot.urdf.xacro has a 'base' link and includes INCLUDE."""
    package = tmp_path / name
    package.mkdir()
    (package / 'package.xml').write_text(f'<package><name>{name}</name></package>')
    robot = package / 'robot.urdf.xacro'
    robot.write_text(f'<robot name="{name}" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     f'<link name="base"><inertial><mass value="1"/>{TENSOR}</inertial></link>'
                     f'<xacro:include filename="{include}"/></robot>')
    return robot


def test_cache_checks_again_when_a_file_an_include_pattern_matches_is_added(tmp_path):
    # <xacro:include filename="parts/*.xacro"/>: a part added later was never read, so the
    # cache served the clean report of the robot without it (red-team review: a pull
    # request's part with mass -5 passed a cache restored from the base branch).
    robot = _including_robot(tmp_path, 'globbot', 'parts/*.xacro')
    package = robot.parent
    (package / 'parts').mkdir()
    part = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="{0}"><inertial>'
            '<mass value="{1}"/>' + TENSOR + '</inertial></link><joint name="j{0}" '
            'type="revolute"><parent link="base"/><child link="{0}"/><limit lower="0" '
            'upper="1" effort="1" velocity="1"/></joint></robot>')
    (package / 'parts' / 'a.xacro').write_text(part.format('a', '1'))
    args = ['check', str(robot), '--format', 'jsonl', '--target', 'rviz', '--cache',
            str(tmp_path / 'cache')]

    def errors(out):
        return [f['rule'] for f in _lines(out)[0]['findings'] if f['severity'] == 'error']

    status, out, _ = run(args)
    assert status == 0 and errors(out) == [], out
    (package / 'parts' / 'b.xacro').write_text(part.format('b', '-5'))
    status, out, _ = run(args)
    assert status == 2 and errors(out) == ['mass-not-positive'], out
    (package / 'parts' / 'b.xacro').unlink()  # and gone again: clean, from the first entry
    status, out, _ = run(args)
    assert status == 0 and errors(out) == [], out


def test_the_cache_key_holds_the_directory_a_xacro_cwd_names(tmp_path):
    # $(cwd) is the directory the check runs in: the same robot run from another one
    # includes another file, which the entry written in the first never read.
    import subprocess
    import sys
    robot = _including_robot(tmp_path, 'cwdbot', '$(cwd)/part.xacro')
    part = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="a"><inertial>'
            '<mass value="{0}"/>' + TENSOR + '</inertial></link><joint name="j" type="fixed">'
            '<parent link="base"/><child link="a"/></joint></robot>')
    outputs = []
    for folder, mass in (('good', '1'), ('bad', '-5')):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / 'part.xacro').write_text(part.format(mass))
        done = subprocess.run(
            [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(robot), '--format',
             'jsonl', '--target', 'rviz', '--cache', str(tmp_path / 'cache'),
             '--xacro-allow-dir', str(tmp_path)], cwd=str(tmp_path / folder),
            capture_output=True, text=True, timeout=300)
        outputs.append((done.returncode, [f['rule'] for f in _lines(done.stdout)[0]['findings']
                                          if f['severity'] == 'error']))
    assert outputs == [(0, []), (2, ['mass-not-positive'])], outputs


class _Terminal:
    """A stream that says it is a terminal (progress is written only to one)."""

    def __init__(self):
        self.text = ''

    def isatty(self):
        return True

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_only_on_a_terminal():
    terminal = _Terminal()
    progress = batch.Progress(3, terminal)
    for _ in range(3):
        progress.step()
    progress.close()
    assert '3/3 robots' in terminal.text and 'left' in terminal.text
    paths, options = _corpus_args()
    status, _, err = run(['check', *paths[:2], *options, '--jobs', '2'])
    assert status == 0 and 'robots,' not in err  # a StringIO is no terminal


def _dies_on_b(path):
    if path == 'b':
        os._exit(3)  # a worker killed (for memory, or a crash in a native library)
    return path.upper()


def test_a_worker_that_dies_is_an_answer_not_a_traceback():
    answers = list(batch.run(_dies_on_b, ['a', 'b'], 2, crashed=lambda path: f'{path} died'))
    assert answers[0] in (('a', 'A'), ('a', 'a died')) and answers[1] == ('b', 'b died')


def test_the_cache_is_hit_by_the_next_process(tmp_path):
    # The key once held repr() of a frozenset (the engine targets), whose order follows the
    # per-process string hash: every run missed and wrote a new entry. Two processes with
    # different hash seeds must share one entry.
    import subprocess
    import sys
    robot = tmp_path / 'two.urdf'
    robot.write_text(open(corpus.urdf_path('ur5_robot.urdf')).read().replace(
        'package://', 'file:///nowhere/'))
    cache = tmp_path / 'cache'
    command = [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(robot), '--format',
               'jsonl', '--fail-on', 'never', '--cache', str(cache)]
    outputs = []
    for seed in ('1', '2'):
        done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, PYTHONHASHSEED=seed))
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
        if seed == '1':
            entries = list(cache.rglob('*.pickle'))
            assert len(entries) == 1
            written = entries[0].stat().st_mtime_ns
    assert outputs[0] == outputs[1]
    assert list(cache.rglob('*.pickle')) == entries
    assert entries[0].stat().st_mtime_ns == written


def test_the_cache_key_follows_the_tools_own_sources(tmp_path):
    # A checkout between releases keeps the version while its rules change: the key holds
    # a digest of the package's Python sources, which any edit (or new module) changes.
    from urdf_link_tools import result_cache
    package = tmp_path / 'urdf_link_tools'
    shutil.copytree(os.path.dirname(result_cache.__file__), package,
                    ignore=shutil.ignore_patterns('__pycache__'))
    first = result_cache.source_digest(str(package))
    assert result_cache.source_digest(str(package)) == first
    (package / '__pycache__').mkdir(exist_ok=True)
    (package / '__pycache__' / 'x.pyc').write_bytes(b'compiled')
    assert result_cache.source_digest(str(package)) == first  # bytecode is not the source
    rules = package / 'checks' / 'collisions.py'
    rules.write_text(rules.read_text() + '\n# edited\n')
    edited = result_cache.source_digest(str(package))
    (package / 'checks' / 'extra.py').write_text('')
    assert len({first, edited, result_cache.source_digest(str(package))}) == 3
    own = result_cache.source_digest(os.path.dirname(result_cache.__file__))
    assert f'+{own}\0' in result_cache.ResultCache(str(tmp_path / 'c'), '').options


def test_a_file_is_read_once_a_run_and_a_rewrite_is_seen(tmp_path):
    # Robots of a collection share meshes: one digest per file and run. A rewrite of the same
    # size with its modification time put back still changes the file's ctime: read again.
    from urdf_link_tools.result_cache import ResultCache
    mesh = tmp_path / 'part.stl'
    mesh.write_bytes(b'a' * 1000)
    run = ResultCache(str(tmp_path / 'cache'), 'options')
    first = run._entry(str(mesh))
    assert run._digests and run._entry(str(mesh)) == first
    stamp = mesh.stat().st_mtime_ns
    time.sleep(0.02)
    mesh.write_bytes(b'b' * 1000)
    os.utime(mesh, ns=(stamp, stamp))
    assert run._entry(str(mesh)) != first
    again = ResultCache(str(tmp_path / 'cache'), 'options')
    assert again.run != run.run and again._entry(str(mesh)) == run._entry(str(mesh))


def test_a_recorded_file_is_not_read_again_until_it_is_written(tmp_path, monkeypatch):
    # As git's index: a file whose device, inode, size, mtime and ctime are those recorded
    # with its digest is not hashed again; any write changes its ctime and it is read.
    from urdf_link_tools import result_cache
    monkeypatch.setattr(result_cache, 'RACY_NS', 0)  # no 2 s wait for the clock to move on
    robot, mesh = tmp_path / 'robot.urdf', tmp_path / 'part.stl'
    robot.write_text('<robot name="r"/>')
    mesh.write_bytes(b'a' * 1000)
    time.sleep(0.01)
    first = result_cache.ResultCache(str(tmp_path / 'cache'), 'options')
    first.put(str(robot), 'report', [str(mesh)])
    later = result_cache.ResultCache(str(tmp_path / 'cache'), 'options')
    assert later.get(str(robot)) == 'report'
    assert list(later._digests.values()) == [result_cache.file_digest(str(robot))]  # only it
    stamp = mesh.stat().st_mtime_ns
    mesh.write_bytes(b'b' * 1000)
    os.utime(mesh, ns=(stamp, stamp))  # same size and mtime: the ctime still moved
    assert result_cache.ResultCache(str(tmp_path / 'cache'), 'options').get(str(robot)) is None


MACRO_FILE = ('<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
              '  <xacro:macro name="wheel" params="prefix">\n'
              '    <link name="${prefix}_wheel"/>\n  </xacro:macro>\n</robot>\n')


SRDF = ('<?xml version="1.0"?>\n<robot name="px100" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '\n  <group name="arm"><joint name="waist"/></group>\n'
        '  <disable_collisions link1="a" link2="b" reason="Adjacent"/>\n</robot>\n')


@pytest.mark.parametrize('name', ['px100.srdf', 'px100.srdf.xacro'])
def test_a_moveit_srdf_is_said_to_be_one(tmp_path, name):
    # Interbotix's px100.srdf.xacro (and panda's), met by a CI job linting every *.xacro: it
    # was "a file of macros" (or, as .srdf, "another reader's extension").
    path = tmp_path / name
    path.write_text(SRDF)
    status, out, _ = run(['check', str(path)])
    assert status == 2 and 'robot-empty' in out and 'this is a MoveIt SRDF' in out, out
    assert '--srdf' in out and 'macros' not in out and 'extension' not in out
    status, _, err = run(['check', str(path), '--skip-macro-files'])
    assert status == 0 and f'{path}: skipped, a MoveIt SRDF' in err and 'macro' not in err, err
    # In a run of several files (`check $(git ls-files '*.xacro')`: every Interbotix arm's
    # *.srdf.xacro, sweep K) it is skipped with that note, as an included macro file is.
    robot = tmp_path / 'px100.urdf'
    robot.write_text('<robot name="px100"><link name="a"/></robot>')
    status, out, err = run(['check', str(robot), str(path)])
    assert status == 0 and f'{path}: skipped, a MoveIt SRDF' in err and \
        'give it with --srdf' in err, (out, err)


def test_a_macro_file_is_one_finding_that_says_so_or_is_skipped(tmp_path):
    # A CI job linting every *.xacro of a package meets files of macros (AUBO's
    # aubo.gazebo.xacro): one robot-empty error that names the file for what it is, not a
    # second one for the name a macro file never has; --skip-macro-files passes over it.
    path = tmp_path / 'wheel.urdf.xacro'
    path.write_text(MACRO_FILE)
    status, out, _ = run(['check', str(path), '--format', 'jsonl'])
    findings = [json.loads(line) for line in out.splitlines() if line.strip()]
    rules = [f['rule'] for row in findings for f in row.get('findings', [row])
             if isinstance(f, dict) and 'rule' in f]
    assert status == 2 and rules == ['robot-empty'], out
    assert 'a file of macros' in out and '--skip-macro-files' in out
    status, out, err = run(['check', str(path), '--skip-macro-files'])
    assert status == 0 and 'skipped, a xacro file without <link>' in err, (out, err)
    plain = tmp_path / 'empty.urdf'
    plain.write_text('<robot name="r"/>')
    status, out, _ = run(['check', str(plain)])
    assert status == 2 and 'robot-empty' in out and 'macros' not in out
    # (Jackal's empty.urdf, sweep K: the fix says what to do with a placeholder)
    assert 'an empty <robot> (a placeholder' in out and 'leave it out of the files checked' \
        in out, out
    # the heading of the robot's own findings says they are not all (the last line counts all)
    assert "robot 'r', robot-wide findings: 1 error" in out
    # Husky's empty.urdf, TurtleBot3's common_properties.urdf: fragments that xacro files
    # include, skipped too; a URDF with joints and no link is a broken robot, not skipped.
    status, _, err = run(['check', str(plain), '--skip-macro-files'])
    assert status == 0 and 'skipped, a file without <link> or <joint>' in err, err
    broken = tmp_path / 'broken.urdf'
    broken.write_text('<robot name="r"><joint name="j" type="fixed"><parent link="a"/>'
                      '<child link="b"/></joint></robot>')
    status, out, _ = run(['check', str(broken), '--skip-macro-files'])
    assert status == 2 and 'robot-empty' in out


def test_a_macro_file_another_checked_file_includes_is_skipped(tmp_path):
    # `check urdf/*.xacro` in CI: the robot and the file of macros it includes. The macro
    # file failed the job with robot-empty unless --skip-macro-files was given; the macro
    # file checked alone still fails.
    macros = tmp_path / 'wheel.xacro'
    macros.write_text(MACRO_FILE)
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     '<xacro:include filename="wheel.xacro"/>'
                     f'<link name="base"><inertial><mass value="1"/>{TENSOR}</inertial>'
                     '<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>'
                     '</link></robot>')
    orphan = tmp_path / 'orphan.xacro'
    orphan.write_text(MACRO_FILE)
    for jobs in ('1', '2'):
        status, out, err = run(['check', str(robot), str(macros), '--format', 'jsonl',
                                '--jobs', jobs, '--fail-on', 'error'])
        assert status == 0, (out, err)
        assert [line['source'] for line in _lines(out)] == [str(robot)]
        assert f'{macros}: skipped, a xacro file without <link> that {robot} includes' in err
    status, out, _ = run(['check', str(robot), str(macros), str(orphan), '--format', 'jsonl'])
    assert status == 0, out  # (orphan.xacro defines a macro: a library's file, below)
    status, out, _ = run(['check', str(macros)])
    assert status == 2 and 'robot-empty' in out
    # A report of the macro file cached when it was checked alone is not this run's answer.
    cache = ['--cache', str(tmp_path / 'cache')]
    assert run(['check', str(macros), *cache])[0] == 2
    assert run(['check', str(robot), str(macros), '--fail-on', 'error', *cache])[0] == 0
    # A library of macros and no robot (sweep J: Husarion's ros_components_description):
    # its files define macros, none includes another; with others, each is skipped. A file
    # of neither (orphan.xacro defines one: a plain fragment does not) stays an error.
    other = tmp_path / 'other.xacro'
    other.write_text(MACRO_FILE.replace('wheel', 'caster'))
    status, out, err = run(['check', str(macros), str(other), '--format', 'jsonl'])
    assert status == 0 and not out.strip(), (out, err)
    assert f'{other}: skipped, a xacro file of macros without <link>' in err, err
    fragment = tmp_path / 'materials.xacro'
    fragment.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><material '
                        'name="grey"><color rgba="0.5 0.5 0.5 1"/></material></robot>')
    status, out, _ = run(['check', str(macros), str(fragment)])
    assert status == 2 and 'robot-empty' in out and 'the unnamed robot, robot-wide' in out


def test_a_macro_file_whose_top_level_needs_its_includers_property_is_skipped(tmp_path):
    # robot_properties_bolt's leg.xacro (sweep L): macros, and at its top level an
    # <xacro:if> on a property bolt.xacro sets. `check urdf/*.xacro` and the pre-commit hook
    # on it exited 3 ("name 'long_leg' is not defined"), though xacro expands the robot.
    xacro = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    leg = tmp_path / 'leg.xacro'
    leg.write_text(f'<robot {xacro}><xacro:if value="${{long_leg}}"><xacro:property '
                   'name="leg_len" value="0.4"/></xacro:if><xacro:unless value="${long_leg}">'
                   '<xacro:property name="leg_len" value="0.2"/></xacro:unless>'
                   '<xacro:macro name="leg" params="parent"><link name="leg"><inertial>'
                   f'<mass value="1"/>{TENSOR}</inertial><collision><geometry><box '
                   'size="0.02 0.02 ${leg_len}"/></geometry></collision></link>'
                   '<joint name="hip" type="revolute"><parent link="${parent}"/><child '
                   'link="leg"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" '
                   'velocity="1"/></joint></xacro:macro></robot>')
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text(f'<robot name="r" {xacro}><xacro:property name="long_leg" value="true"/>'
                     '<xacro:include filename="leg.xacro"/><link name="base"/>'
                     '<xacro:leg parent="base"/></robot>')
    status, out, err = run(['check', str(robot), str(leg), '--format', 'jsonl', '--fail-on',
                            'never'])
    assert status == 0, (out, err)  # (a load failure is exit 3 whatever --fail-on says)
    assert f"{leg}: skipped, a xacro file of macros whose top level uses 'long_leg', which " \
        f'it does not define ({robot} includes it)' in err, err
    status, _, err = run(['check', '--skip-macro-files', str(leg)])  # (the pre-commit hook)
    assert status == 0 and 'skipped' in err, err
    # Alone it is checked as a robot, and fails; so does a named robot's misspelt property.
    assert run(['check', str(leg)])[0] == 3
    named = tmp_path / 'named.xacro'
    named.write_text(leg.read_text().replace('<robot ', '<robot name="legs" '))
    assert run(['check', str(robot), str(named), '--skip-macro-files', '--fail-on',
                'never'])[0] == 3


def test_xacro_directives_without_their_prefix_are_said_and_not_skipped(tmp_path):
    # NAO's nao_robot_v4.urdf.xacro: two <include filename=...> without xacro:, which xacro 2
    # leaves as they are. The robot is empty for that reason: one error at the first
    # include's line, not "a file of macros", and --skip-macro-files does not skip it.
    part = tmp_path / 'structure.xacro'
    part.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="a"/>'
                    '</robot>')
    path = tmp_path / 'nao.urdf.xacro'
    path.write_text('<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro"'
                    ' name="nao">\n  <!-- two parts -->\n'
                    f'  <include filename="{part}"/>\n  <include filename="{part}"/>\n'
                    '</robot>\n')
    for extra in ([], ['--skip-macro-files']):
        status, out, _ = run(['check', str(path), '--format', 'jsonl'] + extra)
        (row,) = [json.loads(line) for line in out.splitlines() if line.strip()]
        assert status == 2, out
        (finding,) = row['findings']
        assert finding['rule'] == 'parse-xacro-unprefixed' and finding['line'] == 4, finding
        assert finding['message'].startswith('the robot has no <link>: its 2 xacro directives '
                                             '(<include>) lack the xacro: prefix'), finding
        assert finding['suggestion'].startswith('write <xacro:include filename="...">')
    # Beside links, each is a warning where it is written.
    path.write_text(path.read_text().replace('<!-- two parts -->', '<link name="base"/>'))
    status, out, _ = run(['check', str(path), '--format', 'jsonl'])
    (row,) = [json.loads(line) for line in out.splitlines() if line.strip()]
    found = [(f['rule'], f['severity'], f['line']) for f in row['findings']
             if f['rule'] == 'parse-xacro-unprefixed']
    assert found == [('parse-xacro-unprefixed', 'warning', 4),
                     ('parse-xacro-unprefixed', 'warning', 5)], row['findings']


def test_macro_calls_without_their_prefix_are_said_where_written(tmp_path):
    # Velodyne's example.urdf.xacro calls <VLP-16 ...> and <HDL-32E ...> without xacro::
    # xacro 2 leaves them in the output, URDF readers ignore them, and both lidars were
    # missing without a word. A macro named as a URDF element ('transmission') beside real
    # <transmission> elements says nothing. A macro that makes links (itself, or through a
    # macro it calls: EZGripper's standalone files, sweep Q, checked the mounting post alone
    # with a warning) is an error; one that writes no link (a plugin) a warning.
    part = tmp_path / 'lidars.urdf.xacro'
    part.write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
        + ''.join(f'<xacro:macro name="{name}" params="parent name"><joint name="${{name}}_j" '
                  'type="fixed"><parent link="${parent}"/><child link="${name}"/></joint>'
                  '<link name="${name}"/></xacro:macro>' for name in ('VLP-16', 'HDL-32E'))
        + '<xacro:macro name="transmission" params="joint"><transmission name="${joint}_t">'
          '<type>transmission_interface/SimpleTransmission</type><joint name="${joint}"/>'
          '</transmission></xacro:macro>'
          '<xacro:macro name="mast" params="parent"><xacro:if value="true">'
          '<xacro:VLP-16 parent="${parent}" name="mast_top"/></xacro:if></xacro:macro>'
          '<xacro:macro name="plugin" params="name"><gazebo reference="${name}">'
          '<sensor name="${name}_s" type="ray"/></gazebo></xacro:macro></robot>')
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text('<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro"'
                    f' name="r">\n  <xacro:include filename="{part}"/>\n'
                    '  <link name="base_link"/>\n'
                    '  <VLP-16 parent="base_link" name="top"/>\n'
                    '  <xacro:HDL-32E parent="base_link" name="front"/>\n'
                    '  <HDL-32E parent="base_link" name="rear"/>\n'
                    '  <xacro:transmission joint="front_j"/>\n'
                    '  <mast parent="base_link"/>\n'
                    '  <plugin name="front"/>\n</robot>\n')
    status, out, _ = run(['check', str(path), '--format', 'jsonl', '--no-meshes'])
    (row,) = [json.loads(line) for line in out.splitlines() if line.strip()]
    found = [(f['rule'], f['severity'], f['line'], f['message'].split(':')[0])
             for f in row['findings'] if f['rule'] == 'parse-xacro-unprefixed']
    # 3 calls or more: one finding listing them (sweep U: a catkin package's 14 calls were
    # 13 warnings), an error when a macro among them makes links
    assert found == [('parse-xacro-unprefixed', 'error', 5,
                      '4 macro calls are written without the xacro')], row['findings']
    said = {f['line']: f['message'] for f in row['findings']}
    assert '(<VLP-16> (line 5), <HDL-32E> (line 7), <mast> (line 9), <plugin> (line 10))' \
        in said[5], said[5]
    assert 'missing: VLP-16, HDL-32E, mast make links and joints, missing from this robot' \
        in said[5], said[5]
    assert "ROS 1's xacro expanded such calls" in said[5]
    assert all(f['suggestion'].startswith('write each call as <xacro:NAME') for f in
               row['findings'] if f['rule'] == 'parse-xacro-unprefixed')
    assert status == 2  # errors
    # two calls: each its own finding
    path.write_text(path.read_text().replace('  <mast parent="base_link"/>\n', '')
                    .replace('  <plugin name="front"/>\n', ''))
    status, out, _ = run(['check', str(path), '--format', 'jsonl', '--no-meshes'])
    (row,) = [json.loads(line) for line in out.splitlines() if line.strip()]
    said = {f['line']: f['message'] for f in row['findings']
            if f['rule'] == 'parse-xacro-unprefixed'}
    assert sorted(said) == [5, 7], said
    assert "ROS 1's xacro expanded such a call" in said[5]
    # In a ROS 1 (catkin) package the call worked as written: warnings (sweep R: rbcar)
    (tmp_path / 'package.xml').write_text(
        '<package format="2"><name>lidars</name><buildtool_depend>catkin</buildtool_depend>'
        '</package>')
    status, out, _ = run(['check', str(path), '--format', 'jsonl', '--no-meshes'])
    (row,) = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert {f['severity'] for f in row['findings']
            if f['rule'] == 'parse-xacro-unprefixed'} == {'warning'}, row['findings']


CAMERA_MACRO = (
    '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
    '<xacro:macro name="camera" params="parent name mass y">'
    '<joint name="${name}_joint" type="continuous"><parent link="${parent}"/>'
    '<child link="${name}_link"/><origin xyz="0.1 ${y} 0.2"/><axis xyz="0 0 1"/></joint>\n'
    '<link name="${name}_link"><inertial><mass value="${mass}"/>\n'
    '<inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.0005"/></inertial>'
    '<collision><geometry><box size="0.025 0.09 0.025"/></geometry></collision></link>'
    '</xacro:macro></robot>\n')


def test_one_macro_lines_fault_on_each_of_its_calls_is_one_finding(tmp_path):
    # realsense2_description's multiple-camera example calls its d435 macro twice: the same
    # tensor line on camera1_link and camera2_link, the same numbers: one finding naming
    # both links, whose fix there serves both. Another mass makes other numbers: its own.
    (tmp_path / 'camera.urdf.xacro').write_text(CAMERA_MACRO)
    path = tmp_path / 'robot.urdf.xacro'

    def check(calls: str):
        path.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r">'
                        '<xacro:include filename="camera.urdf.xacro"/><link name="base">'
                        '<inertial><mass value="5"/><inertia ixx="0.1" ixy="0" ixz="0" '
                        'iyy="0.1" iyz="0" izz="0.1"/></inertial><collision><geometry>'
                        '<box size="0.4 0.4 0.2"/></geometry></collision></link>\n'
                        + calls + '</robot>\n')
        status, out, _ = run(['check', str(path), '--format', 'jsonl', '--no-meshes',
                              '--fail-on', 'never'])
        (row,) = [json.loads(line) for line in out.splitlines() if line.strip()]
        return [f for f in row['findings'] if f['link'] in ('cam1_link', 'cam2_link')]
    found = check('<xacro:camera parent="base" name="cam1" mass="0.07" y="0.1"/>\n'
                  '<xacro:camera parent="base" name="cam2" mass="0.07" y="-0.1"/>\n')
    assert found, 'the tensor is off its box: a finding on each camera'
    for finding in found:
        assert finding['link'] == 'cam1_link'
        assert finding['links'] == ['cam1_link', 'cam2_link']
        assert finding['values']['instance_links'] == 'cam2_link'
        assert "the same line of macro 'camera' makes it on 'cam2_link' too" in \
            finding['message']
        assert finding['line'] == 3 and finding['file'].endswith('camera.urdf.xacro')
    rules = [f['rule'] for f in found]
    apart = check('<xacro:camera parent="base" name="cam1" mass="0.07" y="0.1"/>\n'
                  '<xacro:camera parent="base" name="cam2" mass="0.09" y="-0.1"/>\n')
    assert sorted(f['rule'] for f in apart) == sorted(rules * 2)
    assert not any('instance_links' in f['values'] for f in apart)


def test_a_robot_of_another_readers_elements_says_what_it_holds(tmp_path):
    # Bullet's reduced_*.urdf: a <robot> holding only <reduced_deformable>. robot-empty said
    # "no <link> elements" and nothing of why; it names what the file holds instead.
    path = tmp_path / 'reduced_cube.urdf'
    path.write_text('<robot name="cube"><reduced_deformable name="cube"><inertial>'
                    '<mass value="1"/></inertial></reduced_deformable></robot>')
    status, out, _ = run(['check', str(path), '--format', 'jsonl'])
    (finding,) = _lines(out)[0]['findings']
    assert status == 2 and finding['rule'] == 'robot-empty', out
    assert finding['message'].startswith('the robot has no <link> elements: it holds '
                                         '<reduced_deformable>, not URDF elements'), finding
    plain = tmp_path / 'empty.urdf'
    plain.write_text('<robot name="r"/>')
    (finding,) = _lines(run(['check', str(plain), '--format', 'jsonl'])[1])[0]['findings']
    assert finding['message'] == ('the robot has no <link> elements: an empty <robot> (a '
                                  'placeholder that descriptions include, or a robot not '
                                  'written yet)'), finding
    # Jackal's custom_example.urdf: macro calls of a xacro fragment named .urdf, with the
    # prefix declared or not: xacro's, not another reader's
    for robot in ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">',
                  '<robot name="r">'):
        plain.write_text(f'{robot}<xacro:camera_mount prefix="front"/></robot>')
        found = _lines(run(['check', str(plain), '--format', 'jsonl'])[1])[0]['findings']
        (finding,) = [f for f in found if f['rule'] == 'robot-empty']
        assert finding['message'] == (
            'the robot has no <link> elements: it holds <xacro:camera_mount>, xacro elements '
            'that were not expanded (xacro runs only on .xacro files or with --xacro)'), finding


def test_a_fragment_hung_from_links_it_does_not_define_is_skipped_with_the_flag(tmp_path):
    # Stretch's stretch_gripper.xacro, Baxter's pedestal.xacro: parts a robot includes and
    # attaches to its own links; every link hangs from a link the file does not define.
    # Checked alone they are errors; --skip-macro-files checks their own links, not where
    # they attach. A robot with a misspelt parent keeps its root, and its error.
    gripper = ('<robot name="g"><joint name="mount" type="fixed"><parent link="wrist"/>'
               '<child link="gripper"/></joint><link name="gripper"/>'
               '<joint name="tip" type="fixed"><parent link="gripper"/><child link="tip"/>'
               '</joint><link name="tip"/></robot>')
    path = tmp_path / 'gripper.urdf'
    path.write_text(gripper)
    status, out, _ = run(['check', str(path)])
    assert status == 2 and 'joint-unknown-link' in out
    assert 'if this file is a part that robots include' in out  # and how to skip it
    status, out, err = run(['check', str(path), '--skip-macro-files'])
    assert status == 0 and 'a fragment whose links all hang from links it does not define' \
        in err and 'its own links are checked' in err, err
    assert 'joint-unknown-link' not in out, out
    # Its own links are checked: a pull request whose robot hangs from an undeclared
    # 'World' (a fragment, by its shape) kept every error out of the pre-commit hook.
    faulty = tmp_path / 'faulty.urdf'
    faulty.write_text(gripper.replace(
        '<link name="tip"/>', '<link name="tip"><inertial><mass value="1"/><inertia ixx="0.01" '
        'ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/></inertial></link>').replace(
        '<joint name="tip" type="fixed">', '<joint name="tip" type="revolute"><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/>'))
    status, out, _ = run(['check', str(faulty), '--skip-macro-files'])
    assert status == 2 and 'inertia-triangle-inequality' in out, out
    assert 'joint-unknown-link' not in out, out
    # Sawyer's gazebo file anchors a bare 'world' to a 'base' it does not define.
    anchored = tmp_path / 'anchored.urdf'
    anchored.write_text(gripper.replace('<robot name="g">', '<robot name="g"><link name="world"/>'
                                        '<joint name="fixed" type="fixed"><parent link="world"/>'
                                        '<child link="base"/></joint>'))
    status, _, err = run(['check', str(anchored), '--skip-macro-files'])
    assert status == 0 and 'a fragment whose links' in err, err
    # A robot fixed to an undeclared 'world' (Gazebo's frame) is a robot, not a fragment.
    world = tmp_path / 'world.urdf'
    world.write_text(gripper.replace('"wrist"', '"world"'))
    status, out, _ = run(['check', str(world), '--skip-macro-files'])
    assert status == 2 and 'joint-unknown-link' in out and 'robots include' not in out
    typo = tmp_path / 'typo.urdf'
    typo.write_text(gripper.replace('<robot name="g">', '<robot name="g"><link name="base"/>'
                                    '<joint name="b" type="fixed"><parent link="base"/>'
                                    '<child link="wrist_link"/></joint><link name="wrist_link"/>'))
    status, out, _ = run(['check', str(typo), '--skip-macro-files'])
    assert status == 2 and 'joint-unknown-link' in out
    assert 'a part that robots include' not in out


def test_a_macro_call_without_its_prefix_inside_a_link_is_said(tmp_path):
    # Husqvarna's automower (sweep U) writes <box_inertia .../> inside its base's <inertial>:
    # the tensor was "missing" (an error), the call that should have made it never named.
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r">\n'
        '<xacro:macro name="box_inertia" params="m"><inertia ixx="${m}" ixy="0" ixz="0" '
        'iyy="${m}" iyz="0" izz="${m}"/></xacro:macro>\n'
        '<link name="base"><inertial><mass value="1"/>\n'
        '<box_inertia m="0.1"/></inertial></link>\n</robot>\n')
    status, out, _ = run(['check', str(path), '--format', 'json', '--no-meshes'])
    found = [f for f in json.loads(out)['findings'] if f['rule'] == 'parse-xacro-unprefixed']
    assert [(f['line'], f['message'].split(' without')[0]) for f in found] == [
        (4, "<box_inertia> calls the macro 'box_inertia'")], found


def test_a_double_dash_with_nothing_after_it_is_no_file(capsys):
    # A new user's trial (round 39): the Action with a blank robots input runs
    # check ROBOT --format json --, which printed "unrecognized arguments: \x00files after
    # --" (the parser's marker for the files after --) and exit 4.
    sample = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          'samples', 'sample_robot.urdf')
    plain = run(['check', sample, '--format', 'json'])
    assert run(['check', sample, '--format', 'json', '--']) == plain
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        run(['check', '--format', 'json', '--'])
    err = capsys.readouterr().err
    assert exited.value.code == EXIT_USAGE and 'required: ROBOT' in err
    assert '\0' not in err and '\\x00' not in err and 'files after' not in err
