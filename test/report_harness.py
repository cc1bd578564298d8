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

"""Robots shared by the report format tests: one whose names try to break out of each format."""

import pathlib

#: a link name that is Markdown table syntax, HTML, a script end tag and emphasis at once
HOSTILE_LINK = 'arm|</script><img src=x onerror=alert(1)>*_x_*`$y$`'
#: the root link's name; the root has an <inertial>, which is an info finding
HOSTILE_ROOT = 'base <b>&amp;</b>'

_ROBOT = """<?xml version="1.0"?>
<robot name="evil|bot">
  <link name="{root}">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
    <visual><geometry><box size="0.2 0.2 0.1"/></geometry></visual>
    <collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision>
  </link>
  <link name="{arm}">
    <inertial>
      <origin xyz="0 0 0.2"/>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05"/>
    </inertial>
    <visual>
      <origin xyz="0 0 0.2"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry>
    </visual>
    <collision>
      <origin xyz="0 0 0.2"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry>
    </collision>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="{root}"/>
    <child link="{arm}"/>
    <origin xyz="0 0 0.05"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
</robot>
"""


def _xml(text: str) -> str:
    return text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def write_hostile_robot(folder: pathlib.Path) -> pathlib.Path:
    """Write the hostile robot (an error on the arm, an info on the root) and return its path."""
    path = folder / 'hostile.urdf'
    path.write_text(_ROBOT.format(root=_xml(HOSTILE_ROOT), arm=_xml(HOSTILE_LINK)))
    return path


def robot_wide_listing() -> str:
    """
    Return a chain of 4 links: l0-l2 listed only by one robot-wide warning, l3 with its own.

    l0-l2 share one mass and one tensor, wrong for their different sizes (two findings on the
    robot: the density and the tensor, each listing them); l3's centre of mass lies outside
    its geometry. l0, the root, also has an info of its own (KDL ignores the root's inertia).
    """
    def part(mass, moment, size, xyz='0 0 0'):
        return (f'<inertial><origin xyz="{xyz}"/><mass value="{mass}"/><inertia '
                f'ixx="{moment}" ixy="0" ixz="0" iyy="{moment}" iyz="0" izz="{moment}"/>'
                f'</inertial><collision><geometry><box size="{size} {size} {size}"/>'
                '</geometry></collision>')
    bodies = [part(2.0, 0.01, size) for size in (0.6, 0.7, 0.8)]
    bodies.append(part(1.0, 0.0017, 0.1, xyz='0 0 0.3'))  # its own centre of mass outside
    names = [f'l{i}' for i in range(len(bodies))]
    return ('<robot name="r">' + ''.join(f'<link name="{n}">{b}</link>'
                                         for n, b in zip(names, bodies))
            + ''.join(f'<joint name="j{i}" type="revolute"><parent link="{names[i - 1]}"/>'
                      f'<child link="{names[i]}"/><origin xyz="0 0 0.8"/><axis xyz="0 0 1"/>'
                      '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                      for i in range(1, len(names))) + '</robot>')
