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
Hostile mesh files named by a description: each becomes a finding within a bounded time.

The template robot's collision mesh on link 'tool' is pointed at a missing package, a
directory, /dev/zero, a FIFO, a 1 GB sparse file, a symbolic link loop, corrupt and empty
STL files, a DAE entity bomb, /proc/self/mem and /proc/self/environ, an OBJ of 2-coordinate
vertices, a DAE whose nodes instance each other 2^40
times and a package path leaving its package (all made in tmp_path at test time). The node
must publish, within 20 s of the description, an ERROR status for 'tool' carrying the
finding, keep answering, and serve the robot; ``urdf-link-tools check`` on a robot naming
all of them at once must finish in bounded time with every finding.
"""

import json
import os
from pathlib import Path
import subprocess
import sys

from diagnostic_msgs.msg import DiagnosticStatus
from hostile_harness import Hostile, non_finite, TEMPLATE
import mesh_attacks
import pytest
from ros_harness import local_name, NodeSession, REPO

pytest.importorskip('urdf_link_tools.srv',
                    reason='the interfaces of urdf_link_tools are not built: run scripts/setup.sh')

from urdf_link_tools.cli import EXIT_ERRORS  # noqa: E402
from urdf_link_tools.msg import Finding  # noqa: E402

PACKAGE_DIRS = [f'urdf_link_tools={REPO}']
SAMPLE_MESH = 'package://urdf_link_tools/samples/meshes/arm_collision.stl'
BOUND = 120.0  # the most seconds to wait for the diagnostics that report it (a hang guard)
GIGABYTE = 1 << 30

BILLION_LAUGHS_DAE = ('<?xml version="1.0"?>\n<!DOCTYPE c [<!ENTITY a "aaaaaaaaaa">'
                      + ''.join(f'<!ENTITY a{i} "' + f'&a{i - 1 if i > 1 else ""};' * 10 + '">'
                                for i in range(1, 10))
                      + ']>\n<COLLADA><asset><contributor>&a9;</contributor></asset></COLLADA>\n')


def _make(case: str, folder: Path) -> str:
    """Create the hostile file for a case and return the mesh filename to write."""
    if case == 'missing_package':
        return 'package://no_such_package_ult/meshes/part.stl'
    if case == 'package_escape':
        return 'package://urdf_link_tools/../package_escape.stl'
    if case == 'dae_instancing_bomb':
        path = folder / f'{case}.dae'
        os.replace(mesh_attacks.instancing_bomb(folder, depth=40), path)
        return f'file://{path}'
    path = folder / f'{case}.stl'
    if case == 'directory':
        path.mkdir()
    elif case == 'dev_zero':
        return '/dev/zero'
    elif case == 'fifo':
        os.mkfifo(path)
    elif case == 'sparse_1gb':
        with open(path, 'wb') as stream:
            stream.truncate(GIGABYTE)
    elif case == 'symlink_loop':
        os.symlink(folder / 'symlink_loop_other.stl', path)
        os.symlink(path, folder / 'symlink_loop_other.stl')
    elif case == 'corrupt_stl':
        path.write_bytes(bytes((index * 73 + 11) % 256 for index in range(1000)))
    elif case == 'stl_count_lie':
        # A binary header announcing 4 billion triangles, followed by one.
        path.write_bytes(b'\0' * 80 + (0xFFFFFFFF).to_bytes(4, 'little') + b'\0' * 50)
    elif case == 'proc_self_mem':
        os.symlink('/proc/self/mem', path)
    elif case == 'proc_self_environ':
        os.symlink('/proc/self/environ', path)
    elif case == 'obj_two_coordinates':
        # trimesh keeps 'v 0 0' as points of two coordinates: a traceback (review 8)
        path = folder / f'{case}.obj'
        path.write_text('v 0 0\nv 1 0\nv 0 1\nf 1 2 3\n')
    elif case == 'empty_stl':
        path.write_bytes(b'')
    elif case == 'dae_entity_bomb':
        path = folder / f'{case}.dae'
        path.write_text(BILLION_LAUGHS_DAE)
    return f'file://{path}'


# case -> (rule, what the finding says)
CASES = {
    'missing_package': ('mesh-not-found', "package 'no_such_package_ult' was not found"),
    'directory': ('mesh-unreadable', 'is a directory'),
    'dev_zero': ('mesh-unreadable', 'is a character device'),
    'fifo': ('mesh-unreadable', 'is a FIFO'),
    'sparse_1gb': ('mesh-unreadable', 'larger than the limit'),
    'symlink_loop': ('mesh-not-found', 'symbolic link loop'),
    'corrupt_stl': ('mesh-unreadable', 'is not a valid STL'),
    'stl_count_lie': ('mesh-unreadable', 'is not a valid STL'),
    'empty_stl': ('mesh-unreadable', 'is empty'),
    'dae_entity_bomb': ('mesh-unreadable', 'declares a document type'),
    'proc_self_mem': ('mesh-unreadable', 'a file of the operating system'),
    'proc_self_environ': ('mesh-unreadable', 'a file of the operating system'),
    'obj_two_coordinates': ('mesh-unreadable', 'vertices of 2 coordinates'),
    'dae_instancing_bomb': ('mesh-unreadable', 'expands to more than'),
    'package_escape': ('mesh-not-found', 'leaves package'),
}


@pytest.fixture(scope='module')
def hostile():
    with NodeSession('hostile_meshes', {'package_dirs': PACKAGE_DIRS,
                                        'diagnostics_period': 0.1}) as session:
        hostile = Hostile(session)
        hostile.client.publish_description(TEMPLATE)
        hostile.wait_robot('template')
        yield hostile


def _robot(name: str, filename: str) -> str:
    assert SAMPLE_MESH in TEMPLATE
    return TEMPLATE.replace('"template"', f'"{name}"').replace(SAMPLE_MESH, filename)


def _status_finding(status, rule: str) -> str:
    values = {item.key: item.value for item in status.values}
    return next((value for key, value in values.items() if key.endswith(f' {rule}')), '')


@pytest.mark.parametrize('case', list(CASES))
def test_hostile_mesh_file(hostile, case, tmp_path):
    rule, needle = CASES[case]
    filename = _make(case, tmp_path)
    name = f'mesh_{case}'
    since, _, _ = hostile.publish(_robot(name, filename))

    def reported():
        for array in hostile.diagnostics[since:]:
            for status in array.status:
                if local_name(status.name) == 'urdf_link_tools: tool' and \
                        status.hardware_id == name and needle in _status_finding(status, rule):
                    return status
        return None
    # The wait's generous timeout is the hang guard; how fast is measured in bench/.
    status = hostile.client.spin_until(reported, BOUND, f'the {rule} finding')
    assert status.level == DiagnosticStatus.ERROR
    hostile.assert_serving(name)
    (finding,) = [f for f in hostile.link_findings('tool').findings if f.rule == rule]
    assert finding.severity == Finding.ERROR and needle in finding.message
    geometry = hostile.link_geometry('tool', triangles=True)
    assert geometry.success and len(geometry.geometries) == 2, geometry.message
    assert not non_finite(geometry)
    assert len(geometry.geometries[1].mesh.triangles) == 0


def test_hostile_meshes_cli_all_at_once(tmp_path):
    """One robot naming every hostile file: the CLI reports all of them, in bounded time."""
    filenames = {case: _make(case, tmp_path) for case in CASES}
    collisions = ''.join(
        f'    <collision name="{case}"><geometry><mesh filename="{filename}"/></geometry>'
        '</collision>\n' for case, filename in filenames.items())
    text = TEMPLATE.replace('<link name="tool">', '<link name="tool">\n' + collisions)
    path = tmp_path / 'hostile_meshes.urdf'
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, '-m', 'urdf_link_tools.cli', 'check', str(path), '--format', 'json',
         '--package-dir', PACKAGE_DIRS[0]], capture_output=True, text=True, timeout=120,
        cwd=str(REPO), env=dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(REPO), os.environ.get('PYTHONPATH', '')])))
    assert done.returncode == EXIT_ERRORS, done.stderr[-2000:]  # timeout=120: the hang guard
    assert 'Traceback' not in done.stderr, done.stderr[-2000:]
    findings = json.loads(done.stdout)['findings']
    for case, (rule, needle) in CASES.items():
        marker = {'missing_package': 'no_such_package_ult', 'dev_zero': '/dev/zero'}.get(
            case, case)
        assert any(f['rule'] == rule and f['severity'] == 'error' and needle in f['message']
                   and marker in f['message'] for f in findings), (case, findings)
