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
Hostile and broken mesh files, written at test time (shared by tests and bench).

Every writer takes a folder and returns the path it wrote. Meshes come from trimesh's
own creation functions and exporters, so they are real files of each format.
"""

import os
from pathlib import Path
import struct
from typing import Optional, Sequence, Tuple

import numpy as np

ROBOT_HEAD = '<?xml version="1.0"?>\n<robot name="{name}">\n  <link name="base"/>\n'


def binary_stl(path: Path, vertices: np.ndarray, faces: np.ndarray) -> Path:
    """Write triangles as binary STL (normals left zero, as many exporters do)."""
    triangles = np.asarray(vertices, dtype='<f4')[np.asarray(faces)]
    records = np.zeros(len(triangles), dtype=[('normal', '<f4', 3), ('points', '<f4', (3, 3)),
                                              ('attribute', '<u2')])
    records['points'] = triangles
    with open(path, 'wb') as stream:
        stream.write(b'\0' * 80 + struct.pack('<I', len(triangles)))
        stream.write(records.tobytes())
    return path


def boxes(boxes: Sequence[Tuple[Sequence[float], Sequence[float]]]
          ) -> Tuple[np.ndarray, np.ndarray]:
    """Return the vertices and outward triangles of axis-aligned boxes, each (low, high)."""
    vertices, faces = [], []
    for low, high in boxes:
        base = len(vertices)
        vertices += [(x, y, z) for x in (low[0], high[0]) for y in (low[1], high[1])
                     for z in (low[2], high[2])]
        faces += [(base + a, base + b, base + c) for a, b, c in (
            (0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
            (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3))]
    return np.array(vertices, dtype=float), np.array(faces)


def sphere(subdivisions: int = 3):
    """Return a closed, outward-wound icosphere of radius 0.1 m."""
    import trimesh
    return trimesh.creation.icosphere(subdivisions=subdivisions, radius=0.1)


def open_stl(folder: Path, megabytes: float = 16.0) -> Path:
    """Write a binary STL of about ``megabytes`` MB: an icosphere with a hole."""
    subdivisions = 1
    while 20 * 4 ** (subdivisions + 1) * 50 <= megabytes * 1.05e6:
        subdivisions += 1
    mesh = sphere(subdivisions)
    faces = np.asarray(mesh.faces)[10:]  # ten triangles missing: open
    return binary_stl(folder / f'open_{subdivisions}.stl', np.asarray(mesh.vertices), faces)


def broken_meshes(folder: Path) -> dict:
    """
    Write one collision mesh per defect (and a good one) as binary STL.

    :return: name -> path: 'good', 'open', 'inside_out', 'inconsistent', 'self_intersecting',
        'flat'
    """
    import trimesh
    box = trimesh.creation.box(extents=(0.2, 0.1, 0.1))
    vertices, faces = np.asarray(box.vertices), np.asarray(box.faces)
    flipped = faces.copy()
    flipped[0] = flipped[0][::-1]
    # Two boxes overlapping by half: each shell closed and outward, together they count
    # the shared half twice (volume above the hull's).
    other = vertices + (0.1, 0.0, 0.0)
    overlap_vertices = np.concatenate([vertices, other])
    overlap_faces = np.concatenate([faces, faces + len(vertices)])
    # A tetrahedron squashed into its base plane: closed and consistently wound, no volume.
    square = np.array([(0, 0, 0), (0.2, 0, 0), (0, 0.2, 0), (0.05, 0.05, 0)], dtype=float)
    flat_faces = np.array([(0, 2, 1), (0, 1, 3), (1, 2, 3), (2, 0, 3)])
    return {
        'good': binary_stl(folder / 'good.stl', vertices, faces),
        'open': binary_stl(folder / 'open.stl', vertices, faces[:-2]),
        'inside_out': binary_stl(folder / 'inside_out.stl', vertices, faces[:, ::-1]),
        'inconsistent': binary_stl(folder / 'inconsistent.stl', vertices, flipped),
        'self_intersecting': binary_stl(folder / 'self_intersecting.stl', overlap_vertices,
                                        overlap_faces),
        'flat': binary_stl(folder / 'flat.stl', square, flat_faces),
    }


def instancing_bomb(folder: Path, depth: int = 30, encoding: str = 'utf-8',
                    foreign: bool = False, triangles: int = 1,
                    declared: Optional[int] = None) -> Path:
    """
    Write a COLLADA file whose nodes instance each other twice: 2^depth times its geometry.

    ``foreign`` adds an element in another namespace, which the package's reader leaves to
    trimesh (the scene is then counted before trimesh reads it). The geometry holds
    ``triangles`` triangles (one triangle repeated); ``declared`` is the count written in
    its ``count`` attribute (default: the truth).
    """
    nodes = ['<node id="n0"><instance_geometry url="#g"/></node>']
    for level in range(1, depth + 1):
        nodes.append(f'<node id="n{level}"><instance_node url="#n{level - 1}"/>'
                     f'<instance_node url="#n{level - 1}"/></node>')
    indices = ' '.join(['0 1 2'] * triangles)
    count = triangles if declared is None else declared
    text = f"""<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common>
