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
Which links touch by construction: MoveIt Setup Assistant's connection graph.

A link is adjacent to its parent and its children. A link without collision geometry
(a frame such as ``tool0``, ``base``, ``panda_link8``, often welded by a fixed joint) passes
its neighbours on: all of them become adjacent to each other, repeatedly, so two links
joined through a chain of geometry-less frames are adjacent
(``computeConnectionGraph`` in moveit_setup_srdf_plugins' compute_default_collisions.cpp).
Only pairs of links that both have geometry are reported, as Setup Assistant writes them.
"""

from typing import Collection, Dict, Set, Tuple

from urdf_link_tools.model import Robot

Pair = Tuple[str, str]


def pair(first: str, second: str) -> Pair:
    """Return a pair of link names in the order the SRDF writes them (sorted)."""
    return (first, second) if first <= second else (second, first)


def adjacent_pairs(robot: Robot, with_geometry: Collection[str]) -> Set[Pair]:
    """
    Return the adjacent pairs of links that both have collision geometry.

    :param robot: the model
    :param with_geometry: the links that have collision geometry (a body)
    :return: sorted pairs
    """
    with_geometry = frozenset(with_geometry)
    graph: Dict[str, Set[str]] = {}
    for joint in robot.joints:
        if joint.parent == joint.child or robot.link(joint.parent) is None or \
                robot.link(joint.child) is None or robot.parent_joint(joint.child) is not joint:
            continue
        graph.setdefault(joint.parent, set()).add(joint.child)
        graph.setdefault(joint.child, set()).add(joint.parent)
    # Setup Assistant repeats until nothing changes: a shapeless link joins its neighbours,
    # which then pass it on if they are shapeless too. The fixed point: two links with
    # geometry are adjacent when joined directly or through shapeless links only. So each
    # connected group of shapeless links joins every link with geometry that touches it
    # (linear in the joints, where repeating the joining is cubic on a loop of frames).
    pairs: Set[Pair] = set()
    seen: Set[str] = set()
    for start in graph:
        if start in with_geometry or start in seen:
            continue
        touching: Set[str] = set()
        seen.add(start)
        stack = [start]
        while stack:
            for other in graph[stack.pop()]:
                if other in with_geometry:
                    touching.add(other)
                elif other not in seen:
                    seen.add(other)
                    stack.append(other)
        ordered = sorted(touching)
        pairs.update(pair(first, second) for i, first in enumerate(ordered)
                     for second in ordered[i + 1:])
    return pairs | {pair(link, other) for link, others in graph.items() for other in others
                    if link in with_geometry and other in with_geometry and link != other}
