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
The collision matrix against the SRDFs MoveIt Setup Assistant wrote for published robots.

Give it checkouts of robot repositories (e.g. ros-industrial/fanuc, ros-industrial/abb,
moveit/moveit_resources): every ``*_moveit_config/.setup_assistant`` found names the URDF
or xacro (package and path) and the SRDF Setup Assistant wrote; every folder with a
package.xml is a ``--package-dir``. For each robot it prints the pairs found against the
published ones: Adjacent identical or not, the Jaccard index of all disabled pairs, and the
time of 10,000 states. Nothing of those repositories is kept.

Usage: ``scripts/env.sh python -m bench.bench_collisions_published CHECKOUT [CHECKOUT ...]``
"""

import argparse
import os
import re
import sys
import time
from typing import Dict, List, Optional, Tuple

from bench.common import write_result
from urdf_link_tools.cli_collisions import compute_for_robot
from urdf_link_tools.collision.srdf import disabled_pairs, read_srdf
from urdf_link_tools.loading import load_input
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.xacro.sandbox import XacroOptions
import yaml

JACCARD_TARGET = 0.9


def packages(roots: List[str]) -> Dict[str, str]:
    """Return package name -> folder for every package.xml under the roots."""
    found: Dict[str, str] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith('.')]
            if 'package.xml' in files:
                with open(os.path.join(folder, 'package.xml'), encoding='utf-8') as stream:
                    match = re.search(r'<name>\s*([^<\s]+)\s*</name>', stream.read())
                if match:
                    found.setdefault(match.group(1), folder)
    return found


def configs(roots: List[str]) -> List[str]:
    """Return every Setup Assistant configuration folder under the roots."""
    found = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith('.')]
            if '.setup_assistant' in files:
                found.append(folder)
    return sorted(found)


def robot_of(config: str, known: Dict[str, str]) -> Optional[Tuple[str, str]]:
    """Return (URDF or xacro path, SRDF path) of a configuration, None if missing."""
    with open(os.path.join(config, '.setup_assistant'), encoding='utf-8') as stream:
        setup = yaml.safe_load(stream)['moveit_setup_assistant_config']
    package = known.get(setup['URDF']['package'])
    if package is None:
        return None
    urdf = os.path.join(package, setup['URDF']['relative_path'])
    srdf = os.path.join(config, setup['SRDF']['relative_path'])
    return (urdf, srdf) if os.path.exists(urdf) and os.path.exists(srdf) else None


def compare(urdf: str, srdf: str, known: Dict[str, str], samples: int) -> dict:
    """Compute one robot's matrix and compare it with its published SRDF."""
    options = XacroOptions(package_dirs=dict(known), allow_dirs=tuple(known.values()),
                           timeout=60.0)
    loaded = load_input(urdf, options=options)
    robot = parse_urdf_string(loaded.data, loaded.source)
    start = time.perf_counter()
    matrix = compute_for_robot(robot, known, samples, 0)
    seconds = time.perf_counter() - start
    # Setup Assistant 2 writes a .srdf.xacro for robots made of macros (moveit_resources' panda)
    published = disabled_pairs(read_srdf(load_input(srdf, options=options).data))
    ours = matrix.disabled
    adjacent = {key for key, reason in published.items() if reason == 'Adjacent'}
    union = set(ours) | set(published)
    return {
        'robot': robot.name, 'urdf': urdf, 'srdf': srdf, 'seconds': seconds,
        'axes': None, 'found': len(ours), 'published': len(published),
        'common': len(set(ours) & set(published)),
        'jaccard': len(set(ours) & set(published)) / len(union) if union else 1.0,
        'adjacent_identical': set(matrix.pairs('Adjacent')) == adjacent,
        'only_found': sorted(f'{a} {b} {ours[(a, b)]}' for a, b in set(ours) - set(published)),
        'only_published': sorted(f'{a} {b} {published[(a, b)]}'
                                 for a, b in set(published) - set(ours)),
        'left_out': [f'{item.link} {item.element}: {item.reason}' for item in matrix.skipped],
    }


def main() -> int:
    """Compare every configuration found and print one line per robot."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('roots', nargs='+')
    parser.add_argument('--samples', type=int, default=10_000)
    args = parser.parse_args()
    known = packages(args.roots)
    results = []
    for config in configs(args.roots):
        found = robot_of(config, known)
        if found is None:
            print(f'{os.path.basename(config)}: its URDF or SRDF is not in the checkouts')
            continue
        try:
            result = compare(*found, known, args.samples)
        except Exception as exc:  # one robot that cannot be read must not stop the others
            print(f'{os.path.basename(config)}: {type(exc).__name__}: {exc}')
            continue
        results.append(result)
        print(f"{os.path.basename(config)}: {result['robot']}: found {result['found']}, "
              f"published {result['published']}, common {result['common']}, Jaccard "
              f"{result['jaccard']:.3f}, Adjacent identical {result['adjacent_identical']}, "
              f"{result['seconds']:.2f} s", flush=True)
        for key in ('only_found', 'only_published', 'left_out'):
            if result[key]:
                print(f"    {key.replace('_', ' ')}: {'; '.join(result[key])}")
    print(f"wrote {write_result('bench_collisions_published', {'robots': results})}")
    good = [r for r in results if r['adjacent_identical'] and r['jaccard'] >= JACCARD_TARGET]
    print(f'{len(good)} of {len(results)} robots: Adjacent identical and Jaccard >= '
          f'{JACCARD_TARGET}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
