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
Analyse a whole robot in one pass: load its meshes, run every rule, return one snapshot.

:func:`analyze` never raises on a parsed :class:`~urdf_link_tools.model.Robot`, whatever
its numbers (NaN and infinity included): problems become findings. The returned
:class:`Analysis` is immutable, so a service can read it while a new one is being built.
"""

from __future__ import annotations

from dataclasses import field, replace
import functools
import gc
import logging
import math
import re
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from urdf_link_tools.budget import AnalysisInterrupted, Budget, TIME_BUDGET
from urdf_link_tools.checks import INCOMPLETE_RULE, INTERNAL_RULE, run_checks
from urdf_link_tools.checks.base import CheckContext
from urdf_link_tools.checks.collisions import (joined_wanted, OVERLAPS_MEMO, overlaps_report,
                                               overlaps_wanted, surfaces_wanted)
from urdf_link_tools.checks.engines import COVERED_NOTES
from urdf_link_tools.checks.mirrors import (co_listed, co_owners, merge_mirrors,
                                            MIRROR_LINKS_KEY)
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Finding, listed, Severity, sort_key, TEMPLATE_VALUE, \
    worst_severity
from urdf_link_tools.geometry import Bounds, element_bounds, union_bounds
from urdf_link_tools.meshes import MeshInfo, MeshLibrary, MeshProblem, MeshResult
from urdf_link_tools.meshes.aside import Aside, base_dir, robot_files
from urdf_link_tools.model import GeometryElement, Mesh, Robot
from urdf_link_tools.records import record
from urdf_link_tools.targets import severity_for

LOG = logging.getLogger(__name__)


@record
class Analysis:
    """
    The findings about one robot, with the meshes they were computed from.

    ``findings`` are sorted errors first (:func:`~urdf_link_tools.findings.sort_key`) and
    already filtered by ``config.ignore_rules``; the parser's notes are among them.
    """

    robot: Robot
    config: CheckConfig
    findings: Tuple[Finding, ...]
    meshes: Mapping[int, MeshResult] = field(default_factory=dict, repr=False,
                                             compare=False)

    @functools.cached_property
    def _by_link(self) -> Dict[Optional[str], Tuple[Finding, ...]]:
        # Built once: a service answer or a diagnostics status per link must not scan every
        # finding of a 100,000-link robot.
        # A finding merged with its mirror's (checks.mirrors) is the mirror link's own too,
        # and its fore-aft counterparts'.
        grouped: Dict[Optional[str], list] = {}
        for finding in self.findings:
            grouped.setdefault(finding.link, []).append(finding)
            for owner in co_owners(finding):
                grouped.setdefault(owner, []).append(finding)
        return {link: tuple(items) for link, items in grouped.items()}

    def link_findings(self, name: str) -> Tuple[Finding, ...]:
        """Return the findings about one link."""
        return self._by_link.get(name, ())

    @functools.cached_property
    def _listing(self) -> Dict[str, Tuple[Finding, ...]]:
        # Each link's grouped findings (one finding listing it in ``links``), built once; and
        # the pair findings that name it as the other link (an overlap at rest of two links
        # is about both: a planner asking about the right finger gets the fingers' overlap).
        listing: Dict[str, list] = {}
        for finding in self.findings:
            names = finding.links
            values = dict(finding.values) if finding.values else {}
            if not names:
                # a pair's other link, and the others of its mirror and fore-aft pairs
                # (checks.mirrors)
                other = values.get('other_link')
                names = ((other,) if isinstance(other, str) and other else ()) + \
                    co_listed(finding)
            if values.get(MIRROR_LINKS_KEY):  # those its mirror overlaps (checks.mirrors)
                names += tuple(values[MIRROR_LINKS_KEY].split(', '))
            owners = (finding.link,) + co_owners(finding)
            for name in dict.fromkeys(names):
                if name not in owners:
                    listing.setdefault(name, []).append(finding)
        return {name: tuple(items) for name, items in listing.items()}

    def concerned_links(self) -> Set[str]:
        """Return the links some finding is about: its own, or listed in a grouped one."""
        # Links of the robot only: a joint naming a link that does not exist is about that
        # name (urdfdom's autogenerated.urdf read "in 18 of 9 links")
        names = {name for name in self._by_link
                 if name is not None and self.robot.link(name) is not None}  # mirrors too
        names.update(name for name in self._listing if self.robot.link(name) is not None)
        return names

    def findings_about(self, name: str) -> Tuple[Finding, ...]:
        """
        Return the findings about one link and the grouped ones that list it.

        A finding for many links (one package's missing meshes, an envelope overlapping
        several links) belongs to the robot or to one link, and lists the others in
        ``links``: a planner asking about one of them gets it too.
        """
        return self.link_findings(name) + self._listing.get(name, ())

    def robot_findings(self) -> Tuple[Finding, ...]:
        """Return the findings about the robot as a whole (no link)."""
        return tuple(finding for finding in self.findings if finding.link is None)

    def counts(self) -> Dict[str, int]:
        """Return the number of findings per severity: error, warning, info."""
        counts = {severity.label: 0 for severity in
                  (Severity.ERROR, Severity.WARNING, Severity.INFO)}
        for finding in self.findings:
            counts[finding.severity.label] += 1
        return counts

    def rule_counts(self) -> Dict[str, int]:
        """Return the number of findings per rule id, most frequent first."""
        counts: Dict[str, int] = {}
        for finding in self.findings:
            counts[finding.rule] = counts.get(finding.rule, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def worst(self, link_name: Optional[str] = None) -> Optional[Severity]:
        """
        Return the worst severity for one link (or the whole robot when None).

        A link's worst counts the findings about several links that list it
        (:meth:`findings_about`): its meshes' missing package, an envelope overlapping it.
        """
        if link_name is None:
            return worst_severity(self.findings)
        return worst_severity(self.findings_about(link_name))

    def mesh_for(self, element: GeometryElement) -> Optional[MeshResult]:
        """Return the loaded mesh or the problem for a mesh element, None otherwise."""
        return self.meshes.get(id(element))

    def element_bounds(self, element: GeometryElement) -> Optional[Bounds]:
        """Return an element's axis-aligned bounds in its link frame, None when unknown."""
        mesh = self.mesh_for(element)
        return element_bounds(element, mesh if isinstance(mesh, MeshInfo) else None)

    def group_bounds(self, link_name: str, group: str) -> Optional[Bounds]:
        """
        Return the bounds of all elements of one group of a link, in the link frame.

        :param link_name: the link
        :param group: 'visual', 'collision' or a custom tag
        :return: (min, max) or None when the link or the bounds are unknown
        """
        link = self.robot.link(link_name)
        if link is None:
            return None
        return union_bounds([self.element_bounds(element) for element in link.group(group)])


