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
The urdf_link_tools node: robot_description in; diagnostics, markers and services out.

It only wires ROS to the pure core. Descriptions are parsed and analysed on a worker thread
(a big robot with meshes takes a while) and the result is swapped in as one immutable
:class:`~urdf_link_tools.ros.snapshot.Snapshot`; the executor keeps answering services
meanwhile. An analysis has a time budget (``analysis_time_budget``) and a newer description
stops the one in progress. Nothing that comes in (a broken description, a bad parameter, a
strange joint state) can stop the node: a bad description leaves the last good model in
service and is reported as an ERROR diagnostic.

The query services (list_links, get_link_geometry, get_link_findings) answer from answers
built once per analysis, so a call costs what rclpy itself costs. :func:`main` serves them
from hidden nodes of their own (:class:`QueryNode`), each spun by an executor of its own
(rclpy's EventsExecutor where rclpy has one, else a single-threaded executor: see
:func:`query_executor`), and everything else (parameters, timers, subscriptions, the
collision matrix) on a multi-threaded executor: a diagnostics array, a parameter request or
a collision matrix never sits in front of a query, and a query's executor holds one or two
services instead of the node's thirty-odd entities (a multi-threaded executor also hands
every callback to a pool thread: measured, that and the wait set cost a query about twice an
empty Trigger's round trip). get_link_geometry has a node and thread of its own because an
answer with the triangles of a big mesh takes a while to build the first time and to send
every time (60,000 triangles: 0.4 s): list_links and get_link_findings never wait behind it,
but other get_link_geometry calls do. Constructed without ``separate_queries``, as the
in-process tests do, the node serves every service itself.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import math
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
import rclpy
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.exceptions import InvalidParameterTypeException
from rclpy.executors import Executor, ExternalShutdownException, MultiThreadedExecutor
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from urdf_link_tools.budget import AnalysisInterrupted, Budget, SUPERSEDED, TIME_BUDGET
from urdf_link_tools.collision.srdf import disabled_pairs, read_srdf
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.kinematics import forward_kinematics, robot_center_of_mass
from urdf_link_tools.limits import SRDF_MAX_BYTES
from urdf_link_tools.loading import load_input
from urdf_link_tools.reports.sanitize import neutralise, one_line
from urdf_link_tools.ros import collision_matrix, conversions
from urdf_link_tools.ros.diagnostics import diagnostic_array, robot_status, status_prefix
from urdf_link_tools.ros.diagnostics import waiting_status
from urdf_link_tools.ros.markers import robot_com_markers
from urdf_link_tools.ros.parameters import DOUBLE, DOUBLE_ARRAY, PARAMETERS, SPECS
from urdf_link_tools.ros.parameters import NodeSettings, settings_from_values, STRING_ARRAY
from urdf_link_tools.ros.parameters import validate_value
from urdf_link_tools.ros.query_node import QueryNode
from urdf_link_tools.ros.snapshot import build_snapshot, mesh_library, parse_description
from urdf_link_tools.ros.snapshot import Rejection, rejection_from_error, Snapshot
from urdf_link_tools.ros.urdf_file import check_urdf_file, package_dirs_refusal, public_error
from urdf_link_tools.ros.urdf_file import start_packages, urdf_roots
from urdf_link_tools.ros.urdf_file import xacro_options
from urdf_link_tools.ros.worker import Job, LatestJobWorker
from urdf_link_tools.srv import GetCollisionMatrix, GetLinkFindings, GetLinkGeometry, ListLinks
from urdf_link_tools.xacro.sandbox import parse_mappings, XACRO_SAYS
from visualization_msgs.msg import MarkerArray

try:  # rclpy 7.1.5 and later (Jazzy, Kilted); Humble's rclpy has none
    from rclpy.experimental import EventsExecutor
except ImportError:
    EventsExecutor = None

NODE_NAME = 'urdf_link_tools'
#: metres: a whole-robot COM farther than this from the root is not published (a prismatic
#: joint with no limit to hold it sent to 1e300 by a joint_states publisher, review 11)
COM_FARTHEST = 1e6
#: joint_states positions kept before a model names its joints, and their longest name
MAX_JOINT_NAMES = 10_000
JOINT_NAME_MAX = 256
# Threads of the executor of everything but the queries: the collision matrix (seconds for a
# big robot) never holds up the timers or a parameter request.
EXECUTOR_THREADS = 4
# A burst of rejected descriptions publishes at most this often at once; the timer repeats
# the latest state anyway.
IMMEDIATE_DIAGNOSTICS_INTERVAL = 0.2
# How long one spin_once of an EventsExecutor waits for work (see :func:`spin`).
EVENTS_SPIN_TIMEOUT = 1.0
#: set to 'single' to serve the queries from SingleThreadedExecutors where rclpy has an
#: EventsExecutor (rclpy calls it experimental)
QUERY_EXECUTOR_VARIABLE = 'URDF_LINK_TOOLS_QUERY_EXECUTOR'

