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
The discovery variables that keep DDS on this machine, as each distribution's rcl reads them.

Iron and later read ``ROS_AUTOMATIC_DISCOVERY_RANGE`` (and ``ROS_STATIC_PEERS``); Humble's
rcl reads only ``ROS_LOCALHOST_ONLY``, which Jazzy and later deprecate (they warn). A test's
client and the node it starts must agree on them, or Fast DDS discovery can fail between the
two: both take their environment from :func:`localhost_discovery` (test/ros_harness.py and
bench/ros_processes.py).
"""

import os
from typing import MutableMapping, Optional

#: Distributions whose rcl knows ROS_LOCALHOST_ONLY only.
LOCALHOST_ONLY_DISTROS = ('foxy', 'galactic', 'humble')


def localhost_discovery(env: MutableMapping[str, str], distro: Optional[str] = None) -> None:
    """
    Set, in ``env``, the variables that keep discovery on this machine for the distribution.

    :param env: an environment to change (a child's, or ``os.environ`` before rclpy.init)
    :param distro: the ROS distribution; by default ``ROS_DISTRO`` of ``env``, else jazzy
    """
    distro = (distro or env.get('ROS_DISTRO') or os.environ.get('ROS_DISTRO') or 'jazzy')
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    env['ROS_STATIC_PEERS'] = ''
    if distro.lower() in LOCALHOST_ONLY_DISTROS:
        env['ROS_LOCALHOST_ONLY'] = '1'
    else:
        env.pop('ROS_LOCALHOST_ONLY', None)
