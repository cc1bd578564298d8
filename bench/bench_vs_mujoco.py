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
Whole ``urdf-link-tools check`` process against MuJoCo compiling the same robot.

Both are whole processes started the same way (the venv's Python, first run, no result
cache), alternating robot by robot and repetition by repetition; the figure is the median of
the per-repetition ratios. MuJoCo compiles the URDF with visuals discarded and inertia from
geometry (``<compiler discardvisual="true" inertiafromgeom="true"/>``, the ``<inertial>``
elements removed, which MuJoCo would otherwise refuse on some robots before ignoring them,
and a bound on mass and inertia for links without a collision), ``package://`` paths
resolved to absolute ones, so both read every collision mesh. MuJoCo reads no COLLADA: the
DAE collision meshes are converted once, before timing, to binary STL with the same
triangles (by trimesh) and MuJoCo reads those; the checker reads the DAE files.

Set: a generated 2-link robot (no meshes), STL arms (ur5, panda, and the Fanuc M-10iA when
``--fanuc DIR`` names a checkout of ros-industrial/fanuc's ``fanuc_m10ia_support`` next to
``fanuc_resources``), DAE robots (tiago, icub, romeo), STL humanoids (talos) and an OBJ
quadruped (laikago, which MuJoCo reads as it is). Target (issue 19): at most 1.0x on every
robot.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Tuple

from bench.common import fmt, ratio_stats, stats, verdict, write_result
from bench.generate import chain_robot

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 1.0
CORPUS_ROBOTS = (
    ('ur5 (STL)', 'ur_description/urdf/ur5_robot.urdf'),
    ('panda (STL)', 'panda_description/urdf/panda.urdf'),
    ('tiago (STL+DAE)', 'tiago_description/robots/tiago.urdf'),
    ('icub (DAE humanoid)', 'icub_description/robots/icub.urdf'),
    ('romeo (DAE humanoid)', 'romeo_description/urdf/romeo.urdf'),
    ('talos (STL humanoid)', 'talos_data/robots/talos_reduced.urdf'),
    ('laikago (OBJ quadruped)', 'laikago_description/urdf/laikago.urdf'),
)
MUJOCO_SCRIPT = ('import sys, mujoco\n'
                 'mujoco.set_mju_user_warning(lambda message: None)\n'
                 'mujoco.MjModel.from_xml_path(sys.argv[1])\n')


class Robot:
    """One robot of the set: its URDF, its packages and the copy MuJoCo compiles."""

    def __init__(self, label: str, urdf: str, packages: Dict[str, str]) -> None:
        self.label = label
        self.urdf = urdf
        self.packages = packages
        self.mujoco_urdf = ''

    def ours(self) -> List[str]:
        """Return the command line of our check."""
        command = [shutil.which('urdf-link-tools') or 'urdf-link-tools', 'check', self.urdf,
                   '--fail-on', 'never']
        for name, path in self.packages.items():
            command += ['--package-dir', f'{name}={path}']
        return command

    def mujoco(self) -> List[str]:
        """Return the command line of MuJoCo's compile."""
        return [sys.executable, '-c', MUJOCO_SCRIPT, self.mujoco_urdf]


def resolve(filename: str, base: str, packages: Dict[str, str]) -> str:
    """Return the absolute path of a mesh filename of a URDF."""
    if filename.startswith('package://'):
        name, _, rest = filename[len('package://'):].partition('/')
        return os.path.join(packages[name], rest)
    if filename.startswith('file://'):
        return filename[len('file://'):]
    return os.path.join(base, filename)


def prepare_for_mujoco(robot: Robot, folder: str) -> None:
    """Write the URDF MuJoCo compiles: absolute mesh paths, DAE as STL, the compiler line."""
    from lxml import etree

    root = etree.parse(robot.urdf).getroot()
    base = os.path.dirname(robot.urdf)
    for element in root.iter('mesh'):
        path = resolve(element.get('filename'), base, robot.packages)
        if path.lower().endswith('.dae') and element.getparent().getparent().tag == 'collision':
            path = as_stl(path, folder)
        element.set('filename', path)
    # Inertia comes from the geometry; MuJoCo would still refuse a bad <inertial> (tiago's,
    # icub's, romeo's) before ignoring it.
    for element in root.findall('mujoco') + root.findall('link/inertial'):
        element.getparent().remove(element)
    extension = etree.SubElement(root, 'mujoco')
    etree.SubElement(extension, 'compiler', discardvisual='true', inertiafromgeom='true',
                     strippath='false', balanceinertia='true', boundmass='1e-6',
                     boundinertia='1e-9')
    robot.mujoco_urdf = os.path.join(folder, f'{len(os.listdir(folder))}_mujoco.urdf')
    with open(robot.mujoco_urdf, 'wb') as stream:
        stream.write(etree.tostring(root))


def as_stl(path: str, folder: str) -> str:
    """Convert a COLLADA file to a binary STL of the same triangles (once)."""
    target = os.path.join(folder, 'stl', path.strip('/').replace('/', '_') + '.stl')
    if not os.path.exists(target):
        import trimesh

        os.makedirs(os.path.dirname(target), exist_ok=True)
        mesh = trimesh.load(path, force='mesh')
        mesh.export(target)
    return target