# Latched topics, spelled out: robot_state_publisher and RViz use exactly this for
# robot_description, and a late RViz gets the markers the same way.
LATCHED = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                     reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
# Best effort matches both reliable and best-effort joint_states publishers.
JOINT_STATES = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                          reliability=ReliabilityPolicy.BEST_EFFORT,
                          durability=DurabilityPolicy.VOLATILE)
# Services: the default with a history of 1,000 instead of 10. Every answer of a service
# goes through one writer; with 8 clients calling as fast as they can while an analysis
# runs, a history of 10 dropped an answer a slow client had not acknowledged yet, and its
# call never completed (test_hostile_load, every run). Answers are small; depth is cheap.
SERVICES = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1000,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)
EVENTS = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                    reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE)


def _said(text: str) -> str:
    """
    Return a text a description (or a file it names) wrote, fit for the node's log.

    The log goes to a terminal or a launch file's CI output: line breaks, controls and
    invisible characters are shown escaped, as the CLI shows them (review 12: a tag name's
    U+FEFF reached the log raw through libxml2's message).
    """
    return neutralise(one_line(text))


class UrdfLinkToolsNode(Node):
    """
    Analyse every robot_description and publish what is wrong with its links.

    :param separate_queries: serve list_links and get_link_findings, and get_link_geometry,
        from the two :attr:`query_nodes`, for executors of their own (see :func:`main`),
        instead of from this node
    :param kwargs: passed on to :class:`rclpy.node.Node`
    """

    def __init__(self, *, separate_queries: bool = False, **kwargs: Any) -> None:
        super().__init__(NODE_NAME, **kwargs)
        # Unique per instance: two robots' nodes (namespaces /robot_a, /robot_b) must not
        # publish statuses of the same name.
        self._prefix = status_prefix(self.get_fully_qualified_name())
        settings = self._declare_parameters()
        # The packages of the file the node was started with and of the urdf_dirs folders,
        # resolved from their sources when nothing else finds them (as the CLI does for the
        # file it checks): fixed at start, as the roots below are.
        self._own_packages = start_packages(settings.urdf_file, settings.urdf_dirs,
                                            settings.check.package_dirs)
        self._settings = self._with_own_package(settings)
        # Fixed at start: what urdf_file may name, and where xacro may read, cannot be
        # widened by whoever sets parameters later (package_dirs is re-checked against them).
        self._urdf_roots = urdf_roots(self._settings.urdf_dirs, self._settings.urdf_file)
        self._xacro_roots = self._urdf_roots + tuple(
            path for _, path in self._settings.check.package_dirs)
        self._xacro_roots += tuple(os.path.realpath(folder) for _, folder in self._own_packages)
        self._meshes = mesh_library(self._settings)
        self._meshes_key = self._settings.mesh_key
        # Swapped whole by the worker; read once per callback.
        self._snapshot: Optional[Snapshot] = None
        self._rejection: Optional[Rejection] = None
        self._generation = 0
        # Owned by the executor thread.
        self._positions: Dict[str, float] = {}
        self._joint_states_seen = False
        self._positions_changed = False
        self._com_generation = -1
        self._com: Optional[tuple] = None

        self._markers_pub = self.create_publisher(MarkerArray, '~/markers', LATCHED)
        self._robot_com_markers_pub = self.create_publisher(
            MarkerArray, '~/robot_com_marker', LATCHED)
        # Latched like the markers: `ros2 topic echo` on a robot standing still, or a late
        # subscriber, gets the last centre of mass at once.
        self._robot_com_pub = self.create_publisher(PointStamped, '~/robot_com', LATCHED)
        self._diagnostics_pub = self.create_publisher(DiagnosticArray, '/diagnostics', EVENTS)

        self._last_immediate = 0.0

        self._worker = LatestJobWorker(self._process, self._on_worker_error,
                                       lambda: self._settings.analysis_time_budget)
        self.add_on_set_parameters_callback(self._on_set_parameters)

        # Services answer from immutable snapshots: any number at once. The COM timer and
        # joint_states share the positions, so they take turns; diagnostics go alone.
        services = ReentrantCallbackGroup()
        joints = MutuallyExclusiveCallbackGroup()
        diagnostics = MutuallyExclusiveCallbackGroup()
        self.create_subscription(String, 'robot_description', self._on_description, LATCHED)
        # MoveIt's move_group publishes its SRDF latched (publish_robot_description_semantic):
        # the pairs it disables touch by design, and their overlaps at rest are not reported.
        self._semantic_pairs: FrozenSet[Tuple[str, str]] = frozenset()
        self.create_subscription(String, 'robot_description_semantic', self._on_semantic,
                                 LATCHED)
        self.create_subscription(JointState, 'joint_states', self._on_joint_states,
                                 JOINT_STATES, callback_group=joints)
        #: the nodes of the query services when they are separate (see :func:`main`)
        self.query_nodes: Tuple[QueryNode, ...] = ()
        if separate_queries:
            self.query_nodes = (QueryNode(self, 'queries'), QueryNode(self, 'geometry'))
        for index, srv_type, name, callback in (
                (0, ListLinks, '~/list_links', self._list_links),
                (0, GetLinkFindings, '~/get_link_findings', self._get_link_findings),
                (1, GetLinkGeometry, '~/get_link_geometry', self._get_link_geometry)):
            if self.query_nodes:
                self.query_nodes[index].serve(srv_type, name, callback, SERVICES)
            else:
                self.create_service(srv_type, name, callback, qos_profile=SERVICES,
                                    callback_group=services)
        self.create_service(GetCollisionMatrix, '~/get_collision_matrix',
                            self._get_collision_matrix, qos_profile=SERVICES,
                            callback_group=services)
        self.create_timer(self._settings.diagnostics_period, self._publish_diagnostics,
                          callback_group=diagnostics)
        self.create_timer(self._settings.robot_com_period, self._update_robot_com,
                          callback_group=joints)

        if self._settings.urdf_file:
            self._worker.submit(Job.file(self._settings.urdf_file))
        self.get_logger().info(
            'ready: waiting for robot_description'
            + (f' and loading {self._settings.urdf_file}' if self._settings.urdf_file else ''))

    # ------------------------------------------------------------------ parameters

    def _declare(self, spec) -> None:
        default = spec.default if spec.default is not None else Parameter.Type.STRING_ARRAY
        try:
            self.declare_parameter(spec.name, default, spec.descriptor())
            return
        except InvalidParameterTypeException:
            if spec.type not in (DOUBLE, DOUBLE_ARRAY, STRING_ARRAY):
                raise
        # A parameter file that says `density_min: 50` gives an INTEGER, which a DOUBLE
        # parameter refuses at declaration, killing the node; `-p package_dirs:=NAME=PATH`
        # gives a STRING where a list is declared. Read the override untyped (public API
        # only), then declare the parameter typed with the value it is.
        given = self.declare_parameter(
            spec.name, spec.default if spec.default is not None else '',
            ParameterDescriptor(dynamic_typing=True)).value
        self.undeclare_parameter(spec.name)
        if spec.type == STRING_ARRAY:
            if isinstance(given, str):
                self.get_logger().warning(
                    f'parameter {spec.name} is a list: the one string given is read as its '
                    f"only item (several: {spec.name}:=\"['A', 'B']\")")
                value: Any = [given]
            else:  # a number or a list of numbers: refused, not the node's death
                self.get_logger().error(
                    f'parameter {spec.name} must be a list of strings, not {given!r}: the '
                    'default is used')
                value = default
        elif isinstance(given, (list, tuple)) or type(given).__name__ == 'array':
            value = [float(item) for item in given]
        else:
            value = float(given)
        self.declare_parameter(spec.name, value, spec.descriptor(), ignore_override=True)

    def _declare_parameters(self) -> NodeSettings:
        for spec in PARAMETERS:
            self._declare(spec)
        values = self._parameter_values()
        try:
            return settings_from_values(values)
        except ValueError as exc:
            # Invalid start-up values: say which, and run on the defaults rather than die.
            self.get_logger().error(f'invalid parameters, using the defaults instead: {exc}')
            return settings_from_values({'urdf_file': values.get('urdf_file', '')})

    def _with_own_package(self, settings: NodeSettings) -> NodeSettings:
        given = {name for name, _ in settings.check.package_dirs}
        own = tuple(item for item in getattr(self, '_own_packages', ()) if item[0] not in given)
        if not own:
            return settings
        return dataclasses.replace(settings, check=dataclasses.replace(
            settings.check, package_dirs=settings.check.package_dirs + own))

    def _parameter_values(self) -> Dict[str, Any]:
        values = {}
        for spec in PARAMETERS:
            value = self.get_parameter_or(spec.name).value
            if value is None and spec.type == STRING_ARRAY:
                value = []
            elif isinstance(value, (list, tuple)) or type(value).__name__ == 'array':
                value = list(value)
            values[spec.name] = value
        return values

    def _on_set_parameters(self, parameters) -> SetParametersResult:
        try:
            values = self._parameter_values()
            for parameter in parameters:
                if parameter.name not in SPECS:
                    continue  # use_sim_time and friends are not ours to judge
                value = parameter.value
                if isinstance(value, (list, tuple)) or type(value).__name__ == 'array':
                    value = list(value)
                if value is None and SPECS[parameter.name].type == STRING_ARRAY:
                    value = []
                error = validate_value(parameter.name, value)
                if error is not None:
                    return SetParametersResult(successful=False, reason=error)
                values[parameter.name] = value
            settings = self._with_own_package(settings_from_values(values))
        except ValueError as exc:
            return SetParametersResult(successful=False, reason=str(exc))
        except Exception as exc:  # never let a parameter request take the node down
            return SetParametersResult(successful=False, reason=f'internal error: {exc}')
        previous = self._settings
        if settings.check.package_dirs != previous.check.package_dirs:
            refusal = package_dirs_refusal(settings.check.package_dirs, self._xacro_roots)
            if refusal is not None:
                return SetParametersResult(successful=False, reason=refusal)
        if settings.urdf_file != previous.urdf_file:
            refusal = check_urdf_file(settings.urdf_file, self._urdf_roots,
                                      settings.description_max_bytes)
            if refusal is not None:
                return SetParametersResult(successful=False, reason=refusal)
        self._settings = settings
        # Setting urdf_file reads it, even to the value it has: the file may have changed.
        asked = {parameter.name for parameter in parameters}
        if settings.urdf_file and ('urdf_file' in asked or
                                   settings.xacro_args != previous.xacro_args):
            self._worker.submit(Job.file(settings.urdf_file))
        elif settings.check != previous.check or settings.markers != previous.markers or \
                settings.mesh_triangles_max != previous.mesh_triangles_max or \
                settings.diagnostics_max_link_statuses != \
                previous.diagnostics_max_link_statuses:
            self._worker.submit(Job.recheck())
        return SetParametersResult(successful=True)

    # ------------------------------------------------------------------ input

    def _on_description(self, message: String) -> None:
        self._worker.submit(Job.text(message.data))

    def _on_semantic(self, message: String) -> None:
        limit = min(self._settings.description_max_bytes, SRDF_MAX_BYTES)
        try:
            data = message.data.encode('utf-8')
            if len(data) > limit:
                raise UrdfInputError(f'it is larger than {limit:,} bytes (description_max_bytes, '
                                     f'and at most {SRDF_MAX_BYTES >> 20} MiB for an SRDF)')
            pairs = frozenset(disabled_pairs(read_srdf(data)))
        except Exception as exc:  # a bad SRDF is said, and the pairs known before are kept
            self.get_logger().warning(
                f'robot_description_semantic is not used: {_said(str(exc)[:300])}')
            return
        if pairs == self._semantic_pairs:
            return
        self._semantic_pairs = pairs
        self.get_logger().info(
            f'robot_description_semantic: {len(pairs)} pairs of links have collision checking '
            'disabled: their overlaps at rest are not reported')
        self._worker.submit(Job.recheck())

    def _with_semantic(self, settings: NodeSettings) -> NodeSettings:
        """Return the settings with the SRDF's disabled pairs added to disabled_collisions."""
        pairs = self._semantic_pairs
        if pairs <= settings.check.disabled_collisions:
            return settings
        check = dataclasses.replace(
            settings.check, disabled_collisions=settings.check.disabled_collisions | pairs)
        return dataclasses.replace(settings, check=check)

    def _on_joint_states(self, message: JointState) -> None:
        changed = False
        # The model's moving joints only, once there is a model; before, names as long as a
        # joint's may be, and so many (a publisher inventing names of 250 KB grew the node by
        # 433 MB for good, tenth red-team review)
        snapshot = self._snapshot
        joints = snapshot.moving_joints if snapshot is not None else None
        for name, position in zip(message.name, message.position):
            if not (isinstance(position, float) and math.isfinite(position)) or \
                    self._positions.get(name) == position:
                continue
            kept = name in joints if joints is not None else name in self._positions or (
                len(name) <= JOINT_NAME_MAX and len(self._positions) < MAX_JOINT_NAMES)
            if not kept:
                continue
            self._positions[name] = position
            changed = True
        self._joint_states_seen = True
        self._positions_changed = self._positions_changed or changed

    # ------------------------------------------------------------------ analysis (worker)

    def _mesh_library(self, settings: NodeSettings):
        if settings.mesh_key != self._meshes_key:
            self._meshes = mesh_library(settings)
            self._meshes_key = settings.mesh_key
        return self._meshes

    def _process(self, job: Job, budget: Budget) -> None:
        settings = self._with_semantic(self._settings)
        previous = self._snapshot
        locate = None
        if job.kind == Job.RECHECK:
            if previous is None:
                return
            robot = previous.robot
        else:
            source = job.path
            enabled = gc.isenabled()
            try:
                limit = settings.description_max_bytes
                if job.kind == Job.FILE:
                    data, source, locate = self._load_file(job.path, settings)
                else:
                    data = job.data
                with budget.interruptible():
                    robot = parse_description(data, source, limit)
            except AnalysisInterrupted as exc:
                if enabled:
                    gc.enable()  # the parser pauses the collector; it may not have resumed
                if exc.reason != TIME_BUDGET:
                    raise
                self._reject(rejection_from_error(_TooSlow(
                    f'parsing took longer than analysis_time_budget '
                    f'({budget.seconds:g} s): is it really a robot description?'), source))
                return
            except Exception as exc:  # UrdfError mostly; anything else is reported the same
                if job.kind == Job.FILE:
                    # A parameter named this file: say what is wrong, never what is in it.
                    exc = public_error(exc, job.path)
                self._reject(rejection_from_error(exc, source))
                return
        snapshot = build_snapshot(robot, settings, self._mesh_library(settings),
                                  self._generation + 1, self._prefix, previous, budget,
                                  locate)
        # Built here, off the executor and before the swap: the first calls about the new
        # model find them ready, and the old model answers meanwhile.
        snapshot.answers.list_links()
        snapshot.answers.names()
        if budget.cancelled:  # a newer description came while this one was being finished
            raise AnalysisInterrupted(SUPERSEDED)
        self._generation += 1
        self._snapshot = snapshot
        # Positions of the joints this model has (the others' were kept for it to come)
        self._positions = {name: position for name, position in self._positions.items()
                           if name in snapshot.moving_joints}
        if job.kind != Job.RECHECK:
            self._rejection = None
        self._markers_pub.publish(snapshot.markers)
        # Publish the new diagnostics now rather than on the next tick of the (1 s) timer,
        # as a rejection does; the timer keeps repeating them.
        self._publish_diagnostics(immediate=True)
        counts = snapshot.analysis.counts()
        if job.kind != Job.RECHECK or previous is None or previous.analysis is not \
                snapshot.analysis:
            self.get_logger().info(
                f'analysed {robot.name!r} from {snapshot.source}: '
                f'{conversions.plural(len(conversions.unique_links(robot)), "link")}, '
                f'{conversions.counts_text(counts)}')

    def _load_file(self, path: str, settings: NodeSettings):
        # Runs on the worker: xacro's child process (time-limited) never blocks the executor.
        options = xacro_options(parse_mappings(settings.xacro_args),
                                dict(settings.check.package_dirs), self._xacro_roots,
                                settings.description_max_bytes)
        loaded = load_input(path, settings.description_max_bytes, options=options)
        for note in loaded.notes:
            if not note.startswith(XACRO_SAYS):  # text from the file a parameter named
                self.get_logger().warning(_said(note))
        # Findings name the file and line where the element is written (for xacro the
        # source file and the macro chain), as the CLI's do.
        # Absolute paths: the node's clients do not share its working directory.
        return loaded.data, loaded.source, functools.partial(loaded.locate, base=os.sep)

    def _reject(self, rejection: Rejection) -> None:
        self._rejection = rejection
        kept = self._snapshot.robot.name if self._snapshot is not None else None
        keeping = f'keeping the last good model {kept!r}' if kept else 'no model in service'
        self.get_logger().error(
            f'description from {_said(rejection.source)} rejected: '
            f'{_said(rejection.error[:2000])}; '
            f'{keeping}')
        if self._may_publish_now():
            self._diagnostics_pub.publish(diagnostic_array(
                [rejection.status(kept, self._prefix)], self.get_clock().now().to_msg()))

    def _may_publish_now(self) -> bool:
        now = time.monotonic()
        if now - self._last_immediate < IMMEDIATE_DIAGNOSTICS_INTERVAL:
            return False
        self._last_immediate = now
        return True

    def _on_worker_error(self, job: Job, error: Exception) -> None:
        if not self.context.ok():
            # Shut down meanwhile (SIGTERM, SIGINT): publishing the analysis failed because
            # the context is gone (RCLError "publisher's context is invalid"). A stop, not a
            # rejected description, and nothing can be published or logged through it now.
            return
        self._reject(rejection_from_error(error, job.path))

    # ------------------------------------------------------------------ outputs (executor)

    def _publish_diagnostics(self, immediate: bool = False) -> None:
        try:
            if immediate and not self._may_publish_now():
                return
            snapshot, rejection = self._snapshot, self._rejection
            statuses = []
            if snapshot is None:
                statuses.append(waiting_status(self._prefix))
            else:
                statuses.extend(snapshot.link_statuses)
                com = self._com if self._com_generation == snapshot.generation else None
                statuses.append(robot_status(
                    snapshot.analysis, self._prefix, com, snapshot.root,
                    len(self._positions) if self._joint_states_seen else None,
                    snapshot.summary))
            if rejection is not None:
                kept = snapshot.robot.name if snapshot is not None else None
                statuses.append(rejection.status(kept, self._prefix))
            self._diagnostics_pub.publish(
                diagnostic_array(statuses, self.get_clock().now().to_msg()))
        except Exception as exc:  # a timer exception would end spin()
            self.get_logger().error(f'diagnostics failed: {exc!r}')

    def _update_robot_com(self) -> None:
        try:
            snapshot = self._snapshot
            if snapshot is None:
                return
            fresh = snapshot.generation != self._com_generation
            if not (fresh or self._positions_changed):
                return
            self._positions_changed = False
            robot = snapshot.robot
            com = robot_center_of_mass(robot, forward_kinematics(robot, self._positions,
                                                                 snapshot.root or None))
            if com is not None and not all(math.isfinite(value) and abs(value) < COM_FARTHEST
                                           for value in com[1]):
                com = None  # (not published: a joint far out, with limits of 1e300)
            self._com, self._com_generation = com, snapshot.generation
            stamp = self.get_clock().now().to_msg()
            self._robot_com_markers_pub.publish(robot_com_markers(
                snapshot.root, com[1] if com is not None else None,
                snapshot.settings.markers))
            if com is not None:
                point = PointStamped()
                point.header.stamp = stamp
                point.header.frame_id = snapshot.root
                point.point = conversions.point_msg(com[1])
                self._robot_com_pub.publish(point)
        except Exception as exc:
            self.get_logger().error(f'robot COM update failed: {exc!r}')

    def _no_model_message(self) -> str:
        rejection = self._rejection
        if rejection is not None:
            return ('no valid robot_description yet: the last one was rejected: '
                    f'{rejection.error}')
        return conversions.NO_DESCRIPTION

    def _list_links(self, request, response):
        try:
            snapshot = self._snapshot
            if snapshot is None:
                return conversions.fill_list_links(response, None, self._no_model_message())
            return conversions.fill_list_links(response, snapshot.analysis,
                                               answer=snapshot.answers.list_links())
        except Exception as exc:  # services never raise: rclpy would end spin()
            return _failed(response, exc, self)

    def _get_link_geometry(self, request, response):
        try:
            snapshot = self._snapshot
            if snapshot is None:
                return conversions.fill_link_geometry(response, None, request.link_name,
                                                      no_model_message=self._no_model_message())
            answers = snapshot.answers
            # The answer about a link is built once per analysis and then served as is.
            return answers.link_geometry(
                request.link_name, request.group, request.include_mesh_triangles,
                lambda: conversions.fill_link_geometry(
                    response, snapshot.analysis, request.link_name, request.group,
                    request.include_mesh_triangles, names=answers.names(),
                    triangles=answers.triangles))
        except Exception as exc:
            return _failed(type(response)(), exc, self)

    def _get_link_findings(self, request, response):
        try:
            snapshot = self._snapshot
            if snapshot is None:
                return conversions.fill_link_findings(response, None, request.link_name,
                                                      self._no_model_message())
            answers = snapshot.answers
            return answers.link_findings(
                request.link_name, lambda: conversions.fill_link_findings(
                    response, snapshot.analysis, request.link_name, names=answers.names(),
                    robot_findings=answers.robot_findings()))
        except Exception as exc:
            return _failed(type(response)(), exc, self)

    def _get_collision_matrix(self, request, response):
        try:
            snapshot = self._snapshot
            if snapshot is None:
                return collision_matrix.fill_collision_matrix(
                    response, None, False, self._no_model_message())
            computed = snapshot.answers.collision_matrix(int(request.samples), int(request.seed))
            return collision_matrix.fill_collision_matrix(response, computed,
                                                          request.include_srdf)
        except Exception as exc:
            return _failed(response, exc, self)

    def destroy_node(self) -> None:
        """Stop the analysis worker, then the query nodes and the node."""
        self._worker.stop()
        for query_node in self.query_nodes:
            query_node.destroy_node()
        super().destroy_node()


