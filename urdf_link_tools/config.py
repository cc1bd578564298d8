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
Thresholds and switches of the checker, as one immutable value.

The same field names are used everywhere: :class:`CheckConfig`, the ``check`` CLI flags
(with dashes), and the ``urdf_link_tools: ros__parameters:`` section of
``config/urdf_link_tools.yaml`` that the ROS node also reads. Validators are pure functions
that return an error string (or None), so the node can call them from its on-set-parameters
callback and the CLI can print them.
"""

from __future__ import annotations

from dataclasses import fields, replace
import math
from typing import Any, Callable, Dict, FrozenSet, Iterable, Mapping, Optional, Tuple

from urdf_link_tools.limits import MESH_MAX_BYTES, MESH_MAX_BYTES_CEILING, shown as _shown
from urdf_link_tools.records import record
from urdf_link_tools.targets import ALL as ALL_TARGETS, parse_targets, validate_targets

YAML_SECTION = 'urdf_link_tools'


@record
class CheckConfig:
    """
    Everything that tunes the analysis.

    :param inertia_mismatch_factor: flag a principal moment that differs from the
        collision geometry's by more than this factor, either way
    :param density_min: lowest plausible mass / collision volume, kg/m^3
    :param density_max: highest plausible mass / collision volume, kg/m^3
    :param collision_face_limit: most faces a collision mesh should have
    :param min_mass: lightest plausible mass of a link on a moving joint, kg
    :param mesh_max_bytes: refuse mesh files larger than this
    :param ignore_rules: rule ids whose findings are dropped
    :param package_dirs: (package name, directory) pairs that take precedence over the
        ament index when resolving ``package://``
    :param check_meshes: load mesh files (False: skip every mesh-based rule)
    :param max_findings_per_rule: list at most this many findings of one rule; the rest
        are counted in one more finding (keeps output and /diagnostics bounded)
    :param targets: the consumers the robot is loaded into (see
        :mod:`urdf_link_tools.targets`); claims about other engines are not made
    :param disabled_collisions: pairs of links whose collision checking is disabled (an
        SRDF's ``<disable_collisions>``, each pair sorted): their overlaps at rest are
        meant, and not reported
    """

    inertia_mismatch_factor: float = 10.0
    density_min: float = 50.0
    density_max: float = 25000.0
    collision_face_limit: int = 5000
    min_mass: float = 1e-6
    mesh_max_bytes: int = MESH_MAX_BYTES
    ignore_rules: FrozenSet[str] = frozenset()
    package_dirs: Tuple[Tuple[str, str], ...] = ()
    check_meshes: bool = True
    max_findings_per_rule: int = 200
    targets: FrozenSet[str] = ALL_TARGETS
    disabled_collisions: FrozenSet[Tuple[str, str]] = frozenset()


def _positive_number(name: str, value: Any) -> Optional[str]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f'{name} must be a number, got {_shown(value)}'
    if not math.isfinite(value) or value <= 0:
        return f'{name} must be a finite number greater than 0, got {_shown(value)}'
    return None


def _positive_integer(name: str, value: Any) -> Optional[str]:
    if isinstance(value, bool) or not isinstance(value, int):
        return f'{name} must be a whole number, got {_shown(value)}'
    if value <= 0:
        return f'{name} must be greater than 0, got {_shown(value)}'
    return None


def validate_inertia_mismatch_factor(value: Any) -> Optional[str]:
    """Return an error when the factor is not a number greater than 1."""
    error = _positive_number('inertia_mismatch_factor', value)
    if error is None and value <= 1:
        error = f'inertia_mismatch_factor must be greater than 1, got {_shown(value)}'
    return error


def validate_density_min(value: Any) -> Optional[str]:
    """Return an error when the minimum density is not a positive number."""
    return _positive_number('density_min', value)


def validate_density_max(value: Any) -> Optional[str]:
    """Return an error when the maximum density is not a positive number."""
    return _positive_number('density_max', value)


def validate_collision_face_limit(value: Any) -> Optional[str]:
    """Return an error when the face limit is not a positive whole number."""
    return _positive_integer('collision_face_limit', value)


def validate_min_mass(value: Any) -> Optional[str]:
    """Return an error when the minimum mass is not a positive number."""
    return _positive_number('min_mass', value)


def validate_mesh_max_bytes(value: Any) -> Optional[str]:
    """Return an error unless the size limit is a whole number from 1 to the ceiling."""
    error = _positive_integer('mesh_max_bytes', value)
    if error is None and value > MESH_MAX_BYTES_CEILING:
        return (f'mesh_max_bytes may be at most {MESH_MAX_BYTES_CEILING:,} (no mesh file is '
                f'larger), got {_shown(value)}')
    return error


def validate_ignore_rules(value: Any) -> Optional[str]:
    """Return an error when the value is not a collection of rule id strings."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        return f'ignore_rules must be a list of rule ids, got {_shown(value)}'
    for item in value:
        # An empty string is accepted and dropped: ROS parameters cannot declare an empty
        # string array, so parameter files use [''] for "none".
        if not isinstance(item, str):
            return f'ignore_rules must hold rule ids (text), got {_shown(item)}'
    return None


def validate_package_dirs(value: Any) -> Optional[str]:
    """Return an error unless the value is (name, directory) pairs or 'name=dir' strings."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        return f'package_dirs must be a list of NAME=PATH entries, got {_shown(value)}'
    for item in value:
        if isinstance(item, str) and not item.strip():
            continue
        if isinstance(item, str):
            if '=' not in item or not item.split('=', 1)[0].strip() or \
                    not item.split('=', 1)[1].strip():
                return f'package_dirs entry {_shown(item)} is not NAME=PATH'
        elif not (isinstance(item, (tuple, list)) and len(item) == 2
                  and all(isinstance(part, str) and part for part in item)):
            return f'package_dirs entry {_shown(item)} is not a (name, path) pair'
    return None


def validate_disabled_collisions(value: Any) -> Optional[str]:
    """Return an error unless the value is 'LINK1 LINK2' strings or (link1, link2) pairs."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        return ("disabled_collisions must be a list of 'LINK1 LINK2' entries, got "
                f'{_shown(value)}')
    for item in value:
        if isinstance(item, str) and not item.strip():
            continue
        parts = item.split() if isinstance(item, str) else item
        if not (isinstance(parts, (tuple, list)) and len(parts) == 2
                and all(isinstance(part, str) and part for part in parts)):
            return (f'disabled_collisions entry {_shown(item)} is not two link names '
                    "('LINK1 LINK2')")
    return None


