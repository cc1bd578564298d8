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
Every claim a finding makes about MuJoCo is checked against the installed MuJoCo.

Each case is a URDF, what MuJoCo does with it (compiled by MuJoCo itself, through its URDF
import, with a free joint on the root body where the claim is about a floating base), and
what the checker says. A finding that names MuJoCo is an ERROR only where MuJoCo refuses.
"""

import numpy as np
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.findings import Severity
from urdf_link_tools.geometry import rpy_to_matrix
from urdf_link_tools.parser import parse_urdf_string

try:
    import mujoco
except ImportError:  # a test dependency: never skip silently
    mujoco = None

NO_INERTIA_FROM_GEOMETRY = '<mujoco><compiler inertiafromgeom="false"/></mujoco>'


def inertial(mass=1.0, moments=(0.01, 0.01, 0.01), rpy='0 0 0', products=(0, 0, 0)):
    ixx, iyy, izz = moments
    ixy, ixz, iyz = products
    return (f'<inertial><origin xyz="0 0 0" rpy="{rpy}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" '
            f'izz="{izz}"/></inertial>')


GOOD = inertial()
ZERO = inertial(moments=(0, 0, 0))
ROD = inertial(mass=0.0676525455789735,
               moments=(0.000122002023066796, 0.000122002023127152, 1.46043439809638E-12),
               products=(7.29593356230121E-13, 9.63170353371061E-09, -9.24154949889042E-09))


def arm(part: str, child: str = '', child_joint: str = 'fixed', base: str = GOOD) -> str:
    """Return base -(revolute)- arm [-(child_joint)- tip]; ``part`` is arm's content."""
    tip = (f'<joint name="w" type="{child_joint}"><parent link="arm"/><child link="tip"/>'
           f'<origin xyz="0 0 0.1"/><axis xyz="1 0 0"/>'
           f'<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
           f'<link name="tip">{child}</link>') if child else ''
    return (f'<robot name="r">{NO_INERTIA_FROM_GEOMETRY}<link name="base">{base}</link>'
            '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
            f'</joint><link name="arm">{part}</link>{tip}</robot>')


def lone(part: str, collision: str = '') -> str:
    return (f'<robot name="r">{NO_INERTIA_FROM_GEOMETRY}<link name="base">{part}{collision}'
            '</link></robot>')


def compile_error(text: str, free: bool) -> str:
    """Compile a URDF with MuJoCo (a free joint on the root body if asked): '' or the error."""
    spec = mujoco.MjSpec.from_string(text)
    if free:
        spec.worldbody.first_body().add_freejoint()
    try:
        spec.compile()
    except ValueError as exc:
        return ' '.join(str(exc).split())
    return ''


# (case, urdf, free joint, MuJoCo's error ('' = compiles), rule, severity on that rule or
# None for "the rule does not fire")
CASES = [
    ('point mass on a moving link', arm(ZERO), False, 'mjMINVAL',
     'inertia-moment-tiny', Severity.ERROR),
    ('point mass on a moving link, welded child with inertia', arm(ZERO, GOOD), False, '',
     'inertia-moment-tiny', None),
    # two point masses fuse into a rod: no inertia about its axis
    ('point mass on a moving link, welded child point mass', arm(ZERO, ZERO), False,
     'positive eigenvalues', 'inertia-moment-tiny', Severity.ERROR),
    ('point mass on a moving link, moving child with inertia', arm(ZERO, GOOD, 'revolute'),
     False, 'mjMINVAL', 'inertia-moment-tiny', Severity.ERROR),
    ('welded point mass', arm(GOOD, ZERO), False, '', 'inertia-moment-tiny', None),
    ('tiny moment on a moving link, welded child with inertia',
     arm(inertial(moments=(1e-20, 0.01, 0.01)), GOOD), False, 'positive eigenvalues',
     'inertia-moment-tiny', Severity.ERROR),
    ('tiny moment on a welded link', arm(GOOD, inertial(moments=(1e-16, 1e-3, 1e-3))), False,
     'positive eigenvalues', 'inertia-moment-tiny', Severity.ERROR),
    ('floating root point mass', lone(ZERO), True, 'mjMINVAL',
     'inertia-moment-tiny', Severity.ERROR),
    ('root point mass welded to the world (accepted, the claim is about a free joint)',
     lone(ZERO), False, '', 'inertia-moment-tiny', Severity.ERROR),
    ('floating root point mass, welded child with inertia',
     lone(ZERO).replace('</link></robot>', '</link><joint name="w" type="fixed"><parent '
                        f'link="base"/><child link="body"/></joint><link name="body">{GOOD}'
                        '</link></robot>'), True, '', 'inertia-moment-tiny', None),
    ('massless moving link', arm(''), False, 'mjMINVAL', 'mass-not-positive', Severity.ERROR),
    ('massless moving link, welded child with inertia', arm('', GOOD), False, '',
     'mass-not-positive', None),
    ('massless moving link, welded child point mass', arm('', ZERO), False,
     'positive eigenvalues', 'mass-not-positive', Severity.ERROR),
    ('moving link of 1e-16 kg', arm(inertial(mass=1e-16, moments=(1e-3, 1e-3, 1e-3))), False,
     'mjMINVAL', 'mass-tiny-on-moving-link', Severity.ERROR),
    ('moving link of 1e-16 kg, welded child with mass', arm(
        inertial(mass=1e-16, moments=(1e-3, 1e-3, 1e-3)), GOOD), False, '',
     'mass-tiny-on-moving-link', Severity.WARNING),
    ('triangle inequality', arm(inertial(moments=(0.01, 0.01, 0.05))), False, 'A + B >= C',
     'inertia-triangle-inequality', Severity.ERROR),
    # Stretch's arm tube: a rod (0, I, I) whose A + B falls short of C by rounding (6e-19
    # kg m^2): MuJoCo names the tiny moment, and so does the checker, not the triangle.
    ("a rod's tensor, short of the triangle by rounding", arm(ROD), False,
     'positive eigenvalues', 'inertia-moment-tiny', Severity.ERROR),
    ("a rod's tensor, short of the triangle by rounding (no triangle finding)", arm(ROD),
     False, 'positive eigenvalues', 'inertia-triangle-inequality', None),
    ('not positive definite', arm(inertial(moments=(-0.01, 0.01, 0.01))), False,
     'positive eigenvalues', 'inertia-not-positive-definite', Severity.ERROR),
    ('zero-radius collision sphere',
     lone(GOOD, '<collision><geometry><sphere radius="0"/></geometry></collision>'), False,
     'size 0 must be positive', 'geometry-degenerate', Severity.ERROR),
    ('zero-size collision box', lone(GOOD, '<collision><geometry><box size="0 0.1 0.1"/>'
                                           '</geometry></collision>'), False,
     'must be positive', 'geometry-degenerate', Severity.ERROR),
    ('zero-length collision cylinder', lone(GOOD, '<collision><geometry><cylinder radius='
                                                  '"0.1" length="0"/></geometry></collision>'),
     False, 'must be positive', 'geometry-degenerate', Severity.ERROR),
    ('zero-size visual marker', lone(GOOD, '<visual><geometry><sphere radius="0"/>'
                                           '</geometry></visual>'), False, '',
     'geometry-degenerate', Severity.INFO),
]