class _TooSlow(UrdfInputError):
    """A description that could not be parsed within the time budget."""


def _failed(response, error: Exception, node: Node):
    node.get_logger().error(f'service request failed: {error!r}')
    response.success = False
    response.message = f'internal error: {type(error).__name__}: {error}'
    return response


def main(args: Optional[list] = None) -> None:
    """Run the node until Ctrl-C or shutdown (Humble-compatible: no ``with rclpy.init()``)."""
    # The analysis worker is pure Python: with the default 5 ms switch interval, each service
    # callback waits up to that long for the GIL at every step; 1 ms keeps answers prompt
    # while an analysis runs.
    sys.setswitchinterval(0.001)
    # Set before rclpy.init, so that rclpy's handler chains to it as to Python's own (rclpy's
    # signal thread still shuts the context down on SIGINT).
    interrupt = _InterruptOnce()
    try:
        signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # main() called from a thread other than the main one
        pass
    rclpy.init(args=args)
    node = None
    executors: List[Executor] = []
    threads: List[threading.Thread] = []
    try:
        node = UrdfLinkToolsNode(separate_queries=True)
        # The node on a pool of threads; each query node alone on an executor and thread of
        # its own, spun as rclpy.spin spins one node.
        others = MultiThreadedExecutor(num_threads=EXECUTOR_THREADS)
        others.add_node(node)
        executors.append(others)
        for query_node in node.query_nodes:
            executor = query_executor()
            executor.add_node(query_node)
            executors.append(executor)
        stopped = threading.Event()
        node.context.on_shutdown(stopped.set)
        for index, executor in enumerate(executors):
            threads.append(threading.Thread(target=_spin_in_thread, args=(executor, node),
                                            name=f'urdf_link_tools-executor-{index}',
                                            daemon=True))
            threads[-1].start()
        # This thread only waits for the shutdown (SIGTERM: rclpy shuts the context down),
        # so SIGINT's KeyboardInterrupt is raised here, never inside a service callback (one
        # spun on this thread took it mid-answer, and the EventsExecutor logged it FATAL).
        try:
            while node.context.ok() and not stopped.wait(1.0):
                pass
        except RuntimeError:
            # Two SIGINTs at once (Ctrl-C on ros2 launch): the second KeyboardInterrupt came
            # while the wait restored its lock after the first ('release unlocked lock').
            # (No second one comes since _InterruptOnce; kept for a handler set by others.)
            pass
        # Stopping (SIGTERM): a SIGINT from here on is no KeyboardInterrupt (see _stop).
        interrupt.armed = False
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        interrupt.armed = False  # (on an error out of the start, too)
        _stop(node, executors, threads)