def load_meshes(robot: Robot, library: MeshLibrary, budget: Optional[Budget] = None,
                processes: int = 1, ahead: Optional[Aside] = None,
                between: Optional[Callable[[], None]] = None) -> Dict[int, MeshResult]:
    """
    Load the mesh of every visual, collision and custom element.

    :param robot: the robot
    :param library: the mesh library (shared cache)
    :param budget: checked before each file
    :param processes: 2 shares reading the files (and measuring the collision meshes)
        with a forked child (:meth:`.MeshLibrary.read_aside`): for a one-robot check in a
        single-threaded process, never with a budget
    :param ahead: a reading child started on this robot before the analysis (by
        :func:`.aside.start_robot`, when ``processes`` is 2), whose answers are adopted
    :param between: with ``ahead``, called once the collision meshes are read here, while
        the child reads on (see :meth:`.aside.Aside.claims`)
    :return: results keyed by ``id(element)``
    :raises AnalysisInterrupted: when the budget says stop
    """
    if processes > 1 and budget is None:
        try:
            if ahead is not None:
                library.adopt_aside(ahead, between)
            else:
                folder = base_dir(robot)
                library.read_aside([(name, folder, measure)
                                    for name, measure in robot_files(robot)])
        except Exception:  # only a head start: the loop below loads (and reports) every file
            LOG.exception('reading meshes in a child process failed')
    elif ahead is not None:
        ahead.cancel()
    return load_elements(robot, library, budget, ('visuals', 'collisions', 'custom'))


