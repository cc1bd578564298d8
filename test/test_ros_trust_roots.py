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
A real node process over DDS: its read roots cannot be widened by setting parameters.

The robot's xacro loads a YAML file named by an argument (as ros2_control descriptions do).
Setting ``package_dirs`` to ``evil=/`` is refused and the old value kept; ``xacro_args``
naming a secret file outside the start-time directories makes a rejected description, never
a link named after the secret; a package directory inside the start-time ones is accepted.
"""

import pytest
from ros_harness import NodeSession, statuses_of
from trust_harness import package
from urdf_link_tools.ros.urdf_file import package_dirs_refusal

pytest.importorskip('urdf_link_tools.srv',
                    reason='the service interfaces are not built: run scripts/setup.sh')

TIMEOUT = 60.0
SECRET = 'hunter2-not-a-real-token-91c4'
ERROR_STATUS = 'urdf_link_tools: robot_description'


def _package_dirs(session):
    from rcl_interfaces.srv import GetParameters
    answer = session.client.call(GetParameters, session.private('get_parameters'),
                                 GetParameters.Request(names=['package_dirs']))
    return list(answer.values[0].string_array_value)


def test_package_dirs_refusal_is_against_the_start_time_directories(tmp_path):
    inside = tmp_path / 'ws' / 'robot'
    assert package_dirs_refusal([('robot', str(inside))], [str(tmp_path / 'ws')]) is None
    reason = package_dirs_refusal([('evil', '/')], [str(tmp_path / 'ws')])
    assert 'evil=/ is outside the directories the node was started with' in reason


def test_ros_read_roots_cannot_be_widened_at_run_time(tmp_path):
    robot = tmp_path / 'robot_description'
    package(robot)
    (robot / 'params.yaml').write_text('token: fine\n')
    (robot / 'config').mkdir()
    top = robot / 'robot.urdf.xacro'
    top.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:arg name="params" default=""/>'
        '<xacro:property name="p" value="${xacro.load_yaml(xacro.arg(\'params\'))}"/>'
        '<link name="link_${p[\'token\']}"/></robot>')
    secret = tmp_path / 'secret.yaml'
    secret.write_text(f'token: {SECRET}\n')
    start_dirs = [f'robot_description={robot}']
    with NodeSession('trust_roots', {
            'urdf_file': str(top), 'xacro_args': [f'params:={robot / "params.yaml"}'],
            'package_dirs': start_dirs, 'check_meshes': False}) as session:
        session.wait_for_robot('r', TIMEOUT)
        assert [link.name for link in session.list_links().links] == ['link_fine']
        (result,) = session.set_parameters(package_dirs=['evil=/'])
        assert not result.successful
        assert 'outside the directories the node was started with' in result.reason
        assert _package_dirs(session) == start_dirs
        diagnostics = session.diagnostics()
        for target in (secret, '/etc/passwd'):
            (result,) = session.set_parameters(xacro_args=[f'params:={target}'])
            assert result.successful, result.reason  # arguments are data; the read is refused
            error = session.client.spin_until(
                lambda: (statuses_of(diagnostics).get(ERROR_STATUS) is not None and
                         'refused' in statuses_of(diagnostics)[ERROR_STATUS].message and
                         statuses_of(diagnostics)[ERROR_STATUS]), TIMEOUT, 'the refusal')
            assert SECRET not in error.message and 'root:' not in error.message
            assert [link.name for link in session.list_links().links] == ['link_fine']
        # Re-pointing a package inside the start-time directories is still allowed.
        (result,) = session.set_parameters(package_dirs=[f'robot_config={robot / "config"}'])
        assert result.successful, result.reason
        assert session.process.alive()
        assert SECRET not in session.process.output()
        assert 'root:x:' not in session.process.output()