@pytest.fixture(scope='module', autouse=True)
def quiet_mujoco():
    if mujoco is None:
        pytest.skip('mujoco is not installed: a test dependency (make setup; in a '
                    "workspace, pip install mujoco: the README's tests block)")
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda message: None)
    yield
    mujoco.set_mju_user_warning(previous)


@pytest.mark.parametrize('case,text,free,refused,rule,severity', CASES,
                         ids=[case[0] for case in CASES])
def test_claim_matches_mujoco(case, text, free, refused, rule, severity):
    error = compile_error(text, free)
    if refused:
        assert refused in error, (case, error)
    else:
        assert error == '', (case, error)
    findings = [f for f in analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
                .findings if f.rule == rule]
    if severity is None:
        assert not findings, [f.message for f in findings]
        return
    assert findings and findings[0].severity == severity, (case, findings)
    if 'MuJoCo refuses' in findings[0].message:
        # The claim holds as stated: refused here, or refused with the free joint it names.
        assert refused or 'free joint' in findings[0].message, findings[0].message
        if 'free joint' in findings[0].message:
            assert compile_error(text, True), case


def test_mujoco_4_honours_the_inertial_rotation():
    """The portability note says MuJoCo 4.0 honours the inertial rpy: check it does."""
    moments, rpy = (0.01, 0.02, 0.025), '0.3 0.2 0.1'
    model = mujoco.MjModel.from_xml_string(arm(inertial(moments=moments, rpy=rpy)))
    body = model.body('arm').id
    rotation = np.zeros(9)
    mujoco.mju_quat2Mat(rotation, model.body_iquat[body])
    rotation = rotation.reshape(3, 3)
    compiled = rotation @ np.diag(model.body_inertia[body]) @ rotation.T
    turn = rpy_to_matrix([0.3, 0.2, 0.1])
    assert np.allclose(compiled, turn @ np.diag(moments) @ turn.T, atol=1e-12)
    findings = analyze(parse_urdf_string(arm(inertial(moments=moments, rpy=rpy))),
                       CheckConfig(check_meshes=False)).findings
    note = [f for f in findings if f.rule == 'inertial-origin-rotated']
    assert note and note[0].severity == Severity.INFO and 'MuJoCo 4.0 honours it' in \
        note[0].message


@pytest.mark.parametrize('collision,refused', [
    ('<collision><geometry><box size="0.1 0.1 0.3"/></geometry></collision>', False),
    ('<visual><geometry><box size="0.1 0.1 0.3"/></geometry></visual>', True),
])
def test_massless_moving_link_mujoco_claim_only_where_mujoco_refuses(collision, refused):
    """With MuJoCo's own defaults, a link without <inertial> gets mass from its collisions."""
    text = arm(collision).replace(NO_INERTIA_FROM_GEOMETRY, '')
    error = compile_error(text, False)
    assert bool(error) == refused, error
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    (finding,) = [f for f in analysis.findings
                  if f.rule == 'mass-not-positive' and f.link == 'arm']
    assert finding.severity == Severity.ERROR  # Gazebo drops the link either way
    assert ('MuJoCo refuses' in finding.message) == refused, finding.message
