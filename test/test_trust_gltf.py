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
glTF is budgeted from its header, before trimesh copies any accessor.

The amplification file: 1.4 MB of JSON, 150 accessors with ``byteStride`` 1 over one 1 MB
``data:`` buffer, which trimesh turned into 1.9 GB of arrays. The real CLI reads it in a
child process under ``prlimit``; its peak resident memory (with every child) stays far below
300 MB and the mesh is a finding.
"""

import base64
import json
import struct
import subprocess
import sys

import pytest
from trust_harness import run_measured
from urdf_link_tools.meshes.gltf import budget_problem, read_header

MB = 1 << 20


def amplification(accessors=150, size=MB, view=True, stride=1):
    """Return the header of a glTF whose accessors overlap in one data: buffer."""
    buffer = base64.b64encode(bytes(size)).decode()
    accessor = {'componentType': 5126, 'count': size - 11, 'type': 'VEC3'}
    if view:
        accessor['bufferView'] = 0
    return {
        'asset': {'version': '2.0'},
        'buffers': [{'byteLength': size,
                     'uri': 'data:application/octet-stream;base64,' + buffer}],
        'bufferViews': [{'buffer': 0, 'byteOffset': 0, 'byteLength': size,
                         'byteStride': stride}],
        'accessors': [dict(accessor) for _ in range(accessors)],
        'meshes': [{'primitives': [{'attributes': {'POSITION': i}, 'mode': 4}]}
                   for i in range(accessors)],
        'nodes': [{'mesh': i} for i in range(accessors)],
        'scenes': [{'nodes': list(range(accessors))}], 'scene': 0}


def _robot(tmp_path, header):
    (tmp_path / 'amp.gltf').write_text(json.dumps(header))
    robot = tmp_path / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="a"><collision><geometry>'
                     '<mesh filename="amp.gltf"/></geometry></collision></link></robot>')
    return robot


def test_accessor_amplification_is_refused_before_any_copy(tmp_path):
    robot = _robot(tmp_path, amplification())
    assert robot.with_name('amp.gltf').stat().st_size < 1.5 * MB
    result = run_measured(['check', '--format', 'json', str(robot)], cwd=str(tmp_path))
    assert result.returncode == 2, result.stderr
    assert 'Traceback' not in result.stderr
    messages = [f['message'] for f in json.loads(result.stdout)['findings']
                if f['rule'] == 'mesh-unreadable']
    assert messages and 'accessors would make arrays' in messages[0]
    assert result.peak_mib < 300, result.peak_mib


@pytest.mark.parametrize('header, words', [
    (amplification(accessors=3), 'accessors would make arrays'),
    (amplification(accessors=1, size=1024), None),
    # sixth red-team review: an accessor without a bufferView is zeros (4 million degenerate
    # triangles from a 424-byte file, 16 of them 2.9 GB): refused
    (amplification(accessors=1, view=False, size=1024), 'has no bufferView'),
    (dict(amplification(accessors=1, size=1024),
          accessors=[{'componentType': 5126, 'count': 10 ** 9, 'type': 'MAT4'}]),
     'accessors would make arrays'),
    (amplification(accessors=1, size=4 * MB), 'declared larger than the limit'),
    (amplification(accessors=1, size=64 * 1024, stride=12), 'more than 1,000 triangles'),
])
def test_budget_from_the_header(header, words):
    reason = budget_problem(read_header(json.dumps(header).encode(), 'gltf'), 2 * MB, 1000)
    if words is None:
        assert reason is None
    else:
        assert reason is not None and words in reason, reason


def _placing(nodes, primitives, shared_child=False):
    """Return a glTF header of one triangle: ``nodes`` nodes placing a mesh of primitives."""
    triangle = base64.b64encode(bytes(36)).decode()
    header = {
        'asset': {'version': '2.0'},
        'buffers': [{'byteLength': 36, 'uri': 'data:application/octet-stream;base64,'
                     + triangle}],
        'bufferViews': [{'buffer': 0, 'byteOffset': 0, 'byteLength': 36}],
        'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 3, 'type': 'VEC3'}],
        'meshes': [{'primitives': [{'attributes': {'POSITION': 0}}] * primitives}],
        'nodes': [{'mesh': 0} for _ in range(nodes)],
        'scenes': [{'nodes': list(range(nodes))}], 'scene': 0}
    if shared_child:  # node 0 holds the others, each of which holds the last: not a tree
        header['nodes'] = [{'children': list(range(1, nodes))}] + [
            {'mesh': 0, 'children': [nodes]} for _ in range(1, nodes)] + [{'mesh': 0}]
        header['scenes'] = [{'nodes': [0]}]
    return header


@pytest.mark.parametrize('nodes, primitives, shared, words', [
    (300, 300, False, 'places more than 10,000 mesh primitives'),
    (2000, 2000, False, 'places more than 10,000 mesh primitives'),
    (100, 5, False, None),
    (100, 50, False, 'places 5,000 geometry instances from the 150 it writes'),
    (120, 50, True, 'places more than 10,000 mesh primitives'),
])
def test_a_scene_placing_a_mesh_many_times_is_refused_from_the_header(
        nodes, primitives, shared, words):
    # Sixth red-team review: 300 nodes placing a mesh of 300 primitives (17 KB) took trimesh
    # 11 s to make its scene graph, 2,000 x 2,000 (115 KB) 103 s and 5.8 GB before the
    # instances were counted. Counted from the header now, each node on each path.
    header = _placing(nodes, primitives, shared)
    reason = budget_problem(read_header(json.dumps(header).encode(), 'gltf'), 2 * MB, 4_000_000)
    if words is None:
        assert reason is None
    else:
        assert reason is not None and words in reason, reason


def test_nodes_holding_each_other_in_a_loop_are_refused():
    header = _placing(3, 1)
    header['nodes'][0]['children'] = [1]
    header['nodes'][1]['children'] = [0]
    reason = budget_problem(read_header(json.dumps(header).encode(), 'gltf'), 2 * MB, 4_000_000)
    assert reason == 'its nodes hold each other in a loop'


@pytest.mark.parametrize('uri', ['a%00b.bin', 'a\x00b.bin'])
def test_a_buffer_name_holding_a_nul_is_one_line_not_a_traceback(tmp_path, uri):
    # Red-team review 7: os.path.realpath raised on it, a 34-line traceback on standard error
    from urdf_link_tools.read_policy import read_refusal
    header = {'asset': {'version': '2.0'}, 'buffers': [{'byteLength': 36, 'uri': uri}],
              'bufferViews': [{'buffer': 0, 'byteLength': 36}],
              'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 3,
                             'type': 'VEC3'}],
              'meshes': [{'primitives': [{'attributes': {'POSITION': 0}}]}],
              'nodes': [{'mesh': 0}], 'scenes': [{'nodes': [0]}]}
    robot = _robot(tmp_path, header)
    done = subprocess.run([sys.executable, '-c', 'import sys\n'
                           'from urdf_link_tools.console import run\n'
                           'sys.argv = ["urdf-link-tools", "check", sys.argv[1]]\nrun()\n',
                           str(robot)], capture_output=True, text=True, timeout=300)
    assert 'Traceback' not in done.stderr, done.stderr[-2000:]
    assert 'is not a file name (it holds a NUL)' in done.stdout, done.stdout
    assert read_refusal('/tmp/a\x00b', None).endswith('holds a NUL character: no file has '
                                                      'such a name')


def _glb(header, chunk):
    """Return a GLB of a header (its first buffer the binary chunk) and that chunk."""
    text = json.dumps(header).encode()
    text += b' ' * (-len(text) % 4)
    chunk += b'\0' * (-len(chunk) % 4)
    body = (struct.pack('<II', len(text), 0x4E4F534A) + text
            + struct.pack('<II', len(chunk), 0x004E4942) + chunk)
    return b'glTF' + struct.pack('<II', 2, 12 + len(body)) + body


@pytest.mark.parametrize('form', ['data uri', 'glb', 'side-car'])
def test_a_buffer_declaring_more_bytes_than_it_holds_is_refused(tmp_path, form):
    # Eighth red-team review: the budget counted byteLength as declared; a 1 MB file
    # declaring a 99 MB buffer had trimesh decode 30 accessors of a million points each over
    # the real megabyte (mode 0 sent it to trimesh): 456 MB for one file, 3.1 GB with
    # mesh_max_bytes raised by the pull request's --config.
    header = amplification(accessors=30, size=MB)
    header['buffers'][0]['byteLength'] = 99_000_000
    # none of the 30 is used (trimesh decodes them all), one 3-point primitive in mode 0
    header['bufferViews'].append({'buffer': 0, 'byteOffset': 0, 'byteLength': 36})
    header['accessors'].append({'bufferView': 1, 'componentType': 5126, 'count': 3,
                                'type': 'VEC3'})
    header['meshes'] = [{'primitives': [{'attributes': {'POSITION': 30}, 'mode': 0}]}]
    header['nodes'] = [{'mesh': 0}]
    header['scenes'] = [{'nodes': [0]}]
    if form == 'glb':
        del header['buffers'][0]['uri']
        (tmp_path / 'amp.glb').write_bytes(_glb(header, bytes(MB)))
    elif form == 'side-car':
        header['buffers'][0]['uri'] = 'amp.bin'
        (tmp_path / 'amp.bin').write_bytes(bytes(MB))
    robot = _robot(tmp_path, header)
    if form == 'glb':
        robot.write_text(robot.read_text().replace('amp.gltf', 'amp.glb'))
    result = run_measured(['check', '--format', 'json', str(robot)], cwd=str(tmp_path))
    assert 'Traceback' not in result.stderr, result.stderr
    messages = [f['message'] for f in json.loads(result.stdout)['findings']
                if f['rule'] == 'mesh-unreadable']
    assert messages and 'declares 99,000,000 bytes (byteLength) but holds' in messages[0], \
        messages
    assert result.peak_mib < 200, result.peak_mib
    # Declared honestly, the same accessors are the amplification the budget refuses.
    header['buffers'][0]['byteLength'] = MB - 2
    assert 'accessors would make arrays' in budget_problem(header, 50 * MB, 4_000_000)


def test_a_config_cannot_raise_the_mesh_limit_past_its_ceiling(tmp_path):
    # Eighth red-team review: the pull request's --config set mesh_max_bytes to 1e11, and
    # the glTF budget (4x the declared buffers) followed it up to 3.1 GB of arrays.
    from urdf_link_tools.config import validate_mesh_max_bytes
    from urdf_link_tools.limits import MESH_MAX_BYTES_CEILING
    robot = _robot(tmp_path, amplification(accessors=1, size=1024))
    (tmp_path / 'lint.yaml').write_text('urdf_link_tools:\n  ros__parameters:\n'
                                        '    mesh_max_bytes: 100000000000\n')
    result = run_measured(['check', '--config', str(tmp_path / 'lint.yaml'), str(robot)],
                          cwd=str(tmp_path))
    assert result.returncode == 4, (result.returncode, result.stderr)
    assert 'mesh_max_bytes may be at most 1,000,000,000' in result.stderr, result.stderr
    assert validate_mesh_max_bytes(MESH_MAX_BYTES_CEILING) is None