def parse_disabled_collisions(value: Iterable[Any]) -> FrozenSet[Tuple[str, str]]:
    """Return 'LINK1 LINK2' strings or pairs as sorted pairs (empty strings dropped)."""
    pairs = set()
    for item in value:
        if isinstance(item, str) and not item.strip():
            continue
        first, second = item.split() if isinstance(item, str) else item
        pairs.add((first, second) if first <= second else (second, first))
    return frozenset(pairs)


def validate_check_meshes(value: Any) -> Optional[str]:
    """Return an error when the value is not a boolean."""
    if not isinstance(value, bool):
        return f'check_meshes must be true or false, got {_shown(value)}'
    return None


def validate_max_findings_per_rule(value: Any) -> Optional[str]:
    """Return an error when the cap is not a positive whole number."""
    return _positive_integer('max_findings_per_rule', value)


VALIDATORS: Dict[str, Callable[[Any], Optional[str]]] = {
    'inertia_mismatch_factor': validate_inertia_mismatch_factor,
    'density_min': validate_density_min,
    'density_max': validate_density_max,
    'collision_face_limit': validate_collision_face_limit,
    'min_mass': validate_min_mass,
    'mesh_max_bytes': validate_mesh_max_bytes,
    'ignore_rules': validate_ignore_rules,
    'package_dirs': validate_package_dirs,
    'check_meshes': validate_check_meshes,
    'max_findings_per_rule': validate_max_findings_per_rule,
    'targets': validate_targets,
    'disabled_collisions': validate_disabled_collisions,
}

FIELD_NAMES = tuple(item.name for item in fields(CheckConfig))

#: The node's own parameters (urdf_link_tools.ros.parameters.PARAMETERS less the checker's
#: fields), which ``--config`` reads past in the node's parameter file; test_ros_parameters
#: keeps this list equal to the node's table.
NODE_ONLY_PARAMETERS = (
    'urdf_file', 'urdf_dirs', 'xacro_args', 'description_max_bytes', 'analysis_time_budget',
    'diagnostics_period', 'diagnostics_max_link_statuses', 'mesh_triangles_max',
    'robot_com_period', 'marker_scale', 'publish_com', 'publish_inertia', 'publish_collision',
    'publish_labels', 'color_ok', 'color_warning', 'color_error', 'color_collision',
    'color_robot_com')
#: Parameters every ROS 2 node has (``qos_overrides.*`` too).
ROS_NODE_PARAMETERS = ('use_sim_time', 'start_type_description_service')


def validate_field(name: str, value: Any) -> Optional[str]:
    """
    Validate one setting.

    :param name: a :class:`CheckConfig` field name
    :param value: the proposed value
    :return: an error message, or None when the value is acceptable
    """
    validator = VALIDATORS.get(name)
    if validator is None:
        return f'unknown setting {_shown(name)}; known: {", ".join(FIELD_NAMES)}'
    return validator(value)


def validate_config(config: CheckConfig) -> Optional[str]:
    """
    Validate a whole configuration, including relations between fields.

    :param config: the configuration
    :return: an error message, or None when it is consistent
    """
    for name in FIELD_NAMES:
        error = validate_field(name, getattr(config, name))
        if error is not None:
            return error
    if config.density_min >= config.density_max:
        return (f'density_min ({config.density_min:g}) must be lower than density_max '
                f'({config.density_max:g})')
    return None


