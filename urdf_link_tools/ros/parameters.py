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
The node's parameters: one table of descriptors, pure validators, an immutable result.

As generate_parameter_library does it, every parameter is declared from :data:`PARAMETERS`
(type, default, description, read-only flag, range), validated by pure functions that return
an error string, and turned, once valid, into one frozen :class:`NodeSettings`. The checker's
own thresholds reuse :mod:`urdf_link_tools.config` (its field names and validators), so the
node, the CLI and ``config/urdf_link_tools.yaml`` agree on them.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rcl_interfaces.msg import ParameterType
from urdf_link_tools import config as check_config
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES, MESH_MAX_BYTES_CEILING
from urdf_link_tools.records import record
from urdf_link_tools.ros.markers import MarkerOptions

Validator = Callable[[Any], Optional[str]]

DOUBLE = ParameterType.PARAMETER_DOUBLE
INTEGER = ParameterType.PARAMETER_INTEGER
BOOL = ParameterType.PARAMETER_BOOL
STRING = ParameterType.PARAMETER_STRING
STRING_ARRAY = ParameterType.PARAMETER_STRING_ARRAY
DOUBLE_ARRAY = ParameterType.PARAMETER_DOUBLE_ARRAY

_TYPE_NAMES = {DOUBLE: 'a number', INTEGER: 'a whole number', BOOL: 'true or false',
               STRING: 'text', STRING_ARRAY: 'a list of text', DOUBLE_ARRAY: 'a list of numbers'}


@record
class ParameterSpec:
    """
    One parameter: what ``ros2 param describe`` shows, and how its value is checked.

    ``default`` None declares a string array without a value (ROS cannot infer the type of
    an empty list); it reads as empty.
    """

    name: str
    type: int  # noqa: A003 (the ParameterDescriptor field of that name)
    default: Any
    description: str
    read_only: bool = False
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    validator: Optional[Validator] = None
    constraints: str = ''

    def descriptor(self) -> ParameterDescriptor:
        """Return the rcl_interfaces/ParameterDescriptor to declare this parameter with."""
        descriptor = ParameterDescriptor(
            name=self.name, type=self.type, description=self.description,
            read_only=self.read_only, additional_constraints=self.constraints)
        if self.minimum is not None and self.maximum is not None:
            if self.type == DOUBLE:
                descriptor.floating_point_range = [FloatingPointRange(
                    from_value=float(self.minimum), to_value=float(self.maximum), step=0.0)]
            elif self.type == INTEGER:
                descriptor.integer_range = [IntegerRange(
                    from_value=int(self.minimum), to_value=int(self.maximum), step=1)]
        return descriptor


def validate_rgba(name: str) -> Validator:
    """Return a validator for an RGBA colour: four numbers from 0 to 1."""
    def validate(value: Any) -> Optional[str]:
        items = list(value) if isinstance(value, (list, tuple)) else None
        if items is None or len(items) != 4:
            return f'{name} must be four numbers [r, g, b, a], got {value!r}'
        for item in items:
            if isinstance(item, bool) or not isinstance(item, (int, float)) or \
                    not math.isfinite(item) or not 0.0 <= item <= 1.0:
                return f'{name} must hold numbers from 0 to 1, got {value!r}'
        return None
    return validate


def validate_urdf_file(value: Any) -> Optional[str]:
    """Accept any path (checked when loaded, so a bad file is reported, not refused)."""
    if not isinstance(value, str):
        return f'urdf_file must be a path, got {value!r}'
    return None


def validate_xacro_args(value: Any) -> Optional[str]:
    """Accept a list of xacro arguments written ``name:=value``."""
    from urdf_link_tools.xacro.sandbox import parse_mappings
    try:
        parse_mappings([item for item in _strings(value) if item])
    except ValueError as exc:
        return f'xacro_args: {exc}'
    return None


def _check(name: str) -> Validator:
    return check_config.VALIDATORS[name]


_COLOR = 'four numbers [r, g, b, a] from 0 to 1'