def load_elements(robot: Robot, library: MeshLibrary, budget: Optional[Budget],
                  groups: Sequence[str]) -> Dict[int, MeshResult]:
    """Load the meshes of some groups of elements of every link (see :func:`load_meshes`)."""
    folder = base_dir(robot)
    results: Dict[int, MeshResult] = {}
    # A robot names the same file many times (visual and collision, left and right): one
    # resolution, stat and cache lookup per file and scale within this analysis.
    seen: Dict[Tuple[str, Tuple[float, float, float]], MeshResult] = {}
    for link in robot.links:
        for element in [element for group in groups for element in getattr(link, group)]:
            geometry = element.geometry
            if not isinstance(geometry, Mesh):
                continue
            if not all(math.isfinite(v) for v in geometry.scale):
                continue  # geometry-not-finite says it
            key = (geometry.filename, geometry.scale)
            result = seen.get(key)
            if result is None:
                if budget is not None:
                    budget.check()
                try:
                    result = library.load(geometry.filename, geometry.scale, folder)
                except Exception as exc:  # the library should not raise; never let it escape
                    # The traceback at DEBUG level, as for a check that fails (--verbose).
                    LOG.error('loading %s failed: %s', geometry.filename, exc)
                    LOG.debug('loading %s failed', geometry.filename, exc_info=exc)
                    result = MeshProblem(
                        'mesh-unreadable', f'{geometry.filename}: unexpected error: {exc}')
                seen[key] = result
            results[id(element)] = result
    return results


def _overlaps_aside(ctx: CheckContext) -> None:
    """
    Compute the overlaps at rest in a forked child while this process runs the other checks.

    They are the costliest check of a robot with collision meshes (30-60 ms for a humanoid)
    and need nothing the other checks compute; :func:`.run_checks` runs their check last,
    which takes the pairs the child has not reached yet and then the child's answer (or
    tests every pair itself when the child failed: :mod:`.collision.shared`). Not when they
    were computed while the meshes were read, or are ignored.
    """
    if OVERLAPS_MEMO in ctx.memo or not overlaps_wanted(ctx.config) or \
            not any(link.collisions for link in ctx.robot.links):
        return
    from urdf_link_tools.collision import shared
    started = shared.start(ctx.robot, ctx.meshes, surfaces_wanted(ctx.config),
                           joined_wanted(ctx.config))
    if started is not None:
        ctx.memo[OVERLAPS_MEMO] = started


def _early_overlaps(robot: Robot, config: CheckConfig, library: MeshLibrary,
                    memo: Dict[Tuple[str, object], object]) -> Optional[Callable[[], None]]:
    """
    Return what computes the overlaps at rest into ``memo`` once the collision meshes are read.

    The overlaps need only the collision meshes: computed while the reading child still
    reads the visual ones, they are not left for after it. Whatever fails here is left to
    the check, which computes them again (and reports its failure).
    """
    if not overlaps_wanted(config):
        return None

    def between() -> None:
        try:
            memo[OVERLAPS_MEMO] = overlaps_report(
                robot, load_elements(robot, library, None, ('collisions',)),
                surfaces_wanted(config), joined_wanted(config))
        except Exception:
            LOG.debug('overlaps at rest left to the check', exc_info=True)
    return between


#: what differs between two places of one parse problem: the line of the element used, and
#: how many repeats an element holds (an exporter writing 2 <material> here, 5 there)
_PLACE = re.compile(r' \(line \d+\)')
_COUNT = re.compile(r'^(<[^>]+> has )(\d+)( <[^>]+> elements)')
#: a joint's name in a note about it (kuavo's exporter writes <dynamic> in all 30 joints:
#: 15 warnings, mirrors folded), set aside as a place is
_JOINT_NAMED = re.compile(r" in <joint> '[^']*'")


