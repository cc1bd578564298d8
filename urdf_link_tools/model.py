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
An immutable, typed model of a URDF robot, faithful to the URDF link specification.

Every object knows the 1-based source line it came from (``None`` where the value is a
spec default rather than something written in the file). The model holds what the file
says; judging it is the job of :mod:`urdf_link_tools.checks`.
"""

from __future__ import annotations

from dataclasses import field
from typing import Dict, FrozenSet, List, Optional, Tuple, Union

from urdf_link_tools.findings import Finding
from urdf_link_tools.records import record

Vector3 = Tuple[float, float, float]
Rgba = Tuple[float, float, float, float]

ZERO3: Vector3 = (0.0, 0.0, 0.0)
ONE3: Vector3 = (1.0, 1.0, 1.0)

MOVING_JOINT_TYPES = frozenset(('revolute', 'continuous', 'prismatic', 'floating', 'planar'))
JOINT_TYPES = MOVING_JOINT_TYPES | {'fixed'}


@record
class Origin:
    """A pose: translation xyz (m) and fixed-axis roll, pitch, yaw (rad)."""

    xyz: Vector3 = ZERO3
    rpy: Vector3 = ZERO3
    line: Optional[int] = None

    @property
    def is_identity(self) -> bool:
        """Return True when both translation and rotation are zero."""
        return self.xyz == ZERO3 and self.rpy == ZERO3


IDENTITY = Origin()


@record
class Box:
    """A box centred on its origin; ``size`` holds the three side lengths."""

    size: Vector3
    line: Optional[int] = None
    kind = 'box'


@record
class Cylinder:
    """A cylinder centred on its origin, its axis along z."""

    radius: float
    length: float
    line: Optional[int] = None
    kind = 'cylinder'


@record
class Sphere:
    """A sphere centred on its origin."""

    radius: float
    line: Optional[int] = None
    kind = 'sphere'


@record
class Mesh:
    """A mesh file (``package://``, ``file://``, absolute or relative) and its scale."""

    filename: str
    scale: Vector3 = ONE3
    line: Optional[int] = None
    kind = 'mesh'


Geometry = Union[Box, Cylinder, Sphere, Mesh]


@record
class Material:
    """
    A material: a name and optionally a colour and a texture.

    For a visual, the model stores the *resolved* material: when the visual only names a
    material, this is the top-level one of that name, and ``line`` is where that was defined.
    ``reference_line`` is then the line of the visual's own ``<material>`` element.
    """

    name: Optional[str]
    rgba: Optional[Rgba] = None
    texture: Optional[str] = None
    line: Optional[int] = None
    reference_line: Optional[int] = None

    @property
    def is_defined(self) -> bool:
        """Return True when the material carries a colour or a texture."""
        return self.rgba is not None or self.texture is not None


@record
class Inertia:
    """The six independent entries of an inertia tensor (kg m^2), about the centre of mass."""

    ixx: float = 0.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 0.0
    iyz: float = 0.0
    izz: float = 0.0
    line: Optional[int] = None

    def as_tuple(self) -> Tuple[float, float, float, float, float, float]:
        """Return (ixx, ixy, ixz, iyy, iyz, izz)."""
        return (self.ixx, self.ixy, self.ixz, self.iyy, self.iyz, self.izz)

    def as_matrix(self) -> Tuple[Vector3, Vector3, Vector3]:
        """Return the symmetric 3x3 tensor as nested tuples (row major)."""
        return ((self.ixx, self.ixy, self.ixz),
                (self.ixy, self.iyy, self.iyz),
                (self.ixz, self.iyz, self.izz))


@record
class Inertial:
    """Mass, centre-of-mass frame (``origin``) and inertia about that frame."""

    origin: Origin = IDENTITY
    mass: float = 0.0
    inertia: Inertia = Inertia()
    line: Optional[int] = None
    mass_line: Optional[int] = None


@record
class GeometryElement:
    """
    A ``<visual>``, a ``<collision>``, or a custom link child such as ``<collision_checking>``.

    ``group`` is the element's tag; ``index`` its position among the link's children of the
    same tag. Custom elements keep their attributes and may lack a geometry.
    """

    group: str
    index: int
    name: Optional[str] = None
    origin: Origin = IDENTITY
    geometry: Optional[Geometry] = None
    material: Optional[Material] = None
    line: Optional[int] = None
    attributes: Tuple[Tuple[str, str], ...] = ()
    #: children of a ``<visual>`` or ``<collision>`` that URDF does not define, by tag, as
    #: other readers' extensions (Isaac Gym's ``<sdf resolution="256"/>``)
    extensions: Tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """Human label, e.g. ``collision[1] "base_collision"``."""
        if self.name:
            return f'{self.group}[{self.index}] "{self.name}"'
        return f'{self.group}[{self.index}]'


@record
class Link:
    """A rigid body: optional inertial, any number of visuals, collisions and custom parts."""

    name: str
    line: Optional[int] = None
    inertial: Optional[Inertial] = None
    visuals: Tuple[GeometryElement, ...] = ()
    collisions: Tuple[GeometryElement, ...] = ()
    custom: Tuple[GeometryElement, ...] = ()

    @property
    def mass(self) -> float:
        """Mass in kg; zero when the link has no ``<inertial>`` (the spec default)."""
        return self.inertial.mass if self.inertial is not None else 0.0

    @property
    def custom_groups(self) -> Tuple[str, ...]:
        """Tags of the custom child elements, each once, in document order."""
        seen: Dict[str, None] = {}
        for element in self.custom:
            seen.setdefault(element.group, None)
        return tuple(seen)

    def group(self, name: str) -> Tuple[GeometryElement, ...]:
        """
        Return the elements of one group.

        :param name: 'collision', 'visual', or a custom tag such as 'collision_checking'
        :return: the elements, possibly empty
        """
        if name == 'collision':
            return self.collisions
        if name == 'visual':
            return self.visuals
        return tuple(element for element in self.custom if element.group == name)


@record
class JointLimit:
    """
    A ``<limit>`` as written: None where the attribute is absent.

    urdfdom reads an absent ``lower`` or ``upper`` as 0 (see :attr:`bounds`) and refuses a
    limit without ``effort`` or ``velocity``. ``unreadable`` names the attributes whose text
    was not a number (the parser reported them; they are None here).
    """

    lower: Optional[float] = None
    upper: Optional[float] = None
    effort: Optional[float] = None
    velocity: Optional[float] = None
    line: Optional[int] = None
    unreadable: Tuple[str, ...] = ()

    @property
    def bounds(self) -> Tuple[float, float]:
        """Return (lower, upper) as urdfdom uses them: an absent bound is 0."""
        return (0.0 if self.lower is None else self.lower,
                0.0 if self.upper is None else self.upper)


@record
class Mimic:
    """A mimic relation: position = multiplier * other + offset."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0
    line: Optional[int] = None


@record
class JointDynamics:
    """A ``<dynamics>``: damping and friction, None where absent (urdfdom reads 0)."""

    damping: Optional[float] = None
    friction: Optional[float] = None
    line: Optional[int] = None


@record
class JointCalibration:
    """A ``<calibration>``: the rising and falling reference positions, None where absent."""

    rising: Optional[float] = None
    falling: Optional[float] = None
    line: Optional[int] = None


@record
class SafetyController:
    """A ``<safety_controller>``, None where an attribute is absent."""

    soft_lower_limit: Optional[float] = None
    soft_upper_limit: Optional[float] = None
    k_position: Optional[float] = None
    k_velocity: Optional[float] = None
    line: Optional[int] = None


@record
class Joint:
    """
    A joint between a parent and a child link.

    ``axis`` is what urdfdom uses: (1, 0, 0) without an ``<axis>`` element, (0, 0, 0) for
    an ``<axis>`` without ``xyz`` (urdfdom's joint.cpp clears it and reads nothing);
    ``axis_line`` is the line of the ``<axis>`` element, None when there is none.
    """

    name: str
    type: str  # noqa: A003 - the URDF attribute's own name, as in urdf_parser_py
    parent: str
    child: str
    origin: Origin = IDENTITY
    axis: Vector3 = (1.0, 0.0, 0.0)
    limit: Optional[JointLimit] = None
    mimic: Optional[Mimic] = None
    line: Optional[int] = None
    axis_line: Optional[int] = None
    dynamics: Optional[JointDynamics] = None
    calibration: Optional[JointCalibration] = None
    safety: Optional[SafetyController] = None

    @property
    def is_moving(self) -> bool:
        """Return True for every joint type but fixed."""
        return self.type != 'fixed'


@record
class Robot:
    """
    A whole robot description.

    ``notes`` are non-fatal observations made while parsing (for example a second
    ``<inertial>`` that every URDF reader ignores); the checker reports them with its own.
    """

    name: str
    links: Tuple[Link, ...] = ()
    joints: Tuple[Joint, ...] = ()
    materials: Tuple[Material, ...] = ()
    line: Optional[int] = None
    source: Optional[str] = None
    notes: Tuple[Finding, ...] = ()
    #: ``<self_collide>`` of the robot-level ``<gazebo>`` (no ``reference``): sdformat copies
    #: it into the SDF ``<model>``, and gz-sim collides the model's links with each other only
    #: when it is true (its default is false)
    gazebo_self_collide: bool = False
    #: the joints a ``<transmission>`` or ``<ros2_control>`` names (the actuated ones); None
    #: when the description declares neither
    actuated_joints: Optional[FrozenSet[str]] = None
    #: fixed joints a ``<gazebo reference="JOINT">`` keeps (``<preserveFixedJoint>`` or
    #: ``<disableFixedJointLumping>`` true): sdformat lumps the others' child into the parent
    gazebo_kept_joints: FrozenSet[str] = frozenset()
    #: every robot-level ``<gazebo reference="NAME">``: (NAME as written, its line, the tags
    #: of its children), in document order
    gazebo_references: Tuple[Tuple[str, Optional[int], Tuple[str, ...]], ...] = ()
    #: the names of the joints written in SDF inside a robot-level ``<gazebo>`` (closed
    #: chains: the Robotiq hand's four-bar couples), which sdformat copies into the model
    gazebo_joints: FrozenSet[str] = frozenset()
    #: xacro directives left at the top of a document read as URDF (includes, macro calls,
    #: conditionals): (directive, its file, name or value, line)
    xacro_left: Tuple[Tuple[str, str, Optional[int]], ...] = ()
    #: for a robot without any ``<link>``: the other elements it holds (a few, sorted)
    other_elements: Tuple[str, ...] = ()
    #: ``<mujoco><compiler balanceinertia="true"/>``: MuJoCo sets the three moments of a
    #: tensor that breaks A + B >= C to their average instead of refusing the robot
    mujoco_balance_inertia: bool = False
    #: ``<mujoco><compiler discardvisual="false"/>``: MuJoCo loads the visual meshes too
    mujoco_keeps_visuals: bool = False
    _links_by_name: Dict[str, Link] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _parent_joint: Dict[str, Joint] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _child_joints: Dict[str, List[Joint]] = field(
        init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        # The first definition wins, as in urdfdom's lookups; duplicates are a finding.
        for link in self.links:
            self._links_by_name.setdefault(link.name, link)
        for joint in self.joints:
            self._parent_joint.setdefault(joint.child, joint)
            self._child_joints.setdefault(joint.parent, []).append(joint)

    def link(self, name: str) -> Optional[Link]:
        """Return the link called ``name``, or None."""
        return self._links_by_name.get(name)

    @property
    def link_names(self) -> Tuple[str, ...]:
        """Names of all links in document order (duplicates included)."""
        return tuple(link.name for link in self.links)

    def parent_joint(self, link_name: str) -> Optional[Joint]:
        """Return the joint whose child is ``link_name``, or None for a root."""
        return self._parent_joint.get(link_name)

    def child_joints(self, link_name: str) -> Tuple[Joint, ...]:
        """Return the joints whose parent is ``link_name``."""
        return tuple(self._child_joints.get(link_name, ()))

    def has_note(self, rule: str) -> bool:
        """Return True when the parser made a note of this rule (``notes``)."""
        return any(note.rule == rule for note in self.notes)

    @property
    def root_links(self) -> Tuple[str, ...]:
        """Names of links that are no joint's child (a valid URDF has exactly one)."""
        return tuple(link.name for link in self.links if link.name not in self._parent_joint)

    def material(self, name: str) -> Optional[Material]:
        """Return the top-level material called ``name``, or None."""
        for material in self.materials:
            if material.name == name:
                return material
        return None


def is_fragment(robot: Robot) -> bool:
    """
    Return True for a fragment: its links hang from links it does not define.

    Stretch's stretch_gripper.xacro, Baxter's end-effector files: parts that a robot's
    description includes and attaches to its own links (Sawyer's gazebo file also anchors
    'world' to a 'base' it does not define). No root of the file is a real one: every link
    has a parent joint, or is a bare frame with nothing of the file under it; and a joint
    names a link that is not here. A robot with a misspelt link name still has its root, and
    so has one fixed to an undeclared 'world'.
    """
    names = {link.name for link in robot.links}
    if not names or all(joint.parent in names and joint.child in names
                        for joint in robot.joints):
        return False
    # A robot fixed to an undeclared 'world' (Gazebo's frame, Drake's PR2) is a robot.
    anchored = {joint.child for joint in robot.joints
                if joint.parent == 'world' and joint.parent not in names}
    if anchored & names:
        return False
    children = {joint.child for joint in robot.joints}
    holding = {joint.parent for joint in robot.joints if joint.child in names}
    return not any(link.name not in children and (
        link.name in holding or link.inertial is not None or link.visuals or link.collisions)
        for link in robot.links)