PARAMETERS: Tuple[ParameterSpec, ...] = (
    # --- input
    ParameterSpec(
        'urdf_file', STRING, '',
        'A URDF or xacro (.xacro) file to analyse, for running without a robot_description '
        'publisher. Empty: only the robot_description topic. At run time it may name only a '
        'readable, well-formed file under urdf_dirs; anything else is refused.',
        validator=validate_urdf_file),
    ParameterSpec(
        'urdf_dirs', STRING_ARRAY, None,
        'Directories urdf_file may name when set at run time (symlinks resolved). Empty: the '
        'directory of the urdf_file given at start; none if the node started without one.',
        read_only=True),
    ParameterSpec(
        'xacro_args', STRING_ARRAY, None,
        "xacro arguments for a .xacro urdf_file, each 'name:=value'. Empty: none (write [''] "
        'in a parameter file). Changing them reloads the file.',
        validator=validate_xacro_args),
    ParameterSpec(
        'description_max_bytes', INTEGER, DESCRIPTION_MAX_BYTES,
        'Refuse a robot description (topic message or urdf_file) larger than this many '
        'bytes, before parsing it.', minimum=1024, maximum=2_000_000_000),
    ParameterSpec(
        'analysis_time_budget', DOUBLE, 60.0,
        'Seconds one description may take to parse and analyse; past it, the findings so far '
        'are published with an analysis-incomplete finding. A newer description always '
        'stops the analysis in progress.', minimum=0.1, maximum=86400.0),
    # --- checker thresholds (urdf_link_tools.config.CheckConfig); changing one re-runs the checks
    ParameterSpec(
        'inertia_mismatch_factor', DOUBLE, CheckConfig.inertia_mismatch_factor,
        'Flag a principal moment that differs from the one of the collision geometry by more '
        'than this factor, either way.', minimum=1.0, maximum=1e6,
        validator=_check('inertia_mismatch_factor'), constraints='greater than 1'),
    ParameterSpec(
        'density_min', DOUBLE, CheckConfig.density_min,
        'Lowest plausible density (mass / collision volume), kg/m^3.', minimum=0.0,
        maximum=1e6, validator=_check('density_min'),
        constraints='greater than 0 and lower than density_max'),
    ParameterSpec(
        'density_max', DOUBLE, CheckConfig.density_max,
        'Highest plausible density (mass / collision volume), kg/m^3.', minimum=0.0,
        maximum=1e6, validator=_check('density_max'),
        constraints='greater than density_min'),
    ParameterSpec(
        'collision_face_limit', INTEGER, CheckConfig.collision_face_limit,
        'Most faces a collision mesh should have (1-3k is routine; the URDF specification '
        'advises under 1000).', minimum=1, maximum=100_000_000,
        validator=_check('collision_face_limit')),
    ParameterSpec(
        'min_mass', DOUBLE, CheckConfig.min_mass,
        'Lightest plausible mass of a link on a moving joint, kg.', minimum=0.0, maximum=1e3,
        validator=_check('min_mass'), constraints='greater than 0'),
    ParameterSpec(
        'mesh_max_bytes', INTEGER, CheckConfig.mesh_max_bytes,
        'Refuse mesh files larger than this many bytes.', minimum=1,
        maximum=MESH_MAX_BYTES_CEILING, validator=_check('mesh_max_bytes')),
    ParameterSpec(
        'ignore_rules', STRING_ARRAY, None,
        "Rule ids whose findings are dropped, e.g. ['collision-reuses-visual-mesh']. Empty: "
        "none (write [''] in a parameter file: ROS cannot type an empty list).",
        validator=lambda value: validate_ignore_rules(_strings(value))),
    ParameterSpec(
        'package_dirs', STRING_ARRAY, None,
        'Extra package directories as NAME=PATH, taking precedence over the ament index when '
        "resolving package:// mesh URIs. Empty: none (write [''] in a parameter file).",
        validator=lambda value: _check('package_dirs')(_strings(value))),
    ParameterSpec(
        'targets', STRING_ARRAY, None,
        'The consumers the robot is loaded into: mujoco, gazebo, moveit, rviz, kdl, '
        "pinocchio; claims about other engines are not made. Empty or ['all']: all.",
        validator=lambda value: _check('targets')(_strings(value))),
    ParameterSpec(
        'disabled_collisions', STRING_ARRAY, None,
        "Pairs of links whose collision checking is disabled, as 'LINK1 LINK2' (the SRDF's "
        '<disable_collisions>): their overlaps at rest are not reported. Empty: none (write '
        "[''] in a parameter file).",
        validator=lambda value: _check('disabled_collisions')(_strings(value))),
    ParameterSpec(
        'check_meshes', BOOL, CheckConfig.check_meshes,
        'Load mesh files (false: skip every mesh-based check).',
        validator=_check('check_meshes')),
    ParameterSpec(
        'max_findings_per_rule', INTEGER, CheckConfig.max_findings_per_rule,
        'List at most this many findings of one rule; the rest are counted in one more '
        'finding.', minimum=1, maximum=100_000_000,
        validator=_check('max_findings_per_rule')),
    # --- outputs
    ParameterSpec(
        'diagnostics_period', DOUBLE, 1.0,
        'Seconds between two /diagnostics messages.', read_only=True, minimum=0.05,
        maximum=3600.0),
    ParameterSpec(
        'diagnostics_max_link_statuses', INTEGER, 200,
        'A robot with more links than this gets one /diagnostics status per rule (with the '
        'number of links and the first of them) instead of one status per link.',
        minimum=0, maximum=2_000),
    ParameterSpec(
        'mesh_triangles_max', INTEGER, 200_000,
        'Most triangles get_link_geometry returns for one mesh with include_mesh_triangles; '
        'a larger mesh is answered without its triangles (read mesh_path instead).',
        minimum=0, maximum=10_000_000),
    ParameterSpec(
        'robot_com_period', DOUBLE, 0.1,
        'Seconds between two updates of the whole-robot COM (~/robot_com and its markers) '
        'while joint_states change.', read_only=True, minimum=0.01, maximum=60.0),
    ParameterSpec(
        'marker_scale', DOUBLE, 1.0,
        'Size factor of the labels and the robot COM markers (link COM spheres and inertia '
        'boxes keep their physical size, as in RViz).', minimum=0.01, maximum=100.0),
    ParameterSpec('publish_com', BOOL, True, "Publish the links' COM spheres (namespace com)."),
    ParameterSpec('publish_inertia', BOOL, True,
                  'Publish the equivalent inertia boxes (namespace inertia).'),
    ParameterSpec('publish_collision', BOOL, True,
                  'Publish the collision geometry (namespace collision).'),
    ParameterSpec('publish_labels', BOOL, True,
                  'Publish link name and mass as text (namespace labels).'),
    ParameterSpec('color_ok', DOUBLE_ARRAY, list(MarkerOptions.color_ok),
                  'Colour of links without warnings or errors, RGBA.',
                  validator=validate_rgba('color_ok'), constraints=_COLOR),
    ParameterSpec('color_warning', DOUBLE_ARRAY, list(MarkerOptions.color_warning),
                  'Colour of links whose worst finding is a warning, RGBA.',
                  validator=validate_rgba('color_warning'), constraints=_COLOR),
    ParameterSpec('color_error', DOUBLE_ARRAY, list(MarkerOptions.color_error),
                  'Colour of links with an error, RGBA.',
                  validator=validate_rgba('color_error'), constraints=_COLOR),
    ParameterSpec('color_collision', DOUBLE_ARRAY, list(MarkerOptions.color_collision),
                  'Colour of the collision geometry, RGBA (translucent by default).',
                  validator=validate_rgba('color_collision'), constraints=_COLOR),
    ParameterSpec('color_robot_com', DOUBLE_ARRAY, list(MarkerOptions.color_robot_com),
                  'Colour of the whole-robot COM markers, RGBA.',
                  validator=validate_rgba('color_robot_com'), constraints=_COLOR),
)

