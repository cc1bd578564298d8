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
Self-collision at rest: non-adjacent links whose collision geometry intersects.

The work is :func:`urdf_link_tools.collision.overlap.overlaps_at_rest` (coal); this module
turns each overlap into a finding on the first link of the pair, naming the other, the
elements, the depth and the place (``other_link``, ``depth``, ``point_in_link`` values, which
the node's markers draw). Adjacent links touch by construction and are not reported. Without
the coal library the rule finds nothing (the CLI's ``collisions`` says why).
"""

import logging
from typing import Iterator

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_vector, Rule
from urdf_link_tools.findings import Finding, Severity

LOG = logging.getLogger(__name__)

OVERLAP = 'collision-overlap-at-rest'
OVERLAP_LIMITED = 'collision-overlap-not-all-tested'

RULES = (
    Rule(OVERLAP, Severity.WARNING,
         'two links that are not adjacent have collision geometry that intersects at rest '
         '(every joint at 0, or in the middle of its limits where 0 is outside them, as '
         "MoveIt's default state)",
         'MoveIt refuses to plan from a start state in collision, and simulators push the '
         'links apart at start',
         'move or shrink the collision geometry; if the overlap is intended, disable the pair '
         'in the SRDF (urdf-link-tools collisions writes it with reason="Default") and give '
         'the SRDF to the check (--srdf; node: disabled_collisions)',
         "MoveIt Setup Assistant (compute_default_collisions.cpp), MoveIt's "
         'RevoluteJointModel::getVariableDefaultPositions'),
    Rule(OVERLAP_LIMITED, Severity.INFO,
         'so many links lie close together at rest that only the first pairs were tested for '
         'overlaps', 'overlaps among the other pairs are not reported',
         'check the robot with urdf-link-tools collisions, or split it', 'this tool'),
)


def check_overlaps(ctx: CheckContext) -> Iterator[Finding]:
    """Report non-adjacent links in collision at MoveIt's default state."""
    if OVERLAP in ctx.config.ignore_rules:
        return  # nor import coal (about 30 MB of libraries) for findings that are dropped
    from urdf_link_tools.collision.bodies import build_bodies, CollisionLibraryMissing
    from urdf_link_tools.collision.overlap import MAX_PAIRS, overlaps_at_rest

    try:
        bodies, _ = build_bodies(ctx.robot, ctx.meshes)
        report = overlaps_at_rest(ctx.robot, bodies)
    except CollisionLibraryMissing as exc:
        LOG.info('%s: overlaps at rest are not checked', exc)
        return
    disabled = ctx.config.disabled_collisions
    for overlap in report.overlaps:
        if (overlap.link1, overlap.link2) in disabled:  # both sorted by name
            continue  # the SRDF disables the pair: the overlap is meant (MoveIt ignores it)
        link = ctx.robot.link(overlap.link1)
        # micrometres: the contact point's last digits are the solver's, not the robot's
        local = [round(value, 6) + 0.0 for value in overlap.point_in_link1]
        root = [round(value, 6) + 0.0 for value in overlap.point]
        depth_mm = overlap.depth * 1000.0
        depth = f'about {fmt(depth_mm, 3)} mm deep' if depth_mm >= 0.1 else \
            'touching (less than 0.1 mm deep)'
        yield ctx.finding(
            OVERLAP, Severity.WARNING,
            f"'{overlap.link1}' and '{overlap.link2}' overlap at rest: their collision "
            f'geometry ({overlap.element1} and {overlap.element2}) intersects, {depth}, at '
            f'({fmt_vector(local)}) in '
            f"'{overlap.link1}''s frame",
            link=overlap.link1, element=overlap.element1,
            line=_element_line(link, overlap.element1),
            suggestion=f"move or shrink the collision geometry of '{overlap.link1}' or "
                       f"'{overlap.link2}'; if they are meant to overlap, add "
                       f'<disable_collisions link1="{overlap.link1}" link2="{overlap.link2}" '
                       'reason="Default"/> to the SRDF and check with --srdf SRDF',
            values=(('other_link', overlap.link2), ('other_element', overlap.element2),
                    ('depth_mm', depth_mm),
                    ('point_in_link', fmt_vector(local, 6)),
                    ('point_in_root', fmt_vector(root, 6))))
    if report.truncated:
        yield ctx.finding(
            OVERLAP_LIMITED, Severity.INFO,
            f'{report.tested} pairs of links close together at rest were tested for overlaps; '
            f'more were left out (the limit is {MAX_PAIRS} candidate pairs)',
            suggestion='check the robot with urdf-link-tools collisions')


def _element_line(link, label: str):
    if link is None:
        return None
    for element in link.collisions:
        if element.label == label:
            return element.line
    return link.line


CHECKS = (check_overlaps,)