def grouped_notes(notes: Sequence[Finding], least: int = 3) -> List[Finding]:
    """
    Report the same parse problem on many links once, on the robot, listing the links.

    A generator or exporter that writes, say, every ``<material>`` without a name repeats
    one choice on 55 links: that is one finding (as the model-wide rules do), with the
    links in ``links`` and the line of the first. Fewer than ``least`` stay per link. The
    line a note cites and a count of repeated elements are set aside (an exporter's two
    ``<material>`` in each leg's ``<visual>`` and five in the base's are one choice).
    """
    groups: Dict[Tuple[str, Severity, str, Optional[str], Optional[str]], List[Finding]] = {}
    counts: Dict[int, int] = {}
    for note in notes:
        if note.link is None:
            continue
        own = f"in link '{note.link}': "
        text = note.message[len(own):] if note.message.startswith(own) else \
            note.message.replace(f" in link '{note.link}'", '', 1)
        text = _JOINT_NAMED.sub(' in <joint>', _PLACE.sub('', text))
        count = _COUNT.match(text)
        if count is not None:
            counts[id(note)] = int(count.group(2))
            text = _COUNT.sub(r'\1#\3', text, 1)
        groups.setdefault((note.rule, note.severity, text, note.element, note.suggestion),
                          []).append(note)
    merged: Dict[int, Finding] = {}
    dropped = set()
    for (rule, severity, text, element, suggestion), group in groups.items():
        if len(group) < least:
            continue
        numbers = sorted({counts[id(note)] for note in group if id(note) in counts})
        if numbers:
            text = text.replace('#', str(numbers[0]) if len(numbers) == 1 else
                                f'{numbers[0]} to {numbers[-1]}', 1)
        links = tuple(dict.fromkeys(note.link for note in group))  # type: ignore[misc]
        first = group[0]
        merged[id(first)] = Finding(
            rule=rule, severity=severity, element=element, line=first.line,
            message=f'{text} (the same in {len(group)} places, on {len(links)} links: '
                    f'{listed(links)})',
            suggestion=suggestion, values=first.values, links=links)
        dropped.update(id(note) for note in group[1:])
    return [merged.get(id(note), note) for note in notes if id(note) not in dropped]


def _incomplete(budget: Budget, stage: str) -> Finding:
    return Finding(
        rule=INCOMPLETE_RULE.rule_id, severity=INCOMPLETE_RULE.severity,
        message=f'the analysis took longer than its time budget of {budget.seconds:g} s and '
                f'stopped while {stage}: the findings shown are those found so far',
        suggestion='raise the analysis_time_budget parameter, or check the robot with '
                   'urdf-link-tools check')


def cap_findings(findings: List[Finding], limit: int) -> Tuple[Finding, ...]:
    """
    Keep the first ``limit`` findings of each rule and count the rest in one more finding.

    A hostile or generated description can make one rule fire for each of 100k links;
    the listing, the JSON report and /diagnostics stay bounded, and the count says what
    was left out.

    :param findings: sorted findings (the most severe first)
    :param limit: findings listed per rule
    :return: the kept findings followed by one summary per capped rule, in sort order
    """
    seen: Dict[str, int] = {}
    dropped: Dict[str, List[Finding]] = {}
    kept: List[Finding] = []
    for finding in findings:
        count = seen.get(finding.rule, 0)
        seen[finding.rule] = count + 1
        if count < limit:
            kept.append(finding)
        else:
            dropped.setdefault(finding.rule, []).append(finding)
    if not dropped:
        return tuple(kept)
    for rule, rest in dropped.items():
        worst = worst_severity(rest)
        kept.append(Finding(
            rule=rule, severity=worst,
            message=f'{len(rest)} more {rule} findings are not listed (the first {limit} are; '
                    f'{len(rest) + limit} in all)',
            suggestion='fix the listed ones and check again, or raise max_findings_per_rule',
            values=(('not_listed', str(len(rest))), ('limit', str(limit)))))
    return tuple(sorted(kept, key=sort_key))