class _InterruptOnce:
    """
    main()'s SIGINT handler: KeyboardInterrupt the first time, as Python's; nothing after.

    Ctrl-C on ``ros2 launch`` reaches the node twice, the terminal's SIGINT and launch's own,
    at times at the same instant. Python's handler raised a second KeyboardInterrupt wherever
    the main thread was after the first: in main()'s ``except`` or ``finally``, or in _stop
    before it ignored SIGINT (``signal.signal`` runs pending handlers first). Caught there,
    it skipped the whole stop: main() returned with the executor threads still spinning, and
    one that came back from rcl_wait while the interpreter finalized was ended inside
    pybind11's GIL re-acquisition, which may not throw: "terminate called without an active
    exception", SIGABRT, once in about 40 CI runs of the double-SIGINT test.
    """

    def __init__(self) -> None:
        #: raise on the next SIGINT (cleared by the first one, and by main() when it stops)
        self.armed = True

    def __call__(self, signum: int, frame: Any) -> None:
        if self.armed:
            self.armed = False
            raise KeyboardInterrupt


def _quiet_sigint_race(hook: Callable[[Any], None]) -> Callable[[Any], None]:
    """Return an unraisable hook that drops CPython's report of a SIGINT ignored in a race."""
    def quiet(unraisable: Any) -> None:
        value = getattr(unraisable, 'exc_value', None)
        if isinstance(value, OSError) and 'ignored due to race condition' in str(value):
            return  # a late SIGINT while stopping: ignored, as meant
        hook(unraisable)
    return quiet