SPECS: Dict[str, ParameterSpec] = {spec.name: spec for spec in PARAMETERS}
CHECK_FIELDS = tuple(name for name in check_config.FIELD_NAMES if name in SPECS)


def validate_ignore_rules(value: Any) -> Optional[str]:
    """
    Return an error for a value that is not rule ids, or names a rule that does not exist.

    The CLI's ``--ignore`` refuses an unknown rule too: a misspelt id would silence nothing.
    """
    from urdf_link_tools.checks import is_known_rule, RULES
    from urdf_link_tools.checks.names import NameSuggester

    error = _check('ignore_rules')(value)
    if error is not None:
        return error
    unknown = [item for item in value if item and not is_known_rule(item)]
    if not unknown:
        return None
    guess = NameSuggester(RULES).suggest(unknown[0])
    hint = f" (did you mean '{guess}'?)" if guess else ''
    return (f'ignore_rules: unknown rule {unknown[0]!r}{hint}: see docs/rules.md for the rule '
            'ids')


def _strings(value: Any) -> Any:
    """Read an unset string array (None) as empty."""
    return [] if value is None else value


def _type_error(spec: ParameterSpec, value: Any) -> Optional[str]:
    expected = _TYPE_NAMES.get(spec.type, 'a value')
    if spec.type == DOUBLE:
        ok = isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool))
    elif spec.type == INTEGER:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif spec.type == BOOL:
        ok = isinstance(value, bool)
    elif spec.type == STRING:
        ok = isinstance(value, str)
    elif spec.type == STRING_ARRAY:
        ok = value is None or (isinstance(value, (list, tuple)) and
                               all(isinstance(item, str) for item in value))
    else:
        ok = isinstance(value, (list, tuple))
    return None if ok else f'{spec.name} must be {expected}, got {value!r}'


