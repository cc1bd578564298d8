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

"""A mesh that was not found names the file it probably meant, and never lists a folder."""

import pytest

from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes.resolve import near_miss
from urdf_link_tools.parser import parse_urdf_string


@pytest.fixture
def package(tmp_path):
    meshes = tmp_path / 'pkg' / 'meshes'
    (meshes / 'arm').mkdir(parents=True)
    for name in ('torso.stl', 'Link1.STL', 'wheel.dae', 'secret.txt', 'torso_full.dae'):
        (meshes / name).write_bytes(b'solid x\nendsolid x\n')
    return tmp_path / 'pkg'


@pytest.mark.parametrize('uri,meant', [
    ('package://pkg/meshes/torso.std', 'package://pkg/meshes/torso.stl'),    # HSR's typo
    ('package://pkg/meshes/link1.stl', 'package://pkg/meshes/Link1.STL'),    # the case
    ('package://pkg/meshes/arm/wheel.dae', 'package://pkg/meshes/wheel.dae'),  # Scout's folder
    ('package://pkg/meshes/base.stl', None),     # no file of that name: nothing is listed
    ('package://pkg/meshes/secret.std', None),   # only mesh extensions
    ('package://pkg/torso.stl', None),           # not above the package's own folder
])
def test_near_misses_are_the_same_name_in_another_case_extension_or_folder(
        package, uri, meant):
    relative = uri[len('package://pkg/'):]
    assert near_miss(uri, [str(package / relative)]) == meant


def test_a_typo_in_a_mesh_extension_is_one_finding_that_names_the_file(package):
    # HSR's torso.std: "MuJoCo has no decoder" and "no such file" on one element, and no
    # word of the torso.stl beside it.
    text = ('<robot name="r"><link name="base"/><joint name="j" type="prismatic">'
            '<parent link="base"/><child link="torso"/><axis xyz="0 0 1"/>'
            '<limit lower="0" upper="0.3" effort="100" velocity="0.1"/></joint>'
            '<link name="torso"><inertial><mass value="10"/><inertia ixx="0.24" ixy="0" '
            'ixz="0" iyy="0.24" iyz="0" izz="0.067"/></inertial><collision><geometry>'
            '<mesh filename="package://pkg/meshes/torso.std"/></geometry></collision>'
            '</link></robot>')
    analysis = analyze(parse_urdf_string(text, str(package / 'r.urdf')),
                       CheckConfig(package_dirs=(('pkg', str(package)),)))
    found = [f for f in analysis.findings if f.link == 'torso' or f.rule.startswith('mujoco')]
    assert [f.rule for f in found] == ['mesh-not-found'], found
    assert found[0].suggestion.startswith('did you mean package://pkg/meshes/torso.stl?')


@pytest.mark.parametrize('form', ['{}', 'file://{}'])
def test_a_mesh_named_by_an_absolute_path_gets_no_near_name(package, form):
    # file:///elsewhere/secret_mesh.obj, missing: "did you mean /elsewhere/SECRET_MESH.stl?
    # That file exists" told a pull request the names of files anywhere on the runner.
    uri = form.format(package / 'meshes' / 'link1.stl')
    text = ('<robot name="r"><link name="torso"><collision><geometry>'
            f'<mesh filename="{uri}"/></geometry></collision></link></robot>')
    analysis = analyze(parse_urdf_string(text, str(package / 'r.urdf')), CheckConfig())
    (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert 'did you mean' not in found.suggestion and 'Link1.STL' not in found.suggestion
