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

"""Small robots built for the self-collision tests, as URDF text, and the matrix of one."""

from typing import Dict, Optional

from urdf_link_tools.analysis import load_meshes
from urdf_link_tools.collision.bodies import build_bodies
from urdf_link_tools.collision.matrix import compute_matrix
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.parser import parse_urdf_string


# base - arm (revolute about x, a 1 m cylinder standing on base) and a camera welded to base
# whose 10 cm box reaches 5 cm into the cylinder at rest; a tool on the arm's top touches the
# arm (adjacent: silent); a bracket far away overlaps nothing.
OVERLAPPING = """<robot name="overlapping">
  <link name="base"><collision><geometry><box size="0.4 0.4 0.1"/></geometry></collision></link>
  <link name="arm"><collision><origin xyz="0 0 0.5"/><geometry>
    <cylinder radius="0.05" length="1"/></geometry></collision></link>
  <link name="camera"><collision name="lens"><geometry><box size="0.1 0.1 0.1"/></geometry>
    </collision></link>
  <link name="tool"><collision><geometry><sphere radius="0.08"/></geometry></collision></link>
  <link name="bracket"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
    </link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="1 0 0"/>
    <limit lower="{lower}" upper="{upper}" effort="1" velocity="1"/></joint>
  <joint name="cam" type="fixed"><parent link="base"/><child link="camera"/>
    <origin xyz="0.05 0 0.3"/></joint>
  <joint name="j2" type="fixed"><parent link="arm"/><child link="tool"/>
    <origin xyz="0 0 1"/></joint>
  <joint name="b" type="fixed"><parent link="base"/><child link="bracket"/>
    <origin xyz="2 0 0"/></joint>
</robot>"""


def box_link(name: str, size: str = '0.1 0.1 0.1', xyz: str = '0 0 0',
             extra: str = '') -> str:
    """Return a link with one collision box (and ``extra`` collision elements)."""
    return (f'<link name="{name}"><collision><origin xyz="{xyz}"/><geometry>'
            f'<box size="{size}"/></geometry></collision>{extra}</link>')


def joint(name: str, kind: str, parent: str, child: str, xyz: str = '0 0 0',
          axis: str = '0 0 1', lower: float = -3.0, upper: float = 3.0,
          mimic: Optional[str] = None) -> str:
    """Return a joint; ``mimic`` is the inside of a <mimic> element, e.g. 'joint="a"'."""
    limit = f'<limit lower="{lower}" upper="{upper}" effort="1" velocity="1"/>' \
        if kind in ('revolute', 'prismatic') else ''
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}"/><axis xyz="{axis}"/>{limit}'
            + (f'<mimic {mimic}/>' if mimic else '') + '</joint>')


def robot(name: str, *parts: str) -> str:
    """Return a <robot> holding the parts."""
    return f'<robot name="{name}">' + ''.join(parts) + '</robot>'


def two_arms(mimic: Optional[str]) -> str:
    """
    Two bars turning about the same vertical axis on opposite sides of it.

    Alone, each turns freely and the two meet; with the second mimicking the first
    (multiplier 1) they turn together and never meet.
    """
    return robot(
        'two_arms', box_link('base', '0.05 0.05 0.05'),
        box_link('arm1', '0.8 0.1 0.1', '0.5 0 0'), box_link('arm2', '0.8 0.1 0.1', '-0.5 0 0'),
        joint('j1', 'revolute', 'base', 'arm1', '0 0 0.5'),
        joint('j2', 'revolute', 'base', 'arm2', '0 0 0.5', mimic=mimic))


def matrix_of(text: str, samples: int = 2000, seed: int = 0, meshes: Dict = None):
    """Parse a URDF text and compute its collision matrix."""
    model = parse_urdf_string(text)
    loaded = load_meshes(model, MeshLibrary()) if meshes is None else meshes
    bodies, skipped = build_bodies(model, loaded)
    return compute_matrix(model, bodies, samples, seed, tuple(skipped))


def envelope(fingers: int) -> str:
    """Return a robot whose box 'shell' holds small finger boxes hung from another link."""
    links = [box_link('base', '0.05 0.05 0.05', '0 0 -2'), box_link('shell', '0.4 0.4 0.4'),
             box_link('hub', '0.05 0.05 0.05', '0 0 -1.5'),
             joint('js', 'revolute', 'base', 'shell'), joint('jh', 'revolute', 'base', 'hub')]
    for index in range(fingers):  # a grid of up to 144, 1 cm apart
        x, y = -0.165 + 0.03 * (index % 12), -0.165 + 0.03 * (index // 12)
        links += [box_link(f'f{index + 1}', '0.02 0.02 0.02', f'{x} {y} 0.19'),
                  joint(f'j{index + 1}', 'revolute', 'hub', f'f{index + 1}')]
    return robot('envelope', *links)


def second_model(shadows: int = 2) -> str:
    """
    Return an arm whose links each carry a collision-only box on a fixed child link.

    Like Franka's ``*_sc`` links (franka_description's ``link_with_sc``): each box is longer
    than its link, so it reaches into the link below (and the box below); the links have a
    visual and a collision box of their own. ``shadows`` links get such a child (1 or 2).
    """
    def shown(name: str) -> str:
        return (f'<link name="{name}"><visual><origin xyz="0 0 0.15"/><geometry>'
                '<box size="0.1 0.1 0.3"/></geometry></visual><collision>'
                '<origin xyz="0 0 0.15"/><geometry><box size="0.1 0.1 0.3"/></geometry>'
                '</collision></link>')
    parts = [box_link('base', '0.2 0.2 0.2'), shown('link1'), shown('link2'),
             joint('j1', 'revolute', 'base', 'link1', '0 0 0.3'),
             joint('j2', 'revolute', 'link1', 'link2', '0 0 0.3')]
    for name in ('link1', 'link2')[2 - shadows:]:
        parts += [box_link(f'{name}_sc', '0.12 0.12 0.5'),
                  joint(f'{name}_sc_joint', 'fixed', name, f'{name}_sc')]
    return robot('second_model', *parts)
