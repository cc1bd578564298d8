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
Cross-check with MuJoCo over the example-robot-data corpus.

Every corpus robot MuJoCo refuses for a mass or inertia reason gets an error-severity
inertia finding from the checker, and no other robot does.

MuJoCo is given each URDF with its visual and collision elements removed and
``<compiler inertiafromgeom="false"/>``, so that mass and inertia come from the
``<inertial>`` elements alone (URDF semantics: no inertial means no mass) and mesh
loading cannot get in the way.
"""

from pathlib import Path
import re

import corpus
from lxml import etree
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.parser import parse_urdf_string

try:
    import mujoco
except ImportError:  # a test dependency: never skip silently
    mujoco = None

INERTIA_RULES = {'mass-not-positive', 'mass-not-finite', 'inertia-not-finite',
                 'inertia-not-positive-definite', 'inertia-triangle-inequality',
                 'inertia-moment-tiny', 'mass-tiny-on-moving-link',
                 # a kinematics model: one error on the robot that lists the links
                 'robot-kinematics-only'}

#: What MuJoCo 3.x/4.x refuses in the corpus, and its message (for the record).
EXPECTED_REFUSED = {
    'alex_description/urdf/alex_psyonic_hands.urdf': 'A + B >= C',
    'allegro_hand_description/urdf/allegro_left_hand.urdf': 'A + B >= C',
    'allegro_hand_description/urdf/allegro_right_hand.urdf': 'A + B >= C',
    'anymal_b_simple_description/robots/anymal-kinova.urdf': 'positive eigenvalues',
    'anymal_b_simple_description/robots/anymal.urdf': 'positive eigenvalues',
    'anymal_c_simple_description/urdf/anymal.urdf': 'A + B >= C',
    'b1_description/urdf/b1-z1.urdf': 'positive eigenvalues',
    'b1_description/urdf/b1.urdf': 'positive eigenvalues',
    'finger_edu_description/robots/finger_edu.urdf': 'positive eigenvalues',
    'go1_description/urdf/go1.urdf': 'positive eigenvalues',
    'human_description/robots/human.urdf': 'mjMINVAL',
    'hyq_description/robots/hyq_no_sensors.urdf': 'positive eigenvalues',
    'icub_description/robots/icub.urdf': 'positive eigenvalues',
    'icub_description/robots/icub_reduced.urdf': 'positive eigenvalues',
    'pr2_description/urdf/pr2.urdf': 'A + B >= C',
    'romeo_description/urdf/romeo.urdf': 'mjMINVAL',
    'romeo_description/urdf/romeo_laas_small.urdf': 'positive eigenvalues',
    'romeo_description/urdf/romeo_small.urdf': 'A + B >= C',
    'tiago_description/robots/tiago.urdf': 'positive eigenvalues',
    'tiago_description/robots/tiago_dual.urdf': 'positive eigenvalues',
    'tiago_description/robots/tiago_no_hand.urdf': 'positive eigenvalues',
}


def mujoco_error(path) -> str:
    """Compile a URDF's inertials in MuJoCo; return its error message or ''."""
    root = etree.parse(str(path)).getroot()
    for element in list(root.iter('visual', 'collision', 'mujoco')):
        element.getparent().remove(element)
    extension = etree.SubElement(root, 'mujoco')
    etree.SubElement(extension, 'compiler', inertiafromgeom='false')
    try:
        mujoco.MjModel.from_xml_string(etree.tostring(root).decode())
    except ValueError as exc:
        return ' '.join(str(exc).split())
    return ''


def is_mass_or_inertia(message: str) -> bool:
    return 'inertia' in message or 'mass' in message