</source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="{count}"><input semantic="VERTEX" source="#v" offset="0"/>
<p>{indices}</p>
</triangles></mesh></geometry></library_geometries>
<library_nodes>{''.join(nodes[:-1])}</library_nodes>
<library_visual_scenes><visual_scene id="s">{nodes[-1]}</visual_scene>
</library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>
{'<extra><x:note xmlns:x="urn:x"/></extra>' if foreign else ''}</COLLADA>"""
    path = folder / 'bomb.dae'
    path.write_bytes(in_encoding(text, encoding))
    return path


def in_encoding(text: str, encoding: str) -> bytes:
    """Encode an XML text whose declaration says version 1.0, declaring ``encoding``."""
    text = text.replace('<?xml version="1.0"?>',
                        f'<?xml version="1.0" encoding="{encoding.upper()}"?>', 1)
    return text.encode(encoding)


#: a triangle's nine coordinates, where the DAE below writes them
TRIANGLE = '0 0 0 1 0 0 0 1 0'


def triangle_dae(path: Path, doctype: str = '', values: str = TRIANGLE,
                 encoding: str = 'utf-8', primitive: str = 'triangles') -> Path:
    """
    Write a one-triangle COLLADA file.

    ``doctype`` follows its XML declaration, ``values`` is its float_array's text (an entity
    reference, say), ``encoding`` is the one it is written and declared in (Python's UTF-16
    and UTF-32 write a BOM), and ``primitive='tristrips'`` makes the package's reader leave
    the file to pycollada.
    """
    text = f"""<?xml version="1.0"?>
{doctype}
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="9">{values}</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common>
</source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<{primitive} count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p>
</{primitive}></mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/>
</node></visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>
</COLLADA>"""
    path.write_bytes(in_encoding(text, encoding))
    return path


def unit_backtracking_dae(folder: Path) -> Path:
    """Write a DAE whose first 64 KB make a backtracking ``<unit ... meter=`` regex crawl."""
    path = folder / 'unit.dae'
    path.write_bytes(b'<?xml version="1.0"?><COLLADA>' + b'<unit meter' * 6000 + b'</COLLADA>')
    return path


def exported(folder: Path, name: str, mesh=None) -> Path:
    """Write a mesh with trimesh's exporter; the format follows the file name."""
    mesh = sphere(2) if mesh is None else mesh
    path = folder / name
    mesh.export(str(path))
    return path


def robot(name: str, meshes: Sequence[Tuple[str, Sequence[float]]],
          group: str = 'collision') -> str:
    """
    Return a URDF with one link per (filename, scale) under a fixed chain.

    Each link has a plausible inertial for a 0.1 m sphere of 4 kg at its scale.
    """
    parts = [ROBOT_HEAD.format(name=name)]
    for index, (filename, scale) in enumerate(meshes):
        parts.append(
            f'  <link name="l{index}"><inertial><mass value="4"/><inertia ixx="0.016" ixy="0" '
            'ixz="0" iyy="0.016" iyz="0" izz="0.016"/></inertial>'
            f'<{group}><geometry><mesh filename="{filename}" '
            f'scale="{" ".join(str(v) for v in scale)}"/></geometry></{group}></link>\n'
            f'  <joint name="j{index}" type="fixed"><parent link="base"/>'
            f'<child link="l{index}"/></joint>\n')
    parts.append('</robot>\n')
    return ''.join(parts)


def symlink(folder: Path, name: str, target: str) -> Path:
    """Create ``folder/name`` pointing at ``target``."""
    path = folder / name
    os.symlink(target, path)
    return path


def grouped_obj(folder: Path, groups: int, name: str = 'grouped.obj') -> Path:
    """
    Write an OBJ file of one tetrahedron whose faces come in ``groups`` material groups.

    A quad at the end makes the NumPy reader leave it to trimesh, which names each group in
    a loop quadratic in their count (the fifth red-team review: 20,000 groups, 61 s).
    """
    lines = ['v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'v 0 0 1', 'v 1 1 1']
    faces = ['f 1 3 2', 'f 1 2 4', 'f 2 3 4', 'f 1 4 3']
    for index in range(groups):
        lines += [f'usemtl m{index}', faces[index % len(faces)]]
    lines += ['o tail', 'f 2 3 5 4']
    path = folder / name
    path.write_text('\n'.join(lines) + '\n')
    return path
