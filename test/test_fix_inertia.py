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

"""--fix-inertia: only the six values of flagged tensors change; every other byte stays."""

import difflib
import os

import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.cli import main
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.fix import apply_fixes, fix_inertia
from urdf_link_tools.parser import parse_urdf_string

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, 'samples', 'sample_robot.urdf')


def changed_lines(before: bytes, after: bytes):
    diff = difflib.ndiff(before.decode().splitlines(), after.decode().splitlines())
    return [line for line in diff if line[:2] in ('- ', '+ ')]


def test_sample_fix_changes_only_inertia_values(tmp_path):
    out = tmp_path / 'fixed.urdf'
    status = main(['check', SAMPLE, '--package-dir', f'urdf_link_tools={ROOT}',
                   '--fix-inertia', str(out)])
    assert status == 2
    before = open(SAMPLE, 'rb').read()
    after = out.read_bytes()
    changes = changed_lines(before, after)
    assert len(changes) == 4      # two <inertia> lines, each removed and added
    removed = [line[2:] for line in changes if line.startswith('- ')]
    added = [line[2:] for line in changes if line.startswith('+ ')]
    for old, new in zip(removed, added):
        # same text once the numbers are blanked: spacing, quotes, order unchanged
        import re
        assert re.sub(r'"[^"]*"', '""', old) == re.sub(r'"[^"]*"', '""', new)
    assert '<inertia ixx="0.270833333"  ixy="0"  ixz="0" iyy="0.270833333" iyz="0" ' \
           'izz="0.5" />' in after.decode()
    # the fixed file no longer has inertia errors or mismatches
    robot = parse_urdf_string(after, str(out))
    rules = {f.rule for f in analyze(robot, CheckConfig(
        package_dirs=(('urdf_link_tools', ROOT),))).findings}
    assert not rules & {'inertia-triangle-inequality', 'inertia-geometry-mismatch'}


ONE_LINE = (b"</link><joint name='k' type='continuous'><parent link='a'/><child link='b'/>"
            b"</joint><link name='b'><inertial><mass value='1'/><inertia ixx='0.01' ixy='0' "
            b"ixz='0' iyy='0.01' iyz='0' izz='0.05'/></inertial></link><link name='c'/>"
            b"<joint name='m' type='fixed'><parent link='a'/><child link='c'/></joint>\n")
TRICKY = b"""<?xml version='1.0' encoding='utf-8'?>
<!-- <inertia ixx="9" ixy="9" ixz="9" iyy="9" iyz="9" izz="9"/> in a comment -->
<robot name='t'><link name='base'/>
<joint name='j' type='continuous'><parent link='base'/><child link='a'/></joint>
<link name='a'><inertial><mass value='1'/><inertia
   izz = '0.05'  ixx='0.01' ixy='0' ixz='0' iyy='0.01' iyz='0'/></inertial>
  <![CDATA[ <inertia ixx="1"/> ]]>
""" + ONE_LINE + b"""</robot>
"""


def test_fix_handles_comments_cdata_quotes_and_attribute_order():
    robot = parse_urdf_string(TRICKY)
    analysis = analyze(robot, CheckConfig(check_meshes=False))
    fixed, fixes = fix_inertia(TRICKY, analysis)
    assert {fix.link for fix in fixes} == {'a', 'b'}
    text = fixed.decode()
    assert "izz = '0.0399986667'  ixx='0.0200013333'" in text
    assert '<!-- <inertia ixx="9" ixy="9"' in text and '<inertia ixx="1"/>' in text
    assert len(fixed.splitlines()) == len(TRICKY.splitlines())
    again = analyze(parse_urdf_string(fixed), CheckConfig(check_meshes=False))
    assert 'inertia-triangle-inequality' not in {f.rule for f in again.findings}


def test_nothing_to_fix_returns_the_same_bytes():
    text = (b'<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" '
            b'ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>')
    analysis = analyze(parse_urdf_string(text), CheckConfig(check_meshes=False))
    assert fix_inertia(text, analysis) == (text, ())


def test_unlocatable_inertia_is_an_input_error():
    text = b'<robot name="r"><link name="a"/></robot>'
    with pytest.raises(UrdfInputError):
        apply_fixes(text, [('a', 1, (1, 0, 0, 1, 0, 1))])
