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
``points_in_link``, in the order of ``links``; the deepest :data:`ENVELOPE_DETAIL`). The
overlaps of a second collision model (:func:`second_model_links`: Franka's ``*_sc`` capsules
on its meshes) are one finding too, listing each pair (``pairs``, ``depths_mm``,
``points_in_root``), and so are those of :data:`WELDED_MIN` or more pairs of links welded
together.
Adjacent links touch by construction and are not reported. Without the coal library the
rule finds nothing (the CLI's ``collisions`` says why).

Which engine sees an overlap (:func:`engines_seeing`): MoveIt and Pinocchio collide every
pair the SRDF does not disable (Pinocchio's ``addAllCollisionPairs`` then
``removeCollisionPairs``); MuJoCo fuses links welded together into one body and skips the
contacts of a body with its parent body, unless that parent is the world (a URDF's root and
what is welded to it: MuJoCo fixes them to the world); gz-sim lumps links welded together too
and collides the links of one model only when the robot's ``<gazebo>`` sets
``<self_collide>``, never those joined by a joint.
"""

from __future__ import annotations

from dataclasses import replace
import logging
import math
import os
import re
import shlex
import stat
from typing import (Dict, FrozenSet, Iterable, Iterator, List, Mapping, NamedTuple, Optional,
                    Sequence, Set, Tuple, TYPE_CHECKING)

from urdf_link_tools.checks.base import CheckContext, fmt, fmt_vector, Rule
from urdf_link_tools.checks.mirrors import (COPY_KEY, fore_aft_names, mirror_names,
                                            numbered_forms, REPEATED_KEY, TOLERANCE)

from urdf_link_tools.checks.model_wide import numberless
from urdf_link_tools.checks.names import NameSuggester
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.geometry import (geometry_values, origin_to_matrix, transform_bounds,
                                      union_bounds)
from urdf_link_tools.meshes import MeshInfo
from urdf_link_tools.model import Mesh
from urdf_link_tools.read_policy import checkout_root, read_refusal
from urdf_link_tools.targets import named, severity_for, TARGETS

if TYPE_CHECKING:  # coal and NumPy only when the rule runs
    from urdf_link_tools.collision.overlap import Overlap
    from urdf_link_tools.geometry import Bounds

LOG = logging.getLogger(__name__)

OVERLAP = 'collision-overlap-at-rest'
OVERLAP_LIMITED = 'collision-overlap-not-all-tested'
JOINED = 'mujoco-joined-links-collide'
UNKNOWN_PAIRS = 'srdf-unknown-links'
#: how many names missing from the robot are tried for the link meant
MEANT_TRIED = 20

#: A link overlapping this many links at rest is one design choice (an envelope): one finding.
ENVELOPE_MIN = 3
#: an overlap shallower than this (in metres) is parts touching: an info
TOUCHING = 0.001
#: The pairs of such a finding whose depth and place it carries (the deepest first): a
#: generated robot's envelope over 10,000 links stays one finding of bounded size.
ENVELOPE_DETAIL = 100

#: Collision-only links fixed to links with collision geometry of their own that overlap
#: others at rest: from this many, a second collision model of the same bodies, one finding.
SECOND_MODEL_MIN = 2
#: ... when its bounding box and its parent's share this much of the smaller one's volume.
SECOND_MODEL_SHARE = 0.5
#: Pairs of links welded together that overlap at rest: from this many, one finding.
WELDED_MIN = 3
#: Links alike but for their numbers that hang from one body (an omniwheel's rollers) and
#: overlap each other: from this many, in as many pairs, one repeated part, one finding.
REPEATED_MIN = 3
#: The pairs whose depth and place a finding merging numbered copies carries (theirs and its
#: own): every pair of three omniwheels of 45, and still bounded.
COPIES_DETAIL = 10 * ENVELOPE_DETAIL
_DIGITS = re.compile(r'\d+')
#: Pairs of links on two branches of the tree (two arms) that overlap at rest: from this
#: many between the same two branches, one finding (one pose puts them into each other).
BRANCHES_MIN = 3
#: Links carrying one collision primitive pasted on each (pasted_groups), and how deep (a
#: share of the primitive's smallest size) the overlaps through it must be.
PASTED_MIN = 3
PASTED_DEPTH = 0.25
#: Visuals under this share of the shape's size on PASTED_MIN of its links or more say the
#: shape is not the parts' own (ranger_mini's steering links: 1 mm cylinders in 1 m boxes).
PASTED_VISUAL = 0.25
#: Prismatic joints in series whose axes at rest are this close to parallel (the cosine of
#: the angle between them) slide the segments of one telescope.
TELESCOPE_PARALLEL = 0.999
#: Two revolute joints in series whose axes meet at one point (the second's origin this
#: close to the first's, in metres) are one multi-axis joint (a hip, a wrist, an ankle).
MULTI_AXIS_OFFSET = 1e-3
#: pairs of links on either side of multi-axis joints: from this many, one finding
MULTI_AXIS_MIN = 2

#: Targets that collide every pair of links the SRDF does not disable.
PLANNERS = ('moveit', 'pinocchio')
#: Targets that simulate contacts between the robot's own links.
SIMULATORS = ('mujoco', 'gazebo')

RULES = (
    Rule(OVERLAP, Severity.WARNING,
         'two links that are not adjacent have collision geometry that intersects at rest '
         '(every joint at 0, or in the middle of its limits where 0 is outside them, as '
         "MoveIt's default state)",
         'MoveIt refuses to plan from a start state in collision and Pinocchio reports the '
         'pair, unless the SRDF disables it; MuJoCo pushes the links apart from the first '
         'step, unless their bodies are fused or parent and child below the world (a base '
         'standing on legs or wheels (links reaching below it, a continuous wheel joint) '
         'is taken to float: not the '
         'world); Gazebo '
         "only when the robot's <gazebo> sets <self_collide>. Links welded together (fixed "
         'joints to the same link) never move apart and simulators fuse them: their overlap '
         'is an info, for the SRDF, and so is an overlap under 1 mm deep (parts touching, '
         "as a CAD assembly places them). The depth is between the parts' convex hulls, as "
         "MuJoCo collides them; without MuJoCo among the targets, a concave mesh's depth is "
         "the surfaces' (how far a part moves before they part), as the other engines "
         'collide them. With MuJoCo among the targets, two links whose surfaces do not meet '
         'but whose convex hulls do, 1 mm deep or more (a part in the hollow of a concave '
         "one), are in contact for MuJoCo only. MuJoCo's claims are infos while it refuses "
         "the robot's files (a COLLADA or flat collision mesh, a repeated element; not an "
         'inertial it refuses). A pair the SRDF disables is left out for '
         'every target. The severity follows the targets',
         'move or shrink the collision geometry (for MuJoCo, or split a concave mesh into '
         'convex parts); if the overlap is intended, disable the pair '
         'in the SRDF (urdf-link-tools collisions writes it with reason="Default") and give '
         'the SRDF to the check (--srdf; node: disabled_collisions); for MuJoCo, exclude the '
         "pair in the MJCF's <contact>; for Gazebo, drop <self_collide>",
         "MoveIt Setup Assistant (compute_default_collisions.cpp), MoveIt's "
         'RevoluteJointModel::getVariableDefaultPositions; Pinocchio, MuJoCo 4.0 '
         '(test_checks_collisions.py); sdformat parser_urdf.cc, model.sdf (self_collide), '
         'gz-physics (Model::SelfCollide)'),
    Rule(JOINED, Severity.WARNING,
         'two links joined by a joint (adjacent: MoveIt never checks them) have collision '
         'geometry that intersects at rest, and MuJoCo collides them: a link moving on a base '
         'that MuJoCo welds to its world body (a URDF loaded without a free joint; not '
         'claimed for a base standing on legs or wheels, which is given one), or '
         'two links joined through a link without collision geometry (two bodies apart). '
         'One finding for the robot; overlaps under 1 mm deep are left out; an info while '
         "MuJoCo refuses the robot's files (a COLLADA or flat collision mesh, a repeated "
         'element: what it will do once it loads them; an inertial MuJoCo refuses leaves the '
         'warning, the geometry it collides being as written)',
         "MuJoCo's contact filter spares only the geoms of one body and of a body and its "
         'parent, the world excepted: the pair is in contact from the first step, and the '
         "contact's friction holds the joint (a link 2 mm into its base does not turn under "
         '1 N m at all, and turns freely once the pair is excluded: test_checks_collision_'
         'targets.py)',
         "exclude each pair in the MJCF's <contact> (the finding writes the <exclude> "
         'elements), or shrink the collision geometry so the parts clear each other at rest',
         'MuJoCo engine_collision_driver.c (filterBodyPair), MuJoCo 3 URDF import; '
         'test_checks_collisions.py'),
    Rule(OVERLAP_LIMITED, Severity.INFO,
         'so many links lie close together at rest that only the first pairs were tested for '
         'overlaps, or pairs were left untested because a collision mesh has more than '
         '1,000,000 triangles where they meet (no BVH is built that big: about 500 bytes a '
         'triangle)', 'overlaps among the other pairs are not reported',
         'check the robot with urdf-link-tools collisions, or split it; simplify the meshes '
         'too big', 'this tool'),
    Rule(UNKNOWN_PAIRS, Severity.WARNING,
         'pairs of links the SRDF (--srdf; node: disabled_collisions) disables name links '
         'this robot does not have: a warning when most do (an SRDF expanded with another '
         "prefix than the URDF's, Kassow's), an info when a few do",
         'those pairs disable nothing: the overlaps they were written for are reported, and '
         'MoveIt, given the same SRDF, checks them', 'give the SRDF made for this robot (the '
         "same prefix and arguments as the URDF's); the finding names the link meant, or "
         'says the SRDF is for a variant when the names of one prefix have no link at all',
         'MoveIt SRDF (disable_collisions)'),
)


#: CheckContext.memo key of overlaps computed before the checks run (see overlaps_report),
#: or of the forked child computing them (elsewhere.Child)
OVERLAPS_MEMO = ('overlaps at rest', None)


def overlaps_wanted(config) -> bool:
    """Return False when the overlaps at rest are ignored (coal is then never imported)."""
    return OVERLAP not in config.ignore_rules or joined_wanted(config)


def joined_wanted(config) -> bool:
    """Return True when the adjacent pairs MuJoCo collides are to be tested too."""
    return 'mujoco' in config.targets and JOINED not in config.ignore_rules


def surfaces_wanted(config) -> bool:
    """
    Return True when the overlaps' depth is to be measured between surfaces too.

    MuJoCo collides the parts' convex hulls, the depth measured; every other target
    collides the surfaces (:func:`_as_seen`), whose depth costs a few ms a pair.
    """
    return 'mujoco' not in config.targets


def overlaps_report(robot, meshes: Mapping[int, object], surfaces: bool = False,
                    joined: bool = False):
    """
    Return the overlaps at rest of a robot, or the CollisionLibraryMissing saying why not.

    Only the collision elements' meshes are used: a one-robot check computes this as soon
    as those are read, while its reading child still reads the visual meshes
    (:meth:`.aside.Aside.claims`), and keeps it in ``CheckContext.memo``.
    """
    from urdf_link_tools.collision.adjacency import welded_base
    from urdf_link_tools.collision.bodies import build_bodies, CollisionLibraryMissing
    from urdf_link_tools.collision.overlap import overlaps_at_rest

    try:
        bodies, _ = build_bodies(robot, meshes)
        return overlaps_at_rest(robot, bodies, surfaces=surfaces, joined=joined,
                                hulls=not surfaces,
                                welded=welded_base(robot, meshes) if joined else None)
    except CollisionLibraryMissing as exc:
        return exc


def check_overlaps(ctx: CheckContext) -> Iterator[Finding]:
    """
    Report non-adjacent links in collision at MoveIt's default state.

    Overlaps all under 1 mm deep are parts touching as a CAD assembly places them
    (Barrett's palm on its wrist, 0.45 mm; Kassow's link 5 on link 6, 0.35 mm): still a
    collision for MoveIt and Pinocchio unless the SRDF disables the pair (the Setup
    Assistant does, as "Default"), and said so, but an info, not a fault to fix.
    """
    found = list(_overlaps(ctx))
    hint = _srdf_hint(ctx, ctx.memo.get(OVERLAP_PAIRS_MEMO, frozenset()))  # type: ignore[arg-type]
    for finding in found:
        if finding.rule == OVERLAP and finding.severity > Severity.INFO and \
                touching(_deepest_mm(finding) / 1000.0):
            finding = replace(finding, severity=Severity.INFO)
        if finding.rule == OVERLAP and hint:
            finding = replace(finding, suggestion=hint + finding.suggestion)
        yield finding


#: the reported pairs of links in collision at rest, sorted by name (set by _overlaps)
OVERLAP_PAIRS_MEMO = ('overlap pairs', None)
#: the most folders of a repository searched for its SRDFs, how deep, and the most SRDFs read,
#: each at most SRDF_HINT_BYTES and all together SRDF_HINT_TOTAL (a MoveIt config's SRDF is 5
#: to 200 KB; 30 of 8 MiB cost 9 s a robot, review 11)
SRDF_SEARCH_FOLDERS = 3000
SRDF_SEARCH_DEPTH = 6
SRDF_SEARCH_FILES = 10
SRDF_HINT_BYTES = 1 << 20
SRDF_HINT_TOTAL = 4 << 20
#: a run's SRDFs read for hints, by (real path, size, modification time): the pairs they disable
_SRDF_READ: Dict[Tuple[str, int, float], FrozenSet[Tuple[str, str]]] = {}


def _srdf_hint(ctx: CheckContext, pairs: FrozenSet[Tuple[str, str]]) -> str:
    """
    Name the SRDF of the description's repository that disables reported pairs, or ''.

    A CI job checking a robot without --srdf reports the overlaps its MoveIt config
    declares meant (Ewellix's lift, sweep S: the telescope's stages, disabled in
    ewellix_liftkit_moveit_config's SRDF). Only when no SRDF was given, for a description
    read from a file; only SRDFs inside the git work tree holding it (or its package),
    read as the robot's files are.
    """
    source = ctx.robot.source
    if not pairs or ctx.config.disabled_collisions or not source or \
            not os.path.isfile(source):
        return ''
    root = checkout_root(source)
    best: Tuple[int, str] = (0, '')
    budget = [SRDF_HINT_TOTAL]
    for path in _srdf_files(root):
        covered = len(pairs & _srdf_pairs(path, root, budget))
        if covered > best[0]:
            best = (covered, path)
    if not best[0]:
        return ''
    shown = os.path.relpath(best[1])
    shown = best[1] if shown.startswith('..') else shown
    return (f'{shown}, in this repository, disables {best[0]} of the {len(pairs)} pairs '
            f'reported here: give it with --srdf {shlex.quote(shown)} (node: the '
            'robot_description_semantic topic), and the pairs it declares meant are left out; '
            'otherwise, ')


def _srdf_files(root: str) -> List[str]:
    """Return the .srdf files under a folder, hidden folders left out, within the bounds."""
    found: List[str] = []
    visited = 0
    base = root.rstrip(os.sep).count(os.sep)
    for folder, folders, files in os.walk(root):
        visited += 1
        if visited > SRDF_SEARCH_FOLDERS:
            break
        folders[:] = sorted(name for name in folders if not name.startswith('.')
                            and name not in ('build', 'install', 'log', 'node_modules'))
        if folder.count(os.sep) - base >= SRDF_SEARCH_DEPTH:
            folders[:] = []
        found.extend(os.path.join(folder, name) for name in sorted(files)
                     if name.endswith('.srdf'))
        if len(found) >= SRDF_SEARCH_FILES:
            break
    return found[:SRDF_SEARCH_FILES]


def _srdf_pairs(path: str, root: str, budget: List[int]) -> FrozenSet[Tuple[str, str]]:
    """
    Return the pairs an SRDF disables (none when it cannot be read, or is over the budget).

    :param budget: the bytes left to read for this hint (decreased here)
    """
    from urdf_link_tools.collision.srdf import disabled_pairs, read_srdf
    if read_refusal(path, [os.path.realpath(root)]) is not None:
        return frozenset()
    from urdf_link_tools.meshes.reading import read_bounded
    try:
        status = os.stat(path)
    except OSError:
        return frozenset()
    if not stat.S_ISREG(status.st_mode):
        return frozenset()  # a FIFO named *.srdf would block the open for good (review 12)
    key = (os.path.realpath(path), status.st_size, status.st_mtime)
    if key in _SRDF_READ:
        return _SRDF_READ[key]
    if status.st_size > min(SRDF_HINT_BYTES, budget[0]):
        return frozenset()
    budget[0] -= status.st_size
    data = read_bounded(path, SRDF_HINT_BYTES)  # non-blocking, a regular file on the descriptor
    try:
        found = frozenset() if isinstance(data, str) else frozenset(
            disabled_pairs(read_srdf(data)))
    except UrdfInputError:
        found = frozenset()
    if len(_SRDF_READ) < 256:
        _SRDF_READ[key] = found
    return found


def touching(depth: float) -> bool:
    """
    Return True for a depth (m) of parts touching: under 1 mm as the finding says it.

    To the 4 digits of its millimetres (its values): spot_mini_mini's chassis, 0.99998 mm
    deep, read "touching (about 1 mm deep, as the parts of a CAD assembly touch)" and stayed
    a warning by its value '1'.
    """
    return float(fmt(depth * 1000.0)) < TOUCHING * 1000.0


def _deepest_mm(finding: Finding) -> float:
    """Return the depth of the deepest pair an overlap finding carries, in millimetres."""
    values = dict(finding.values)
    depths = [float(value) for value in str(values.get('depths_mm', '')).split()]
    return max(depths + [float(values.get('depth_mm', 'inf'))])


def _overlaps(ctx: CheckContext) -> Iterator[Finding]:
    if not overlaps_wanted(ctx.config):
        return  # nor import coal (about 30 MB of libraries) for findings that are dropped
    from urdf_link_tools.collision.overlap import MAX_BVH_TRIANGLES, MAX_PAIRS

    report = ctx.memo.get(OVERLAPS_MEMO)
    if hasattr(report, 'collect'):  # computed by a forked child meanwhile (analysis.analyze)
        answers = report.collect()  # type: ignore[union-attr]
        report = answers[0] if answers else None
    if report is None:
        report = overlaps_report(ctx.robot, ctx.meshes, surfaces_wanted(ctx.config),
                                 joined_wanted(ctx.config))
    if isinstance(report, Exception):  # CollisionLibraryMissing
        if sum(1 for link in ctx.robot.links if link.collisions) >= 2:
            # Said, not silent: a pip-installed checker (the GitHub Action, the pre-commit
            # hook before they asked for coal) reported one warning fewer than the README's
            # set-up on the same robot, a 90 mm overlap, and nothing said why (a new user's
            # trial, round 39). On standard error (the node's log), not among the findings:
            # the same robot's report is the same wherever it is made.
            LOG.warning('%s: the overlaps at rest (collision-overlap-at-rest) were not '
                        'tested', report)
        return
    seen: Dict[Tuple[str, str], Dict[str, Severity]] = {}
    kept = []
    for overlap in report.overlaps:
        if overlap.joined:
            continue  # (said by _joined_finding)
        by_target = engines_seeing(ctx, overlap.link1, overlap.link2)
        if overlap.hull_only:  # only MuJoCo collides hulls whose surfaces do not meet
            by_target = {target: severity for target, severity in by_target.items()
                         if target == 'mujoco'}
        if 'mujoco' in by_target and _mujoco_refusal(ctx):
            by_target['mujoco'] = Severity.INFO  # once MuJoCo loads it (it refuses it now)
        if severity_for(ctx.config.targets, by_target) is not None:
            seen[(overlap.link1, overlap.link2)] = by_target
            kept.append(_as_seen(overlap))
    kept.sort(key=lambda item: (-item.depth, item.link1, item.link2))  # (deepest first)
    ctx.memo[OVERLAP_PAIRS_MEMO] = frozenset(seen)

    models, second, kept = second_model_group(ctx, kept)
    if second:
        yield _second_model_finding(ctx, models, second,
                                    [seen[(item.link1, item.link2)] for item in second])
    welded = [item for item in kept if ctx.weld_top(item.link1) == ctx.weld_top(item.link2)]
    if len(welded) >= WELDED_MIN:
        # Parts welded together whose shapes overlap (a kitchen's drawer panels, a torso's
        # covers): one choice, never moving apart, one info for the SRDF.
        kept = _untaken(kept, welded)
        yield _welded_finding(ctx, welded, [seen[(item.link1, item.link2)] for item in welded])
    for shape, carriers, group in pasted_groups(ctx, kept):
        kept = _untaken(kept, group)
        yield _pasted_finding(ctx, shape, carriers, group,
                              [seen[(item.link1, item.link2)] for item in group])
    mechanisms, kept = mechanism_groups(ctx, kept, seen)
    for tops, group in mechanisms:
        yield _mechanism_finding(ctx, tops, group,
                                 [seen[(item.link1, item.link2)] for item in group])
    scopes = telescopes(ctx)
    for joints, group in telescope_groups(ctx, scopes, kept):
        kept = _untaken(kept, group)
        yield _telescope_finding(ctx, joints, group,
                                 [seen[(item.link1, item.link2)] for item in group])
    joint_parts, middles, kept = multi_axis_groups(ctx, kept)
    if joint_parts:
        yield _multi_axis_finding(ctx, joint_parts, middles,
                                  [seen[(item.link1, item.link2)] for item in joint_parts])
    cliques, kept = clique_groups(
        kept, [ctx.weld_top(item.link1) == ctx.weld_top(item.link2) for item in kept])
    for group in cliques:
        yield _clique_finding(ctx, group, [seen[(item.link1, item.link2)] for item in group])
    branches, kept = branch_groups(ctx, kept)
    for sides, group, under_first in branches:
        yield _branches_finding(ctx, sides, group, under_first,
                                [seen[(item.link1, item.link2)] for item in group])
    repeated, kept = repeated_groups(ctx, kept)
    for first, copies in copy_groups([group for _, _, group in repeated], seen):
        yield _repeated_finding(ctx, repeated[first], [
            (repeated[copy.index][0], copy) for copy in copies], seen)
    envelopes, _ = envelope_groups(kept)
    # An envelope that is itself a part of a one-joint linkage goes to the linkage's group
    # (TALOS's gripper motor link); after the envelopes otherwise: a wrist box over a whole
    # gripper (one joint between it and each finger) stays one envelope.
    envelopes = [(name, group) for name, group in envelopes if _driven_together(ctx, group)
                 is None]
    single = _untaken(kept, (item for _, group in envelopes for item in group))
    for first, copies in copy_groups([group for _, group in envelopes], seen):
        link_name, group = envelopes[first]
        if copies:
            yield _envelope_copies_finding(ctx, link_name, group, copies, seen)
        else:
            yield _envelope_finding(ctx, link_name, group,
                                    [seen[(item.link1, item.link2)] for item in group])
    linkages, single = linkage_groups(ctx, single)
    for driver, group in linkages:
        yield _linkage_finding(ctx, driver, group,
                               [seen[(item.link1, item.link2)] for item in group])
    against, single = against_telescopes(ctx, scopes, single)
    for link_name, joints, group in against:
        yield _against_telescope_finding(ctx, link_name, joints, group,
                                         [seen[(item.link1, item.link2)] for item in group])
    alike, single = alike_groups(ctx, single)
    for parts, group in alike:
        yield _alike_finding(ctx, parts, group,
                             [seen[(item.link1, item.link2)] for item in group])
    for overlap in single:
        yield _pair_finding(ctx, overlap, seen[(overlap.link1, overlap.link2)])
    if report.untested:
        links = tuple(dict.fromkeys(name for pair in report.untested for name in pair))
        count = len(report.untested)
        yield ctx.finding(
            OVERLAP_LIMITED, Severity.INFO,
            f'{count} pair{"s" if count != 1 else ""} of links close together at rest '
            f'{"were" if count != 1 else "was"} not tested for overlaps: their collision '
            f'meshes have more than {MAX_BVH_TRIANGLES:,} triangles where they meet '
            f'({listed(links)})',
            suggestion='simplify those collision meshes (collision-mesh-too-complex names '
                       'them), or approximate them with primitives', links=links)
    if report.truncated:
        yield ctx.finding(
            OVERLAP_LIMITED, Severity.INFO,
            f'{report.tested} pairs of links close together at rest were tested for overlaps; '
            f'more were left out (the limit is {MAX_PAIRS} candidate pairs)',
            suggestion='check the robot with urdf-link-tools collisions')
    joined = _joined_finding(ctx, [item for item in report.overlaps if item.joined])
    if joined is not None:
        yield joined


#: the pairs a mujoco-joined-links-collide finding names (the excludes name every one)
JOINED_NAMED = 6


def _joined_finding(ctx: CheckContext, overlaps: Sequence['Overlap']) -> Optional[Finding]:
    """
    Return the one finding on the adjacent pairs MuJoCo collides at rest, if any.

    A link moving on the base counts only where MuJoCo's welding the base to the world is
    meant (:func:`.adjacency.base_meant_fixed`): an arm's base (the SO-100's shoulder, 34 mm
    into its base's hull; Panda's link 1, 120 mm, in example-robot-data's collision URDF), a
    hand's palm, a root named world. A robot standing on legs or wheels (a quadruped's
    hips, a mobile base's wheels and lift) gets a free joint in MuJoCo, and then the filter
    spares them.
    """
    if not joined_wanted(ctx.config):
        return None
    kept = [item for item in overlaps if not touching(item.depth)]  # (the plan judged bases)
    if not kept:
        return None
    kept.sort(key=lambda item: (-item.depth, item.link1, item.link2))
    described = []
    ordered = [_moving_first(ctx, item.link1, item.link2) for item in kept[:JOINED_NAMED]]
    for item, (child, parent) in zip(kept, ordered):
        between = _links_between(ctx, child, parent)
        shapeless = all(not getattr(ctx.robot.link(name), 'collisions', ())
                        for name in between)  # (not so on a loop of joints)
        why = ('the base, which MuJoCo welds to its world body' if not between else
               'joined through ' + listed([f"'{name}'" for name in between])
               + (', without collision geometry' if shapeless else ''))
        described.append(f"'{child}' {fmt(item.depth * 1000.0, 3)} mm into '{parent}' ({why})")
    more = len(kept) - len(described)
    first = kept[0]
    child = ordered[0][0]
    element = first.element1 if child == first.link1 else first.element2
    pairs = [(item.link1, item.link2) for item in kept]
    # (a floating robot's base gets a free joint, and its body keeps the root's name: _fixes
    # names the bodies as base_welded judges the base)
    fix = _fixes(ctx, {'mujoco': Severity.WARNING}, '', pairs)[0]
    count = len(kept)
    refusal = _mujoco_refusal(ctx)
    return ctx.finding(
        JOINED, Severity.INFO if refusal else Severity.WARNING,
        (f'Once MuJoCo loads the robot (it refuses it as it is, see {refusal}), it will '
         'collide' if refusal else 'MuJoCo collides')
        + f' {count} pair{"s" if count != 1 else ""} of adjacent links at rest '
        '(joined by a joint, or through links without collision geometry: MoveIt and the '
        'other engines never check them): '
        + '; '.join(described) + (f'; and {more} more' if more else '')
        + ". MuJoCo's contact filter spares only a body and its parent, not the world: "
        "the parts are in contact from the first step, and the contact's friction holds the "
        'joint (a link 2 mm into its base does not turn under 1 N m at all)',
        link=child, element=element, line=_element_line(ctx.robot.link(child), element),
        suggestion=(f'{fix}; or shrink the collision geometry so the parts clear each other '
                    'at rest'),
        values=(('pairs', count), ('deepest_mm', first.depth * 1000.0),
                ('links', ', '.join(f'{a}/{b}' for a, b in pairs[:EXCLUDES_NAMED])
                 + (f' and {count - EXCLUDES_NAMED} more' if count > EXCLUDES_NAMED else ''))),
        links=tuple(dict.fromkeys(name for pair in pairs for name in pair))[:ENVELOPE_DETAIL])


def _moving_first(ctx: CheckContext, first: str, second: str) -> Tuple[str, str]:
    """Return the two links of a joined pair, the one further from the root first."""
    return (first, second) if _depth(ctx, first) >= _depth(ctx, second) else (second, first)


def _depth(ctx: CheckContext, name: str) -> int:
    count, seen = 0, set()
    joint = ctx.robot.parent_joint(name)
    while joint is not None and joint.parent not in seen:
        seen.add(joint.parent)
        count += 1
        joint = ctx.robot.parent_joint(joint.parent)
    return count


def _links_between(ctx: CheckContext, child: str, other: str) -> List[str]:
    """Return the links on the tree's path between two links, without them or welded ones."""
    up: List[str] = []
    seen = {child}
    joint = ctx.robot.parent_joint(child)
    while joint is not None and joint.parent not in seen:
        seen.add(joint.parent)
        up.append(joint.parent)
        joint = ctx.robot.parent_joint(joint.parent)
    other_up = [other]
    joint = ctx.robot.parent_joint(other)
    while other_up[-1] not in seen and joint is not None and len(other_up) <= len(seen):
        other_up.append(joint.parent)
        joint = ctx.robot.parent_joint(joint.parent)
    meet = other_up[-1]
    if meet not in up:
        return []  # (another tree: no path)
    path = up[:up.index(meet) + (meet != other)] + other_up[-2:0:-1]
    bodies = {ctx.weld_top(child), ctx.weld_top(other)}
    return [name for name in path if ctx.weld_top(name) not in bodies]


def engines_seeing(ctx: CheckContext, first: str, second: str) -> Dict[str, Severity]:
    """
    Return, for each engine that sees two links overlapping at rest, the claim's severity.

    Links welded together (fixed joints up to the same link) never move apart: simulators
    fuse them, so only MoveIt sees their overlap (an info: Setup Assistant disables such
    pairs as "Always"; Pinocchio's ``addAllCollisionPairs`` skips geometry on the same
    joint). A pair the SRDF disables is declared meant to touch: left out for every target
    (MuJoCo and Gazebo do not read the SRDF; their exclusions are written apart, and a
    MoveIt user checking with the default targets is not told about them again).

    :param first: a link
    :param second: the other
    :return: target -> severity (targets left out do not see it)
    """
    if pair_key(first, second) in ctx.config.disabled_collisions:
        return {}
    top1, top2 = ctx.weld_top(first), ctx.weld_top(second)
    if top1 == top2:
        return {'moveit': Severity.INFO}
    by_target = {'moveit': Severity.WARNING, 'pinocchio': Severity.WARNING}
    if not _parent_body(ctx, top1, top2, world_counts=False):
        by_target['mujoco'] = Severity.WARNING
    if ctx.robot.gazebo_self_collide and not _parent_body(ctx, top1, top2, world_counts=True):
        by_target['gazebo'] = Severity.WARNING
    return by_target


def pair_key(first: str, second: str) -> Tuple[str, str]:
    """Return two link names sorted, as ``disabled_collisions`` holds them."""
    return (first, second) if first <= second else (second, first)


def _root_body(ctx: CheckContext) -> Optional[str]:
    roots = ctx.root_names
    return ctx.weld_top(next(iter(roots))) if len(roots) == 1 else None


def _parent_body(ctx: CheckContext, top1: str, top2: str, world_counts: bool) -> bool:
    """
    Return True when one fused body is the parent of the other (no contacts between them).

    MuJoCo applies that filter except when the parent is the world body, which the URDF's
    root (and all welded to it) becomes where the base is meant fixed (:func:`base_welded`;
    a legged or wheeled robot's base is given a free joint, and keeps the filter: Mini
    Pupper's board, welded to its base, in its first leg link, sweep X); gz-sim's engines
    never collide links joined by a joint (``world_counts`` True).
    """
    for parent, child in ((top1, top2), (top2, top1)):
        joint = ctx.robot.parent_joint(child)
        if joint is not None and ctx.weld_top(joint.parent) == parent:
            return world_counts or parent != _root_body(ctx) or not base_welded(ctx)
    return False


def base_welded(ctx: CheckContext) -> bool:
    """Return True when MuJoCo is taken to weld the base to the world (see base_meant_fixed)."""
    key = ('base welded', None)
    found = ctx.memo.get(key)
    if found is None:
        from urdf_link_tools.collision.adjacency import welded_base
        found = ctx.memo[key] = welded_base(ctx.robot, ctx.meshes)
    return bool(found)


def mujoco_body(ctx: CheckContext, link: str, welded: Optional[bool] = None) -> str:
    """
    Return the name of the body MuJoCo makes a link part of ('world' for the root's).

    :param welded: the base is welded to the world, as MuJoCo loads a URDF (False: it is
        given a free joint, and its body keeps the root's name); by default as
        :func:`base_welded` judges it
    """
    top = ctx.weld_top(link)
    welded = base_welded(ctx) if welded is None else welded
    return 'world' if welded and top == _root_body(ctx) else top


def _effects(ctx: CheckContext, by_target: Dict[str, Severity], share: str = '') -> str:
    """
    Return what the selected engines that see an overlap do with it.

    :param share: said of the simulators' contacts when they see only some of the pairs
    """
    selected = ctx.config.targets
    parts = []
    planners = [t for t in PLANNERS if t in selected and by_target.get(t) == Severity.WARNING]
    if planners == ['pinocchio']:
        parts.append('Pinocchio reports the pair in collision unless the SRDF disables it')
    elif planners:
        parts.append(f'{named(selected, planners)} {"see" if len(planners) > 1 else "sees"} '
                     'a start state in collision (MoveIt refuses to plan from it) unless the '
                     'SRDF disables the pair')
    simulators = [t for t in SIMULATORS if t in selected and t in by_target]
    if simulators:
        parts.append(f'{named(selected, simulators)} '
                     f'{"push" if len(simulators) > 1 else "pushes"} them apart from the first '
                     f'step (contacts at start{share})' + _once_loaded(ctx, simulators))
    return '; '.join(parts)


def _mujoco_refusal(ctx: CheckContext) -> str:
    """Return the rule by which MuJoCo refuses the robot as it is, or ''."""
    from urdf_link_tools.checks.engines import mujoco_refusal
    return mujoco_refusal(ctx)


def _once_loaded(ctx: CheckContext, simulators: Sequence[str]) -> str:
    """Return what to add to a MuJoCo claim on a robot MuJoCo refuses as it is, or ''."""
    refusal = _mujoco_refusal(ctx) if 'mujoco' in simulators else ''
    return (f', once MuJoCo loads the robot: it refuses it as it is, see {refusal}'
            if refusal else '')


#: MuJoCo <exclude> elements written out in a fix; the pairs past them are named, up to
#: EXCLUDES_NAMED (a hub of 200 children: 20,000 pairs of 4,000-character names made a
#: 159 MB line, review 13)
EXCLUDES_WRITTEN = 8
EXCLUDES_NAMED = 100


def _fixes(ctx: CheckContext, by_target: Dict[str, Severity], entry: str,
           pairs: Sequence[Tuple[str, str]], welded: Optional[bool] = None) -> List[str]:
    """Return, for the selected engines that see the overlaps, how to declare them meant."""
    selected = ctx.config.targets
    welded = base_welded(ctx) if welded is None else welded
    fixes = []
    if any(t in selected and by_target.get(t) == Severity.WARNING for t in PLANNERS):
        fixes.append(entry)
    if 'mujoco' in selected and 'mujoco' in by_target:
        # One exclude per pair of MuJoCo bodies: links welded together are one body, so two
        # pairs of links can be one pair of bodies (in either order).
        bodies: Dict[FrozenSet[str], Tuple[str, str]] = {}  # (a set: review 13's 20,000 pairs)
        for a, b in pairs:
            body_a, body_b = mujoco_body(ctx, a, welded), mujoco_body(ctx, b, welded)
            bodies.setdefault(frozenset((body_a, body_b)), (body_a, body_b))
        ordered = list(bodies.values())
        # Every pair is named, up to EXCLUDES_NAMED: a snippet that looks whole but is not
        # leaves a pair colliding (Trossen's mobile base: the fourth caster was left out
        # after three excludes).
        excludes = ''.join(f'<exclude body1="{a}" body2="{b}"/>'
                           for a, b in ordered[:EXCLUDES_WRITTEN])
        rest = ordered[EXCLUDES_WRITTEN:]
        named = rest[:EXCLUDES_NAMED]
        more = (f' and one per pair for the other {len(rest)} (' + ', '.join(
            f'{a} and {b}' for a, b in named)
            + (f', and {len(rest) - len(named)} more pairs not named here' if
               len(rest) > len(named) else '') + ')' if rest else '')
        fixes.append(f'for MuJoCo add {excludes}{more}'
                     + " to the MJCF's <contact> (MuJoCo names the bodies after the link "
                     'each is welded to' + (', "world" for the base)' if welded else ')'))
    if 'gazebo' in selected and 'gazebo' in by_target:
        fixes.append("for Gazebo drop <self_collide> from the robot's <gazebo>")
    return fixes


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


def _untaken(overlaps: Iterable['Overlap'], taken: Iterable['Overlap']) -> List['Overlap']:
    """
    Return the overlaps a group did not take, in their order.

    By identity: a list's ``in`` compares every field of every pair, n x m times (a
    3,000-link prismatic chain spent minutes there).
    """
    gone = {id(item) for item in taken}
    return [item for item in overlaps if id(item) not in gone]


def _deep_between_bodies(ctx: CheckContext, item: 'Overlap') -> bool:
    """
    Return True for a pair the joint groups may take: 1 mm deep or more, between two bodies.

    Parts touching (under 1 mm) stay infos of their own; parts welded together never move
    apart (the welded group's).
    """
    return not touching(item.depth) and ctx.weld_top(item.link1) != ctx.weld_top(item.link2)


#: overlaps joined by shared links, this many pairs or more ...
MECHANISM_MIN_PAIRS = 8
#: ... all below one link that holds at most this share of the robot's links, are one
MECHANISM_MAX_SHARE = 0.4


def mechanism_groups(ctx: CheckContext, overlaps: Sequence['Overlap'],
                     seen: Mapping[Tuple[str, str], Dict[str, Severity]]) \
        -> Tuple[List[Tuple[Tuple[str, ...], List['Overlap']]], List['Overlap']]:
    """
    Return the overlaps of one mechanism at the end of a chain (a hand), and the pairs left.

    DRCSim's Atlas with Robotiq hands: each finger a linkage of bars and hinges (closed
    chains a URDF opens into a tree), overlapping each other, the palm and the forearm at
    rest, were 24 findings (stars, branches, parts alike) of one choice per hand. Overlaps
    that share a link are joined; :data:`MECHANISM_MIN_PAIRS` or more whose links all hang
    below one link holding at most :data:`MECHANISM_MAX_SHARE` of the robot's links are one
    mechanism, and a mechanism whose top link is the mirror of another's is said with it.
    Numbered copies of one (Kaya's three omniwheels, each motor over its rollers) are left
    to :func:`repeated_groups`, which says them as copies.

    :param seen: the engines that see each pair (:func:`engines_seeing`)
    :return: ([(the top link of each mechanism, their pairs)], the pairs left)
    """
    if len(overlaps) < MECHANISM_MIN_PAIRS:
        return [], list(overlaps)
    joined: Dict[str, str] = {}

    def top(name: str) -> str:
        root = joined.setdefault(name, name)
        while joined.setdefault(root, root) != root:
            root = joined[root]
        while joined[name] != root:  # (each name visited points at the root after)
            joined[name], name = root, joined[name]
        return root

    for item in overlaps:
        joined[top(item.link1)] = top(item.link2)
    parts: Dict[str, List['Overlap']] = {}
    for item in overlaps:
        parts.setdefault(top(item.link1), []).append(item)
    below = _subtree_sizes(ctx)
    found: List[Tuple[str, List['Overlap']]] = []
    for group in parts.values():
        if len(group) < MECHANISM_MIN_PAIRS:
            continue
        head = _common_ancestor(ctx, {n for item in group for n in (item.link1, item.link2)})
        if head is not None and below.get(head, 0) <= \
                MECHANISM_MAX_SHARE * len(ctx.robot.links):
            found.append((head, group))
    copied = {index for first, copies in copy_groups([group for _, group in found], seen)
              if copies for index in [first] + [copy.index for copy in copies]}
    found = [item for index, item in enumerate(found) if index not in copied]
    groups: List[Tuple[Tuple[str, ...], List['Overlap']]] = []
    taken: Set[int] = set()
    for index, (head, group) in enumerate(found):
        if index in taken:
            continue
        tops, members = [head], list(group)
        for other, (name, more) in enumerate(found):
            if other != index and other not in taken and name in (mirror_names(head) or ()):
                tops.append(name)
                members += more
                taken.add(other)
        taken.add(index)
        members.sort(key=lambda item: (-item.depth, item.link1, item.link2))
        groups.append((tuple(tops), members))
    return groups, _untaken(overlaps, (item for _, group in groups for item in group))


def _tree_spans(ctx: CheckContext) -> Dict[str, Tuple[int, int]]:
    """
    Return each link's span in a depth-first order of the tree: (its place, its last below).

    A link holds another when its span holds the other's; the links of a loop of joints (a
    broken tree), unreachable from a root, are left out. Once per analysis, linear.
    """
    key = ('tree spans', None)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    children: Dict[str, List[str]] = {}
    parent = {}
    for joint in ctx.robot.joints:
        parent[joint.child] = joint.parent
        children.setdefault(joint.parent, []).append(joint.child)
    names = [link.name for link in ctx.robot.links]
    roots = [name for name in names if name not in parent] + sorted(
        {above for above in parent.values() if above not in parent and above not in names})
    spans: Dict[str, Tuple[int, int]] = {}
    order = 0
    for root in roots:
        stack = [(root, False)]
        while stack:
            name, done = stack.pop()
            if done:
                spans[name] = (spans[name][0], order - 1)
                continue
            if name in spans:
                continue  # (a link reached twice: a joint graph that is no tree)
            spans[name] = (order, order)
            order += 1
            stack.append((name, True))
            stack.extend((child, False) for child in reversed(children.get(name, ())))
    ctx.memo[key] = spans
    return spans


def _subtree_sizes(ctx: CheckContext) -> Dict[str, int]:
    """Return how many links each link holds, itself and all below it."""
    return {name: last - first + 1 for name, (first, last) in _tree_spans(ctx).items()}


def _common_ancestor(ctx: CheckContext, names: Set[str]) -> Optional[str]:
    """Return the lowest link every one of names hangs below (or is), None if none."""
    spans = _tree_spans(ctx)
    if not names or any(name not in spans for name in names):
        return None
    first = min(spans[name][0] for name in names)
    last = max(spans[name][1] for name in names)
    name: Optional[str] = min(names, key=lambda each: spans[each][0])
    seen: Set[str] = set()
    while name is not None and name in spans and name not in seen:
        seen.add(name)
        if spans[name][0] <= first and spans[name][1] >= last:
            return name
        name = _tree(ctx).get(name, (None, 0))[0]
    return None


def _mechanism_finding(ctx: CheckContext, tops: Tuple[str, ...], group: List['Overlap'],
                       seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for a mechanism's overlaps (:func:`_pair_list_finding`)."""

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        where = (f"below '{tops[0]}'" if len(tops) == 1 else
                 f"below '{tops[0]}' and its mirror '{tops[1]}'")
        return (f'{len(links)} links {where} overlap each other at rest in {len(pairs)} pairs '
                f'({_named(pairs)}): one choice, a mechanism at the end of a chain (a '
                "hand's fingers, a gripper's linkage) whose parts' collision shapes meet "
                'where they join (closed chains a URDF opens into a tree overlap at their '
                'joints)')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(), describe,
        'if the parts are meant to meet so, ',
        '; otherwise shrink the collision shapes of the bars and hinges (small linkage '
        "parts need none: the fingers' links collide for them)",
        (('mechanism', ', '.join(tops)),))


def _named(pairs: List[Tuple[str, str]]) -> str:
    """Return a group's pairs as its message lists them: 'a and b, c and d'."""
    return listed(tuple(f'{a} and {b}' for a, b in pairs))


def telescopes(ctx: CheckContext) -> List[Tuple[List[str], Set[str]]]:
    """
    Return the robot's telescopes: their prismatic joints and the bodies they slide.

    A telescope is 2 or more prismatic joints in series, each moving the body the one
    before it moved (welded links one body), along one axis at rest: Stretch's arm, whose
    segments link_arm_l3 to link_arm_l0 slide out of link_arm_l4 (welded to the lift). Its
    segments nest inside each other by design. A gantry's axes (at right angles) and a
    gripper's fingers (side by side) are none.

    :return: [(the joints' names in the robot's order, the weld tops of their bodies)]
    """
    from urdf_link_tools.kinematics import forward_kinematics, unit_axis

    axes: Dict[str, Tuple[object, str, str]] = {}  # joint -> (axis at rest, bodies moved)
    poses = None
    for joint in ctx.robot.joints:
        if joint.type != 'prismatic':
            continue
        axis = unit_axis(joint)
        if axis is None:
            continue
        if poses is None:
            poses = forward_kinematics(ctx.robot, {})
        frame = poses.get(joint.parent)
        if frame is None:
            continue
        turned = frame[:3, :3] @ origin_to_matrix(joint.origin)[:3, :3] @ axis
        axes[joint.name] = (turned, ctx.weld_top(joint.parent), ctx.weld_top(joint.child))
    if len(axes) < 2:
        return []
    # Each joint joins the one whose body it moves along (a union of joints in series).
    group_of = {name: name for name in axes}

    def top(name: str) -> str:  # (each name visited points at its root after: a 10,000
        root = name                 # joint chain is linear, not quadratic)
        while group_of[root] != root:
            root = group_of[root]
        while group_of[name] != root:
            group_of[name], name = root, group_of[name]
        return root

    by_child = {}
    for name, (_, _, child) in axes.items():
        by_child.setdefault(child, []).append(name)
    for name, (axis, parent, _) in axes.items():
        for before in by_child.get(parent, ()):
            if abs(float(axes[before][0] @ axis)) >= TELESCOPE_PARALLEL:
                group_of[top(name)] = top(before)
    found: Dict[str, List[str]] = {}
    for name in axes:  # in the robot's order
        found.setdefault(top(name), []).append(name)
    return [(names, {body for name in names for body in axes[name][1:]})
            for names in found.values() if len(names) >= 2]


def telescope_groups(ctx: CheckContext, scopes: List[Tuple[List[str], Set[str]]],
                     overlaps: Sequence['Overlap']) -> List[Tuple[List[str], List['Overlap']]]:
    """
    Return the overlaps between the segments of each telescope (2 pairs or more).

    Stretch's arm at rest, its five segments retracted into each other and into the lift:
    9 pairs that were 6 findings are one design choice.

    :param scopes: the robot's :func:`telescopes`
    """
    inside = _telescopes_of(scopes)
    found: List[List['Overlap']] = [[] for _ in scopes]
    for item in overlaps:
        top1, top2 = ctx.weld_top(item.link1), ctx.weld_top(item.link2)
        if not touching(item.depth) and top1 != top2:  # (touching: an info of its own)
            for index in inside.get(top1, ()):
                if index in inside.get(top2, ()):
                    found[index].append(item)
    return [(scope[0], group) for scope, group in zip(scopes, found) if len(group) >= 2]


def _telescopes_of(scopes: List[Tuple[List[str], Set[str]]]) -> Dict[str, List[int]]:
    """Return, for each body of a telescope, the telescopes it is in (a base holds two)."""
    inside: Dict[str, List[int]] = {}
    for index, (_, bodies) in enumerate(scopes):
        for body in bodies:
            inside.setdefault(body, []).append(index)
    return inside


def against_telescopes(ctx: CheckContext, scopes: List[Tuple[List[str], Set[str]]],
                       overlaps: Sequence['Overlap']) \
        -> Tuple[List[Tuple[str, List[str], List['Overlap']]], List['Overlap']]:
    """
    Return the links overlapping 2 or more segments of one telescope, and the other pairs.

    Stretch SE3's wrist rests against the retracted arm's two outer segments: one pose, one
    finding. Only pairs no other group took (an envelope keeps its own).

    :return: ([(the link, the telescope's joints, its overlaps)], the pairs left)
    """
    inside = _telescopes_of(scopes)
    # per telescope, the pairs with one side in it, by the link outside
    outside: List[Dict[str, List['Overlap']]] = [{} for _ in scopes]
    for item in overlaps:
        if touching(item.depth):
            continue
        first = inside.get(ctx.weld_top(item.link1), [])
        second = inside.get(ctx.weld_top(item.link2), [])
        for index in set(first) ^ set(second):
            name = item.link2 if index in first else item.link1
            outside[index].setdefault(name, []).append(item)
    taken: Set[int] = set()
    found = []
    for (joints, _), by_link in zip(scopes, outside):
        for name, candidates in by_link.items():
            group = [item for item in candidates if id(item) not in taken]
            if len(group) >= 2:
                found.append((name, joints, group))
                taken.update(id(item) for item in group)
    return found, [item for item in overlaps if id(item) not in taken]


def _against_telescope_finding(ctx: CheckContext, name: str, joints: List[str],
                               group: List['Overlap'],
                               seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for a link overlapping segments of a telescope (:func:`_pair_list_finding`)."""
    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        segments = tuple(b for _, b in pairs)
        return (f"the collision geometry of '{name}' intersects {len(pairs)} segments of a "
                f'telescope (prismatic joints {listed(tuple(joints))}) at rest '
                f'({listed(segments)}): one choice, where it rests against the telescope')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset((name,)), describe,
        f"if '{name}' is not meant to touch the telescope at rest, move it or the zero of its "
        'joints; else ', '', (('telescope', ', '.join(joints)),))


def _telescope_finding(ctx: CheckContext, joints: List[str], group: List['Overlap'],
                       seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for the segments of a telescope (:func:`_pair_list_finding`)."""
    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        named = _named(pairs)
        return (f'the segments of a telescope (prismatic joints {listed(tuple(joints))} in '
                f'series, along one axis) overlap at rest in {len(pairs)} pairs of links '
                f'({named}): one choice, the segments nest inside each other')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(), describe,
        'if the segments are not meant to nest at rest, move the zero of their joints; else ',
        '', (('telescope', ', '.join(joints)),))


def multi_axis_joint(ctx: CheckContext, first: str, second: str) -> Optional[str]:
    """
    Return the middle link when two links are the two sides of a multi-axis joint, else None.

    One link hangs from the other through a small middle link, by two revolute joints whose
    axes cross at one point (the lower joint's origin at the middle link's origin): TALOS's
    hips (leg_left_1_link and leg_left_3_link), wrists and ankles. Their parts meet at the
    joint's centre by design.
    """
    from urdf_link_tools.kinematics import unit_axis

    for upper, lower in ((first, second), (second, first)):
        below = ctx.robot.parent_joint(lower)
        middle = below.parent if below is not None else None
        above = ctx.robot.parent_joint(middle) if middle is not None else None
        if above is None or above.parent != upper:
            continue
        if below.type not in ('revolute', 'continuous') or \
                above.type not in ('revolute', 'continuous'):
            return None
        offset = [float(value) for value in below.origin.xyz]
        if not all(math.isfinite(value) and abs(value) <= MULTI_AXIS_OFFSET
                   for value in offset):
            return None
        axis_above, axis_below = unit_axis(above), unit_axis(below)
        if axis_above is None or axis_below is None:
            return None
        # both in the middle link's frame: the lower axis turned by its joint's rpy
        turned = origin_to_matrix(below.origin)[:3, :3] @ axis_below
        if abs(float(axis_above @ turned)) >= TELESCOPE_PARALLEL:
            return None  # one axis twice: two hinges in series, not a multi-axis joint
        return middle
    return None


def multi_axis_groups(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> Tuple[List['Overlap'], Tuple[str, ...], List['Overlap']]:
    """
    Return the pairs across multi-axis joints (2 or more), their middle links, the others.

    TALOS: its hips, wrists and ankles (each two or three revolute joints at one point)
    overlap at rest across the joint, left and right, 6 pairs that were 3 findings: the
    parts of such joints meet at their centre by the model's design, one choice.
    """
    parts: List['Overlap'] = []
    middles: Dict[str, None] = {}  # in the pairs' order
    for item in overlaps:
        if _deep_between_bodies(ctx, item):
            middle = multi_axis_joint(ctx, item.link1, item.link2)
            if middle is not None:
                parts.append(item)
                middles[middle] = None
    if len(parts) < MULTI_AXIS_MIN:
        return [], (), list(overlaps)
    return parts, tuple(middles), _untaken(overlaps, parts)


def _multi_axis_finding(ctx: CheckContext, group: List['Overlap'], middles: Tuple[str, ...],
                        seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for the sides of multi-axis joints (:func:`_pair_list_finding`)."""
    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        named = _named(pairs)
        return (f'{len(pairs)} pairs of links on either side of a multi-axis joint (two '
                'revolute joints whose axes cross at one point, through a middle link: '
                f'{listed(middles)}) overlap at rest ({named}): one choice, the parts of '
                'such joints meet at their centre')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(), describe,
        'if the parts are not meant to meet, shrink their collision geometry near the joint; '
        'else ', '', (('middle_links', ', '.join(middles)),))


def linkage_groups(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> Tuple[List[Tuple[str, List['Overlap']]], List['Overlap']]:
    """
    Return the pairs of each one-joint linkage (2 or more), and the other pairs.

    Links that only one joint moves relative to each other, the joints between them
    following it through <mimic> (:func:`linkage_driver`), are the parts of one mechanism:
    TALOS's gripper, whose inner and fingertip links overlap its two motor links (one of
    them overlapping three: an envelope, but of the same mechanism); an ABB IRB 6640's
    balancer, its piston in its cylinder and in link_1. Only pairs no other group took;
    parts touching (under 1 mm) stay infos.
    """
    by_driver: Dict[str, List['Overlap']] = {}
    for item in overlaps:
        if _deep_between_bodies(ctx, item):
            driver = linkage_driver(ctx, item.link1, item.link2)
            if driver is not None:
                by_driver.setdefault(driver, []).append(item)
    groups = [(driver, group) for driver, group in by_driver.items() if len(group) >= 2]
    return groups, _untaken(overlaps, (item for _, group in groups for item in group))


def _driven_together(ctx: CheckContext, group: Sequence['Overlap']) -> Optional[str]:
    """
    Return the joint that alone moves every pair of a group (:func:`linkage_driver`), or None.

    None too when a pair touches (under 1 mm) or is welded: :func:`linkage_groups` leaves
    those, so an envelope holding one stays an envelope.
    """
    drivers = set()
    for item in group:
        if not _deep_between_bodies(ctx, item):
            return None
        drivers.add(linkage_driver(ctx, item.link1, item.link2))
        if None in drivers or len(drivers) > 1:
            return None
    return drivers.pop() if drivers else None


def _linkage_finding(ctx: CheckContext, driver: str, group: List['Overlap'],
                     seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for the parts of a one-joint linkage (:func:`_pair_list_finding`)."""
    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        named = _named(pairs)
        return (f"{len(pairs)} pairs of links that only joint '{driver}' moves (the joints "
                f'between them follow it through <mimic>) overlap at rest ({named}): one '
                'choice, the parts of one mechanism (closed gripper fingers, the pins of a '
                'closed linkage, which URDF cannot express)')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(), describe,
        'if they are coupled parts meant to touch, declare it: ', '; otherwise move or '
        'shrink their collision geometry', (('driver', driver),))


def clique_groups(overlaps: Sequence['Overlap'], welded: Sequence[bool]) \
        -> Tuple[List[List['Overlap']], List['Overlap']]:
    """
    Return the groups of 3 or more links that all overlap each other, and the other pairs.

    REEM-C's Hey5 hand: the thumb, index and little-finger actuators and the wrist's tool
    link each hold a placeholder sphere at one point, 6 pairs that were 4 findings. A set of
    links every two of which overlap, and none of them anything else, is one choice. Links
    welded together are left out (never moving apart, they are another choice, an info).

    :param welded: for each overlap, whether its links are welded together
    """
    movable = [item for item, fixed in zip(overlaps, welded) if not fixed]
    groups = [[item for item in movable if item.link1 in component]
              for component in _cliques((item.link1, item.link2) for item in movable)]
    return groups, _untaken(overlaps, (item for group in groups for item in group))


def pasted_groups(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> List[Tuple[Tuple[object, ...], Tuple[str, ...], List['Overlap']]]:
    """
    Return the overlaps of one collision primitive pasted on several links.

    AgileX ranger_mini carries one 1 m box on its base and on each of its four steering
    links (whose visuals are 1 mm cylinders): the boxes overlap each other and every wheel,
    22 pairs said as a branch group and an envelope, and the box itself was never named.
    A primitive of one kind and size (within :data:`.mirrors.TOLERANCE`) on
    :data:`PASTED_MIN` or more links, through which :data:`PASTED_MIN` or more of those links
    overlap each other, by :data:`PASTED_DEPTH` of its smallest size or more (not parts that
    touch), and that is much bigger than the visuals of :data:`PASTED_MIN` of them
    (:data:`PASTED_VISUAL`: not parts alike, an omniwheel's rollers), is one choice: every
    overlap with that shape on either side is in its group.

    :param overlaps: the overlaps, deepest first
    :return: [(the shape, the links whose copy of it overlaps, its pairs)]
    """
    shapes: List[Tuple[object, ...]] = []

    def shape_of(link_name: str, label: str) -> Optional[int]:
        element = _collision_element(ctx.robot.link(link_name), label)
        if element is None or element.geometry is None or isinstance(element.geometry, Mesh):
            return None
        part = (type(element.geometry).__name__,) + tuple(geometry_values(element.geometry))
        found = next((index for index, known in enumerate(shapes) if _same_part(part, known)),
                     None)
        if found is None:
            shapes.append(part)
            found = len(shapes) - 1
        return found

    sides = [(shape_of(item.link1, item.element1), shape_of(item.link2, item.element2))
             for item in overlaps]
    groups = []
    taken: Set[int] = set()
    for index, part in enumerate(shapes):
        smallest = min(abs(float(value)) for value in part[1:])  # type: ignore[arg-type]
        through = [item for item, (one, other) in zip(overlaps, sides)
                   if one == index and other == index and item.depth >= PASTED_DEPTH * smallest]
        carriers = {name for item in through for name in (item.link1, item.link2)}
        if len(_drawn_smaller(ctx, carriers, _extent(part))) < PASTED_MIN:
            continue  # parts alike (an omniwheel's rollers), or token shapes on frames
        # the pairs of a carrier's copy with a link that is an envelope in its own right (a
        # safety box over a hand whose joints hold the shape) stay that envelope's
        bearers = {name for number, pair in enumerate(sides) if index in pair
                   for name, side in zip((overlaps[number].link1, overlaps[number].link2), pair)
                   if side == index}
        others: Dict[str, int] = {}
        for item in overlaps:
            if item.link1 not in bearers and item.link2 not in bearers:
                others[item.link1] = others.get(item.link1, 0) + 1
                others[item.link2] = others.get(item.link2, 0) + 1
        members = [number for number, pair in enumerate(sides)
                   if index in pair and number not in taken and all(
                       others.get(name, 0) < ENVELOPE_MIN
                       for name in (overlaps[number].link1, overlaps[number].link2))]
        taken.update(members)
        group = [overlaps[number] for number in members]
        names = tuple(dict.fromkeys(
            name for item, pair in zip(group, (sides[number] for number in members))
            for name, side in ((item.link1, pair[0]), (item.link2, pair[1])) if side == index))
        groups.append((part, names, group))
    return groups


def _pasted_finding(ctx: CheckContext, part: Tuple[object, ...], carriers: Tuple[str, ...],
                    group: List['Overlap'], seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for a primitive pasted on many links (:func:`_pair_list_finding`)."""
    kind = str(part[0]).lower()
    values = [abs(float(value)) for value in part[1:]]  # type: ignore[arg-type]
    if kind == 'box':
        sizes = ' x '.join(fmt(value) for value in values) + ' m'
    else:
        sizes = f'radius {fmt(values[0])} m' + (
            f', length {fmt(values[1])} m' if len(values) > 1 else '')
    extent = _extent(part)
    small = _drawn_smaller(ctx, carriers, extent)
    seen_small = ''
    if small:
        widest = max(small.values())
        seen_small = (f'; the visual{"s" if len(small) > 1 else ""} of {listed(tuple(small))} '
                      f'{"are" if len(small) > 1 else "is"} at most {fmt(widest, 2)} m across, '
                      f'the {kind} {fmt(extent)} m')

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        return (f'one collision {kind} ({sizes}) is on {len(carriers)} links '
                f'({listed(carriers)}), and through it they overlap each other and their '
                f'neighbours at rest in {len(pairs)} pairs ({_named(pairs)}): one shape pasted '
                f"on each (a placeholder?), not the parts' own{seen_small}")

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(carriers), describe,
        f'give each of these links a collision shape of its own part (none where the link is '
        f'a frame with nothing to collide), in place of the {kind} ({sizes}); if the '
        'shape is meant to be on each, ', '', (('shape', f'{kind} ({sizes})'),))


def _extent(part: Tuple[object, ...]) -> float:
    """Return a primitive's largest size: a box's side, a cylinder's diameter or length."""
    values = [abs(float(value)) for value in part[1:]]  # type: ignore[arg-type]
    return max(values) if part[0] == 'Box' else max([2.0 * values[0]] + values[1:])


def _drawn_smaller(ctx: CheckContext, names: Iterable[str], extent: float) -> Dict[str, float]:
    """Return the links whose visuals are under PASTED_VISUAL of a shape's size, and theirs."""
    from urdf_link_tools.checks.density import largest_side
    found = {}
    for name in names:
        side = largest_side(ctx, ctx.robot.link(name).visuals)
        if side and side < PASTED_VISUAL * extent:  # (0: a point, no part)
            found[name] = side
    return found


def _cliques(edges: Iterable[Tuple[str, str]]) -> List[Set[str]]:
    """Return the sets of 3 or more names every two of which, and nothing else, are joined."""
    neighbours: Dict[str, Set[str]] = {}
    for first, second in edges:
        neighbours.setdefault(first, set()).add(second)
        neighbours.setdefault(second, set()).add(first)
    found: List[Set[str]] = []
    placed: Set[str] = set()
    for name in neighbours:
        if name in placed:
            continue
        component = {name}
        frontier = [name]
        while frontier:
            for other in neighbours[frontier.pop()]:
                if other not in component:
                    component.add(other)
                    frontier.append(other)
        placed |= component
        if len(component) >= 3 and all(len(neighbours[node]) == len(component) - 1
                                       for node in component):
            found.append(component)
    return found


def _clique_finding(ctx: CheckContext, group: List['Overlap'],
                    seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for links that all overlap each other (:func:`_pair_list_finding`)."""
    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        return (f'{len(links)} links overlap each other at rest, every pair of them '
                f'({listed(tuple(sorted(links)))}, {len(pairs)} pairs): one choice, where '
                'they sit at rest (the parts of one mechanism, or shapes put at one point)')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(), describe,
        'if they are not meant to share that place, move or shrink their collision geometry; '
        'else ', '', ())


def repeated_groups(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> Tuple[List[Tuple[str, Tuple[str, ...], List['Overlap']]], List['Overlap']]:
    """
    Return the overlaps of a part repeated on one body (an omniwheel's rollers), and the others.

    NVIDIA's Kaya: each wheel's ten rollers, spheres ``roller_0_0_0`` to ``roller_0_1_4`` on
    continuous joints from ``wheel_0``, overlap their neighbours (30 pairs) and ``axle_0``,
    to which the wheel is welded (10 pairs): 23 findings for its three wheels, one design
    choice. Links alike but for their numbers that hang from one body (links welded together
    are one body) and overlap each other, :data:`REPEATED_MIN` or more in as many pairs, are
    one part drawn many times with shapes that overlap; their overlaps with that body are
    part of the same choice. A mecanum wheel's rollers or a track's shoes are named so too.
    An arm's ``link1`` to ``link7`` are not: each hangs from the one before. Pairs welded
    together are left to their own finding; parts touching (under 1 mm) are taken (the
    rollers of one wheel that only touch are the same choice).

    :param overlaps: the overlaps, deepest first
    :return: ([(the link the part hangs from, its links, its pairs, deepest first)], the pairs
        left)
    """
    def family(name: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
        joint = ctx.robot.parent_joint(name)
        if joint is None or _DIGITS.search(name) is None:
            return None
        return ctx.weld_top(joint.parent), tuple(_DIGITS.split(name))

    families: Dict[Tuple[str, Tuple[str, ...]], List['Overlap']] = {}
    for item in overlaps:
        if ctx.weld_top(item.link1) == ctx.weld_top(item.link2):
            continue
        key = family(item.link1)
        if key is not None and key == family(item.link2):
            families.setdefault(key, []).append(item)
    parts: Dict[Tuple[str, Tuple[str, ...]], Tuple[str, ...]] = {}
    part_of: Dict[str, Tuple[str, Tuple[str, ...]]] = {}
    for key, siblings in families.items():
        names = {name for item in siblings for name in (item.link1, item.link2)}
        if len(names) >= REPEATED_MIN and len(siblings) >= REPEATED_MIN:
            parts[key] = tuple(sorted(names))
            part_of.update((name, key) for name in names)
    chosen: Dict[Tuple[str, Tuple[str, ...]], List['Overlap']] = {}
    for item in overlaps:  # each part's pairs, and its pairs with the body it hangs from
        if ctx.weld_top(item.link1) == ctx.weld_top(item.link2):
            continue
        for name, other in ((item.link1, item.link2), (item.link2, item.link1)):
            key = part_of.get(name)
            if key is not None and (part_of.get(other) == key or ctx.weld_top(other) == key[0]):
                chosen.setdefault(key, []).append(item)
                break
    groups: List[Tuple[str, Tuple[str, ...], List['Overlap']]] = []
    for key, group in chosen.items():
        joint = ctx.robot.parent_joint(parts[key][0])
        groups.append((joint.parent if joint is not None else key[0], parts[key], group))
    # in the file's order: the first wheel leads its copies
    place = {link.name: index for index, link in enumerate(ctx.robot.links)}
    groups.sort(key=lambda entry: (place.get(entry[0], len(place)), entry[1]))
    return groups, _untaken(overlaps, (item for _, _, group in groups for item in group))


#: pairs of the same two parts overlapping alike that are one choice (:func:`alike_groups`)
ALIKE_MIN = 3
#: pairs left past which parts alike are not sought (each pair is compared with each group:
#: 20,000 pairs of distinct parts would cost minutes)
ALIKE_MAX_PAIRS = 2000


def _part_shape(ctx: CheckContext, link_name: str, label: str) -> Optional[Tuple[object, ...]]:
    """
    Return what makes two collision parts the same part, in any place: None if unknown.

    A mesh: its volume and principal moments, which no placement in its file changes (a CAD
    export writes each copy of a part to a file of its own, tessellated its own way and
    turned its own way: Bittle's screws, 14,924 to 15,022 triangles; its servos, two ways
    round); a primitive: its kind and sizes.
    """
    element = _collision_element(ctx.robot.link(link_name), label)
    if element is None or element.geometry is None:
        return None
    if isinstance(element.geometry, Mesh):
        info = ctx.mesh_for(element)
        if not isinstance(info, MeshInfo) or not info.volume > 0.0:
            return None
        import numpy as np  # (as the rule's other work: only when it runs)
        moments = np.linalg.eigvalsh(np.asarray(info.unit_inertia, dtype=float))
        return ('mesh', info.volume) + tuple(float(value) for value in moments)
    return (type(element.geometry).__name__,) + tuple(geometry_values(element.geometry))


def _same_part(first: Tuple[object, ...], second: Tuple[object, ...]) -> bool:
    """Return True for two parts of one kind whose numbers agree within TOLERANCE."""
    return first[0] == second[0] and len(first) == len(second) and all(
        math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=1e-12)  # type: ignore[arg-type]
        for a, b in zip(first[1:], second[1:]))


def alike_groups(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> Tuple[List[Tuple[Tuple[object, ...], List['Overlap']]], List['Overlap']]:
    """
    Return the overlaps of the same two parts placed alike (:data:`ALIKE_MIN` or more).

    Petoi Bittle's CAD screws, each a link of its own, sit in the threaded holes of the
    servos of the next links: 9 pairs of one screw and one servo, each 4.3 mm deep, were 9
    findings of one design choice. Pairs whose parts are the same two shapes (in either
    order, :func:`_same_part`) and as deep (within :data:`.mirrors.TOLERANCE`) are one.

    :param overlaps: the overlaps, deepest first
    :return: ([(the two parts' shapes, their pairs, deepest first)], the pairs left)
    """
    groups: List[Tuple[Tuple[object, ...], List['Overlap']]] = []
    if len(overlaps) > ALIKE_MAX_PAIRS:
        return [], list(overlaps)
    for item in overlaps:
        first = _part_shape(ctx, item.link1, item.element1)
        second = _part_shape(ctx, item.link2, item.element2)
        if first is None or second is None or not item.depth > 0.0:
            continue
        for (one, other), members in groups:
            if math.isclose(item.depth, members[0].depth, rel_tol=TOLERANCE) and (
                    (_same_part(first, one) and _same_part(second, other))
                    or (_same_part(first, other) and _same_part(second, one))):
                members.append(item)
                break
        else:
            groups.append(((first, second), [item]))
    groups = [(parts, members) for parts, members in groups if len(members) >= ALIKE_MIN
              and not _mirror_images(members)]
    return groups, _untaken(overlaps, (item for _, group in groups for item in group))


def _mirror_images(members: Sequence['Overlap']) -> bool:
    """
    Return True when every pair has a counterpart by name among the others.

    Its mirror, its fore-aft counterpart or a numbered copy: those are merged by name, and
    said so (a quadruped's four thighs in their shoulders: "its mirror link ... its fore-aft
    counterparts ..."; Vision 60's hip0 and toe0 to hip3 and toe3), not as parts alike.
    """
    pairs = {frozenset((item.link1, item.link2)) for item in members}
    forms = [frozenset(numberless(name) for name in pair) for pair in pairs]
    if all(_DIGITS.search(name) for pair in pairs for name in pair) and \
            all(forms.count(form) > 1 for form in forms):
        return True

    def counterparts(pair: FrozenSet[str]) -> Iterator[FrozenSet[str]]:
        for names_of in (mirror_names, fore_aft_names):
            candidates = [names_of(name) or [name] for name in sorted(pair)]
            yield from (frozenset((a, b)) for a in candidates[0] for b in candidates[1])

    # Only when the names join every pair into one finding: Minitaur's frame1 to frame4,
    # each in its back and front motor (8 pairs, 16.5 mm each), were joined by fore-aft
    # names two by two and left four findings of one choice.
    group_of = {pair: pair for pair in pairs}

    def top(pair: FrozenSet[str]) -> FrozenSet[str]:
        root = pair
        while group_of[root] != root:
            root = group_of[root]
        while group_of[pair] != root:  # (each pair visited points at the root after)
            group_of[pair], pair = root, group_of[pair]
        return root

    for pair in pairs:
        for other in counterparts(pair):
            if other != pair and other in pairs:
                group_of[top(other)] = top(pair)
    return all(any(other != pair and other in pairs for other in counterparts(pair))
               for pair in pairs) and len({top(pair) for pair in pairs}) == 1


def _alike_finding(ctx: CheckContext, parts: Tuple[object, ...], group: List['Overlap'],
                   seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for the same two parts overlapping alike (:func:`_pair_list_finding`)."""
    def shape(part: Tuple[object, ...]) -> str:
        if part[0] == 'mesh':
            return f'a mesh enclosing {fmt(float(part[1]) * 1e6, 3)} cm^3'  # type: ignore
        return f'a {str(part[0]).lower()} of {" x ".join(fmt(value) for value in part[1:])} m'

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        return (f'{len(pairs)} pairs of links overlap alike at rest '
                f'({listed(tuple(f"{a} and {b}" for a, b in pairs))}): in each, the same two '
                f'parts ({shape(parts[0])} and {shape(parts[1])}) as deep: one choice, a part '
                'seated in another as the CAD assembly places it (a screw in its threaded '
                'hole, a pin in its bore)')

    return _pair_list_finding(
        ctx, group, seen_by, frozenset(), describe,
        'if the parts are meant to sit so, ',
        '; otherwise shrink the collision geometry of one of them in each pair (small parts '
        'such as screws need none)', ())


class Copy(NamedTuple):
    """A group of overlaps that is a numbered copy of another (:func:`copy_groups`)."""

    #: the group's place in the groups given
    index: int
    #: its overlaps, each in the place of its counterpart in the other group
    overlaps: List['Overlap']
    #: the name in this copy of each link of the other group
    names: Dict[str, str]


def copy_groups(groups: Sequence[Sequence['Overlap']],
                seen: Mapping[Tuple[str, str], Dict[str, Severity]]) \
        -> List[Tuple[int, List[Copy]]]:
    """
    Return each group of overlaps with the groups that are numbered copies of it.

    Kaya's three wheels (:func:`repeated_groups`), a robot's numbered arms: with an instance
    number blanked in every name (:func:`~urdf_link_tools.checks.mirrors.numbered_forms`),
    a copy has the same pairs, each as deep (within
    :data:`~urdf_link_tools.checks.mirrors.TOLERANCE`) and seen by the same engines.

    :param seen: the engines that see each pair (:func:`engines_seeing`)
    :return: [(index of a group, its copies)], every group once, in their order
    """
    Form = Tuple[Dict[Tuple[str, ...], 'Overlap'], Dict[str, str]]
    forms: List[Dict[FrozenSet[Tuple[str, ...]], Form]] = []
    by_form: Dict[FrozenSet[Tuple[str, ...]], List[int]] = {}
    for index, group in enumerate(groups):
        mine: Dict[FrozenSet[Tuple[str, ...]], Form] = {}
        named = [(item.link1, item.link2) for item in group]
        for blanked in numbered_forms(named).values():
            pairs = {tuple(sorted(pair)): item for pair, item in zip(blanked, group)}
            key = frozenset(pairs)
            if len(key) == len(group) and key not in mine:
                blank_of = {name: blank for pair, form in zip(named, blanked)
                            for name, blank in zip(pair, form)}
                mine[key] = (pairs, blank_of)
                by_form.setdefault(key, []).append(index)
        forms.append(mine)
    taken: Set[int] = set()
    found: List[Tuple[int, List[Copy]]] = []
    for index in range(len(groups)):
        if index in taken:
            continue
        taken.add(index)
        copies: List[Copy] = []
        for key, (pairs, blank_of) in forms[index].items():
            for other in by_form[key]:
                theirs, their_blank = forms[other][key]
                if other in taken or not all(_same_overlap(item, theirs[pair], seen)
                                             for pair, item in pairs.items()):
                    continue
                named_as = {blank: name for name, blank in their_blank.items()}
                copies.append(Copy(other, [theirs[pair] for pair in pairs],
                                   {name: named_as[blank] for name, blank in blank_of.items()}))
                taken.add(other)
            if copies:
                break  # one instance number: a group is no copy twice over
        found.append((index, copies))
    return found


def _same_overlap(first: 'Overlap', second: 'Overlap',
                  seen: Mapping[Tuple[str, str], Dict[str, Severity]]) -> bool:
    """Return True for two overlaps as deep, seen by the same engines alike."""
    return math.isclose(first.depth, second.depth, rel_tol=TOLERANCE, abs_tol=1e-9) and \
        seen[(first.link1, first.link2)] == seen[(second.link1, second.link2)]


def _repeated_finding(ctx: CheckContext, part: Tuple[str, Tuple[str, ...], List['Overlap']],
                      copies: List[Tuple[str, Copy]],
                      seen: Mapping[Tuple[str, str], Dict[str, Severity]]) -> Finding:
    """
    One finding for a repeated part's overlaps and its numbered copies'.

    A list of pairs (:func:`_pair_list_finding`), at the first part's deepest pair.

    :param part: the link the part hangs from, its links, its pairs (:func:`repeated_groups`)
    :param copies: the link each copy hangs from, the copy (:func:`copy_groups`)
    """
    parent, members, group = part
    body = ctx.weld_top(parent)
    bodies = tuple(dict.fromkeys(name for item in group for name in (item.link1, item.link2)
                                 if name not in members))
    within = sum(1 for item in group if item.link1 in members and item.link2 in members)
    others = tuple(repr(name) for name, _ in copies)
    everything = group + [item for _, copy in copies for item in copy.overlaps]

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        welded = f", to which '{parent}' is welded," if body != parent else ''
        text = (f'{len(members)} links alike but for their numbers ({listed(members)}) hang '
                f"from '{parent}' and overlap each other at rest in {within} pairs"
                + (f', and {listed(tuple(repr(name) for name in bodies))}{welded} in '
                   f'{len(group) - within}' if bodies else '')
                + ': one choice, a part repeated with collision shapes that overlap (the '
                'rollers of an omniwheel or a mecanum wheel, the shoes of a track)')
        if others:
            text += (f'; the numbered copies on {listed(others)} (another instance of the same '
                     f'macro or part) overlap the same way ({len(pairs)} pairs in all)')
        return text

    finding = _pair_list_finding(
        ctx, everything, [seen[(item.link1, item.link2)] for item in everything],
        frozenset(members), describe,
        'if the parts are not meant to overlap, shrink their collision shapes (a roller as a '
        'capsule or a cylinder along its own axis clears its neighbours); else ', '',
        ((REPEATED_KEY, ', '.join((parent,) + tuple(name for name, _ in copies))),),
        detail=COPIES_DETAIL if copies else ENVELOPE_DETAIL)
    if not copies:
        return finding
    # each copy's counterpart of the finding's link owns it too (as a pair's copies do)
    return replace(finding, values=finding.values + (
        (COPY_KEY, ', '.join(copy.names.get(finding.link or '', '') for _, copy in copies)),))


def _envelope_copies_finding(ctx: CheckContext, name: str, group: List['Overlap'],
                             copies: List[Copy],
                             seen: Mapping[Tuple[str, str], Dict[str, Severity]]) -> Finding:
    """
    One finding for an envelope and its numbered copies (:func:`_pair_list_finding`).

    Kaya's three motors, each over five rollers of its wheel: one design, drawn three times.
    The copies' envelope links own it too.
    """
    partners = tuple(_seen_from(name, item)[1] for item in group)
    leads = tuple(copy.names[name] for copy in copies)
    everything = group + [item for copy in copies for item in copy.overlaps]

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        return (f"the collision geometry of '{name}' intersects that of {len(group)} links at "
                f'rest ({listed(partners)}), and so does that of its numbered copies '
                f'{listed(tuple(repr(lead) for lead in leads))} with theirs, the same way '
                f'(another instance of the same macro or part: {len(pairs)} pairs in all)')

    return _pair_list_finding(
        ctx, everything, [seen[(item.link1, item.link2)] for item in everything],
        frozenset((name,) + leads), describe,
        f"move or shrink the collision geometry of '{name}' and its copies so that they clear "
        'them; if they are meant to hold or touch them (a safety box, a housing, a closed '
        'hand), ', '', ((COPY_KEY, ', '.join(leads)),), detail=COPIES_DETAIL)


def _ancestry(robot, name: str) -> Tuple[List, Dict[str, int]]:
    """
    Return the joints on the way from a link up to its root, and the links on it by place.

    The link itself is at place 0, its parent at 1, and so on (a dict: a loop ends the walk
    in linear time).
    """
    joints, links = [], {name: 0}
    joint = robot.parent_joint(name)
    while joint is not None and joint.parent not in links:
        joints.append(joint)
        links[joint.parent] = len(joints)
        joint = robot.parent_joint(joint.parent)
    return joints, links


def _tree(ctx: CheckContext) -> Dict[str, Tuple[Optional[str], int]]:
    """
    Return each link's parent and depth (a root's depth 0), once per analysis.

    Links on a loop of joints (a broken tree) are left out: :func:`_branches` walks their
    ancestry as before.
    """
    key = ('tree depths', None)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[return-value]
    parent = {joint.child: joint.parent for joint in ctx.robot.joints}
    found: Dict[str, Tuple[Optional[str], int]] = {}
    for link in ctx.robot.links:
        path, name, looped = [], link.name, False
        while name not in found:
            if name in path:
                looped = True
                break
            path.append(name)
            above = parent.get(name)
            if above is None:
                found[name] = (None, 0)
                path.pop()
                break
            name = above
        if looped:
            continue
        for name in reversed(path):
            above = parent[name]
            found[name] = (above, found[above][1] + 1)
    ctx.memo[key] = found
    return found


def _branches(ctx: CheckContext, first: str, second: str) -> Optional[Tuple[str, str]]:
    """
    Return the first links of the two branches two links are on, None for one branch.

    Where the paths from the root part, each link hangs from a branch (YuMi's two arms, from
    ``yumi_link_1_l`` and ``yumi_link_1_r``); a link above the other, or links of separate
    trees, are on no two branches.
    """
    tree = _tree(ctx)
    spans = _tree_spans(ctx)
    if first in spans and second in spans and (
            spans[first][0] <= spans[second][0] <= spans[first][1] or
            spans[second][0] <= spans[first][0] <= spans[second][1]):
        return None  # one above the other (a chain's pairs: no walk at all)
    if first in tree and second in tree:
        # Walked up from both to where they meet: linear in their distance, not the depth
        # (a 3,600-link chain's 18,000 pairs: 133 s; red-team review 7).
        a, b, below_a, below_b = first, second, None, None
        while tree[a][1] > tree[b][1]:
            a, below_a = tree[a][0], a  # type: ignore[assignment]
        while tree[b][1] > tree[a][1]:
            b, below_b = tree[b][0], b  # type: ignore[assignment]
        while a != b:
            if tree[a][0] is None or tree[b][0] is None:
                return None  # separate trees
            a, below_a, b, below_b = tree[a][0], a, tree[b][0], b  # type: ignore
        return (below_a, below_b) if below_a is not None and below_b is not None else None
    above_first, above_second = _ancestry(ctx.robot, first)[1], _ancestry(ctx.robot, second)[1]
    common = next((name for name in above_first if name in above_second), None)
    if common is None or above_first[common] == 0 or above_second[common] == 0:
        return None
    return (list(above_first)[above_first[common] - 1],
            list(above_second)[above_second[common] - 1])


def branch_groups(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> Tuple[List[Tuple[Tuple[str, ...], List['Overlap'], FrozenSet[str]]],
                 List['Overlap']]:
    """
    Return the pairs overlapping between the same two branches, and the other pairs.

    :data:`BRANCHES_MIN` or more pairs between two branches of the tree (YuMi's two arms, its
    wrists at one point at rest: 12 pairs) are one design choice, the pose the branches rest
    in. Pairs of links welded together are left to their own finding.

    :return: ([((first link of one branch, of the other), its pairs, the links of its pairs
        on the first branch)], the pairs left)
    """
    groups: Dict[Tuple[str, str], List['Overlap']] = {}
    for item in overlaps:
        if ctx.weld_top(item.link1) == ctx.weld_top(item.link2):
            continue  # never moving apart: another choice (an info of its own)
        sides = _branches(ctx, item.link1, item.link2)
        if sides is not None:
            groups.setdefault(tuple(sorted(sides)), []).append(item)  # type: ignore[arg-type]
    # Many links of each branch: one link of one branch over many of the other is an
    # envelope (a safety box around a hand), said as such (envelope_groups).
    found = []
    for sides, group in groups.items():
        if len(group) < BRANCHES_MIN:
            continue
        on_first, on_second = _sides_links(ctx, sides, group)
        if len(on_first) > 1 and len(on_second) > 1:
            found.append((sides, group, frozenset(on_first)))
    found = _branch_cliques(ctx, found)
    return found, _untaken(overlaps, (item for _, group, _ in found for item in group))


_Branches = Tuple[Tuple[str, ...], List['Overlap'], FrozenSet[str]]


def _branch_cliques(ctx: CheckContext, found: List[_Branches]) -> List[_Branches]:
    """
    Join three or more branches that all overlap each other into one group.

    AgileX ranger_mini's four steering branches, one collision box pasted on each: every
    pair of them was a finding of its own (six, one choice).
    """
    joined: List[_Branches] = []
    taken: Set[Tuple[str, ...]] = set()
    for component in _cliques((sides[0], sides[1]) for sides, _, _ in found):
        heads = tuple(sorted(component))
        members = [entry for entry in found if set(entry[0]) <= component]
        taken.update(entry[0] for entry in members)
        group = sorted((item for entry in members for item in entry[1]),
                       key=lambda item: (-item.depth, item.link1, item.link2))
        first = frozenset(name for item in group for name in (item.link1, item.link2)
                          if heads[0] in _ancestry(ctx.robot, name)[1])
        joined.append((heads, group, first))
    return joined + [entry for entry in found if entry[0] not in taken]


def _sides_links(ctx: CheckContext, sides: Tuple[str, str],
                 group: List['Overlap']) -> Tuple[Set[str], Set[str]]:
    """Return the links of the pairs on each branch."""
    first: Set[str] = set()
    second: Set[str] = set()
    for overlap in group:
        for name in (overlap.link1, overlap.link2):
            (first if sides[0] in _ancestry(ctx.robot, name)[1] else second).add(name)
    return first, second


def _branches_finding(ctx: CheckContext, sides: Tuple[str, ...], group: List['Overlap'],
                      under_first: FrozenSet[str],
                      seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for the overlaps between two branches (:func:`_pair_list_finding`)."""

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        named = _named(pairs)
        if len(sides) > 2:
            return (f'the branches from {listed(tuple(repr(side) for side in sides))} all '
                    f'overlap each other at rest, in {len(pairs)} pairs of links ({named}): '
                    "one choice, the pose they rest in (MoveIt's default state), or one "
                    'collision shape on each (a pasted one?)')
        return (f"the branch from '{sides[0]}' and the branch from '{sides[1]}' overlap at rest "
                f'in {len(pairs)} pairs of links ({named}): one choice, the pose they rest in '
                "(MoveIt's default state)")

    return _pair_list_finding(
        ctx, group, seen_by, under_first, describe,
        'if the branches are not meant to meet at rest, move them apart (their joint origins '
        'or the zero of their joints); else ', '', (('branches', ', '.join(sides)),))


def second_model_links(ctx: CheckContext) -> List[str]:
    """
    Return the links that look like a second collision model of the link they are fixed to.

    Such a link has collision geometry and nothing to show (no visual), hangs by a fixed
    joint from a link with collision geometry of its own, and fills the same space: its
    bounding box and its parent's share at least :data:`SECOND_MODEL_SHARE` of the smaller
    one. Franka's ``*_sc`` links are such, the coarse capsules of the real robot's
    self-collision check on the detailed meshes each link collides with (franka_description's
    ``link_with_sc``); a bumper or a sensor cage welded beside a link is not.
    """
    names = []
    for link in ctx.robot.links:
        if not link.collisions or link.visuals:
            continue
        joint = ctx.robot.parent_joint(link.name)
        parent = ctx.robot.link(joint.parent) if joint is not None and joint.type == 'fixed' \
            else None
        if parent is None or not parent.collisions:
            continue
        own = [ctx.element_bounds(element) for element in link.collisions]
        theirs = [ctx.element_bounds(element) for element in parent.collisions]
        if None in own or None in theirs:  # a mesh not read: not known to fill the same space
            continue
        here = union_bounds(own)
        there = union_bounds(theirs)
        if here is not None and there is not None and _shared(
                transform_bounds(here, origin_to_matrix(joint.origin)), there) \
                >= SECOND_MODEL_SHARE:
            names.append(link.name)
    return names


def _shared(first: 'Bounds', second: 'Bounds') -> float:
    """Return the volume two boxes share, over the smaller one's (0 when one is flat)."""
    sizes = [max(0.0, min(a, b) - max(c, d)) for a, b, c, d in
             zip(first[1].tolist(), second[1].tolist(), first[0].tolist(), second[0].tolist())]
    volumes = [float((box[1] - box[0]).prod()) for box in (first, second)]
    smaller = min(volumes)
    if not smaller > 0.0:
        return 0.0
    return sizes[0] * sizes[1] * sizes[2] / smaller


def second_model_group(ctx: CheckContext, overlaps: Sequence['Overlap']) \
        -> Tuple[FrozenSet[str], List['Overlap'], List['Overlap']]:
    """
    Return the overlaps of a second collision model at rest, and the others.

    When :data:`SECOND_MODEL_MIN` or more of :func:`second_model_links` overlap links at rest,
    their overlaps are one design choice (Franka's arm: ten pairs of capsules and meshes), one
    finding; fewer, and every overlap is reported as usual.

    :param overlaps: the overlaps, deepest first
    :return: (the second model's links, their overlaps, the other overlaps), deepest first
    """
    if not overlaps:
        return frozenset(), [], []
    shadows = frozenset(second_model_links(ctx))
    group = [item for item in overlaps if item.link1 in shadows or item.link2 in shadows]
    involved = {name for item in group for name in (item.link1, item.link2) if name in shadows}
    if len(involved) < SECOND_MODEL_MIN:
        return shadows, [], list(overlaps)
    return shadows, group, _untaken(overlaps, group)


def _second_model_finding(ctx: CheckContext, shadows: FrozenSet[str], group: List['Overlap'],
                          seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """
    One finding for a second collision model's overlaps (:func:`_pair_list_finding`).

    The links of the second model own it (``second_model_links``).

    :param shadows: :func:`second_model_links`
    """
    models = sorted({name for item in group for name in (item.link1, item.link2)
                     if name in shadows})

    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        partners = [name for name in links if name not in shadows]
        return (f'{len(models)} collision-only links fixed to links with collision geometry '
                f'of their own ({listed(tuple(models))}) look like a second collision model of '
                "the same bodies (such as Franka's coarse self-collision capsules next to its "
                f'detailed meshes); at rest they overlap in {len(group)} pairs'
                + (f', also with {listed(tuple(partners))}' if partners else ''))

    return _pair_list_finding(
        ctx, group, seen_by, shadows, describe,
        "if each model is checked only against itself (a robot controller's self-collision "
        'capsules), leave the second model out of the description the planner loads, or ',
        '; otherwise shrink the geometry of the pairs that should not touch',
        (('second_model_links', ', '.join(models)),))


def _welded_finding(ctx: CheckContext, group: List['Overlap'],
                    seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """One finding for the overlaps of links welded together (:func:`_pair_list_finding`)."""
    def describe(pairs: List[Tuple[str, str]], links: Tuple[str, ...]) -> str:
        return (f'{len(pairs)} pairs of links welded together (fixed joints) overlap at rest '
                f'({listed(tuple(f"{a} and {b}" for a, b in pairs))}): they never move apart, '
                'so simulators fuse them, and only a planner without the pairs in its SRDF '
                'sees them (MoveIt Setup Assistant disables such pairs as "Always")')

    return _pair_list_finding(ctx, group, seen_by, frozenset(), describe, '',
                              ' (or, if the overlaps are not meant, shrink the collision '
                              'geometry of the parts)', ())


def _pair_list_finding(ctx: CheckContext, group: List['Overlap'],
                       seen_by: Sequence[Dict[str, Severity]], owners: FrozenSet[str],
                       describe, lead_in: str, tail: str,
                       extra: Tuple[Tuple[str, object], ...],
                       detail: int = ENVELOPE_DETAIL) -> Finding:
    """
    One finding for many pairs that overlap at rest by one design choice, deepest first.

    The finding is on the deepest pair (``other_link``, ``depth_mm``, ``point_in_link`` as a
    pair's; of those that move apart when there are any); ``links`` holds that pair's links
    and then every other link of the pairs, and the values list each pair (``pairs``), its
    depth (``depths_mm``) and its contact point in the root link's frame
    (``points_in_root``), which the markers and the page draw.

    :param owners: links whose side of a pair comes first (else the pair's own order)
    :param describe: (pairs, links) -> the message's head
    :param lead_in: the suggestion's text before the SRDF and MJCF entries
    :param tail: the suggestion's text after them
    :param extra: more values
    :param detail: the pairs listed in the values, the deepest first
    """
    flags = [ctx.weld_top(item.link1) == ctx.weld_top(item.link2) for item in group]
    lead_index = next((index for index, flag in enumerate(flags) if not flag), 0)
    lead = group[lead_index]
    swap = lead.link1 not in owners and lead.link2 in owners
    name, other = (lead.link2, lead.link1) if swap else (lead.link1, lead.link2)
    element, other_element = (lead.element2, lead.element1) if swap else \
        (lead.element1, lead.element2)
    point = lead.point_in_link2 if swap else lead.point_in_link1
    pairs = [((item.link2, item.link1) if item.link1 not in owners and item.link2 in owners
              else (item.link1, item.link2)) for item in group]
    links = tuple(dict.fromkeys((name, other) + tuple(n for pair in pairs for n in pair)))
    by_target = _worst_claims(seen_by)
    welded = sum(flags)
    reason = 'Always' if welded == len(group) else 'Default'
    entries = (f'disable its {len(group)} pairs in the SRDF (<disable_collisions '
               f'link1="{pairs[0][0]}" link2="{pairs[0][1]}" reason="{reason}"/>, one per pair'
               + (f', reason="Always" for the {welded} welded together'
                  if welded and reason != 'Always' else '')
               + '; urdf-link-tools collisions writes them) and check with --srdf SRDF')
    fixes = _fixes(ctx, by_target, entries, [
        (item.link1, item.link2) for item, claims in zip(group, seen_by) if 'mujoco' in claims])
    effects = _effects(ctx, by_target) if welded < len(group) else ''
    local = _micrometres(point)
    if not fixes:  # seen by MoveIt alone, as an info (links welded together): the SRDF
        fixes = [entries]
    suggestion = lead_in + '; '.join(fixes) + tail
    return ctx.finding(
        OVERLAP, severity_for(ctx.config.targets, by_target) or Severity.INFO,
        describe(pairs, links)
        + f"; the deepest is '{name}' ({element}) with '{other}' ({other_element}), "
        f"{_depth_text(ctx, lead)}, at ({fmt_vector(local)}) in '{name}''s frame"
        + (f'; {effects}' if effects else ''),
        link=name, element=element, line=_element_line(ctx.robot.link(name), element),
        suggestion=suggestion if lead_in else suggestion[0].upper() + suggestion[1:],
        values=(('other_link', other), ('other_element', other_element),
                ('depth_mm', lead.depth * 1000.0),
                ('point_in_link', fmt_vector(local, 6)),
                ('point_in_root', fmt_vector(_micrometres(lead.point), 6)))
        + extra
        + (('count', len(group)),
           ('pairs', '; '.join(f'{a}, {b}' for a, b in pairs[:detail])),
           ('depths_mm', ' '.join(fmt(item.depth * 1000.0, 6) for item in group[:detail])),
           ('points_in_root', '; '.join(fmt_vector(_micrometres(item.point), 6)
                                        for item in group[:detail])),
           ('targets', _seeing(ctx, by_target))),
        links=links)


def _worst_claims(seen_by: Sequence[Dict[str, Severity]]) -> Dict[str, Severity]:
    """Return, for each engine that sees any of several overlaps, the worst severity."""
    by_target: Dict[str, Severity] = {}
    for claims in seen_by:
        for target, severity in claims.items():
            by_target[target] = max(severity, by_target.get(target, severity))
    return by_target


def _as_seen(overlap: 'Overlap') -> 'Overlap':
    """
    Return the overlap with the depth the selected engines see.

    The depth measured is between the parts' convex hulls, which MuJoCo collides. Where
    MuJoCo is not among the targets (:func:`surfaces_wanted`), every engine left collides
    the surfaces (MoveIt, Pinocchio, Gazebo): where their depth was measured
    (:func:`.overlap._surface_depth`), it is the depth, and the hulls' is kept beside it
    (Galaxea R1's fingers: 24.5 mm between hulls, surfaces touching: an info for a MoveIt
    user, a warning for MuJoCo's).
    """
    if overlap.surface_depth is None or not overlap.surface_depth < overlap.depth:
        return overlap
    return replace(overlap, depth=overlap.surface_depth, hull_depth=overlap.depth)


def _depth_text(ctx: CheckContext, overlap: 'Overlap') -> str:
    depth_m = overlap.depth
    depth_mm = depth_m * 1000.0
    hulls = overlap.hull_depth
    if overlap.hull_only:
        return (f'about {fmt(depth_mm, 3)} mm deep between their convex hulls, which MuJoCo '
                'collides (the surfaces themselves do not meet: a concave part around or '
                'beside the other)')
    if hulls is not None:  # the surfaces' depth, the only one the targets see
        from urdf_link_tools.collision.overlap import SURFACE_STEP
        moved = f'about {fmt(depth_mm, 3)}' if depth_m > SURFACE_STEP else 'less than 0.1'
        apart = (f'their surfaces part once moved {moved} mm apart; their convex hulls '
                 f'overlap {fmt(hulls * 1000.0, 3)} mm')
        return f'about {fmt(depth_mm, 3)} mm deep ({apart})' if not touching(depth_m) else \
            f'touching ({apart})'
    if not touching(depth_m):
        return f'about {fmt(depth_mm, 3)} mm deep' + (
            ' (between their convex hulls: the surfaces of a concave part may meet less '
            'deep)' if _not_convex(ctx, overlap) else '')
    return (f'touching (about {fmt(depth_mm, 3)} mm deep' if depth_mm >= 0.1 else
            'touching (less than 0.1 mm deep') + ', as the parts of a CAD assembly touch)'


def _not_convex(ctx: CheckContext, overlap: 'Overlap') -> bool:
    """
    Return True when a part of an overlap is a mesh not known to be convex.

    The depth is measured between the parts' convex hulls (the detection uses the
    surfaces): for a concave part, an upper bound (NextageOpen's waist and wrist: 191 mm
    between hulls, surfaces touching).
    """
    for name, label in ((overlap.link1, overlap.element1), (overlap.link2, overlap.element2)):
        element = _collision_element(ctx.robot.link(name), label)
        if element is None or not isinstance(element.geometry, Mesh):
            continue
        info = ctx.mesh_for(element)
        if not isinstance(info, MeshInfo):
            continue
        if not info.convex:
            return True
    return False


def _micrometres(point: Sequence[float]) -> List[float]:
    # the contact point's last digits are the solver's, not the robot's
    return [round(value, 6) + 0.0 for value in point]


#: what an overlap between links welded together means, and what to do about it
_WELDED = ('; they are welded together (fixed joints), so they never move apart: simulators '
           'fuse them, and only a planner without the pair in its SRDF sees it (MoveIt Setup '
           'Assistant disables such pairs as "Always")')


def _pair_finding(ctx: CheckContext, overlap: 'Overlap',
                  by_target: Dict[str, Severity]) -> Finding:
    link = ctx.robot.link(overlap.link1)
    local = _micrometres(overlap.point_in_link1)
    root = _micrometres(overlap.point)
    welded = ctx.weld_top(overlap.link1) == ctx.weld_top(overlap.link2)
    entry = (f'<disable_collisions link1="{overlap.link1}" link2="{overlap.link2}" '
             f'reason="{"Always" if welded else "Default"}"/>')
    effects = '' if welded else _effects(ctx, by_target)
    fixes = _fixes(ctx, by_target, f'add {entry} to the SRDF and check with --srdf SRDF',
                   [(overlap.link1, overlap.link2)])
    driver = None if welded else linkage_driver(ctx, overlap.link1, overlap.link2)
    shrink = f"move or shrink the collision geometry of '{overlap.link1}' or '{overlap.link2}'"
    if overlap.hull_only:
        shrink = (f"split the concave collision mesh of '{overlap.link1}' or '{overlap.link2}' "
                  'into convex parts, one <collision> each (MuJoCo collides the convex hull of '
                  'each mesh), or move them apart')
    if driver is not None:
        # Robotiq's 2F-85: the inner knuckle and the finger tip are the two sides of a
        # four-bar whose pin URDF cannot express; "move or shrink" would be the wrong fix.
        advice = (f"both move only with joint '{driver}' (the joints between them follow it "
                  'through <mimic>): if they are coupled parts meant to touch (closed '
                  "gripper fingers, the two sides of a closed linkage such as a four-bar's pin, "
                  'which URDF cannot express), declare it: '
                  + '; '.join(fixes) + f'; otherwise {shrink}')
    else:
        advice = f'{shrink}; if they are meant to overlap, ' + '; '.join(fixes)
    return ctx.finding(
        OVERLAP, severity_for(ctx.config.targets, by_target) or Severity.INFO,
        f"'{overlap.link1}' and '{overlap.link2}' overlap at rest: their collision "
        f'geometry ({overlap.element1} and {overlap.element2}) '
        f'{"meets as MuJoCo sees it" if overlap.hull_only else "intersects"}, '
        f'{_depth_text(ctx, overlap)}, at ({fmt_vector(local)}) in '
        f"'{overlap.link1}''s frame" + (_WELDED if welded else '')
        + (f'; {effects}' if effects else ''),
        link=overlap.link1, element=overlap.element1,
        line=_element_line(link, overlap.element1),
        suggestion=(f'add {entry} to the SRDF and check with --srdf SRDF (or, if the overlap '
                    f"is not meant, shrink the collision geometry of '{overlap.link1}' or "
                    f"'{overlap.link2}')") if welded else advice,
        values=(('other_link', overlap.link2), ('other_element', overlap.element2),
                ('depth_mm', overlap.depth * 1000.0),
                ('point_in_link', fmt_vector(local, 6)),
                ('point_in_root', fmt_vector(root, 6)),
                ('targets', _seeing(ctx, by_target))))


def linkage_driver(ctx: CheckContext, first: str, second: str) -> Optional[str]:
    """
    Return the joint that alone moves two links relative to each other, through <mimic>.

    Two or more moving joints lie between the links (through their common ancestor) and
    each is that joint or follows it by <mimic> (directly or through other mimics, as the
    collision matrix follows them: :func:`~urdf_link_tools.collision.configurations.
    mimic_leader`): a one-degree-of-freedom linkage, as URDF writes a closed loop. None
    otherwise.
    """
    from urdf_link_tools.collision.configurations import ACTUATED, mimic_leader

    robot = ctx.robot
    joints_a, links_a = _ancestry(robot, first)
    joints_b, links_b = _ancestry(robot, second)
    common = next((name for name in links_a if name in links_b), None)
    if common is None:
        return None
    moving = [joint for joint in joints_a[:links_a[common]]
              + joints_b[:links_b[common]] if joint.type in ACTUATED]
    if len(moving) < 2:
        return None
    by_name = {joint.name: joint for joint in robot.joints}
    drivers = {mimic_leader(joint, by_name)[0].name for joint in moving}
    return drivers.pop() if len(drivers) == 1 else None


def _seeing(ctx: CheckContext, by_target: Dict[str, Severity]) -> str:
    """Return the selected targets that see an overlap, as the targets option names them."""
    return ','.join(t for t in TARGETS if t in ctx.config.targets and t in by_target)


def _seen_from(name: str, overlap: 'Overlap') -> Tuple[str, str, str, Tuple[float, ...]]:
    """Return (own element, other link, other element, point in own frame) for one side."""
    if name == overlap.link1:
        return overlap.element1, overlap.link2, overlap.element2, overlap.point_in_link1
    return overlap.element2, overlap.link1, overlap.element1, overlap.point_in_link2


def _envelope_finding(ctx: CheckContext, name: str, group: List['Overlap'],
                      seen_by: Sequence[Dict[str, Severity]]) -> Finding:
    """
    One finding for a link overlapping many: the deepest pair's place, every partner.

    :param seen_by: for each overlap, the engines that see it (:func:`engines_seeing`): the
        worst of them gives the severity; pairs of links welded together are named (their
        SRDF reason is "Always")
    """
    sides = [_seen_from(name, overlap) for overlap in group]
    flags = [ctx.weld_top(item.link1) == ctx.weld_top(item.link2) for item in group]
    welded = all(flags)
    # The place shown is the deepest pair's, of those that move apart when there are any: a
    # welded pair's overlap is an info of its own, not the headline of a warning (ROBOTIS's
    # OMY gripper base, 101 mm into the wrist it is welded to).
    lead = next((index for index, flag in enumerate(flags) if not flag), 0)
    element, other, other_element, point = sides[lead]
    local = _micrometres(point)
    root = _micrometres(group[lead].point)
    others = tuple(side[1] for side in sides)
    own = sorted({side[0] for side in sides})
    fused = tuple(side[1] for side, flag in zip(sides, flags) if flag) if not welded else ()
    by_target = _worst_claims(seen_by)
    entries = (f'disable its {len(group)} pairs in the SRDF (<disable_collisions '
               f'link1="{name}" link2=... reason="{"Always" if welded else "Default"}"/>, one '
               'per link; urdf-link-tools collisions writes them) and check with --srdf SRDF')
    if fused:
        entries += f' (reason="Always" for {listed(fused)})'
    fixes = _fixes(ctx, by_target, entries, [
        (item.link1, item.link2) for item, claims in zip(group, seen_by) if 'mujoco' in claims])
    # MuJoCo fuses welded links and never collides a body with its parent body: said when
    # it sees only some of the pairs (ROBOTIS's OMY wrist: 2 of 5).
    mujoco = sum(1 for claims in seen_by if 'mujoco' in claims)
    share = (f'; for MuJoCo {mujoco} of the {len(group)} pairs: it fuses welded links and '
             'skips a body and its parent' if 0 < mujoco < len(group) else '')
    effects = '' if welded else _effects(ctx, by_target, share)
    # A link welded to the envelope never moves apart from it: said, as for a pair.
    partly = (f'; {listed(fused)} {"is" if len(fused) == 1 else "are"} welded to it (fixed '
              'joints), so that overlap never changes: simulators fuse them') if fused else ''
    return ctx.finding(
        OVERLAP, severity_for(ctx.config.targets, by_target) or Severity.INFO,
        f"the collision geometry of '{name}' ({', '.join(own)}) intersects that of "
        f'{len(group)} links at rest ({listed(others)}); the deepest '
        + ('of those not welded to it ' if lead else '')
        + f"is '{other}' ({other_element}), {_depth_text(ctx, group[lead])}, at "
        f"({fmt_vector(local)}) in '{name}''s frame" + (_WELDED if welded else partly)
        + (f'; {effects}' if effects else ''),
        link=name, element=element, line=_element_line(ctx.robot.link(name), element),
        suggestion=(entries[0].upper() + entries[1:] + ' (or, if the overlaps are not '
                    f"meant, shrink the collision geometry of '{name}')") if welded else
                   (f"move or shrink the collision geometry of '{name}' so that it clears "
                    'them; if it is meant to hold or touch them (a safety box, a housing, a '
                    'closed hand), ' + '; '.join(fixes)),
        values=(('other_link', other), ('other_element', other_element),
                ('depth_mm', group[lead].depth * 1000.0),
                ('point_in_link', fmt_vector(local, 6)),
                ('point_in_root', fmt_vector(root, 6)),
                ('links', listed(others)), ('count', len(group)),
                ('depths_mm', ' '.join(fmt(overlap.depth * 1000.0, 6)
                                       for overlap in group[:ENVELOPE_DETAIL])),
                ('points_in_link', '; '.join(fmt_vector(_micrometres(side[3]), 6)
                                             for side in sides[:ENVELOPE_DETAIL])),
                ('targets', _seeing(ctx, by_target)))
        + ((('welded_links', ', '.join(fused)),) if fused else ()),
        links=(name,) + others)


def check_disabled_names(ctx: CheckContext) -> Iterator[Finding]:
    """
    Say when the pairs disabled by the SRDF name links the robot does not have.

    Kassow's SRDF expanded with its default prefix names '_link1' where the URDF's links
    are 'kassow_link1': all 12 of its pairs disabled nothing, and the overlaps they were
    meant for stayed, with no word why.
    """
    pairs = sorted(ctx.config.disabled_collisions)
    names = {link.name for link in ctx.robot.links}
    unknown = [pair for pair in pairs if pair[0] not in names or pair[1] not in names]
    if not unknown:
        return
    missing = list(dict.fromkeys(name for pair in unknown for name in pair
                                 if name not in names))
    suggester = NameSuggester(names)
    guesses = [(name, _meant(name, names, suggester)) for name in missing[:MEANT_TRIED]]
    first, meant = next(((name, guess) for name, guess in guesses if guess),
                        (missing[0], None))
    absent = ''
    stem = first[:len(first) - len(meant)] if meant and first.endswith(meant) else ''
    if stem and not _renamed(stem, missing, names):
        # 'arm_base_link' is no 'base_link' renamed when 'arm_shoulder_link' and the rest
        # have no link either: the robot lacks the arm (Care-O-bot raw3-1's SRDF).
        count = sum(1 for name in missing if name.startswith(stem))
        absent = (f"; {count} of the names begin with '{stem}' and this robot has no such "
                  'links: the SRDF is for a variant with them')
        meant = None
    most = 2 * len(unknown) > len(pairs)
    prefix = meant[:len(meant) - len(first)] if meant and meant.endswith(first) else ''
    yield ctx.finding(
        UNKNOWN_PAIRS, Severity.WARNING if most else Severity.INFO,
        f'{len(unknown)} of the {len(pairs)} pairs of links the SRDF disables name links '
        f"this robot does not have, such as '{first}'"
        + (f" (did you mean '{meant}'?)" if meant else '')
        + ': they disable nothing, and the overlaps at rest they were written for are '
        'reported' + (f"; the robot's link names begin with '{prefix}' where the SRDF's do "
                      'not' if prefix and most else '') + absent,
        suggestion=('give the SRDF made for this robot, expanded with the prefix and '
                    "arguments of the URDF (a .srdf.xacro given to --srdf takes the check's "
                    'NAME:=VALUE arguments)' if most else
                    'remove or rename the stale entries of the SRDF'),
        values=(('unknown_pairs', len(unknown)), ('pairs', len(pairs)),
                ('example', first)) + ((('meant', meant),) if meant else ()))


def _renamed(stem: str, missing: Sequence[str], names: Set[str]) -> bool:
    """Return True when most SRDF names beginning with ``stem`` are links without it."""
    stemmed = [name for name in missing if name.startswith(stem)]
    found = sum(1 for name in stemmed if name[len(stem):] in names)
    return 2 * found > len(stemmed)


def _meant(name: str, names: Iterable[str], suggester: NameSuggester) -> Optional[str]:
    """
    Return the robot's link a name in the SRDF stands for: the same with a prefix, or near.

    Near by the bounded suggester the structure rules use: difflib over every link for each
    name is quadratic on a large robot (a description and an SRDF from a pull request).
    """
    fixed = sorted((other for other in names if other.endswith(name) or name.endswith(other)),
                   key=lambda other: (abs(len(other) - len(name)), other))
    if fixed:
        return fixed[0]
    return suggester.suggest(name) or None


def _collision_element(link, label: str):
    """Return a link's collision element of this label (as an overlap names it), or None."""
    if link is None:
        return None
    return next((element for element in link.collisions if element.label == label), None)


def _element_line(link, label: str):
    if link is None:
        return None
    element = _collision_element(link, label)
    return element.line if element is not None else link.line


CHECKS = (check_overlaps, check_disabled_names)