def _stop(node: Optional['UrdfLinkToolsNode'], executors: List[Executor],
          threads: List[threading.Thread]) -> None:
    """
    Stop main()'s executors, threads and node, deaf to a second SIGINT meanwhile.

    Ctrl-C on ``ros2 launch`` reaches the node twice: the terminal's SIGINT, then launch's
    own a moment later. That second one raised KeyboardInterrupt in the middle of this
    cleanup (a traceback and exit -2 in a third of the stops of a new user's trial); main()'s
    :class:`_InterruptOnce` raises none after the first, so nothing here is skipped.
    """
    # A SIGINT that arrives while its Python handler is being replaced is dropped by CPython
    # with an "Exception ignored ... OSError: Signal 2 ignored due to race condition" and a
    # traceback on stderr (bpo-43406): ignoring it is what is meant here, so it is not said
    # (a double Ctrl-C printed a traceback into the launch log once in CI).
    sys.unraisablehook = _quiet_sigint_race(sys.unraisablehook)
    try:  # (not restored: the process ends once main() returns)
        # Ignored outright, not just left to the disarmed handler: at its end the interpreter
        # resets a Python-handled SIGINT to the default, which would kill the process on a
        # late one. (Also takes rclpy's handler out: no second shutdown from its thread.)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # main() called from a thread other than the main one
        pass
    # The context first: its shutdown wakes every executor's wait, so each thread leaves
    # its spin before its executor and the nodes are destroyed. An executor shut down
    # while another thread still waited on it (on SIGINT with requests in flight) freed
    # what that wait used: a segmentation fault, about one stop in five.
    try:
        rclpy.try_shutdown()
    except Exception as exc:  # noqa: B902 (rclpy's RCLError is not public)
        # rclpy's own SIGINT handling (its signal thread) shut the context down between
        # try_shutdown's check and its call, on two SIGINTs at once: 'rcl_shutdown
        # already called' (a traceback and exit 1 in one CI run). Down is what we want.
        if 'already called' not in str(exc):
            raise
    for thread in threads:
        if thread.ident is not None:  # (one made but not started cannot be joined)
            thread.join(5.0)
    for executor in reversed(executors):
        executor.shutdown()
    if node is not None:
        node.destroy_node()


