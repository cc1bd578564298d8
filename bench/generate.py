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

"""Generate synthetic robots of any size for benchmarks and load tests."""

import random


def chain_robot(links: int, seed: int = 0, name: str = 'generated') -> str:
    """
    Return URDF text for a serial chain of ``links`` links.

    Each link has an inertial, two visuals (box, cylinder) and two collisions (box, sphere),
    with plausible values, so every check has work to do.

    :param links: number of links
    :param seed: random seed for the dimensions
    :param name: the robot name
    :return: the URDF document
    """
    rng = random.Random(seed)
    parts = [f'<?xml version="1.0"?>\n<robot name="{name}">\n'
             '  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>\n']
    for i in range(links):
        x, y, z = (rng.uniform(0.05, 0.3) for _ in range(3))
        mass = 700.0 * x * y * z
        ixx = mass / 12.0 * (y * y + z * z)
        iyy = mass / 12.0 * (x * x + z * z)
        izz = mass / 12.0 * (x * x + y * y)
        parts.append(
            f'  <link name="link_{i}">\n'
            '    <inertial>\n'
            f'      <origin xyz="0 0 {z / 2:.6f}" rpy="0 0 0"/>\n'
            f'      <mass value="{mass:.6f}"/>\n'
            f'      <inertia ixx="{ixx:.8f}" ixy="0" ixz="0" iyy="{iyy:.8f}" iyz="0" '
            f'izz="{izz:.8f}"/>\n'
            '    </inertial>\n'
            f'    <visual name="body_{i}">\n'
            f'      <origin xyz="0 0 {z / 2:.6f}" rpy="0 0 0"/>\n'
            f'      <geometry><box size="{x:.6f} {y:.6f} {z:.6f}"/></geometry>\n'
            '      <material name="grey"/>\n'
            '    </visual>\n'
            f'    <visual name="joint_{i}">\n'
            '      <origin xyz="0 0 0" rpy="1.5708 0 0"/>\n'
            f'      <geometry><cylinder radius="{min(x, y) / 3:.6f}" length="{y:.6f}"/>'
            '</geometry>\n'
            '      <material name="red"><color rgba="0.8 0.1 0.1 1"/></material>\n'
            '    </visual>\n'
            f'    <collision name="body_{i}">\n'
            f'      <origin xyz="0 0 {z / 2:.6f}" rpy="0 0 0"/>\n'
            f'      <geometry><box size="{x:.6f} {y:.6f} {z:.6f}"/></geometry>\n'
            '    </collision>\n'
            f'    <collision name="joint_{i}">\n'
            '      <origin xyz="0 0 0" rpy="0 0 0"/>\n'
            f'      <geometry><sphere radius="{min(x, y) / 3:.6f}"/></geometry>\n'
            '    </collision>\n'
            '  </link>\n')
        if i:
            parts.append(
                f'  <joint name="joint_{i}" type="revolute">\n'
                f'    <parent link="link_{i - 1}"/>\n'
                f'    <child link="link_{i}"/>\n'
                f'    <origin xyz="0 0 {z:.6f}" rpy="0 0 0"/>\n'
                '    <axis xyz="0 1 0"/>\n'
                '    <limit lower="-1.5" upper="1.5" effort="10" velocity="1"/>\n'
                '  </joint>\n')
    parts.append('</robot>\n')
    return ''.join(parts)


def bare_chain(links: int, name: str = 'bare') -> str:
    """Return a chain of ``links`` links without any element: big, cheap to check."""
    parts = [f'<?xml version="1.0"?>\n<robot name="{name}">\n']
    parts.extend(f'  <link name="link_{i}"/>\n' for i in range(links))
    parts.extend(f'  <joint name="joint_{i}" type="fixed"><parent link="link_{i - 1}"/>'
                 f'<child link="link_{i}"/></joint>\n' for i in range(1, links))
    parts.append('</robot>\n')
    return ''.join(parts)


def missing_links_robot(joints: int, name: str = 'grind') -> str:
    """
    Return a robot whose every joint names a child link that does not exist.

    Each unknown name costs a near-miss search over all link names: quadratic in a checker
    that compares with every name (issue 11: 121 KB took 48 s).
    """
    parts = [f'<?xml version="1.0"?>\n<robot name="{name}">\n']
    parts.extend(f'  <link name="segment_{i}"/>\n' for i in range(joints))
    parts.extend(f'  <joint name="j{i}" type="fixed"><parent link="segment_{i}"/>'
                 f'<child link="missing_piece_{i}"/></joint>\n' for i in range(joints))
    parts.append('</robot>\n')
    return ''.join(parts)


def write_binary_stl(path: str, triangles: int) -> None:
    """Write a binary STL of ``triangles`` small triangles on a grid (not a closed body)."""
    import numpy as np

    index = np.arange(triangles, dtype=np.float32)
    x = (index % 1000) * 0.001
    y = (index // 1000) * 0.001
    records = np.zeros(triangles, dtype=[('normal', '<f4', 3), ('v', '<f4', (3, 3)),
                                         ('attr', '<u2')])
    records['normal'][:, 2] = 1.0
    records['v'][:, 0, 0], records['v'][:, 0, 1] = x, y
    records['v'][:, 1, 0], records['v'][:, 1, 1] = x + 0.001, y
    records['v'][:, 2, 0], records['v'][:, 2, 1] = x, y + 0.001
    with open(path, 'wb') as stream:
        stream.write(b'\0' * 80)
        stream.write(np.uint32(triangles).tobytes())
        stream.write(records.tobytes())


def mesh_robot(mesh_path: str, name: str = 'meshy') -> str:
    """Return a two-link robot whose second link's visual is the mesh at ``mesh_path``."""
    return (f'<?xml version="1.0"?>\n<robot name="{name}">\n  <link name="base"/>\n'
            '  <link name="shell">\n    <visual>\n'
            f'      <geometry><mesh filename="file://{mesh_path}"/></geometry>\n'
            '    </visual>\n  </link>\n'
            '  <joint name="j" type="fixed"><parent link="base"/><child link="shell"/></joint>\n'
            '</robot>\n')
