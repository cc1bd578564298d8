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
from the same model and meshes); this one only when the child is not done, so a child that
ends first costs this process nothing. The report is the same whoever tested a pair; a
child that fails leaves the pairs it took to this process.
"""

import os
from typing import Iterator, List, Mapping, Optional, Tuple, Union

from urdf_link_tools.collision.bodies import build_bodies, CollisionLibraryMissing
from urdf_link_tools.collision.overlap import (MAX_PAIRS, Overlap, OverlapPlan, OverlapReport,
                                               report_of)
from urdf_link_tools.meshes import elsewhere
from urdf_link_tools.meshes.aside import claim, index_queues
from urdf_link_tools.model import Robot

#: a pipe holds 64 kB: pairs numbered beyond this are the child's (MAX_PAIRS is 20,000)
QUEUED_MAX = 16_384

#: what the child answers: (pairs tested, truncated, (number, overlap) of those it tested)
ChildAnswer = Tuple[int, bool, List[Tuple[int, Overlap]]]


def _plan(robot: Robot, meshes: Mapping[int, object]) -> OverlapPlan:
    """Return the plan of pairs (the same in the child and here, made from the same data)."""
    bodies, _ = build_bodies(robot, meshes)
    return OverlapPlan(robot, bodies)


def _claims(queue: int, count: int) -> Iterator[int]:
    """Yield the pair numbers taken from a queue, until it is empty or past ``count``."""
    number = claim(queue)
    while number is not None and number < count:
        yield number
        number = claim(queue)


def _claim_and_test(robot: Robot, meshes: Mapping[int, object], queue: int,
                    queued: int) -> Union[ChildAnswer, CollisionLibraryMissing]:
    """Test the pairs taken from the queue and those past it (in the child)."""
    try:  # pragma: no cover (runs in the child)
        plan = _plan(robot, meshes)
    except CollisionLibraryMissing as exc:  # pragma: no cover
        return exc
    found = list(plan.test(_claims(queue, len(plan.pairs))))  # pragma: no cover
    found += plan.test(range(queued, len(plan.pairs)))  # pragma: no cover
    return plan.tested, plan.truncated, found  # pragma: no cover


class SharedOverlaps:
    """
    Pairs tested by a forked child and, from :meth:`collect` on, by this process.

    Stands where a forked child stands in ``CheckContext.memo``: ``collect()`` answers a
    one-element list holding the report (or the CollisionLibraryMissing), ``cancel()`` stops
    the child.
    """

    def __init__(self, robot: Robot, meshes: Mapping[int, object], queue: int,
                 child: elsewhere.Child) -> None:
        self.robot = robot
        self.meshes = meshes
        self.child = child
        self._queue: Optional[int] = queue
        self._collected = False

    def collect(self) -> Optional[List[Union[OverlapReport, CollisionLibraryMissing]]]:
        """Take the pairs left when the child is not done, then the child's answer."""
        if self._collected:
            return None
        self._collected = True
        plan: Optional[OverlapPlan] = None
        mine: List[Tuple[int, Overlap]] = []
        try:
            if not self.child.ready():
                plan = _plan(self.robot, self.meshes)
                mine = list(plan.test(_claims(self._queue, len(plan.pairs))))
        except CollisionLibraryMissing as exc:
            self.cancel()
            return [exc]
        except BaseException:
            self.cancel()
            raise
        finally:
            self._close()
        answers = self.child.collect()
        theirs = answers[0] if answers else None
        if isinstance(theirs, CollisionLibraryMissing):
            return [theirs]
        if theirs is None:  # it failed: the pairs it took are lost, so all are tested here
            plan = plan if plan is not None else _plan(self.robot, self.meshes)
            done = {number for number, _ in mine}
            mine += plan.test(number for number in range(len(plan.pairs))
                              if number not in done)
            return [plan.report(overlap for _, overlap in mine)]
        tested, truncated, found = theirs
        return [report_of((overlap for _, overlap in mine + found), tested, truncated)]

    def cancel(self) -> None:
        """Stop the child (if its answer was not taken) and close the queue."""
        self.child.cancel()
        self._close()

    def _close(self) -> None:
        queue, self._queue = self._queue, None
        if queue is not None:
            try:
                os.close(queue)
            except OSError:
                pass


def start(robot: Robot, meshes: Mapping[int, object]) -> Optional[SharedOverlaps]:
    """
    Fork a child testing a robot's pairs at rest from a queue; None when it cannot start.

    :param robot: the model
    :param meshes: its loaded meshes (an analysis' ``meshes``)
    """
    if not elsewhere.can_fork():
        return None
    # At most every pair of links with collision geometry; numbers past a plan's pairs are
    # passed over by both processes.
    count = sum(1 for link in robot.links if link.collisions)
    queued = min(count * (count - 1) // 2, MAX_PAIRS, QUEUED_MAX)
    if queued == 0:
        return None  # no pair: nothing worth a child
    queues, rest = index_queues([list(range(queued))])
    if queues is None:
        return None
    queued -= len(rest)  # those that did not fit: the child's, as the numbers past the queue
    child = elsewhere.start(_claim_and_test, [(robot, meshes, queues[0], queued)])
    shared = SharedOverlaps(robot, meshes, queues[0], child)  # type: ignore[arg-type]
    if child is None:
        shared._close()
        return None
    return shared
