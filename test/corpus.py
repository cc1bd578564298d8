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

"""Locate the example-robot-data corpus (URDFs and meshes) in the running environment."""

import importlib.metadata
import os
from pathlib import Path
from typing import List, Optional


def prefix() -> Optional[Path]:
    """
    Return the install prefix of example-robot-data (holding share/example-robot-data).

    It is found through the distribution's file list, so it works in any virtual
    environment, and through AMENT_PREFIX_PATH as a ROS install would have it.
    """
    try:
        files = importlib.metadata.files('example-robot-data') or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for entry in files:
        text = str(entry)
        if text.endswith('share/example-robot-data/package.xml'):
            return Path(str(entry.locate())).resolve().parents[2]
    for item in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        if item and (Path(item) / 'share' / 'example-robot-data' / 'robots').is_dir():
            return Path(item)
    return None


def robots_dir() -> Optional[Path]:
    """Return the folder holding the robots, or None when the corpus is not installed."""
    base = prefix()
    return base / 'share' / 'example-robot-data' / 'robots' if base is not None else None


def mesh_files(suffix: str) -> List[Path]:
    """Return the corpus's files ending in ``suffix`` (any case), sorted; empty without it."""
    base = robots_dir()
    if base is None:
        return []
    return sorted(path for path in base.rglob('*') if path.suffix.lower() == suffix)


def urdf_paths() -> List[Path]:
    """Return every .urdf file of the corpus, sorted; empty when it is not installed."""
    base = robots_dir()
    if base is None:
        return []
    return sorted(base.glob('*/*/*.urdf'))


def urdf_path(name: str) -> Path:
    """
    Return one corpus URDF by file name.

    :param name: e.g. 'ur5_robot.urdf'
    :raises FileNotFoundError: when it is not in the corpus
    """
    for path in urdf_paths():
        if path.name == name:
            return path
    raise FileNotFoundError(f'{name} is not in example-robot-data: run make setup')


def ament_prefixes() -> List[str]:
    """
    Return AMENT_PREFIX_PATH's entries plus the corpus prefix when its ament marker is there.

    This mirrors ament_index: ``<prefix>/share/ament_index/resource_index/packages/<name>``
    marks ``<prefix>/share/<name>``, which is how ``package://example-robot-data/...``
    resolves.
    """
    prefixes = [item for item in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                if item]
    base = prefix()
    if base is not None and has_ament_marker(base) and str(base) not in prefixes:
        prefixes.append(str(base))
    return prefixes


def has_ament_marker(base: Path) -> bool:
    """Return True when the prefix registers example-robot-data in its ament index."""
    return (base / 'share' / 'ament_index' / 'resource_index' / 'packages' /
            'example-robot-data').is_file()


def relative_name(path: Path) -> str:
    """Name a corpus URDF by its path below the robots folder (e.g. 'ur_description/...')."""
    base = robots_dir()
    return str(path.relative_to(base)) if base is not None else str(path)
