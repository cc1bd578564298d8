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
The bounds the services report and those the rules use are one computation, exact for rotation.

``get_link_geometry`` reports :meth:`Analysis.group_bounds`; the rules (the
``com-outside-geometry`` message, density, collision-missing) use
:meth:`CheckContext.element_bounds`. For a rotated mesh both must be the bounds of its
moved vertices, computed here from the mesh's vertices and URDF's rpy convention.
"""

import math

import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.checks.base import CheckContext, fmt_vector
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string


def _octahedron(path) -> str:
    # Its box's corners are far outside it once rotated: corner bounds would be too large.
    points = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    faces = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5),
             (0, 3, 5)]
    lines = ['solid octahedron']
    for face in faces:
        lines += ['facet normal 0 0 0', 'outer loop']
        lines += ['vertex %g %g %g' % points[index] for index in face]
        lines += ['endloop', 'endfacet']
    path.write_text('\n'.join(lines + ['endsolid octahedron', '']))
    return str(path)


ROBOT = """<robot name="r">
  <link name="base"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="part"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="part">
    <inertial><origin xyz="3 0 0"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="0.1 0.2 0.3" rpy="{rpy}"/>
      <geometry><mesh filename="file://{mesh}" scale="1 2 0.5"/></geometry></collision>
  </link>
</robot>"""


def _rotation(roll: float, pitch: float, yaw: float) -> np.ndarray:
    cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch),
                              math.sin(pitch), math.cos(yaw), math.sin(yaw))
    return (np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
            @ np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
            @ np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]]))


@pytest.mark.parametrize('rpy', ['0.3 0.5 0.7', '0 0 0.785398', '0 0 0', '0 0 1.5707963267948966'])
def test_service_and_rules_report_the_same_exact_bounds(rpy, tmp_path):
    mesh_file = _octahedron(tmp_path / 'octahedron.stl')
    analysis = analyze(parse_urdf_string(ROBOT.format(rpy=rpy, mesh=mesh_file)), CheckConfig())
    link = analysis.robot.link('part')
    (element,) = link.collisions
    mesh = analysis.mesh_for(element)
    moved = (np.asarray(mesh.vertices) @ _rotation(*map(float, rpy.split())).T
             + np.array([0.1, 0.2, 0.3]))
    exact = (moved.min(axis=0), moved.max(axis=0))
    service = analysis.group_bounds('part', 'collision')
    rules = CheckContext(analysis.robot, analysis.config, analysis.meshes).element_bounds(element)
    for lo_hi in (service, rules):
        np.testing.assert_allclose(lo_hi[0], exact[0], atol=1e-9)
        np.testing.assert_allclose(lo_hi[1], exact[1], atol=1e-9)
    # The rule's message quotes the same bounds the service reports.
    (finding,) = [f for f in analysis.findings if f.rule == 'com-outside-geometry']
    assert f'({fmt_vector(service[0], 3)} to {fmt_vector(service[1], 3)})' in finding.message
