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
What an analysis derives from a mesh is kept with the file (MeshInfo.derived).

A node re-analysing a description with unchanged meshes finds the hulls, bounds and pair
tests of the last analysis; what it reports is what a first analysis reports, also when the
description changed the poses.
"""

import gc

from cli_harness import ROOT
import corpus
import pytest
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes import MeshInfo, MeshLibrary
from urdf_link_tools.meshes.library import DERIVED_PER_FILE
from urdf_link_tools.parser import parse_urdf_string

MESH = (ROOT / 'samples' / 'meshes' / 'arm_collision.stl').as_posix()
RULE = 'collision-overlap-at-rest'


def test_a_result_is_derived_once_per_file_and_scale():
    library = MeshLibrary()
    info = library.load(MESH)
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    assert info.derived(('count',), compute) == 1
    assert info.derived(('count',), compute) == 1
    # the same file named again at the same scale shares it; another scale derives its own
    assert library.load(MESH).derived(('count',), compute) == 1
    assert library.load(MESH, (2.0, 1.0, 1.0)).derived(('count',), compute) == 2
    assert len(calls) == 2


def test_derived_results_are_bounded_and_leave_with_the_file():
    library = MeshLibrary()
    info = library.load(MESH)
    for number in range(DERIVED_PER_FILE + 10):
        info.derived(('n', number), lambda number=number: number)
    # the oldest went first: asking again computes again
    assert info.derived(('n', 0), lambda: 'again') == 'again'
    assert info.derived(('n', DERIVED_PER_FILE + 9), lambda: 'again') == DERIVED_PER_FILE + 9
    del info
    library.clear()
    gc.collect()
    assert library.load(MESH).derived(('n', 5), lambda: 'read again') == 'read again'


def corpus_library() -> MeshLibrary:
    """Return a mesh library finding example-robot-data's meshes without the ament index."""
    share = corpus.prefix() / 'share' / 'example-robot-data'
    return MeshLibrary(package_dirs={'example-robot-data': str(share)}, use_ament_index=False)


def findings(analysis):
    return [repr(finding) for finding in analysis.findings]


def test_a_re_analysis_reuses_the_overlap_tests_and_reports_the_same():
    pytest.importorskip('coal', reason='the overlaps at rest need coal (not in the Python '
                        '3.10 pass, whose NumPy is older than its wheels)')
    path = corpus.urdf_path('panda.urdf')
    robot = parse_urdf_string(path.read_bytes(), str(path))
    warm = corpus_library()
    first = analyze(robot, CheckConfig(), warm)
    assert any(finding.rule == RULE for finding in first.findings)
    hulls = {}
    for info in first.meshes.values():
        if isinstance(info, MeshInfo):
            hulls[id(info)] = info.derived(('overlap hull',), lambda: None)
    assert any(hull is not None for hull in hulls.values())  # the first analysis made them
    second = analyze(robot, CheckConfig(), warm)
    assert findings(second) == findings(first)
    for info in second.meshes.values():
        if isinstance(info, MeshInfo) and id(info) in hulls:
            # the same objects: the second analysis built no hull
            assert info.derived(('overlap hull',), lambda: None) is hulls[id(info)]


@pytest.mark.parametrize('moved', ['0.0', '0.05', '-0.3'])
def test_a_changed_description_with_a_warm_cache_reports_what_a_first_analysis_does(moved):
    # panda's hand turned about its flange: a pose the warm cache has not seen (0.0 is the
    # original, seen before). Its overlap with link5 changes depth or goes away.
    pytest.importorskip('coal', reason='the overlaps at rest need coal')
    path = corpus.urdf_path('panda.urdf')
    text = path.read_text()
    original = 'rpy="0 0 -0.7853981633974483" xyz="0 0 0"'
    assert text.count(original) == 1, 'panda.urdf changed: pick another joint'
    edited = text.replace(original, f'rpy="0 {moved} -0.7853981633974483" xyz="0 0 0"')
    warm = corpus_library()
    analyze(parse_urdf_string(text, str(path)), CheckConfig(), warm)
    robot = parse_urdf_string(edited, str(path))
    cold = analyze(robot, CheckConfig(), corpus_library())
    assert findings(analyze(robot, CheckConfig(), warm)) == findings(cold)
