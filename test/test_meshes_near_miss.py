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


def _wheels(uris):
    """Return a base and one wheel per URI, each wheel's visual the mesh it names."""
    return ('<robot name="cart"><link name="base"/>' + ''.join(
        f'<link name="w{i}"><visual><geometry><mesh filename="{uri}"/></geometry></visual>'
        f'</link><joint name="j{i}" type="continuous"><parent link="base"/>'
        f'<child link="w{i}"/><axis xyz="0 1 0"/><limit effort="1" velocity="1"/></joint>'
        for i, uri in enumerate(uris)) + '</robot>')


def _missing(package, uris):
    (package / 'package.xml').write_text('<package format="3"><name>pkg</name></package>')
    (package / 'urdf').mkdir()
    source = package / 'urdf' / 'r.urdf'
    source.write_text(_wheels(uris))
    analysis = analyze(parse_urdf_string(source.read_bytes(), str(source)),
                       CheckConfig(package_dirs=(('pkg', str(package)),)))
    return [f for f in analysis.findings if f.rule == 'mesh-not-found']


def test_a_missing_folder_of_many_meshes_keeps_the_name_it_probably_meant(package):
    # Scout's meshes/scout_v2/, never there, on 4 wheels: grouped, the "did you mean" that
    # one wheel gets was gone.
    (found,) = _missing(package, ['package://pkg/meshes/cart_v2/wheel.dae'] * 4)
    assert 'the folder' in found.message and 'cart_v2 does not exist' in found.message
    assert found.suggestion.startswith(
        'fix the paths: the meshes moved (for the first, did you mean '
        'package://pkg/meshes/wheel.dae? That file exists; 4 of the 4 have such a file)')


@pytest.mark.parametrize('count', [1, 3])
def test_a_package_not_found_names_the_file_the_descriptions_own_package_holds(
        package, count):
    # Scout's scout_v2.urdf names package://robot_description/meshes/...: the description's
    # own package (the folder above it with a package.xml) holds the file.
    (package.parent / 'outside.dae').write_bytes(b'x')
    found = _missing(package, ['package://robot_description/meshes/wheel.dae'] * count
                     + ['package://robot_description/meshes/base.dae',
                        'package://robot_description/../outside.dae'])
    meant = ('did you mean package://pkg/meshes/wheel.dae? That file exists in the '
             "description's own package")
    if count == 1:  # each alone: the wheel's names it, the others name nothing
        assert [meant in f.suggestion for f in found] == [True, False, False]
    else:  # one finding for the package (the path leaving it is said apart)
        (grouped,) = [f for f in found if f.links]
        assert grouped.suggestion.startswith(meant + ' (1 of the 2 files is there); or ')
    # nothing outside the package is named
    assert not any('outside' in f.suggestion for f in found)


def test_mesh_filenames_naming_no_package_are_one_finding(package):
    # onshape-to-robot's older output: package://base.stl, no package named: one error per
    # link, "tried: nothing could be tried".
    found = _missing(package, [f'package://part{i}.stl' for i in range(4)])
    (finding,) = found
    assert finding.links == ('w0', 'w1', 'w2', 'w3')
    assert finding.message.startswith('4 mesh filenames name no package (package://part0.stl, '
                                      'package://part1.stl')
    assert finding.suggestion.startswith('name the package that holds the meshes')