@pytest.fixture(scope='module')
def verdicts():
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    paths = corpus.urdf_paths()
    if not paths:
        pytest.fail('example-robot-data is not installed: run make setup')
    out = {}
    # MuJoCo otherwise appends its warnings (ignored <mimic>s) to ./MUJOCO_LOG.TXT.
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda message: None)
    try:
        for path in paths:
            robot = parse_urdf_string(path.read_bytes(), str(path))
            analysis = analyze(robot, CheckConfig(check_meshes=False))
            errors = sorted({f.rule for f in analysis.findings
                             if f.severity == Severity.ERROR and f.rule in INERTIA_RULES})
            out[corpus.relative_name(path)] = (mujoco_error(path), errors)
    finally:
        mujoco.set_mju_user_warning(previous)
    return out


def test_every_robot_mujoco_refuses_is_an_error(verdicts):
    refused = {name: message for name, (message, _) in verdicts.items()
               if message and is_mass_or_inertia(message)}
    missed = {name: message for name, message in refused.items() if not verdicts[name][1]}
    assert not missed, f'MuJoCo refuses these but the checker reports no inertia error: {missed}'
    assert sorted(refused) == sorted(EXPECTED_REFUSED)
    for name, reason in EXPECTED_REFUSED.items():
        assert reason in refused[name], (name, refused[name])


def test_no_robot_mujoco_accepts_gets_an_inertia_error(verdicts):
    accepted_with_errors = {name: errors for name, (message, errors) in verdicts.items()
                            if not message and errors}
    assert not accepted_with_errors


def test_mujoco_refuses_nothing_else(verdicts):
    other = {name: message for name, (message, _) in verdicts.items()
             if message and not is_mass_or_inertia(message)}
    assert not other


def refused_links(path) -> dict:
    """
    Return every link MuJoCo refuses for a mass or inertia reason, with its message.

    MuJoCo stops at the first refused body: that link is given a valid inertial and the
    robot compiled again, until it compiles, so every refused link is found.
    """
    data = path if isinstance(path, bytes) else Path(path).read_bytes()
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False))
    for element in list(root.iter('visual', 'collision', 'mujoco')):
        element.getparent().remove(element)
    extension = etree.SubElement(root, 'mujoco')
    etree.SubElement(extension, 'compiler', inertiafromgeom='false')
    refused = {}
    for _ in range(200):
        try:
            mujoco.MjModel.from_xml_string(etree.tostring(root).decode())
            return refused
        except ValueError as exc:
            message = ' '.join(str(exc).split())
        match = re.search(r"Element name '([^']*)'", message)
        where = 'the given URDF' if isinstance(path, bytes) else path
        assert match and is_mass_or_inertia(message), (where, message)
        name = match.group(1)
        assert name not in refused, (where, name, message)
        refused[name] = message
        link = root.find(f"link[@name='{name}']")
        for old in link.findall('inertial'):
            link.remove(old)
        link.append(etree.fromstring(
            '<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
            'iyz="0" izz="0.01"/></inertial>'))
    raise AssertionError('MuJoCo still refuses after 200 repairs')


def test_errors_are_exactly_the_links_mujoco_refuses():
    """Per link: every link MuJoCo refuses has an error, and no other link has one."""
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda message: None)
    missed, extra = {}, {}
    try:
        for path in corpus.urdf_paths():
            refused = refused_links(path)
            robot = parse_urdf_string(path.read_bytes(), str(path))
            analysis = analyze(robot, CheckConfig(check_meshes=False))
            flagged = {name for f in analysis.findings
                       if f.severity == Severity.ERROR and f.rule in INERTIA_RULES
                       for name in (f.links or (f.link,))}
            name = corpus.relative_name(path)
            if set(refused) - flagged:
                missed[name] = {link: refused[link] for link in set(refused) - flagged}
            if flagged - set(refused):
                extra[name] = sorted(flagged - set(refused))
    finally:
        mujoco.set_mju_user_warning(previous)
    assert not missed, f'MuJoCo refuses these links but the checker has no error: {missed}'
    assert not extra, f'errors on links MuJoCo accepts: {extra}'
