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
The overlaps at rest of a one-robot check, tested in a second forked child (needs coal).

When the reading child measured collision meshes too, this process has them only at the end:
a child tests the pairs of links while this process runs the other checks
(analysis._overlaps_aside, collision.shared), this process takes the pairs the child has not
reached when its checks end first, and a child that dies leaves its pairs to this process.
Each run is a fresh interpreter, as in test_meshes_read_aside.
"""

from test_meshes_read_aside import _check_both_ways, _run_check


def test_overlaps_at_rest_are_computed_in_a_child_while_the_other_checks_run():
    # TALOS: the reading child measures collision meshes too, so the overlaps wait for all of
    # them; a second child tests the pairs while this process runs the other checks.
    report, aside_run = _check_both_ways('talos_reduced.urdf')
    assert aside_run['forked'] == ['_claim_and_read', '_claim_and_test']
    assert aside_run['overlaps'] == []  # overlaps_report was not called in this process
    # the sides of its multi-axis joints (hips, wrists, ankles: one finding), 2 envelopes
    # merged with their mirror's (checks.mirrors), the info of the 6 pairs of links welded
    # together, and one pair touching
    assert report['rule_counts']['collision-overlap-at-rest'] == 5


def test_this_process_tests_the_pairs_a_late_child_has_not_reached():
    (slow_report, slow_run), (alone_report, _) = \
        _run_check('talos_reduced.urdf', 'slow'), _run_check('talos_reduced.urdf', 'alone')
    assert slow_run['forked'] == ['_claim_and_read', 'slow']
    # The child sleeps until this process's checks are done: every pair is tested here,
    # each once, and the report is the one process's.
    assert len(slow_run['pairs_here']) > 50
    assert sorted(slow_run['pairs_here']) == list(range(len(slow_run['pairs_here'])))
    assert slow_report == alone_report


def test_a_dead_overlap_child_leaves_the_overlaps_to_this_process():
    # The child takes a pair and dies: that pair and all the others are tested here.
    (dying_report, dying_run), (aside_report, _) = \
        _run_check('talos_reduced.urdf', 'dying'), _run_check('talos_reduced.urdf', 'aside')
    assert dying_run['forked'] == ['_claim_and_read', 'dying']
    assert len(set(dying_run['pairs_here'])) == len(dying_run['pairs_here']) > 50
    assert dying_report == aside_report
