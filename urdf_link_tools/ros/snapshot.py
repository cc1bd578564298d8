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
The node's state as one immutable value: an analysis and every message derived from it.

A :class:`Snapshot` is built off the executor thread and then swapped in with one reference
assignment, so a service call, the diagnostics timer and the COM timer each read one
consistent model. Building it needs messages but no node: the tests build snapshots
without a ROS context. What the services answer about it (the link table, the robot-wide
findings, the names' index, a mesh's triangles) is built once, on first use, and kept in its
:class:`Answers`: on a robot of 100,000 links a call costs the sending, not the building.
"""

from __future__ import annotations

from dataclasses import field, replace
import threading
from typing import Any, Callable, Dict, FrozenSet, Optional, Tuple, Union

from diagnostic_msgs.msg import DiagnosticStatus
from urdf_link_tools.analysis import Analysis, analyze
from urdf_link_tools.budget import Budget
from urdf_link_tools.errors import UrdfError, UrdfInputError
from urdf_link_tools.findings import Finding
from urdf_link_tools.kinematics import ACTUATED, choose_root
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.model import Robot
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.records import record
from urdf_link_tools.ros import collision_matrix, conversions
from urdf_link_tools.ros.diagnostics import analysis_statuses, description_error_status
from urdf_link_tools.ros.diagnostics import robot_summary, RobotSummary
from urdf_link_tools.ros.markers import link_markers
from urdf_link_tools.ros.names import NameIndex
from urdf_link_tools.ros.parameters import NodeSettings
from visualization_msgs.msg import MarkerArray

TOPIC_SOURCE = 'robot_description topic'
#: collision matrices a snapshot keeps (one per samples and seed asked)
MAX_KEPT_MATRICES = 8


class Answers:
    """
    The parts of service answers about one analysis, each built once on first use.

    Each part has its own lock, so that building the triangles of a big mesh never holds up
    a list_links answer; a second caller of the same part waits for the first one's result
    rather than building it again.

    :param analysis: the analysis
    :param triangles_max: the most triangles one mesh answer holds
    """

    def __init__(self, analysis: Analysis, triangles_max: Optional[int] = None) -> None:
        self._analysis = analysis
        self._build_triangles = conversions.triangles_for(triangles_max)
        self._locks: Dict[str, threading.Lock] = {
            name: threading.Lock() for name in ('links', 'robot', 'names', 'triangles',
                                                'geometry', 'findings', 'matrix')}
        self._values: Dict[Any, Any] = {}

    def _once(self, lock: str, key: Any, build: Callable[[], Any]) -> Any:
        value = self._values.get(key)
        if value is None:
            with self._locks[lock]:
                value = self._values.get(key)
                if value is None:
                    value = build()
                    self._values[key] = value
        return value

    def list_links(self) -> Tuple[str, str, list]:
        """Return what every ListLinks answer holds: message, root link and rows."""
        return self._once('links', 'links',
                          lambda: conversions.list_links_answer(self._analysis))

    def robot_findings(self) -> tuple:
        """Return the findings about no existing link."""
        return self._once('robot', 'robot',
                          lambda: conversions.robot_level_findings(self._analysis))

    def names(self) -> NameIndex:
        """Return the index of the link names, for "did you mean" answers."""
        return self._once('names', 'names',
                          lambda: NameIndex(self._analysis.robot.link_names))

    def link_geometry(self, link_name: str, group: str, with_triangles: bool,
                      build: Callable[[], Any]) -> Any:
        """
        Return the GetLinkGeometry response of a link, built once per analysis.

        The response message itself is kept and served to every later caller (rclpy only
        reads it to send it): a call costs a lookup, not a conversion of the link. Answers
        about names that are not links, or groups a link does not have, are built per call,
        so that no request can grow the store.

        :param link_name: the link asked for
        :param group: the group asked for ('' is 'collision')
        :param with_triangles: whether the meshes' triangles are asked for
        :param build: builds the response
        """
        link = self._analysis.robot.link(link_name)
        group = group.strip() or 'collision'
        if link is None or group not in conversions.link_groups(link):
            return build()
        return self._once('geometry', ('geometry', link.name, group, bool(with_triangles)),
                          build)

    def link_findings(self, link_name: str, build: Callable[[], Any]) -> Any:
        """Return the GetLinkFindings response of a link ('' the robot), built once."""
        if link_name and self._analysis.robot.link(link_name) is None:
            return build()
        return self._once('findings', ('findings', link_name), build)

    def collision_matrix(self, samples: int, seed: int) -> tuple:
        """
        Return the collision matrix for (samples, seed) (:mod:`..collision_matrix`).

        The first few are kept; a client trying seed after seed gets each one computed.
        """
        key = ('matrix', samples, seed)
        value = self._values.get(key)
        if value is not None:
            return value
        # One matrix at a time, and no request waits for another's: four requests for
        # different seeds held the node's four executor threads for minutes, and its
        # diagnostics and parameter services with them (ninth red-team review).
        if not self._locks['matrix'].acquire(blocking=False):
            return None, collision_matrix.BUSY, 0.0
        try:
            value = self._values.get(key)
            if value is not None:
                return value
            value = collision_matrix.compute(self._analysis, samples, seed)
            kept = sum(1 for item in self._values
                       if isinstance(item, tuple) and item[0] == 'matrix')
            if kept < MAX_KEPT_MATRICES:
                self._values[key] = value
            return value
        finally:
            self._locks['matrix'].release()

    def triangles(self, element, mesh_result) -> Tuple[Any, str]:
        """Return the mesh of one element (None when left out), and why it was left out."""
        return self._once('triangles', ('triangles', id(element)),
                          lambda: self._build_triangles(element, mesh_result))


#: findings -> the same findings located where they are written (file, line, macro chain)
Locate = Callable[[Tuple[Finding, ...]], Tuple[Finding, ...]]


@record
class Snapshot:
    """
    One analysed description and what the node publishes and serves about it.

    :param analysis: the analysis (its ``robot`` is the model in service)
    :param settings: the settings it was built with
    :param root: the root link, frame of the whole-robot COM
    :param markers: the per-link markers, DELETEALL first
    :param link_statuses: one diagnostic status per link
    :param source: where the description came from (a path or the topic)
    :param generation: counts the snapshots the node made, to notice a new one
    :param summary: the unchanging part of the robot's diagnostic status
    :param answers: the service answers' parts, built on first use
    """

    analysis: Analysis
    settings: NodeSettings
    root: str
    markers: MarkerArray
    link_statuses: Tuple[DiagnosticStatus, ...]
    source: str
    generation: int
    summary: Optional[RobotSummary] = field(default=None, compare=False, repr=False)
    answers: Optional[Answers] = field(default=None, compare=False, repr=False)
    #: maps the findings to where they are written (xacro sources); None: the lines as parsed
    locate: Optional[Locate] = field(default=None, compare=False, repr=False)
    #: the names of the joints that move (revolute, continuous, prismatic): the positions of
    #: joint_states the node keeps
    moving_joints: FrozenSet[str] = field(default=frozenset(), compare=False, repr=False)

    @property
    def robot(self) -> Robot:
        """Return the model in service."""
        return self.analysis.robot


@record
class Rejection:
    """A description that could not be used, and why."""

    error: str
    line: Optional[int]
    source: str

    def status(self, kept_robot: Optional[str], prefix: str) -> DiagnosticStatus:
        """Return the ERROR diagnostic that reports it."""
        return description_error_status(self.error, self.line, self.source, kept_robot,
                                        prefix)


def parse_description(data: Union[str, bytes], source: Optional[str],
                      max_bytes: int = DESCRIPTION_MAX_BYTES) -> Robot:
    """
    Parse a description; a thin seam for the tests.

    A description larger than ``max_bytes`` is refused before parsing, with the limit files
    have (:func:`urdf_link_tools.loading.load_description`): on the topic it would
    otherwise be parsed and analysed whatever its size.

    :param data: URDF text or bytes
    :param source: file path, or None for the topic
    :param max_bytes: the size limit
    :return: the model
    :raises UrdfError: when it is too large or cannot be parsed (the error carries the line)
    """
    # A str has at most 4 bytes per character: encode only when that could matter.
    size = len(data) if isinstance(data, bytes) or 4 * len(data) <= max_bytes else \
        len(data.encode('utf-8', 'surrogatepass'))
    if size > max_bytes:
        raise UrdfInputError(
            f'the robot description is {size / 1e6:.1f} MB, larger than the limit of '
            f'{max_bytes / 1e6:.1f} MB: is it really a robot description?')
    return parse_urdf_string(data, source)


def mesh_library(settings: NodeSettings) -> MeshLibrary:
    """Return a mesh library for the settings' package directories and size limit."""
    return MeshLibrary(package_dirs=dict(settings.check.package_dirs),
                       max_bytes=settings.check.mesh_max_bytes)