@pytest.mark.parametrize('form', ['package://pkg/meshes/{}', '{absolute}'])
def test_a_mesh_kept_in_an_archive_beside_it_names_the_archive(package, form):
    # Dataspeed's dbw_mkz_description: meshes/mkz_13/body.tar.gz, extracted by its
    # CMakeLists when built; checked from source, "body.dae does not exist"
    (package / 'meshes' / 'body.tar.gz').write_bytes(b'\x1f\x8b')
    uri = form.format('body.dae', absolute=f'file://{package}/meshes/body.dae')
    text = ('<robot name="r"><link name="base"><collision><geometry>'
            f'<mesh filename="{uri}"/></geometry></collision></link></robot>')
    analysis = analyze(parse_urdf_string(text, str(package / 'r.urdf')),
                       CheckConfig(package_dirs=(('pkg', str(package)),)))
    (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    # (not for an absolute path: what lies beside it elsewhere is not the description's)
    assert found.suggestion.startswith('an archive beside it, body.tar.gz, probably holds it: '
                                       'build the package') == form.startswith('package')


def test_an_archive_named_after_the_folder_inside_it_is_named(package):
    # Robustify's Audibot (sweep U) ships meshes/meshes.tar.xz, extracted when built.
    (package / 'meshes' / 'meshes.tar.xz').write_bytes(b'\xfd7zXZ')
    text = ('<robot name="r"><link name="base"><collision><geometry>'
            '<mesh filename="package://pkg/meshes/body.dae"/></geometry></collision></link>'
            '</robot>')
    analysis = analyze(parse_urdf_string(text, str(package / 'r.urdf')),
                       CheckConfig(package_dirs=(('pkg', str(package)),)))
    (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert found.suggestion.startswith('an archive beside it, meshes.tar.xz, probably holds '
                                       'it'), found.suggestion


@pytest.mark.parametrize('count', [1, 3])
def test_meshes_sorted_into_sub_folders_name_the_file_one_folder_down(package, count):
    # Nachi's MZ07L (sweep S): package://mz07l_description/meshes/mz07_base_link.STL, the
    # files in meshes/collision/ (and DAE copies in meshes/visual/): "build or install the
    # package" was all it said.
    for folder in ('collision', 'visual'):
        (package / 'meshes' / folder).mkdir()
    for index in range(count):
        (package / 'meshes' / 'collision' / f'part{index}.stl').write_bytes(b'solid x\n')
        (package / 'meshes' / 'visual' / f'part{index}.dae').write_bytes(b'<x/>')
    (package / 'meshes' / 'visual' / 'both.stl').write_bytes(b'solid x\n')
    (package / 'meshes' / 'collision' / 'both.stl').write_bytes(b'solid x\n')
    found = _missing(package, [f'package://pkg/meshes/part{i}.stl' for i in range(count)])
    (finding,) = found
    first = 'did you mean package://pkg/meshes/collision/part0.stl? That file exists'
    if count == 1:
        assert finding.suggestion.startswith(first), finding.suggestion
    else:
        assert finding.suggestion.startswith(
            'the files are in sub-folders: fix the paths (for the first, ' + first
            + '; one is there for all of them); tried, for the first: '), finding.suggestion
    # in two sub-folders: which one was meant is not said
    assert near_miss('package://pkg/meshes/both.stl', [str(package / 'meshes' / 'both.stl')]) \
        is None
    from urdf_link_tools.meshes.resolve import one_folder_down
    assert one_folder_down('package://pkg/meshes/both.stl',
                           [str(package / 'meshes' / 'both.stl')]) is None
    assert one_folder_down('package://pkg/meshes/part0.stl',
                           [str(package / 'meshes' / 'part0.stl')]) == \
        'package://pkg/meshes/collision/part0.stl'


@pytest.mark.parametrize('form', ['{}', 'file://{}'])
def test_an_absolute_path_through_a_known_package_names_its_package_uri(
        package, tmp_path, form):
    # Nachi's D405 (sweep S): file:///home/hkclr/robostore_ws/install/realsense2_description/
    # share/realsense2_description/meshes/d405.stl, the author's machine; the package it
    # names holds meshes/d405.stl
    uri = form.format('/home/someone/ws/install/pkg/share/pkg/meshes/torso.stl')
    text = ('<robot name="r"><link name="torso"><collision><geometry>'
            f'<mesh filename="{uri}"/></geometry></collision></link></robot>')
    config = CheckConfig(package_dirs=(('pkg', str(package)),))
    analysis = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')), config)
    (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert found.suggestion.startswith('name it package://pkg/meshes/torso.stl: that file '
                                       'exists in the package its path names')
    # a file the package does not hold, or a path leaving it: no guess
    for missing in ('/home/someone/pkg/meshes/absent.stl', '/home/someone/pkg/../pkg/x.txt'):
        text = text.replace(uri, missing)
        analysis = analyze(parse_urdf_string(text, str(tmp_path / 'r.urdf')), config)
        (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
        assert 'name it package://' not in found.suggestion
        uri = missing


def test_a_renamed_robots_missing_folder_names_the_sibling_that_holds_its_files(package):
    # Rokae's xMatePro7 (sweep T): meshes/xMateER7p/collision/ and .../visual/, never there,
    # were two findings with no hint; every file is in meshes/xMatePro7/.
    for folder in ('collision', 'visual'):
        (package / 'meshes' / 'pro7' / folder).mkdir(parents=True)
        for index in range(2):
            (package / 'meshes' / 'pro7' / folder / f'part{index}.stl').write_bytes(b'solid x\n')
    uris = [f'package://pkg/meshes/er7p/{folder}/part{index}.stl'
            for folder in ('collision', 'visual') for index in range(2)]
    (finding,) = _missing(package, uris)
    assert 'the folder' in finding.message and finding.message.split(':')[0].endswith(
        'meshes/er7p does not exist'), finding.message
    assert finding.suggestion.startswith(
        'fix the paths: the meshes moved (for the first, did you mean '
        'package://pkg/meshes/pro7/collision/part0.stl? That file exists; 4 of the 4 have '
        'such a file)'), finding.suggestion
    from urdf_link_tools.meshes.resolve import sibling_folder
    missing = str(package / 'meshes' / 'er7p' / 'visual' / 'part1.stl')
    assert sibling_folder('package://pkg/meshes/er7p/visual/part1.stl', [missing]) == \
        'package://pkg/meshes/pro7/visual/part1.stl'
    # in two siblings: which one was meant is not said
    (package / 'meshes' / 'pro8' / 'visual').mkdir(parents=True)
    (package / 'meshes' / 'pro8' / 'visual' / 'part1.stl').write_bytes(b'solid x\n')
    assert sibling_folder('package://pkg/meshes/er7p/visual/part1.stl', [missing]) is None


def test_a_relative_path_written_from_the_packages_root_names_the_package_uri(package):
    # SMARC's SAM (sweep U): urdf/sam_auv.urdf names mesh/SAM_HULL.dae; URDF readers look in
    # urdf/mesh/, and the files are in the package's mesh/: the fix blamed Git LFS.
    (found,) = _missing(package, ['meshes/torso.stl'] * 3)
    assert found.message.split(':')[0].endswith('urdf/meshes does not exist'), found.message
    assert found.suggestion.startswith(
        'fix the paths: the meshes moved (for the first, did you mean '
        'package://pkg/meshes/torso.stl? That file exists; 3 of the 3 have such a file)'), \
        found.suggestion
    # one mesh alone: the same file named
    (alone,) = _missing_again(package, ['meshes/wheel.dae'])
    assert alone.suggestion.startswith('did you mean package://pkg/meshes/wheel.dae? That '
                                       'file exists'), alone.suggestion


def test_a_relative_path_missing_its_first_folder_names_the_file_under_it(package):
    # Astribot's whole-body URDF (sweep W) names s1_arm/*.STL; the files are in
    # meshes/s1_arm/ beside it: "add the folder (Git LFS, a download step)" misled.
    (found,) = _missing(package, [f'arm/l{index}.stl' for index in range(3)])
    assert found.suggestion.startswith('add the folder'), found.suggestion
    (package / 'urdf' / 'meshes' / 'arm').mkdir(parents=True)
    for index in range(3):
        (package / 'urdf' / 'meshes' / 'arm' / f'l{index}.stl').write_bytes(b'solid x\n')
    (found,) = _missing_again(package, [f'arm/l{index}.stl' for index in range(3)])
    assert found.suggestion.startswith(
        'fix the paths: the meshes moved (for the first, did you mean meshes/arm/l0.stl? '
        'That file exists; 3 of the 3 have such a file)'), found.suggestion


def _missing_again(package, uris):
    source = package / 'urdf' / 'r.urdf'
    source.write_text(_wheels(uris))
    analysis = analyze(parse_urdf_string(source.read_bytes(), str(source)),
                       CheckConfig(package_dirs=(('pkg', str(package)),)))
    return [f for f in analysis.findings if f.rule == 'mesh-not-found']


def test_no_file_outside_the_checkout_is_named_for_a_relative_path_leading_out(tmp_path):
    # Review 11: meshes named ../../../../home/.bashrc and ../../../../passwd got "did you
    # mean ../../../../home/USER/.bashrc? That file exists" (one folder down), naming the
    # runner's user and folders in CI output.
    outside = tmp_path / 'outside'
    (outside / 'user').mkdir(parents=True)
    (outside / 'user' / 'secret.stl').write_bytes(b'solid x\n')
    (outside / 'Secret.STL').write_bytes(b'solid x\n')
    checkout = tmp_path / 'pr'
    (checkout / '.git').mkdir(parents=True)
    (checkout / 'urdf').mkdir()
    source = checkout / 'urdf' / 'r.urdf'
    for uri in ('../../outside/secret.stl', '../../outside/secret.stk'):
        source.write_text(_wheels([uri]))
        analysis = analyze(parse_urdf_string(source.read_bytes(), str(source)), CheckConfig())
        (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
        assert 'did you mean' not in found.suggestion and 'user' not in found.suggestion
        assert 'Secret' not in found.suggestion
    # inside the checkout, as before
    (checkout / 'meshes' / 'parts').mkdir(parents=True)
    (checkout / 'meshes' / 'parts' / 'wheel.stl').write_bytes(b'solid x\n')
    source.write_text(_wheels(['../meshes/wheel.stl']))
    analysis = analyze(parse_urdf_string(source.read_bytes(), str(source)), CheckConfig())
    (found,) = [f for f in analysis.findings if f.rule == 'mesh-not-found']
    assert found.suggestion.startswith('did you mean ../meshes/parts/wheel.stl?')
