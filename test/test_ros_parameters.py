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
The node's parameter table, its pure validators, and the shipped parameter file.

Only the last two tests start rclpy: they declare the parameters on a real node (in a
context of their own, not spinning) to prove rcl reads config/urdf_link_tools.yaml as this
table expects.
"""

import os

import pytest
from ros_harness import allocate_domain_id, REPO
from urdf_link_tools import config as check_config
from urdf_link_tools.config import CheckConfig, load_config_yaml
from urdf_link_tools.ros import parameters
from urdf_link_tools.ros.markers import MarkerOptions
from urdf_link_tools.ros.parameters import (
    DOUBLE, INTEGER, PARAMETERS, settings_from_values, SPECS, validate_value,
    validate_values)
import yaml

CONFIG_FILE = REPO / 'config' / 'urdf_link_tools.yaml'


def test_ros_parameters_cover_every_check_setting():
    assert parameters.CHECK_FIELDS == check_config.FIELD_NAMES
    assert len(SPECS) == len(PARAMETERS)
    # --config reads past exactly the node's own parameters.
    assert check_config.NODE_ONLY_PARAMETERS == tuple(
        spec.name for spec in PARAMETERS if spec.name not in check_config.FIELD_NAMES)


def test_ros_parameter_defaults_are_the_core_defaults():
    settings = settings_from_values({})
    assert settings.check == CheckConfig()
    assert settings.markers == MarkerOptions()
    assert settings.diagnostics_period == 1.0 and settings.urdf_file == ''
    assert settings.description_max_bytes == 32 * 1024 * 1024  # as loading reads files


@pytest.mark.parametrize('spec', PARAMETERS, ids=lambda spec: spec.name)
def test_ros_parameter_descriptors(spec):
    descriptor = spec.descriptor()
    assert descriptor.name == spec.name and descriptor.type == spec.type
    assert len(spec.description) > 20 and spec.description.rstrip().endswith('.')
    if spec.type == DOUBLE:
        (span,) = descriptor.floating_point_range
        assert span.from_value < span.to_value
    if spec.type == INTEGER:
        (span,) = descriptor.integer_range
        assert span.from_value < span.to_value and span.step == 1
    if spec.default is not None:
        assert validate_value(spec.name, spec.default) is None


@pytest.mark.parametrize('name, value, error', [
    ('density_min', 10, None),  # an int is a fine number
    ('density_min', 'heavy', 'density_min must be a number'),
    ('density_min', -1.0, 'density_min must be from 0 to 1e+06'),
    ('density_min', 0.0, 'greater than 0'),
    ('inertia_mismatch_factor', 1.0, 'greater than 1'),
    ('collision_face_limit', 2.5, 'must be a whole number'),
    ('collision_face_limit', True, 'must be a whole number'),
    ('mesh_max_bytes', 0, 'must be from 1'),
    ('check_meshes', 1, 'true or false'),
    ('package_dirs', ['my_robot=/ws/src/my_robot', ''], None),
    ('package_dirs', None, None),
    ('package_dirs', ['my_robot'], "package_dirs entry 'my_robot' is not NAME=PATH"),
    ('ignore_rules', ['collision-reuses-visual-mesh'], None),
    ('ignore_rules', 'collision-reuses-visual-mesh', 'must be a list of text'),
    # as the CLI's --ignore: a misspelt rule would silence nothing
    ('ignore_rules', ['collision-reuse-visual-mesh'],
     "unknown rule 'collision-reuse-visual-mesh' (did you mean 'collision-reuses-visual-mesh'?)"),
    ('ignore_rules', ['', 'parse-anything-new'], None),
    ('marker_scale', 0.0, 'marker_scale must be from 0.01 to 100'),
    ('color_ok', [0.1, 0.2, 0.3], 'four numbers'),
    ('color_ok', [0.1, 0.2, 0.3, 2.0], 'from 0 to 1'),
    ('color_ok', [0.1, 0.2, 0.3, 1.0], None),
    ('urdf_file', 3, 'must be text'),
    ('no_such_parameter', 1.0, "unknown parameter 'no_such_parameter'"),
])
def test_ros_parameter_validators(name, value, error):
    result = validate_value(name, value)
    if error is None:
        assert result is None
    else:
        assert result is not None and error in result


def test_ros_parameters_relations_and_conversion():
    values = parameters.default_values()
    values.update(density_min=30000.0)
    assert 'must be lower than density_max' in validate_values(values)
    settings = settings_from_values({
        'package_dirs': ['my_robot=/ws/src/my_robot', ''],
        'ignore_rules': ['mass-not-positive', ''],
        'color_error': [1, 0, 0, 1], 'marker_scale': 2.0, 'publish_labels': False})
    assert settings.check.package_dirs == (('my_robot', '/ws/src/my_robot'),)
    assert settings.check.ignore_rules == frozenset({'mass-not-positive'})
    assert settings.markers.color_error == (1.0, 0.0, 0.0, 1.0)
    assert settings.markers.scale == 2.0 and not settings.markers.publish_labels
    assert settings.mesh_key == ((('my_robot', '/ws/src/my_robot'),), 100_000_000)
    with pytest.raises(ValueError, match='density_min'):
        settings_from_values({'density_min': 'x'})


def test_ros_parameter_file_matches_the_table():
    document = yaml.safe_load(CONFIG_FILE.read_text())
    values = document['urdf_link_tools']['ros__parameters']
    assert set(values) == set(SPECS)
    assert validate_values(values) is None
    settings = settings_from_values(values)
    assert settings == settings_from_values({})  # the file documents the defaults
    assert load_config_yaml(str(CONFIG_FILE)) == settings.check


def _node_with_params_file(path, domain_id):
    rclpy = pytest.importorskip('rclpy')
    pytest.importorskip('urdf_link_tools.srv',
                        reason='the interfaces of urdf_link_tools are not built')
    from urdf_link_tools.ros.node import UrdfLinkToolsNode

    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    context = rclpy.Context()
    rclpy.init(args=['--ros-args', '--params-file', str(path)], context=context,
               domain_id=domain_id)
    return rclpy, context, UrdfLinkToolsNode(context=context)


def test_ros_parameter_file_loads_into_the_node():
    rclpy, context, node = _node_with_params_file(CONFIG_FILE, allocate_domain_id())
    try:
        assert node.get_parameter('density_max').value == 25000.0
        assert node.get_parameter('package_dirs').value == ['']
        assert list(node.get_parameter('color_collision').value) == [0.3, 0.5, 1.0, 0.4]
        assert node._settings == settings_from_values({})
        from rclpy.parameter import Parameter

        result = node.set_parameters([Parameter('density_min', value=1e9)])
        assert not result[0].successful
        assert 'density_min' in result[0].reason
        result = node.set_parameters([Parameter('min_mass', value=0.5)])
        assert result[0].successful and node._settings.check.min_mass == 0.5
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def test_ros_parameter_file_with_integers_still_loads(tmp_path):
    path = tmp_path / 'ints.yaml'
    path.write_text('urdf_link_tools:\n  ros__parameters:\n    density_min: 60\n'
                    '    color_ok: [0, 1, 0, 1]\n    package_dirs: []\n')
    rclpy, context, node = _node_with_params_file(path, allocate_domain_id())
    try:
        assert node.get_parameter('density_min').value == 60.0
        assert node._settings.check.density_min == 60.0
        assert node._settings.markers.color_ok == (0.0, 1.0, 0.0, 1.0)
        assert node._settings.check.package_dirs == ()
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def test_ros_list_parameters_given_as_one_string_still_load(tmp_path):
    # `-p package_dirs:=NAME=PATH` on the command line is a STRING where a list is declared:
    # the node died at start with InvalidParameterTypeException. A number is refused, and
    # the node runs on the default.
    rclpy = pytest.importorskip('rclpy')
    pytest.importorskip('urdf_link_tools.srv',
                        reason='the interfaces of urdf_link_tools are not built')
    from urdf_link_tools.ros.node import UrdfLinkToolsNode

    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    context = rclpy.Context()
    rclpy.init(args=['--ros-args', '-p', f'package_dirs:=demo={tmp_path}',
                     '-p', 'ignore_rules:=density-implausible', '-p', 'xacro_args:=7'],
               context=context, domain_id=allocate_domain_id())
    node = UrdfLinkToolsNode(context=context)
    try:
        assert node.get_parameter('package_dirs').value == [f'demo={tmp_path}']
        assert node._settings.check.package_dirs == (('demo', str(tmp_path)),)
        assert 'density-implausible' in node._settings.check.ignore_rules
        assert not node._settings.xacro_args  # the number refused: the default, none
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def test_ros_parameters_are_documented_in_the_readme():
    text = (REPO / 'README.md').read_text()
    section = text.split('## Running the node', 1)[1].split('\n## ', 1)[0]
    table = section.split('### Parameters', 1)[1]
    missing = [spec.name for spec in PARAMETERS if f'`{spec.name}`' not in table]
    assert not missing, f'README.md, "Running the node": parameters not documented: {missing}'
