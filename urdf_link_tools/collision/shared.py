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
The overlaps at rest tested by a forked child and, when it is not done, by this process too.

A one-robot check forks a child that tests the pairs of links at rest while this process
runs the other checks (``analysis._overlaps_aside``). When those checks end before the
child, this process takes the pairs the child has not reached (Romeo: 30 ms of checks beside
55 ms of overlaps). The pair numbers wait in a queue, a pipe of 4-byte indices as for the
reading child's files (:mod:`.meshes.aside`), that each process takes from when it is free.
Each process makes the same plan of pairs (:class:`.overlap.OverlapPlan`, deterministic,
from the same model and meshes): this one only when a pair is left for it (the child tells
how many pairs there are as soon as its plan is made), and it imports the collision modules
only then. The report is the same whoever tested a pair; a child that fails leaves the pairs
it took to this process.
"""

from __future__ import annotations

import itertools
import os
import struct
from typing import Any, Iterator, List, Mapping, Optional, Tuple, TYPE_CHECKING

from urdf_link_tools.meshes import elsewhere
from urdf_link_tools.meshes.aside import claim, index_queues
from urdf_link_tools.model import Robot

if TYPE_CHECKING:  # the collision modules are imported where pairs are tested
    from urdf_link_tools.collision.overlap import Overlap, OverlapPlan

#: a pipe holds 64 kB: pairs numbered beyond this are the child's (at most 20,000 are tested)
QUEUED_MAX = 16_384

#: the number of pairs, which the child tells as soon as its plan is made
_COUNT = struct.Struct('<I')


def _plan(robot: Robot, meshes: Mapping[int, object], surfaces: bool,
          joined: bool) -> 'OverlapPlan':
    """Return the plan of pairs (the same in the child and here, made from the same data)."""
    from urdf_link_tools.collision.adjacency import welded_base
    from urdf_link_tools.collision.bodies import build_bodies
    from urdf_link_tools.collision.overlap import OverlapPlan

    bodies, _ = build_bodies(robot, meshes)
    # The hulls' depth is the measure (surfaces not asked for) where MuJoCo is a target:
    # then a pair whose hulls only meet is a contact too.
    return OverlapPlan(robot, bodies, surfaces=surfaces, joined=joined, hulls=not surfaces,
                       welded=welded_base(robot, meshes) if joined else None)


def _claims(queue: int, count: int) -> Iterator[int]:
    """Yield the pair numbers taken from a queue, until it is empty or past ``count``."""
    number = claim(queue)
    while number is not None and number < count:
        yield number
        number = claim(queue)


def _claim_and_test(robot: Robot, meshes: Mapping[int, object], queue: int, queued: int,
                    told: int, surfaces: bool,
                    joined: bool) -> Any:  # pragma: no cover (in the child)
    """
    Test the pairs taken from the queue and those past it (in the child).

    :param told: where to write the number of pairs once the plan is made (then closed)
    :return: (pairs tested, truncated, [(number, overlap) of the pairs tested here]), or
        the CollisionLibraryMissing
    """
    from urdf_link_tools.collision.bodies import CollisionLibraryMissing
    try:
        try:
            plan = _plan(robot, meshes, surfaces, joined)
        except CollisionLibraryMissing as exc:
            return exc
        os.write(told, _COUNT.pack(len(plan.pairs)))
    finally:
        os.close(told)
    found = list(plan.test(_claims(queue, len(plan.pairs))))
    found += plan.test(range(queued, len(plan.pairs)))
    return plan.tested, plan.truncated, found


class SharedOverlaps:
    """
    Pairs tested by a forked child and, from :meth:`collect` on, by this process.

    Stands where a forked child stands in ``CheckContext.memo``: ``collect()`` answers a
    one-element list holding the report (or the CollisionLibraryMissing), ``cancel()`` stops
    the child.
    """

    def __init__(self, robot: Robot, meshes: Mapping[int, object], queue: int, told: int,
                 child: elsewhere.Child, surfaces: bool = False, joined: bool = False) -> None:
        self.robot = robot
        self.meshes = meshes
        self.surfaces = surfaces
        self.joined = joined
        self.child = child
        self._ends: List[int] = [queue, told]
        self._collected = False

    def collect(self) -> Optional[List[object]]:
        """Take the pairs left when the child is not done, then the child's answer."""
        if self._collected:
            return None
        self._collected = True
        plan: Optional['OverlapPlan'] = None
        mine: List[Tuple[int, 'Overlap']] = []
        try:
            if not self.child.ready():
                plan, mine = self._take_left()
        except BaseException:
            self.cancel()
            raise
        finally:
            self._close()
        answers = self.child.collect()
        theirs = answers[0] if answers else None
        if isinstance(theirs, Exception):  # CollisionLibraryMissing
            return [theirs]
        if theirs is None:  # it failed: the pairs it took are lost, so all are tested here
            plan = plan if plan is not None else \
                _plan(self.robot, self.meshes, self.surfaces, self.joined)
            done = {number for number, _ in mine}
            mine += plan.test(number for number in range(len(plan.pairs))
                              if number not in done)
            return [plan.report(overlap for _, overlap in mine)]
        from urdf_link_tools.collision.overlap import report_of

        tested, truncated, found = theirs
        return [report_of((overlap for _, overlap in mine + found), tested, truncated)]

    def _take_left(self) -> Tuple[Optional['OverlapPlan'], List[Tuple[int, 'Overlap']]]:
        """Test the pairs the child has not taken; the plan only if there is one left."""
        queue, told = self._ends
        data = os.read(told, _COUNT.size)  # the child's plan is made (or it failed)
        if len(data) != _COUNT.size:
            return None, []
        count = _COUNT.unpack(data)[0]
        first = claim(queue)
        if first is None or first >= count:
            return None, []  # the child has taken every pair
        plan = _plan(self.robot, self.meshes, self.surfaces, self.joined)
        return plan, list(plan.test(itertools.chain([first], _claims(queue, count))))

    def cancel(self) -> None:
        """Stop the child (if its answer was not taken) and close the pipes."""
        self.child.cancel()
        self._close()

    def _close(self) -> None:
        while self._ends:
            _close(self._ends.pop())


