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
The consumers a robot description is loaded into, and which of them a claim is about.

A user names the targets (``--target``, the ``targets`` key of the configuration file, the
node's ``targets`` parameter; all by default). A rule that makes a claim about an engine
passes the severity it has for each engine; the finding gets the worst severity among the
selected targets, and no finding when none of them is affected. This is the one place
that decides which engine a claim is about.
"""

from __future__ import annotations

from typing import Any, FrozenSet, Iterable, Mapping, Optional, Tuple

from urdf_link_tools.findings import Severity
from urdf_link_tools.limits import shown

#: Every target, in the order messages name them.
TARGETS: Tuple[str, ...] = ('mujoco', 'gazebo', 'moveit', 'rviz', 'kdl', 'pinocchio')

#: How messages name each target.
TARGET_NAMES = {
    'mujoco': 'MuJoCo',
    'gazebo': 'Gazebo (gz-sim)',
    'moveit': 'MoveIt (FCL)',
    'rviz': 'RViz',
    'kdl': 'KDL (robot_state_publisher)',
    'pinocchio': 'Pinocchio',
}

ALL = frozenset(TARGETS)


def validate_targets(value: Any) -> Optional[str]:
    """Return an error unless the value is a list of target names (or 'all')."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        return f'targets must be a list of names, got {shown(value)}'
    for item in value:
        if not isinstance(item, str):
            return f'targets must hold names (text), got {shown(item)}'
        for name in _split(item):
            if name != 'all' and name not in ALL:
                return (f'unknown target {shown(name)}; known: all, {", ".join(TARGETS)}')
    return None


def _split(item: str) -> Tuple[str, ...]:
    return tuple(part.strip().lower() for part in item.split(',') if part.strip())


def parse_targets(value: Iterable[str]) -> FrozenSet[str]:
    """
    Read target names ('mujoco', 'gazebo,rviz', 'all'); an empty list means all.

    :param value: names, each possibly a comma-separated list
    :return: the selected targets
    :raises ValueError: for an unknown name
    """
    error = validate_targets(value)
    if error is not None:
        raise ValueError(error)
    names = {name for item in value for name in _split(item)}
    if not names or 'all' in names:
        return ALL
    return frozenset(names)


def severity_for(selected: FrozenSet[str],
                 by_target: Mapping[str, Severity]) -> Optional[Severity]:
    """
    Return the worst severity a claim has for the selected targets, None when none is hit.

    :param selected: the targets the user loads the robot into
    :param by_target: target -> severity of the claim for it (targets left out: unaffected)
    :return: the severity, or None
    """
    found = [severity for target, severity in by_target.items() if target in selected]
    return max(found) if found else None


def named(selected: FrozenSet[str], targets: Iterable[str]) -> str:
    """Return the selected ones among ``targets`` as text ('MuJoCo and RViz'), '' for none."""
    names = [TARGET_NAMES[target] for target in TARGETS
             if target in selected and target in set(targets)]
    if len(names) <= 1:
        return ''.join(names)
    return ', '.join(names[:-1]) + ' and ' + names[-1]