def query_executor(context: Optional[rclpy.Context] = None) -> Executor:
    """
    Return the executor of one query node: rclpy's EventsExecutor where rclpy has one.

    The EventsExecutor (``rclpy.experimental``, from rclpy 7.1.5 in Jazzy; not in Humble) is
    told by the middleware which service has a request and runs its callback from C++; a
    SingleThreadedExecutor rebuilds a wait set and walks Python generators for every request.
    Measured on tiago_dual's get_link_geometry: 0.48-0.59 ms of the node's CPU per call
    instead of 0.64-0.95 ms (Jazzy, four pairs). A query node has only services, which it
    supports (it refuses guard conditions). ``URDF_LINK_TOOLS_QUERY_EXECUTOR=single`` in the
    environment, or an rclpy without it, gives a SingleThreadedExecutor. Spin either with
    :func:`spin`.

    :param context: the executor's context (the default context when None)
    :return: the executor
    """
    wanted = os.environ.get(QUERY_EXECUTOR_VARIABLE, '').strip().lower()
    if EventsExecutor is None or wanted == 'single':
        return SingleThreadedExecutor(context=context)
    return EventsExecutor(context=context)


def spin(executor: Executor) -> None:
    """
    Spin an executor until its context is shut down, as an rclpy Executor spins.

    An EventsExecutor is spun one callback at a time, each wait bounded: its ``spin()``
    without a timeout keeps a core busy while idle (measured: 65 % of a core, with the rclpy
    of the Jazzy and the Kilted wheels, 7.1.6 and 9.1.2), ends neither on SIGINT nor on
    SIGTERM, and in the node answered no request at all, where ``spin_once`` with a timeout
    sleeps and raises KeyboardInterrupt or ExternalShutdownException as the other executors
    do.

    :param executor: an rclpy Executor or an EventsExecutor
    :raises KeyboardInterrupt: on SIGINT, when spun on the main thread (main() spins none there)
    :raises ExternalShutdownException: when the context is shut down (SIGTERM)
    """
    if isinstance(executor, Executor):  # the EventsExecutor is not one
        executor.spin()
        return
    while executor.context.ok():
        executor.spin_once(timeout_sec=EVENTS_SPIN_TIMEOUT)


def _spin_in_thread(executor: Executor, node: Node) -> None:
    try:
        spin(executor)
    except ExternalShutdownException:
        pass
    except Exception as exc:  # the node must not live on half spun
        if not node.context.ok():
            # Shut down meanwhile (SIGTERM, SIGINT): a wait that began just before fails with
            # "the given context is not valid" instead of ExternalShutdownException. A stop,
            # not a failure of the executor.
            return
        node.get_logger().fatal(f'executor failed, shutting down: {exc!r}')
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
