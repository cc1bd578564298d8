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
A hidden node that holds nothing but some of a node's services, so they can be spun apart.

rclpy gives each executor whole nodes, not callback groups: to answer queries on an executor
of their own, the services need a node of their own. This one has no parameter services,
no rosout publisher and no type description service (its wait set holds its services and
nothing else), takes no command-line arguments, and names its services as the node that
owns them would (``~/list_links`` of ``/robot/urdf_link_tools`` is
``/robot/urdf_link_tools/list_links``, remappings of the owner's names included), so clients
see no difference. Its name starts with an underscore (``_urdf_link_tools_queries``):
``ros2 node list`` hides it.
"""

from __future__ import annotations

from typing import Any, Callable

from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile
from rclpy.service import Service

#: the parameter that turns off Jazzy's type description service (unknown to Humble, where a
#: parameter override nobody declares is ignored)
TYPE_DESCRIPTION_SERVICE = 'start_type_description_service'


class QueryNode(Node):
    """
    Services of ``owner``, on a node that has nothing else.

    :param owner: the node whose services these are (its name, namespace and context)
    :param suffix: ends the node's name, ``_<owner>_<suffix>``
    """

    def __init__(self, owner: Node, suffix: str) -> None:
        super().__init__(
            f'_{owner.get_name()}_{suffix}', namespace=owner.get_namespace(),
            context=owner.context, use_global_arguments=False, enable_rosout=False,
            start_parameter_services=False,
            parameter_overrides=[Parameter(TYPE_DESCRIPTION_SERVICE, value=False)])
        self._owner = owner

    def serve(self, srv_type: Any, name: str, callback: Callable[[Any, Any], Any],
              qos: QoSProfile) -> Service:
        """
        Create a service named as ``owner.create_service(srv_type, name, ...)`` would name it.

        :param srv_type: the service type
        :param name: the name relative to the owner, e.g. ``~/list_links``
        :param callback: the callback, which must never raise
        :param qos: the service's QoS profile
        :return: the service
        """
        return self.create_service(srv_type, self._owner.resolve_service_name(name), callback,
                                   qos_profile=qos)