def _close(descriptor: int) -> None:
    try:
        os.close(descriptor)
    except OSError:
        pass


def start(robot: Robot, meshes: Mapping[int, object],
          surfaces: bool = False, joined: bool = False) -> Optional[SharedOverlaps]:
    """
    Fork a child testing a robot's pairs at rest from a queue; None when it cannot start.

    :param robot: the model
    :param meshes: its loaded meshes (an analysis' ``meshes``)
    :param surfaces: measure the surfaces' depth too (see :class:`.overlap.OverlapPlan`)
    :param joined: test the adjacent pairs MuJoCo collides too (the same)
    """
    if not elsewhere.can_fork():
        return None
    # At most every pair of links with collision geometry; the numbers past a plan's pairs
    # are passed over by both processes.
    count = sum(1 for link in robot.links if link.collisions)
    queued = min(count * (count - 1) // 2, QUEUED_MAX)
    if queued == 0:
        return None  # no pair: nothing worth a child
    queues, rest = index_queues([list(range(queued))])
    if queues is None:
        return None
    queued -= len(rest)  # those that did not fit: the child's, as the numbers past the queue
    try:
        told_here, told = os.pipe()
    except OSError:
        _close(queues[0])
        return None
    child = elsewhere.start(_claim_and_test,
                            [(robot, meshes, queues[0], queued, told, surfaces, joined)])
    _close(told)  # the child's end: its exit closes the last copy (no count: it failed)
    shared = SharedOverlaps(robot, meshes, queues[0], told_here, child,  # type: ignore
                            surfaces, joined)
    if child is None:
        shared._close()
        return None
    return shared
