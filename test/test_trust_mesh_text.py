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
Mesh files whose text is cheap to write and dear to read are refused before they are read.

The tenth red-team review: a COLLADA file of empty elements cost 78 times its size (30 MB:
2.3 GB), a glTF header of empty objects 54 times (95 MB: 3.7 GB), an OBJ of 27-corner
polygons was triangulated by trimesh before the triangle budget refused it (40 MB: 1.6 GB).
Each is counted from its bytes first; the checks here are a third of those sizes, where the
old readers took 300 to 550 MB.
"""

import json

import pytest
from trust_harness import run_measured


def _robot(tmp_path, mesh_name, content):
    (tmp_path / mesh_name).write_bytes(content)
    robot = tmp_path / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="part"><inertial><mass value="1"/><inertia '
                     'ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
                     f'<collision><geometry><mesh filename="{mesh_name}"/></geometry>'
                     '</collision></link></robot>')
    return str(robot)


@pytest.mark.parametrize('mesh_name, content, words', [
    ('part.dae', b'<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/'
     b'COLLADASchema" version="1.4.1"><asset><unit meter="1"/></asset>' + b'<a/>' * 2_000_000
     + b'</COLLADA>', 'holds more XML elements than a mesh needs (2,000,004 start tags'),
    ('part.gltf', b'{"asset":{"version":"2.0"},"extras":[' + b'{},' * 2_000_000 + b'{}]}',
     'its JSON holds more values than a mesh header needs'),
    ('part.obj', b'v 0 0 0\nv 1 0 0\nv 0 1 0\n'
     + b'f 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3\n' * 170_000,
     'it holds more than 4,000,000 triangles'),
    # review 11: faces trimesh reads without a blank after the f, and a COLLADA file in
    # UTF-7, whose '<' are other bytes
    ('part.obj', b'v 0 0 0\nv 1 0 0\nv 0 1 0\n'
     + b'f1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3\n' * 170_000,
     'it holds more than 4,000,000 triangles'),
    ('part.dae', b'<?xml version="1.0" encoding="UTF-7"?>'
     + '<COLLADA><asset/>'.encode('utf-7') + b'+ADw-a/+AD4-' * 10, 'is not in an encoding '
     'COLLADA readers read'),
], ids=['dae-elements', 'gltf-values', 'obj-polygons', 'obj-f-without-blank', 'dae-utf7'])
def test_a_mesh_dear_to_read_for_its_size_is_refused_from_its_bytes(tmp_path, mesh_name,
                                                                    content, words):
    result = run_measured(['check', _robot(tmp_path, mesh_name, content), '--format', 'json'],
                          cwd=str(tmp_path))
    assert result.returncode in (0, 2), result.stderr[-1000:]
    assert 'Traceback' not in result.stderr
    (finding,) = [f for f in json.loads(result.stdout)['findings']
                  if f['rule'] == 'mesh-unreadable']
    assert words in finding['message'], finding['message']
    assert result.peak_mib < 250, result.peak_mib