def parse_package_dir(text: str) -> Tuple[str, str]:
    """
    Split a ``NAME=PATH`` package directory argument.

    :param text: e.g. ``my_robot_description=/ws/src/my_robot_description``
    :return: (name, path)
    :raises ValueError: when there is no '=' or either side is empty
    """
    name, sep, path = text.partition('=')
    if not sep or not name.strip() or not path.strip():
        raise ValueError(f'{text!r} is not NAME=PATH (e.g. my_robot=/ws/src/my_robot)')
    return name.strip(), path.strip()


def _normalise(name: str, value: Any) -> Any:
    if name == 'ignore_rules':
        return frozenset(item.strip() for item in value if item.strip())
    if name == 'package_dirs':
        return tuple(parse_package_dir(item) if isinstance(item, str) else
                     (item[0], item[1]) for item in value
                     if not (isinstance(item, str) and not item.strip()))
    if name == 'targets':
        return parse_targets(value)
    if name == 'disabled_collisions':
        return parse_disabled_collisions(value)
    if name in ('inertia_mismatch_factor', 'density_min', 'density_max', 'min_mass'):
        return float(value)
    return value


def config_from_mapping(values: Mapping[str, Any], base: CheckConfig = CheckConfig(),
                        ignore_unknown: bool = True) -> CheckConfig:
    """
    Build a configuration from a mapping of field names to values.

    :param values: field name -> value; ints are accepted for float fields, lists for
        ``ignore_rules`` and ``package_dirs`` (``NAME=PATH`` strings or pairs)
    :param base: the configuration whose other fields are kept
    :param ignore_unknown: skip keys that are not fields (the node's own parameters)
    :return: the new configuration
    :raises ValueError: with the first validation error
    """
    changes: Dict[str, Any] = {}
    for name, value in values.items():
        if name not in VALIDATORS:
            if ignore_unknown:
                continue
            raise ValueError(f'unknown setting {_shown(name)}; known: {", ".join(FIELD_NAMES)}')
        error = validate_field(name, value)
        if error is not None:
            raise ValueError(error)
        changes[name] = _normalise(name, value)
    config = replace(base, **changes)
    error = validate_config(config)
    if error is not None:
        raise ValueError(error)
    return config


#: the largest --config file read (a parameter file is a few kilobytes; PyYAML's pure-Python
#: loader takes about 11 s and 370 MB a MiB of a flow list, tenth red-team review)
CONFIG_MAX_BYTES = 256 << 10


def load_config_yaml(path: str, base: CheckConfig = CheckConfig()) -> CheckConfig:
    """
    Read the ``urdf_link_tools: ros__parameters:`` section of a ROS parameters file.

    The node's own parameters are read past; any other key is refused, naming the nearest
    known one (a misspelt threshold must not silently keep its default). A file without that
    section, or a plain mapping of field names at the top level, is accepted too.

    :param path: the YAML file
    :param base: defaults for fields the file does not set
    :return: the configuration
    :raises ValueError: when the file cannot be read, holds an unknown key or an invalid
        value
    """
    import yaml  # PyYAML: only needed when a file is given

    try:
        with open(path, 'rb') as stream:
            text = stream.read(CONFIG_MAX_BYTES + 1)
        if len(text) > CONFIG_MAX_BYTES:
            raise ValueError(f'{path}: larger than {CONFIG_MAX_BYTES >> 10} KiB, not a '
                             'parameter file')
        # (PyYAML's pure-Python loader: libyaml's, CSafeLoader, ends the process on 100,000
        # nested brackets, a segmentation fault)
        document = yaml.safe_load(text)
    except OSError as exc:
        raise ValueError(f'{path}: cannot read: {exc.strerror}') from None
    except RecursionError:
        raise ValueError(f'{path}: nested too deeply to be a parameter file') from None
    except ValueError as exc:  # a number of over 4,300 digits (Python's int limit)
        raise ValueError(f'{path}: not a parameter file: {str(exc)[:200]}') from None
    except yaml.YAMLError as exc:  # its message spans lines: the report prints one
        raise ValueError(f'{path}: not valid YAML: {" ".join(str(exc).split())}') from None
    if document is None:
        return base
    if not isinstance(document, dict):
        raise ValueError(f'{path}: expected a mapping at the top level')
    section: Any = document
    for key in (YAML_SECTION, '/**'):
        if isinstance(document.get(key), dict):
            section = document[key]
            break
    if isinstance(section, dict) and isinstance(section.get('ros__parameters'), dict):
        section = section['ros__parameters']
    unknown = _unknown_key(section)
    if unknown is not None:
        raise ValueError(f'{path}: {unknown}')
    try:
        return config_from_mapping(section, base)
    except ValueError as exc:
        raise ValueError(f'{path}: {exc}') from None


def _unknown_key(section: Mapping[Any, Any]) -> Optional[str]:
    """Return what is wrong with the first key no checker or node parameter has, else None."""
    import difflib

    known = FIELD_NAMES + NODE_ONLY_PARAMETERS + ROS_NODE_PARAMETERS
    for key in section:
        if key in known or (isinstance(key, str) and key.startswith('qos_overrides.')):
            continue
        close = difflib.get_close_matches(str(key), known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else \
            f'; the checker knows {", ".join(FIELD_NAMES)}'
        return f'unknown setting {str(key)[:100]!r}{hint}'
    return None
