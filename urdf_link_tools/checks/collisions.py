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
elements, the depth and the place (``other_link``, ``depth_mm``, ``point_in_link`` values,
which the node's markers draw). A link that overlaps :data:`ENVELOPE_MIN` or more links (an
envelope: a safety box around a hand) gets one finding instead, listing them in ``links``,
with the deepest pair's values and the depth and place of each pair (``depths_mm``,
``points_in_link``, in the order of ``links``; the deepest :data:`ENVELOPE_DETAIL`).
Adjacent links touch by construction and are not reported. Without the coal library the
rule finds nothing (the CLI's ``collisions`` says why).
"""

import logging
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, TYPE_CHECKING

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_vector, Rule
from urdf_link_tools.checks.model_wide import listed
from urdf_link_tools.findings import Finding, Severity

if TYPE_CHECKING:  # coal and NumPy only when the rule runs
    from urdf_link_tools.collision.overlap import Overlap

LOG = logging.getLogger(__name__)

OVERLAP = 'collision-overlap-at-rest'
OVERLAP_LIMITED = 'collision-overlap-not-all-tested'

#: A link overlapping this many links at rest is one design choice (an envelope): one finding.
ENVELOPE_MIN = 3
#: The pairs of such a finding whose depth and place it carries (the deepest first): a
#: generated robot's envelope over 10,000 links stays one finding of bounded size.
ENVELOPE_DETAIL = 100

RULES = (
    Rule(OVERLAP, Severity.WARNING,
         'two links that are not adjacent have collision geometry that intersects at rest '
         '(every joint at 0, or in the middle of its limits where 0 is outside them, as '
         "MoveIt's default state)",
         'MoveIt refuses to plan from a start state in collision, and simulators push the '
         'links apart at start. Links welded together (fixed joints to the same link) never '
         'move apart and simulators fuse them: their overlap is an info, for the SRDF',
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
    # the SRDF disables a pair when the overlap is meant (MoveIt ignores it); both sorted
    kept = [overlap for overlap in report.overlaps
            if (overlap.link1, overlap.link2) not in disabled]

    # Links welded together (fixed joints up to the same link) never move apart: simulators
    # fuse them (MuJoCo skips contacts within a weld, Gazebo lumps them into one body), so
    # only a planner without the pair in its SRDF sees their overlap (an info).
    def welded(overlap: 'Overlap') -> bool:
        return ctx.weld_top(overlap.link1) == ctx.weld_top(overlap.link2)

    envelopes, single = envelope_groups(kept)
    for link_name, group in envelopes:
        yield _envelope_finding(ctx, link_name, group, [welded(item) for item in group])
    for overlap in single:
        yield _pair_finding(ctx, overlap, welded(overlap))
    if report.truncated:
        yield ctx.finding(
            OVERLAP_LIMITED, Severity.INFO,
            f'{report.tested} pairs of links close together at rest were tested for overlaps; '
            f'more were left out (the limit is {MAX_PAIRS} candidate pairs)',
            suggestion='check the robot with urdf-link-tools collisions')


def envelope_groups(overlaps: Sequence['Overlap']) \
        -> Tuple[List[Tuple[str, List['Overlap']]], List['Overlap']]:
    """
    Return the links whose collision geometry overlaps many others, and the other pairs.

    A link overlapping :data:`ENVELOPE_MIN` or more links at rest is one design choice (a
    safety box around a hand, a trunk box holding the hip motors), reported once; links
    with the most overlaps are taken first, and each pair is reported once.

    :param overlaps: the overlaps, deepest first
    :return: ([(envelope link, its overlaps, deepest first)], the pairs left, deepest first)
    """
    partners: Dict[str, int] = {}
    for overlap in overlaps:
        for name in (overlap.link1, overlap.link2):
            partners[name] = partners.get(name, 0) + 1
    left = list(overlaps)
    groups: List[Tuple[str, List['Overlap']]] = []
    for name in sorted(partners, key=lambda item: (-partners[item], item)):
        if partners[name] < ENVELOPE_MIN:
            break
        group = [overlap for overlap in left if name in (overlap.link1, overlap.link2)]
        if len(group) < ENVELOPE_MIN:
            continue  # most of its pairs went to a larger envelope
        groups.append((name, group))
        left = [overlap for overlap in left if name not in (overlap.link1, overlap.link2)]
    return groups, left


def _depth_text(depth_m: float) -> str:
    depth_mm = depth_m * 1000.0
    return f'about {fmt(depth_mm, 3)} mm deep' if depth_mm >= 0.1 else \
        'touching (less than 0.1 mm deep)'


def _micrometres(point: Sequence[float]) -> List[float]:
    # the contact point's last digits are the solver's, not the robot's
    return [round(value, 6) + 0.0 for value in point]


#: what an overlap between links welded together means, and what to do about it
_WELDED = ('; they are welded together (fixed joints), so they never move apart: simulators '
           'fuse them, and only a planner without the pair in its SRDF sees it (MoveIt Setup '
           'Assistant disables such pairs as "Always")')


def _pair_finding(ctx: CheckContext, overlap: 'Overlap', welded: bool = False) -> Finding:
    link = ctx.robot.link(overlap.link1)
    local = _micrometres(overlap.point_in_link1)
    root = _micrometres(overlap.point)
    entry = (f'<disable_collisions link1="{overlap.link1}" link2="{overlap.link2}" '
             f'reason="{"Always" if welded else "Default"}"/>')
    return ctx.finding(
        OVERLAP, Severity.INFO if welded else Severity.WARNING,
        f"'{overlap.link1}' and '{overlap.link2}' overlap at rest: their collision "
        f'geometry ({overlap.element1} and {overlap.element2}) intersects, '
        f'{_depth_text(overlap.depth)}, at ({fmt_vector(local)}) in '
        f"'{overlap.link1}''s frame" + (_WELDED if welded else ''),
        link=overlap.link1, element=overlap.element1,
        line=_element_line(link, overlap.element1),
        suggestion=(f'add {entry} to the SRDF and check with --srdf SRDF (or, if the overlap '
                    f"is not meant, shrink the collision geometry of '{overlap.link1}' or "
                    f"'{overlap.link2}')") if welded else
                   (f"move or shrink the collision geometry of '{overlap.link1}' or "
                    f"'{overlap.link2}'; if they are meant to overlap, add {entry} to the "
                    'SRDF and check with --srdf SRDF'),
        values=(('other_link', overlap.link2), ('other_element', overlap.element2),
                ('depth_mm', overlap.depth * 1000.0),
                ('point_in_link', fmt_vector(local, 6)),
                ('point_in_root', fmt_vector(root, 6))))


def _seen_from(name: str, overlap: 'Overlap') -> Tuple[str, str, str, Tuple[float, ...]]:
    """Return (own element, other link, other element, point in own frame) for one side."""
    if name == overlap.link1:
        return overlap.element1, overlap.link2, overlap.element2, overlap.point_in_link1
    return overlap.element2, overlap.link1, overlap.element1, overlap.point_in_link2


def _envelope_finding(ctx: CheckContext, name: str, group: List['Overlap'],
                      welded_pairs: Optional[Sequence[bool]] = None) -> Finding:
    """
    One finding for a link overlapping many: the deepest pair's place, every partner.

    :param welded_pairs: for each overlap, whether its links are welded together: all of
        them makes an info; some of them are named (their SRDF reason is "Always")
    """
    sides = [_seen_from(name, overlap) for overlap in group]
    element, other, other_element, point = sides[0]  # the deepest
    local = _micrometres(point)
    root = _micrometres(group[0].point)
    others = tuple(side[1] for side in sides)
    own = sorted({side[0] for side in sides})
    flags = list(welded_pairs) if welded_pairs is not None else [False] * len(group)
    welded = all(flags)
    fused = tuple(side[1] for side, flag in zip(sides, flags) if flag) if not welded else ()
    entries = (f'disable its {len(group)} pairs in the SRDF (<disable_collisions '
               f'link1="{name}" link2=... reason="{"Always" if welded else "Default"}"/>, one '
               'per link; urdf-link-tools collisions writes them) and check with --srdf SRDF')
    if fused:
        entries += f' (reason="Always" for {listed(fused)})'
    # A link welded to the envelope never moves apart from it: said, as for a pair.
    partly = (f'; {listed(fused)} {"is" if len(fused) == 1 else "are"} welded to it (fixed '
              'joints), so that overlap never changes: simulators fuse them') if fused else ''
    return ctx.finding(
        OVERLAP, Severity.INFO if welded else Severity.WARNING,
        f"the collision geometry of '{name}' ({', '.join(own)}) intersects that of "
        f"{len(group)} links at rest ({listed(others)}); the deepest is '{other}' "
        f'({other_element}), {_depth_text(group[0].depth)}, at ({fmt_vector(local)}) in '
        f"'{name}''s frame" + (_WELDED if welded else partly),
        link=name, element=element, line=_element_line(ctx.robot.link(name), element),
        suggestion=(entries[0].upper() + entries[1:] + ' (or, if the overlaps are not '
                    f"meant, shrink the collision geometry of '{name}')") if welded else
                   (f"move or shrink the collision geometry of '{name}' so that it clears "
                    'them; if it is meant to hold or touch them (a safety box, a housing, a '
                    f'closed hand), {entries}'),
        values=(('other_link', other), ('other_element', other_element),
                ('depth_mm', group[0].depth * 1000.0),
                ('point_in_link', fmt_vector(local, 6)),
                ('point_in_root', fmt_vector(root, 6)),
                ('links', listed(others)), ('count', len(group)),
                ('depths_mm', ' '.join(fmt(overlap.depth * 1000.0, 6)
                                       for overlap in group[:ENVELOPE_DETAIL])),
                ('points_in_link', '; '.join(fmt_vector(_micrometres(side[3]), 6)
                                             for side in sides[:ENVELOPE_DETAIL])))
        + ((('welded_links', ', '.join(fused)),) if fused else ()),
        links=(name,) + others)


def _element_line(link, label: str):
    if link is None:
        return None
    for element in link.collisions:
        if element.label == label:
            return element.line
    return link.line


CHECKS = (check_overlaps,)
