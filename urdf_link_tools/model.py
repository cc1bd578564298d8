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

from dataclasses import dataclass, field, fields, MISSING
from typing import Any, Dict, List, Optional, Tuple, Union

from urdf_link_tools.findings import Finding

Vector3 = Tuple[float, float, float]
Rgba = Tuple[float, float, float, float]

ZERO3: Vector3 = (0.0, 0.0, 0.0)
ONE3: Vector3 = (1.0, 1.0, 1.0)

MOVING_JOINT_TYPES = frozenset(('revolute', 'continuous', 'prismatic', 'floating', 'planar'))
JOINT_TYPES = MOVING_JOINT_TYPES | {'fixed'}


def _frozen(cls: type) -> type:
    """
    Make a frozen dataclass whose ``__init__`` fills the instance ``__dict__`` directly.

    The ``__init__`` that dataclasses generates for a frozen class calls
    ``object.__setattr__`` once per field to get past the frozen ``__setattr__``. Storing
    the fields into ``__dict__`` does the same for these plain (non-slots) classes in a
    fraction of the time, which is a fifth of the parser's work on a large robot. The
    parameters, defaults, default factories and ``__post_init__`` are the dataclass's;
    instances stay frozen, hashable and comparable.
    """
    cls = dataclass(frozen=True, init=False)(cls)
    namespace: Dict[str, Any] = {'MISSING': MISSING}
    parameters = []
    body = ['    values = self.__dict__']
    for item in fields(cls):
        name = item.name
        if item.default_factory is not MISSING:
            namespace[f'factory_{name}'] = item.default_factory
        if getattr(item, 'kw_only', False) is True:
            raise TypeError(f'{cls.__name__}.{name}: keyword-only fields are not supported')
        if not item.init:
            if item.default_factory is not MISSING:
                body.append(f'    values[{name!r}] = factory_{name}()')
            elif item.default is not MISSING:
                namespace[f'default_{name}'] = item.default
                body.append(f'    values[{name!r}] = default_{name}')
            continue
        if item.default is not MISSING:
            namespace[f'default_{name}'] = item.default
            parameters.append(f'{name}=default_{name}')
        elif item.default_factory is not MISSING:
            parameters.append(f'{name}=MISSING')
            body.append(f'    if {name} is MISSING:\n        {name} = factory_{name}()')
        else:
            parameters.append(name)
        body.append(f'    values[{name!r}] = {name}')
    if hasattr(cls, '__post_init__'):
        body.append('    self.__post_init__()')
    exec(f'def __init__(self, {", ".join(parameters)}):\n' + '\n'.join(body), namespace)
    init = namespace['__init__']
    init.__qualname__ = f'{cls.__qualname__}.__init__'
    cls.__init__ = init  # type: ignore[misc]
    return cls


@_frozen
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


@_frozen
class Box:
    """A box centred on its origin; ``size`` holds the three side lengths."""

    size: Vector3
    line: Optional[int] = None
    kind = 'box'


@_frozen
class Cylinder:
    """A cylinder centred on its origin, its axis along z."""

    radius: float
    length: float
    line: Optional[int] = None
    kind = 'cylinder'


@_frozen
class Sphere:
    """A sphere centred on its origin."""

    radius: float
    line: Optional[int] = None
    kind = 'sphere'


@_frozen
class Mesh:
    """A mesh file (``package://``, ``file://``, absolute or relative) and its scale."""

    filename: str
    scale: Vector3 = ONE3
    line: Optional[int] = None
    kind = 'mesh'


Geometry = Union[Box, Cylinder, Sphere, Mesh]


@_frozen
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


@_frozen
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


@_frozen
class Inertial:
    """Mass, centre-of-mass frame (``origin``) and inertia about that frame."""

    origin: Origin = IDENTITY
    mass: float = 0.0
    inertia: Inertia = Inertia()
    line: Optional[int] = None
    mass_line: Optional[int] = None


@_frozen
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

    @property
    def label(self) -> str:
        """Human label, e.g. ``collision[1] "base_collision"``."""
        if self.name:
            return f'{self.group}[{self.index}] "{self.name}"'
        return f'{self.group}[{self.index}]'


@_frozen
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


@_frozen
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


@_frozen
class Mimic:
    """A mimic relation: position = multiplier * other + offset."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0
    line: Optional[int] = None


@_frozen
class JointDynamics:
    """A ``<dynamics>``: damping and friction, None where absent (urdfdom reads 0)."""

    damping: Optional[float] = None
    friction: Optional[float] = None
    line: Optional[int] = None


@_frozen
class JointCalibration:
    """A ``<calibration>``: the rising and falling reference positions, None where absent."""

    rising: Optional[float] = None
    falling: Optional[float] = None
    line: Optional[int] = None


@_frozen
class SafetyController:
    """A ``<safety_controller>``, None where an attribute is absent."""

    soft_lower_limit: Optional[float] = None
    soft_upper_limit: Optional[float] = None
    k_position: Optional[float] = None
    k_velocity: Optional[float] = None
    line: Optional[int] = None


@_frozen
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


@_frozen
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