def analyze(robot: Robot, config: CheckConfig = CheckConfig(),
            meshes: Optional[MeshLibrary] = None,
            budget: Optional[Budget] = None, read_processes: int = 1,
            ahead: Optional[Aside] = None) -> Analysis:
    """
    Analyse every link of a robot.

    :param robot: the parsed robot
    :param config: thresholds and switches
    :param meshes: a mesh library to reuse (its cache and package directories); by
        default one is made from ``config.package_dirs`` and ``config.mesh_max_bytes``
    :param budget: a time budget; when it runs out, the analysis holds the findings so far
        and an ``analysis-incomplete`` finding
    :param read_processes: 2 lets a forked child read (and measure) some of the meshes
        (see :func:`load_meshes`); the default reads everything in this process
    :param ahead: with ``read_processes`` 2, a child reading this robot's meshes since
        before the analysis was imported (:func:`.aside.start_robot`)
    :return: the analysis
    :raises AnalysisInterrupted: when the budget was cancelled (a newer robot replaces this)
    """
    results: Dict[int, MeshResult] = {}
    found: list = []
    early: Dict[Tuple[str, object], object] = {}
    if 'xacro-unexpanded' not in config.ignore_rules and any(
            TEMPLATE_VALUE in note.values for note in robot.notes):
        # A xacro template read as URDF: its values are fallbacks, nothing to judge.
        return _finish(robot, config, grouped_notes(robot.notes), results)
    try:
        if config.check_meshes:
            library = meshes if meshes is not None else MeshLibrary(
                package_dirs=dict(config.package_dirs), max_bytes=config.mesh_max_bytes)
            between = _early_overlaps(robot, config, library, early) if ahead else None
            results = load_meshes(robot, library, budget, read_processes, ahead, between)
    except AnalysisInterrupted as exc:
        if exc.reason != TIME_BUDGET:
            raise
        return _finish(robot, config, grouped_notes(robot.notes)
                       + [_incomplete(budget, 'loading meshes')], results)
    ctx = CheckContext(robot, config, results)
    ctx.memo.update(early)
    if read_processes > 1 and budget is None and config.check_meshes:
        _overlaps_aside(ctx)
    # The checks allocate many small objects and no reference cycles, while the robot just
    # parsed (with the collector paused) is still in the youngest generation: a collection
    # now would walk the whole model. Pausing the collector, as parse_urdf_string does,
    # saves that walk when the model is short-lived and only defers it otherwise.
    enabled = gc.isenabled()
    gc.disable()
    try:
        if budget is None:
            run_checks(ctx, found)
        else:
            with budget.interruptible():
                run_checks(ctx, found)
    except AnalysisInterrupted as exc:
        if exc.reason != TIME_BUDGET:
            raise
        found.append(_incomplete(budget, 'running the checks'))
    finally:
        if enabled:
            gc.enable()
        pending = ctx.memo.get(OVERLAPS_MEMO)
        if hasattr(pending, 'cancel'):  # a child whose answer was not taken (no-op if it was)
            pending.cancel()  # type: ignore[union-attr]
    # A repeated child MuJoCo refuses is said once, by its MuJoCo finding (checks.engines).
    covered = ctx.memo.get(COVERED_NOTES, frozenset())
    notes = [_for_targets(note, config) for note in robot.notes
             if id(note) not in covered]  # type: ignore[operator]
    # A left link and its right mirror with the same fault: one finding (checks.mirrors),
    # the parser's notes too (one line of a wheel macro, called for each side: diffbot).
    found = merge_mirrors(grouped_notes(notes) + found, [link.name for link in robot.links])
    return _finish(robot, config, found, results)


def _for_targets(note: Finding, config: CheckConfig) -> Finding:
    """
    Return a parse note that one engine refuses as an error when that engine is a target.

    A fixed joint's malformed axis: urdfdom skips it, MuJoCo refuses the robot; an error
    with the mujoco target, an info (a typo nothing selected reads) without. A malformed
    colour: a warning without it (urdfdom logs it and goes on).
    """
    engine = dict(note.values).get('refused_by') if note.values else None
    if engine is None or severity_for(config.targets, {engine: Severity.ERROR}) is None:
        return note
    return replace(note, severity=Severity.ERROR)


def _finish(robot: Robot, config: CheckConfig, findings: list,
            results: Dict[int, MeshResult]) -> Analysis:
    # A failure of this tool is never ignored: it is not a finding about the robot.
    ignored = set(config.ignore_rules) - {INTERNAL_RULE.rule_id}
    kept = cap_findings(sorted((finding for finding in findings if finding.rule not in ignored),
                               key=sort_key), config.max_findings_per_rule)
    return Analysis(robot=robot, config=config, findings=kept, meshes=results)
