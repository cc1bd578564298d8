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
trimesh and SciPy (about 51 MB of RSS) are imported only when a robot has meshes needing them.

Checked in a fresh interpreter: importing every core module and the CLI, then parsing and
checking a robot made of primitives (with meshes switched on), leaves both out of
``sys.modules``; STL, DAE and plain OBJ meshes are read without trimesh; an OBJ file the NumPy
reader leaves (relative indices) brings it in.
"""

import os
import subprocess
import sys

import mesh_attacks
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CODE = """
import sys
import pkgutil
import urdf_link_tools
for info in pkgutil.walk_packages(urdf_link_tools.__path__, 'urdf_link_tools.'):
    if not info.name.startswith('urdf_link_tools.ros'):
        __import__(info.name)
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.parser import parse_urdf_string
with open(sys.argv[1]) as stream:
    analysis = analyze(parse_urdf_string(stream.read(), source=sys.argv[1]), CheckConfig())
assert analysis.findings is not None
heavy = sorted({name.split('.')[0] for name in sys.modules
                if name.split('.')[0] in ('trimesh', 'scipy', 'collada')})
print(','.join(heavy))
"""

PRIMITIVES = """<robot name="boxes">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01"
    iyz="0" izz="0.01"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual>
    <collision><geometry><cylinder radius="0.1" length="0.2"/></geometry></collision></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="0.004" ixy="0" ixz="0"
    iyy="0.004" iyz="0" izz="0.004"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.25"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