def validate_value(name: str, value: Any) -> Optional[str]:
    """
    Validate one parameter on its own: type, range, then its validator.

    :param name: the parameter
    :param value: the proposed value (a Python value, as ``Parameter.value`` gives it)
    :return: an error message, or None when acceptable
    """
    spec = SPECS.get(name)
    if spec is None:
        return f'unknown parameter {name!r}'
    error = _type_error(spec, value)
    if error is not None:
        return error
    if spec.minimum is not None and spec.type in (DOUBLE, INTEGER):
        if not (math.isfinite(value) and spec.minimum <= value <= spec.maximum):
            return (f'{name} must be from {spec.minimum:g} to {spec.maximum:g}, '
                    f'got {value!r}')
    if spec.validator is not None:
        return spec.validator(value)
    return None


def validate_values(values: Mapping[str, Any]) -> Optional[str]:
    """
    Validate a complete set of values, including relations between parameters.

    :param values: name -> value for every parameter
    :return: the first error, or None when the set is consistent
    """
    for name, value in values.items():
        error = validate_value(name, value)
        if error is not None:
            return error
    try:
        settings_from_values(values)
    except ValueError as exc:
        return str(exc)
    return None


@record
class NodeSettings:
    """Everything the node does, as one immutable value swapped whole on a change."""

    check: CheckConfig = CheckConfig()
    markers: MarkerOptions = MarkerOptions()
    urdf_file: str = ''
    urdf_dirs: Tuple[str, ...] = ()
    xacro_args: Tuple[str, ...] = ()
    description_max_bytes: int = DESCRIPTION_MAX_BYTES
    diagnostics_period: float = 1.0
    robot_com_period: float = 0.1
    analysis_time_budget: float = 60.0
    diagnostics_max_link_statuses: int = 200
    mesh_triangles_max: int = 200_000

    @property
    def mesh_key(self) -> Tuple[Tuple[Tuple[str, str], ...], int]:
        """Return what a mesh library depends on: rebuild it when this changes."""
        return (self.check.package_dirs, self.check.mesh_max_bytes)


def default_values() -> Dict[str, Any]:
    """Return every parameter's default."""
    return {spec.name: spec.default for spec in PARAMETERS}


def _rgba(value: Sequence[float]) -> Tuple[float, float, float, float]:
    red, green, blue, alpha = (float(item) for item in value)
    return (red, green, blue, alpha)


def settings_from_values(values: Mapping[str, Any]) -> NodeSettings:
    """
    Build the settings from parameter values (missing ones take their default).

    :param values: name -> value
    :return: the settings
    :raises ValueError: with the first error, for a value or a relation between values
    """
    merged = default_values()
    merged.update(values)
    for name, value in merged.items():
        error = validate_value(name, value)
        if error is not None:
            raise ValueError(error)
    check_values = {name: _strings(merged[name]) if SPECS[name].type == STRING_ARRAY
                    else merged[name] for name in CHECK_FIELDS}
    check = check_config.config_from_mapping(check_values)
    markers = MarkerOptions(
        scale=float(merged['marker_scale']), publish_com=merged['publish_com'],
        publish_inertia=merged['publish_inertia'],
        publish_collision=merged['publish_collision'],
        publish_labels=merged['publish_labels'], color_ok=_rgba(merged['color_ok']),
        color_warning=_rgba(merged['color_warning']), color_error=_rgba(merged['color_error']),
        color_collision=_rgba(merged['color_collision']),
        color_robot_com=_rgba(merged['color_robot_com']))
    return NodeSettings(
        check=check, markers=markers, urdf_file=merged['urdf_file'],
        urdf_dirs=tuple(item for item in _strings(merged['urdf_dirs']) if item),
        xacro_args=tuple(item for item in _strings(merged['xacro_args']) if item),
        description_max_bytes=int(merged['description_max_bytes']),
        diagnostics_period=float(merged['diagnostics_period']),
        robot_com_period=float(merged['robot_com_period']),
        analysis_time_budget=float(merged['analysis_time_budget']),
        diagnostics_max_link_statuses=int(merged['diagnostics_max_link_statuses']),
        mesh_triangles_max=int(merged['mesh_triangles_max']))
