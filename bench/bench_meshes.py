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
Mesh analysis against trimesh loading the same meshes.

The first analysis of every corpus robot (cold mesh cache) and a re-analysis with unchanged
files (warm cache) are both compared with trimesh's load time.

Targets (issue 5): cold at most 1.1x trimesh's load time; warm at most 0.05x.
"""

import argparse
import functools
import os
import sys
from typing import Any, Callable, Dict, List, Set, Tuple

from bench.common import (corpus_urdfs, fmt, interleaved, ratio_stats, stats, verdict,
                          write_result)
import trimesh
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes import collada_fallbacks, MeshLibrary
from urdf_link_tools.model import Mesh, Robot
from urdf_link_tools.parser import parse_urdf_string


def mesh_paths(robots: List[Robot], library: MeshLibrary) -> List[str]:
    """Resolve the path of every distinct mesh the robots reference."""
    paths: Set[str] = set()
    for robot in robots:
        base = os.path.dirname(robot.source) if robot.source else None
        for link in robot.links:
            for element in link.visuals + link.collisions:
                if isinstance(element.geometry, Mesh):
                    resolution = library.resolve(element.geometry.filename, base)
                    if resolution.path:
                        paths.add(resolution.path)
    return sorted(paths)


def baseline_loaders(paths: List[str]) -> Tuple[List[Callable[[], Any]], List[str]]:
    """
    Return one zero-argument trimesh load per file, chosen before any timing.

    ``trimesh.load(path, force='mesh')`` concatenates a scene by copying each geometry with
    its visual, and copying a textured OBJ's material needs Pillow, which this project
    does not install (its loader skips materials): those files raise after being read.
    For them the baseline is ``trimesh.load(path)``, which reads the same file into one
    mesh without the copy. Probing here keeps failed attempts out of the timed loop.

    :return: (loaders, paths that needed the plain load)
    """
    loaders: List[Callable[[], Any]] = []
    plain = []
    for path in paths:
        try:
            trimesh.load(path, force='mesh')
            loaders.append(functools.partial(trimesh.load, path, force='mesh'))
        except Exception:  # any failure of the concatenating load: fall back to the plain one
            trimesh.load(path)
            loaders.append(functools.partial(trimesh.load, path))
            plain.append(path)
    return loaders, plain


def main() -> int:
    """Run the benchmark and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()
    robots = []
    for path in corpus_urdfs():
        with open(path, 'rb') as stream:
            robots.append(parse_urdf_string(stream.read(), path))
    config = CheckConfig()
    paths = mesh_paths(robots, MeshLibrary())
    # Re-analysis of unchanged files, all 69 robots in turn: a cache big enough for the
    # whole corpus (the default, 64 MB, holds one big robot's meshes, not every robot's).
    warm = MeshLibrary(cache_bytes=1 << 40)
    loaded = []
    for robot in robots:  # fills the warm cache, and the OS file cache for both sides
        loaded.extend(analyze(robot, config, warm).meshes.values())
    fallbacks = collada_fallbacks(loaded)
    dae_files = sum(1 for path in paths if path.lower().endswith('.dae'))

    loaders, plain = baseline_loaders(paths)

    def load_all():
        for load in loaders:
            load()

    def cold():
        library = MeshLibrary()
        for robot in robots:
            analyze(robot, config, library)

    def hot():
        for robot in robots:
            analyze(robot, config, warm)

    times = interleaved({'trimesh_load': load_all, 'cold': cold, 'warm': hot}, args.repeat)
    cold_ratio = ratio_stats(times['cold'], times['trimesh_load'])
    warm_ratio = ratio_stats(times['warm'], times['trimesh_load'])
    result: Dict[str, Any] = {
        'robots': len(robots), 'meshes': len(paths),
        'baseline_plain_load': [os.path.basename(path) for path in plain],
        'seconds': {k: stats(v) for k, v in times.items()},
        'cold_vs_trimesh': cold_ratio, 'warm_vs_trimesh': warm_ratio,
        'collada_fallbacks': fallbacks}
    print(f'meshes ({len(paths)} files, {len(robots)} robots): trimesh load '
          f"{fmt(result['seconds']['trimesh_load'], ' s')} ({len(plain)} files without "
          "force='mesh', which needs Pillow for them)")
    print(f'meshes, first analysis / trimesh load: {fmt(cold_ratio)} '
          f"(target <= 1.1: {verdict(cold_ratio['median'], 1.1)})")
    print(f'meshes, re-analysis (cache) / trimesh load: {fmt(warm_ratio)} '
          f"(target <= 0.05: {verdict(warm_ratio['median'], 0.05)})")
    print(f'meshes, COLLADA files read through trimesh (the NumPy reader leaves them): '
          f'{sum(fallbacks.values())} of {dae_files} DAE files'
          + ''.join(f'; {reason}: {count}' for reason, count in fallbacks.items()))
    print(f"wrote {write_result('meshes', result)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
