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
The collision matrix against one MoveIt Setup Assistant made, and its SRDF.

example-robot-data's panda (with its hand) against the pairs of moveit_resources'
panda.srdf (test/data/srdf/moveit_resources_panda.srdf, BSD): the same Adjacent pairs, and
all disabled pairs at a Jaccard index of at least 0.9.
"""

from pathlib import Path

from collision_robots import matrix_of
import corpus
from lxml import etree
import pytest
from urdf_link_tools.collision.matrix import CollisionMatrix
from urdf_link_tools.collision.srdf import disabled_pairs, matrix_srdf, merge_srdf, read_srdf
from urdf_link_tools.errors import UrdfInputError

PUBLISHED = Path(__file__).parent / 'data' / 'srdf' / 'moveit_resources_panda.srdf'


@pytest.fixture(scope='module')
def panda():
    return matrix_of(corpus.urdf_path('panda.urdf').read_bytes(), samples=10_000, seed=0)


def jaccard(first, second) -> float:
    return len(set(first) & set(second)) / len(set(first) | set(second))


def test_panda_matches_setup_assistant(panda):
    published = disabled_pairs(read_srdf(PUBLISHED.read_bytes()))
    ours = panda.disabled
    adjacent = {key for key, reason in published.items() if reason == 'Adjacent'}
    assert set(panda.pairs('Adjacent')) == adjacent
    assert jaccard(ours, published) >= 0.9, sorted(set(ours) ^ set(published))
    # every pair Setup Assistant found never in collision, is never in collision here too
    never = {key for key, reason in published.items() if reason == 'Never'}
    assert len(never - set(ours)) <= 1


def test_srdf_lists_every_pair_sorted_with_its_reason(panda):
    root = read_srdf(matrix_srdf(panda))
    assert root.get('name') == 'panda'
    rows = [(e.get('link1'), e.get('link2'), e.get('reason'))
            for e in root.iter('disable_collisions')]
    assert rows == [(a, b, reason) for (a, b), reason in sorted(panda.disabled.items())]
    assert all(a < b for a, b, _ in rows)


EXISTING = b"""<?xml version="1.0"?>
<!-- This does not replace URDF, and is not an extension of URDF. -->
<robot name="panda">
  <group name="arm"><chain base_link="panda_link0" tip_link="panda_link8"/></group>
  <!-- my note -->
  <disable_collisions link1="panda_link0" link2="panda_link1" reason="Adjacent"/>
  <disable_collisions link1="panda_link0" link2="panda_link7" reason="Never"/>
  <disable_collisions link1="camera" link2="panda_hand" reason="User"/>
  <end_effector name="hand" parent_link="panda_link8" group="hand"/>
</robot>
"""


def test_merge_keeps_the_users_content_and_replaces_computed_pairs():
    matrix = CollisionMatrix('panda', {('panda_link0', 'panda_link1'): 'Adjacent',
                                       ('panda_link1', 'panda_link3'): 'Never'},
                             ('panda_link0', 'panda_link1', 'panda_link3'), 10, 0)
    merged, kept = merge_srdf(EXISTING, matrix)
    root = read_srdf(merged)
    assert kept == 1
    assert disabled_pairs(root) == {('panda_link0', 'panda_link1'): 'Adjacent',
                                    ('panda_link1', 'panda_link3'): 'Never',
                                    ('camera', 'panda_hand'): 'User'}
    assert [e.tag for e in root if isinstance(e.tag, str)][0] == 'group'
    assert root.find('end_effector') is not None
    assert b'my note' in merged
    # the comment before <robot> too (moveit_resources' SRDFs open with one)
    assert merged.index(b'This does not replace URDF') < merged.index(b'<robot')


def test_merge_does_not_repeat_a_hand_written_pair():
    matrix = CollisionMatrix('r', {('a', 'b'): 'Never'}, ('a', 'b'), 10, 0)
    merged, kept = merge_srdf(b'<robot name="r"><disable_collisions link1="b" link2="a" '
                              b'reason="User"/></robot>', matrix)
    assert kept == 1
    assert len(list(read_srdf(merged).iter('disable_collisions'))) == 1


@pytest.mark.parametrize('text, message', [
    (b'<robot name="r">', 'not a well-formed SRDF'),
    (b'<launch/>', 'root element is not <robot>'),
    (b'<!DOCTYPE r [<!ENTITY e "x">]><robot name="r">&e;</robot>', 'SRDF'),
])
def test_bad_srdf_is_a_clear_error(text, message):
    with pytest.raises(UrdfInputError, match=message):
        read_srdf(text)


def test_a_comment_holding_double_hyphens_is_read_as_srdfdom_reads_it():
    # Kawasaki's khi_duaro_moveit_config closes a comment with '--!>': srdfdom (TinyXML2)
    # runs it on to the next '-->' and reads every pair; libxml2 refuses the file.
    text = (b'<robot name="r">\n<!-- <disable_collisions link1="x" link2="y"/> --!>\n'
            b'<disable_collisions link1="a" link2="c" reason="Never"/> -->\n'
            b'<!-- b -- c --><disable_collisions link1="a" link2="b" reason="Adjacent"/>'
            b'</robot>')
    assert set(disabled_pairs(read_srdf(text))) == {('a', 'b')}
    with pytest.raises(UrdfInputError, match='not a well-formed SRDF'):
        read_srdf(b'<robot name="r"><!-- a -- b --><broken></robot>')


def test_written_srdf_is_well_formed_xml(panda):
    assert etree.fromstring(matrix_srdf(panda)).tag == 'robot'


def test_a_pair_naming_a_link_longer_than_any_name_is_left_out():
    # Tenth red-team review: a 9 MB link1 was quoted in every report (18 MB of JSON); a
    # URDF name is at most 4,096 bytes.
    root = read_srdf('<robot name="r"><disable_collisions link1="' + 'Q' * 5000 + '" '
                     'link2="base" reason="Never"/><disable_collisions link1="a" link2="b" '
                     'reason="Adjacent"/></robot>')
    assert disabled_pairs(root) == {('a', 'b'): 'Adjacent'}