def _heavy_modules(urdf: str) -> str:
    done = subprocess.run([sys.executable, '-c', CODE, urdf], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_primitive_robot_imports_neither_trimesh_nor_scipy(tmp_path):
    path = tmp_path / 'boxes.urdf'
    path.write_text(PRIMITIVES)
    assert _heavy_modules(str(path)) == ''


def test_an_stl_robot_is_read_without_trimesh(tmp_path):
    # STL, the most common robot mesh, is read and measured with NumPy alone.
    mesh = mesh_attacks.broken_meshes(tmp_path)['good']
    assert mesh.suffix == '.stl'
    path = tmp_path / 'mesh.urdf'
    path.write_text(mesh_attacks.robot('mesh', [(f'file://{mesh}', (1, 1, 1))]))
    heavy = _heavy_modules(str(path)).split(',')
    assert 'trimesh' not in heavy and 'collada' not in heavy


#: a tetrahedron as exporters write it (the NumPy reader's), and with relative (negative)
#: indices, which it leaves to trimesh
TETRA_OBJ = 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n'
RELATIVE_OBJ = ('v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\n'
                'f -4 -2 -3\nf -4 -3 -1\nf -4 -1 -2\nf -3 -2 -1\n')


@pytest.mark.parametrize('text, trimesh', [(TETRA_OBJ, False), (RELATIVE_OBJ, True)])
def test_an_obj_mesh_brings_trimesh_in_only_when_the_numpy_reader_leaves_it(
        tmp_path, text, trimesh):
    mesh = tmp_path / 'tetra.obj'
    mesh.write_text(text)
    path = tmp_path / 'mesh.urdf'
    path.write_text(mesh_attacks.robot('mesh', [(f'file://{mesh}', (1, 1, 1))]))
    assert ('trimesh' in _heavy_modules(str(path)).split(',')) == trimesh


def test_a_trimesh_that_fails_to_import_is_named_as_the_cause(tmp_path):
    # trimesh 5 fails inside its own import with Ubuntu 22.04's numpy 1.21; a stand-in that
    # fails the same way (first on the child's path) must be named, not blamed on the file.
    fake = tmp_path / 'fake' / 'trimesh'
    fake.mkdir(parents=True)
    (fake / '__init__.py').write_text(
        "raise TypeError(\"'numpy._DTypeMeta' object is not subscriptable\")\n")
    obj = tmp_path / 'part.obj'
    obj.write_text(RELATIVE_OBJ)  # left to trimesh by the NumPy reader
    code = ('import sys\n'
            'from urdf_link_tools.meshes import MeshLibrary\n'
            'library = MeshLibrary(use_ament_index=False)\n'
            'print(library.load(sys.argv[1], (1.0, 1.0, 1.0), None).message)\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path / 'fake'), ROOT, os.environ.get('PYTHONPATH', '')]))
    done = subprocess.run([sys.executable, '-c', code, str(obj)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert 'cannot be imported with numpy' in done.stdout
    assert "'numpy._DTypeMeta' object is not subscriptable" in done.stdout
    assert "pip install 'trimesh>=4,<5'" in done.stdout


CHECK = """
import sys
import lxml.etree, numpy, yaml  # what NumPy itself imports is not this package's doing
before = set(sys.modules)  # (NumPy 1.21 imports numpy.ma and hashlib)
from urdf_link_tools.cli import main
try:
    main(['check', sys.argv[1], '--fail-on', 'never'])
except SystemExit:
    pass
print('imported:' + ','.join(sorted(name for name in sys.argv[2:]
                                    if name in sys.modules and name not in before)),
      file=sys.stderr)
"""

#: what a plain check on one robot of primitives whose links are apart does not import:
#: the collision library (nothing is near), the process pool (one robot), the hash library
#: and package metadata (no --cache, no --shard), numpy.ma (np.unique brings it), json (no
#: glTF mesh, no --baseline, no JSON output) and shutil with bz2 and lzma (argparse's
#: formatter asks it the terminal's width)
NOT_NEEDED = ('coal', 'multiprocessing', 'concurrent.futures', 'hashlib', 'importlib.metadata',
              'numpy.ma', 'scipy', 'trimesh', 'json', 'shutil', 'bz2', 'lzma')

APART = PRIMITIVES.replace('<robot name="boxes">', '<robot name="apart">').replace(
    '</robot>', """  <link name="hand"><inertial><mass value="1"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="k" type="fixed"><parent link="arm"/><child link="hand"/>
    <origin xyz="0 0 HEIGHT"/></joint>
</robot>""")


def _imported_by_check(urdf: str) -> list:
    done = subprocess.run([sys.executable, '-c', CHECK, urdf, *NOT_NEEDED],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith('imported:'), done.stderr[-2000:]
    return [name for name in line[len('imported:'):].split(',') if name]


def test_a_check_imports_only_what_the_robot_needs(tmp_path):
    path = tmp_path / 'apart.urdf'
    path.write_text(APART.replace('HEIGHT', '1.0'))
    assert _imported_by_check(str(path)) == []


def test_links_near_each_other_bring_the_collision_library_in(tmp_path):
    # base and hand are not adjacent; 0.2 m below the arm (which sits on the base, clear of
    # it: MuJoCo would collide them, adjacent as they are) the hand's sphere is in the base:
    # coal decides. (The Python 3.10 stage has no coal: there the check goes without, as the
    # README says.)
    import importlib.util
    path = tmp_path / 'near.urdf'
    path.write_text(APART.replace('HEIGHT', '-0.2'))
    expected = ['coal'] if importlib.util.find_spec('coal') is not None else []
    assert _imported_by_check(str(path)) == expected


def test_an_open_mesh_of_separate_parts_is_measured_without_numpy_ma(tmp_path):
    # A too-light link whose open collision mesh has two separate parts: its lower bound
    # of volume sums the parts' hulls (checks.density), which must not reach np.unique
    # (NumPy 2.3 and later import numpy.ma on its first call: 8 to 25 ms of a check).
    from mesh_attacks import binary_stl
    import numpy as np
    import trimesh
    box = trimesh.creation.box(extents=(0.2, 0.1, 0.1))
    vertices, faces = np.asarray(box.vertices), np.asarray(box.faces)[:-2]  # open
    other = vertices + (0.5, 0.0, 0.0)
    mesh = binary_stl(tmp_path / 'two_open_boxes.stl', np.concatenate([vertices, other]),
                      np.concatenate([faces, faces + len(vertices)]))
    path = tmp_path / 'parts.urdf'
    path.write_text(mesh_attacks.robot('mesh', [(f'file://{mesh}', (1, 1, 1))]).replace(
        '<mass value="4"/>', '<mass value="0.001"/>'))
    assert 'numpy.ma' not in _imported_by_check(str(path))