def build_snapshot(robot: Robot, settings: NodeSettings, meshes: Optional[MeshLibrary],
                   generation: int, prefix: str,
                   previous: Optional[Snapshot] = None,
                   budget: Optional[Budget] = None,
                   locate: Optional[Locate] = None) -> Snapshot:
    """
    Analyse a robot (or reuse the previous analysis) and derive every message.

    The analysis is reused when the robot and the checker's configuration are the ones of
    ``previous``: a change of marker options only redraws.

    :param robot: the model
    :param settings: the node's settings
    :param meshes: the mesh library to load meshes with
    :param generation: the number of this snapshot
    :param prefix: the diagnostic name prefix (the node name)
    :param previous: the snapshot in service, if any
    :param budget: the analysis' time budget (see :func:`urdf_link_tools.analysis.analyze`)
    :param locate: maps findings to the file and line where they are written (a xacro
        file's source map); None keeps the previous snapshot's for the same robot
    :return: the new snapshot
    :raises AnalysisInterrupted: when the budget was cancelled
    """
    if locate is None and previous is not None and previous.robot is robot:
        locate = previous.locate
    if previous is not None and previous.robot is robot and \
            previous.settings.check == settings.check:
        analysis = previous.analysis
    else:
        analysis = analyze(robot, settings.check, meshes, budget)
        if locate is not None:
            analysis = replace(analysis, findings=locate(analysis.findings))
    answers = Answers(analysis, settings.mesh_triangles_max)
    return Snapshot(
        analysis=analysis, settings=settings, root=choose_root(robot) or '',
        markers=link_markers(analysis, settings.markers),
        link_statuses=tuple(analysis_statuses(analysis, prefix,
                                              settings.diagnostics_max_link_statuses)),
        source=robot.source or TOPIC_SOURCE, generation=generation,
        summary=robot_summary(analysis, answers.robot_findings()), answers=answers,
        locate=locate, moving_joints=frozenset(
            joint.name for joint in robot.joints
            if joint.type in ACTUATED))


def rejection_from_error(error: Exception, source: Optional[str]) -> Rejection:
    """Describe why a description was refused; the line comes from a :class:`UrdfError`."""
    line = error.line if isinstance(error, UrdfError) else None
    text = str(error) if isinstance(error, UrdfError) else \
        f'internal error while analysing ({type(error).__name__}: {error})'
    return Rejection(error=text, line=line, source=source or TOPIC_SOURCE)
