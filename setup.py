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

from glob import glob
import os

from setuptools import find_packages
from setuptools import setup

package_name = 'urdf_link_tools'


def tree_data_files(folder, pattern='*'):
    """
    List (install folder, files) pairs for the files under a source folder.

    Sub-folders keep their place below share/<package>/ (samples/meshes/ for example); a
    missing folder gives nothing, so setup.py works before launch/, config/ or samples/ exist.
    """
    pairs = []
    for root, dirs, _ in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('.', '_')))
        files = sorted(f for f in glob(os.path.join(root, pattern)) if os.path.isfile(f))
        if files:
            pairs.append((os.path.join('share', package_name, root), files))
    return pairs


setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*', 'bench', 'bench.*']),
    # The HTML report's page, script, style and the vendored three.js (with its licence).
    package_data={package_name: ['py.typed', 'reports/html_assets/*']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        *tree_data_files('launch', '*.launch.py'),
        *tree_data_files('config'),
        *tree_data_files('samples'),
    ],
    # What the core and the CLI import (no ROS: rclpy and the messages come from the ROS
    # installation and are only needed by urdf_link_tools.ros), so that `pip install .` into a
    # plain Python 3.10-3.12 venv gives a working `urdf-link-tools check`.
    install_requires=[
        'setuptools',
        'lxml>=4.6',
        'numpy>=1.21',
        'PyYAML>=5.4',
        # trimesh 5 does not import with numpy 1.21 (Ubuntu 22.04, ROS 2 Humble, Python 3.10):
        # 4.x does, and is what the Python 3.10 stage of .ci/run tests with.
        'trimesh>=4,<5; python_version < "3.11"',
        'trimesh>=4; python_version >= "3.11"',
        'scipy>=1.8',  # trimesh's convex hulls (the volume of open meshes)
        'pycollada>=0.7',  # DAE meshes through trimesh
        'xacro>=2.0',
    ],
    zip_safe=True,
    maintainer='urdf_link_tools contributors',
    maintainer_email='urdf_link_tools@example.com',
    description="A ROS 2 node and offline checker that explains what is wrong with a URDF's links",
    license='Apache-2.0',
    extras_require={
        'test': [
            'pytest',
            'jsonschema',
            'hypothesis',
        ],
        # self-collision: `urdf-link-tools collisions`, the collision-overlap-at-rest rule and
        # the node's get_collision_matrix service (without it they say coal is missing)
        'collisions': [
            'coal>=3.0',
        ],
    },
    entry_points={
        'console_scripts': [
            'urdf-link-tools = urdf_link_tools.console:run',
            'urdf-link-tools-pre-commit = urdf_link_tools.pre_commit:run',
            'urdf_link_tools_node = urdf_link_tools.ros.node:main',
        ],
    },
)
