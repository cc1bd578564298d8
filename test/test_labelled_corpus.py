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
A labelled corpus: benign patterns stay quiet at warning and error, real defects fire.

``test/data/labelled/*.urdf`` are constructed robots; each names its labels in comments:
``<!-- quiet -->`` (no warning or error at all) or ``<!-- expect: RULE SEVERITY LINK
[WORD] -->`` (that finding, its suggestion containing WORD), with ``<!-- only -->`` when
nothing else may be loud; ``<!-- piled -->`` marks a file whose parts are piled at the
origin, one per rule, so that their overlaps at rest (real, but not what the file is about,
nor the contacts MuJoCo makes of them) are not judged there (test_checks_collisions.py and
test_checks_collision_targets.py judge those rules). Their meshes are made with trimesh at
test time. Links of example-robot-data are labelled below, checked by hand
(and against MuJoCo in test_checks_mujoco_crosscheck.py).
"""

from pathlib import Path
import re
import shutil

import corpus
import pytest
import trimesh
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.meshes import MeshLibrary
from urdf_link_tools.parser import parse_urdf_string

DATA = Path(__file__).parent / 'data' / 'labelled'
LOUD = (Severity.WARNING, Severity.ERROR)


def _write_meshes(folder: Path) -> None:
    folder.mkdir()
    # A 100 mm cube written in millimetres.
    trimesh.creation.box(extents=(100.0, 100.0, 100.0)).export(folder / 'box_mm.stl')
    trimesh.creation.icosphere(subdivisions=3, radius=0.05).export(folder / 'icosphere_1280.stl')
    trimesh.creation.icosphere(subdivisions=5, radius=0.1).export(folder / 'icosphere_20k.stl')
    # Five closed boxes overlapping along x, as one self-intersecting mesh.
    boxes = []
    for k in range(-2, 3):
        box = trimesh.creation.box(extents=(0.05, 0.02, 0.02))
        box.apply_translation((0.025 + 0.001 * k, 0.0, 0.0))
        boxes.append(box)
    trimesh.util.concatenate(boxes).export(folder / 'two_boxes_overlap.stl')


@pytest.fixture(scope='module')
def labelled(tmp_path_factory):
    folder = tmp_path_factory.mktemp('labelled')
    for path in DATA.glob('*.urdf'):
        shutil.copy(path, folder / path.name)
    _write_meshes(folder / 'meshes')
    return folder


def _labels(text: str):
    quiet = '<!-- quiet -->' in text
    expected = [match.split() for match in re.findall(r'<!-- expect: ([^>]*?) -->', text)]
    return quiet, expected


def _files():
    return sorted(path.name for path in DATA.glob('*.urdf'))


@pytest.mark.parametrize('name', _files())
def test_labelled_robot(labelled, name):
    path = labelled / name
    text = path.read_text()
    quiet, expected = _labels(text)
    assert quiet or expected, f'{name} has no label'
    piled = ('collision-overlap-at-rest', 'mujoco-joined-links-collide')
    config = CheckConfig(ignore_rules=piled) if '<!-- piled -->' in text else CheckConfig()
    analysis = analyze(parse_urdf_string(text.encode(), str(path)), config)
    loud = [(f.rule, f.severity.label, f.link, f.message) for f in analysis.findings
            if f.severity in LOUD]
    if quiet:
        assert not loud, loud
    for label in expected:
        rule, severity, link = label[:3]
        found = [f for f in analysis.findings if f.rule == rule and (f.link == link
                                                                     or link in f.links)]
        assert found, (name, label, loud)
        assert found[0].severity.label == severity, (label, found[0])
        if len(label) > 3:
            assert label[3] in found[0].suggestion, (label, found[0].suggestion)
    if '<!-- only -->' in text:
        # One finding per problem: nothing loud beyond the labels (a mesh in millimetres
        # is a density slip, not also a tensor that disagrees with a 100 m cube).
        labelled_pairs = {(label[0], label[2]) for label in expected}
        assert {(rule, link) for rule, _, link, _ in loud} <= labelled_pairs, loud
    assert 'mesh-not-found' not in {f.rule for f in analysis.findings}


def test_the_self_intersecting_mesh_really_double_counts(labelled):
    mesh = trimesh.load(labelled / 'meshes' / 'two_boxes_overlap.stl')
    assert mesh.volume > 4 * mesh.convex_hull.volume   # what a signed volume would report


# (robot, link, rule, severity or None for "not at warning or error")
CORPUS_LABELS = [
    # real defects, checked by hand
    ('ur_description/urdf/ur5_robot.urdf', 'wrist_1_link', 'inertia-exceeds-extent',
     Severity.ERROR),     # izz=0.219 for 1.2 kg: a 0.42 m radius of gyration on a wrist
    ('pr2_description/urdf/pr2.urdf', 'sensor_mount_link', 'inertia-triangle-inequality',
     Severity.ERROR),     # 0.001 + 0.001 < 0.01
    ('tiago_description/robots/tiago.urdf', 'base_antenna_left_link',
     'inertia-not-positive-definite', Severity.ERROR),
    ('icub_description/robots/icub.urdf', 'l_wrist_1', 'inertia-moment-tiny',
     Severity.ERROR),     # a moving point mass with nothing welded: MuJoCo refuses
    ('human_description/robots/human.urdf', 'left_foot_virtual', 'mass-not-positive',
     Severity.ERROR),     # massless moving link: MuJoCo refuses
    # benign patterns that used to be warned about
    ('anymal_b_simple_description/robots/anymal.urdf', 'base', 'density-implausible',
     None),               # 1e-6 kg placeholder; the welded base_inertia carries the mass
    ('hyq_description/robots/hyq_no_sensors.urdf', 'lh_foot', 'density-implausible', None),
    ('g1_description/urdf/g1_29dof_rev_1_0.urdf', 'left_ankle_roll_link',
     'density-implausible', None),   # contact spheres under the foot, not the part
    ('talos_data/robots/talos_reduced.urdf', 'rgbd_optical_frame', 'inertia-moment-tiny',
     None),               # a welded point mass: fused into the head
    ('tiago_description/robots/tiago.urdf', 'arm_tool_link', 'inertia-moment-tiny', None),
    ('romeo_description/urdf/romeo_laas_small.urdf', 'HeadRollCollision_shape',
     'mass-not-positive', None),     # a collision-only link welded to the head
    ('a1_description/urdf/a1.urdf', 'FL_thigh_shoulder', 'mass-not-positive', None),
    ('romeo_description/urdf/romeo.urdf', 'LHipRollLink', 'collision-missing', None),
]


@pytest.fixture(scope='module')
def corpus_analyses():
    library = MeshLibrary(ament_prefix_path=corpus.ament_prefixes())
    base = corpus.robots_dir()
    assert base is not None, 'example-robot-data is not installed: run make setup'
    out = {}
    for name in sorted({label[0] for label in CORPUS_LABELS}):
        path = base / name
        out[name] = analyze(parse_urdf_string(path.read_bytes(), str(path)), CheckConfig(),
                            library)
    return out


@pytest.mark.parametrize('robot,link,rule,severity', CORPUS_LABELS,
                         ids=[f'{label[1]}-{label[2]}' for label in CORPUS_LABELS])
def test_labelled_corpus_link(corpus_analyses, robot, link, rule, severity):
    analysis = corpus_analyses[robot]
    assert analysis.robot.link(link) is not None, (robot, link)
    # Its own finding, or one that lists it (a tensor copied onto 3 or more links: iCub's
    # wrist point masses are one inertia-moment-tiny finding listing the five).
    found = [f for f in analysis.findings if f.rule == rule and (f.link == link
                                                                 or link in f.links)]
    if severity is None:
        assert not [f for f in found if f.severity in LOUD], [f.message for f in found]
    else:
        assert found and found[0].severity == severity, (robot, link, found)