def robot_set(fanuc: Optional[str], folder: str) -> List[Robot]:
    """Return the robots of the benchmark set, MuJoCo's copies written into ``folder``."""
    sys.path.insert(0, os.path.join(REPO, 'test'))
    try:
        import corpus
    finally:
        sys.path.pop(0)
    share = str(corpus.prefix() / 'share' / 'example-robot-data')
    two_link = os.path.join(folder, 'two_link.urdf')
    with open(two_link, 'w') as stream:
        stream.write(chain_robot(2))
    robots = [Robot('2-link, no meshes', two_link, {})]
    if fanuc:
        urdf = os.path.join(folder, 'fanuc_m10ia.urdf')
        packages = {'fanuc_m10ia_support': os.path.join(fanuc, 'fanuc_m10ia_support'),
                    'fanuc_resources': os.path.join(fanuc, 'fanuc_resources')}
        command = [shutil.which('urdf-link-tools') or 'urdf-link-tools', 'info',
                   os.path.join(packages['fanuc_m10ia_support'], 'urdf', 'm10ia.xacro'),
                   '--emit-urdf', urdf]
        for name, path in packages.items():
            command += ['--package-dir', f'{name}={path}']
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        robots.append(Robot('Fanuc M-10iA (STL)', urdf, packages))
    for label, relative in CORPUS_ROBOTS:
        robots.append(Robot(label, str(corpus.robots_dir() / relative),
                            {'example-robot-data': share}))
    for robot in robots:
        prepare_for_mujoco(robot, folder)
    return robots


#: both processes run as installed packages do, from byte-compiled modules (pip and colcon
#: compile them at install time; a shell with PYTHONDONTWRITEBYTECODE would have every run
#: compile our sources again, which MuJoCo's installed package never does)
ENVIRONMENT = {name: value for name, value in os.environ.items()
               if name != 'PYTHONDONTWRITEBYTECODE'}


def run(command: List[str]) -> float:
    """Run a whole process to its end; return its wall-clock seconds."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          cwd=REPO, env=ENVIRONMENT)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0,):
        raise RuntimeError(f'{" ".join(command)} exited {done.returncode}: '
                           f'{done.stderr.decode(errors="replace")[-2000:]}')
    return elapsed


def measure(robots: List[Robot], repeat: int) -> Dict[str, Dict[str, List[float]]]:
    """Time both processes on every robot, interleaved; return label -> name -> seconds."""
    times = {robot.label: {'ours': [], 'mujoco': []} for robot in robots}
    for robot in robots:  # warm the file cache and the byte-compiled modules, not timed
        run(robot.ours())
        run(robot.mujoco())
    for repetition in range(repeat):
        for robot in robots:
            order = ('ours', 'mujoco') if repetition % 2 == 0 else ('mujoco', 'ours')
            for name in order:
                times[robot.label][name].append(run(getattr(robot, name)()))
    return times


def main() -> int:
    """Run the benchmark and print the ratio per robot with its target."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--fanuc', metavar='DIR',
                        default=os.environ.get('URDF_LINK_TOOLS_BENCH_FANUC'),
                        help='a folder holding fanuc_m10ia_support and fanuc_resources '
                             '(github.com/ros-industrial/fanuc); default: '
                             '$URDF_LINK_TOOLS_BENCH_FANUC, else the Fanuc is left out')
    parser.add_argument('--robot', action='append', default=[], metavar='TEXT',
                        help='only the robots whose label holds TEXT (repeatable); the '
                             'result file is then not written')
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix='ult_bench_mujoco_') as folder:
        robots = [robot for robot in robot_set(args.fanuc, folder)
                  if not args.robot or any(text in robot.label for text in args.robot)]
        times = measure(robots, args.repeat)
    rows: Dict[str, Dict[str, object]] = {}
    met = True
    for label, pair in times.items():
        ratio = ratio_stats(pair['ours'], pair['mujoco'])
        rows[label] = {'seconds': {name: stats(values) for name, values in pair.items()},
                       'ratio': ratio}
        ours_s, theirs_s = (stats(pair[name])['median'] for name in ('ours', 'mujoco'))
        met = met and ratio['median'] <= TARGET
        print(f'check vs MuJoCo compile, {label}: {ours_s:.3f} s vs {theirs_s:.3f} s, ratio '
              f'{fmt(ratio)} (target <= {TARGET}: {verdict(ratio["median"], TARGET)})')
    worst: Tuple[str, float] = max(((label, row['ratio']['median'])
                                    for label, row in rows.items()), key=lambda item: item[1])
    print(f'check vs MuJoCo compile, worst robot: {worst[0]} {worst[1]:.2f}x (target <= '
          f'{TARGET} on every robot: {"MET" if met else "NOT MET"})')
    if not args.robot:
        print(f"wrote {write_result('vs_mujoco', {'robots': rows, 'repeat': args.repeat})}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
