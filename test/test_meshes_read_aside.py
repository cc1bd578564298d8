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
A one-robot check reads the meshes only visuals use in a forked child (meshes.elsewhere).

Every case runs in a fresh interpreter: a child is forked only from a process with one
thread, which a test session that started ROS nodes is not. The results must be those of
reading in one process, the child's failures must leave the work to the parent, and a
process with other threads must never fork.
"""

import json
import os
import subprocess
import sys

import corpus
import mesh_attacks
import numpy as np
from urdf_link_tools.meshes import aside

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, '-c', code, *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


ANALYSIS = """
import json, sys
from urdf_link_tools.analysis import analyze
from urdf_link_tools.config import CheckConfig
from urdf_link_tools.meshes import MeshLibrary, MeshInfo
from urdf_link_tools.meshes import elsewhere
from urdf_link_tools.parser import parse_urdf_string
from urdf_link_tools.reports.build import build_report
from urdf_link_tools.reports.json_report import json_safe, report_to_dict
path, processes, prefixes = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
started = []
original = elsewhere.start
def start(function, calls):
    child = original(function, calls)
    started.append((function.__name__, child is not None))
    return child
elsewhere.start = start
adopted = []
adopt = MeshLibrary.adopt_aside
def adopt_aside(self, *arguments):
    adopted.append(adopt(self, *arguments))
    return adopted[-1]
MeshLibrary.adopt_aside = adopt_aside
library = MeshLibrary(ament_prefix_path=prefixes)
with open(path, 'rb') as stream:
    robot = parse_urdf_string(stream.read(), path)
analysis = analyze(robot, CheckConfig(), library, read_processes=processes)
report = build_report(analysis, path, None, None)
meshes = sorted((info.path, info.face_count, info.bounds[0].tolist(), info.bounds[1].tolist(),
                 info.raw.vertices.flags.writeable)
                for info in analysis.meshes.values() if isinstance(info, MeshInfo))
print(json.dumps({'report': json_safe(report_to_dict(report)),
                  'findings': [repr(finding) for finding in analysis.findings],
                  'meshes': meshes, 'loads': library.loads, 'started': started,
                  'adopted': adopted,
                  'can_fork': elsewhere.can_fork()}))
"""


def test_a_check_reading_visuals_aside_finds_what_one_process_finds():
    # Panda: 10.5 MB of visual COLLADA the child reads, STL collisions measured here.
    path = str(corpus.urdf_path('panda.urdf'))
    prefixes = json.dumps(corpus.ament_prefixes())  # package://example-robot-data/
    aside = json.loads(run(ANALYSIS, path, '2', prefixes))
    alone = json.loads(run(ANALYSIS, path, '1', prefixes))
    assert aside['can_fork'], 'this test needs Linux and two cores'
    assert alone['started'] == []
    # A child reading (the robot's 19 files queued: 10 visual COLLADA, 9 collision STL),
    # then one testing the pairs of links at rest while this process runs the other checks.
    assert aside['started'] == [['_claim_and_read', True], ['_claim_and_test', True]]
    assert 3 <= aside['adopted'][0] < 19  # the child read some, this process the others
    assert aside['findings'] == alone['findings']
    assert aside['meshes'] == alone['meshes']
    assert aside['report'] == alone['report']
    assert aside['loads'] == alone['loads']  # every file read once, wherever it was read
    assert not any(mesh[4] for mesh in aside['meshes'])  # read-only, as read here


FAILING_CHILD = """
import logging, os, signal, sys, threading
from urdf_link_tools.meshes import elsewhere
logging.basicConfig(level=logging.INFO, format='%(name)s %(levelname)s %(message)s',
                    stream=sys.stdout)
def dies(code):
    os.kill(os.getpid(), signal.SIGKILL)
def raises(code):
    raise ValueError('broken')
def logs(value):
    logging.getLogger('urdf_link_tools.meshes.reading').warning('read %d', value)
    return value * 2
print('forks', elsewhere.can_fork())
print('killed', elsewhere.start(dies, [(1,)]).collect())
print('raised', elsewhere.start(raises, [(1,)]).collect())
print('logged', elsewhere.start(logs, [(1,), (2,)]).collect())
child = elsewhere.start(logs, [(3,)])
child.cancel()
print('cancelled', child.collect())
waiting = threading.Event()
thread = threading.Thread(target=waiting.wait)
thread.start()
print('with a thread', elsewhere.can_fork(), elsewhere.start(logs, [(1,)]))
waiting.set()
thread.join()
print('no calls', elsewhere.start(logs, []))
big = [(index,) for index in range(4)]
def block(index):
    return bytes([index]) * 3_000_000  # megabytes, as a robot's visual meshes
def whole(answers):
    return [answer == block(index) for index, answer in enumerate(answers)]
print('in a file', elsewhere._answer_file() is not None,
      whole(elsewhere.start(block, big).collect()))
elsewhere._answer_file = lambda: None  # no memfd_create: through the pipe
print('through the pipe', whole(elsewhere.start(block, big).collect()))
elsewhere._reap_ending()
try:
    os.waitpid(-1, os.WNOHANG)
    print('children left')
except ChildProcessError:
    print('every child reaped')
"""


def test_a_child_that_fails_answers_none_and_its_log_comes_back():
    lines = run(FAILING_CHILD).splitlines()
    assert lines == [
        'forks True',
        'killed None',
        'raised None',
        'urdf_link_tools.meshes.reading WARNING read 1',
        'urdf_link_tools.meshes.reading WARNING read 2',
        'logged [2, 4]',
        'cancelled None',
        'with a thread False None',
        'no calls None',
        'in a file True [True, True, True, True]',
        'through the pipe [True, True, True, True]',
        'every child reaped',
    ]


READ_ASIDE = """
import json, os, sys, threading
from urdf_link_tools.meshes import MeshLibrary, MeshInfo
from urdf_link_tools.meshes import elsewhere
folder, mode = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(folder))
library = MeshLibrary()
waiting = threading.Event()
if mode == 'threaded':
    thread = threading.Thread(target=waiting.wait)
    thread.start()
aside = library.read_aside([(name, folder, name.startswith('link')) for name in names],
                           min_bytes=0)
waiting.set()
loads = library.loads
measured = [entry.solids._solid is not None for entry in library._entries.values()]
results = {}
for name in names:
    loaded = library.load(name, (1, 1, 1), folder)
    results[name] = ([loaded.face_count, loaded.bounds[0].tolist(), loaded.volume,
                      loaded.center_mass.tolist(), loaded.unit_inertia.tolist(),
                      loaded.center_mass.flags.writeable, loaded.volume_source]
                     if isinstance(loaded, MeshInfo) else [loaded.rule, loaded.message])
print(json.dumps({'aside': aside, 'loads_before': loads, 'measured': sum(measured),
                  'loads_after': library.loads, 'results': results}))
"""


def test_read_aside_gives_what_reading_here_gives_for_good_and_bad_files(tmp_path):
    # Real meshes and broken ones; every answer, problems included, must be the same.
    folder = tmp_path / 'meshes'
    folder.mkdir()
    for name in ('link0.dae', 'link1.dae', 'hand.dae'):
        source = corpus.robots_dir() / 'panda_description' / 'meshes' / 'visual' / name
        (folder / name).write_bytes(source.read_bytes())
    (folder / 'empty.stl').write_bytes(b'')
    (folder / 'truncated.stl').write_bytes(b'\0' * 80 + (1000).to_bytes(4, 'little'))
    (folder / 'broken.dae').write_bytes(b'<COLLADA><library_geometries>')
    (folder / 'not_a_mesh.txt').write_bytes(b'hello')
    aside = json.loads(run(READ_ASIDE, str(folder), 'aside'))
    here = json.loads(run(READ_ASIDE, str(folder), 'threaded'))
    assert here['aside'] == 0 and here['loads_before'] == 0  # no fork beside a thread
    # Six files shared by the two processes (the .txt is no mesh format), the two 'link'
    # ones measured wherever they were read; each read once, never again.
    assert 1 <= aside['aside'] < 6
    assert aside['loads_before'] == 6 and aside['measured'] == 2
    assert aside['loads_after'] == here['loads_after'] == 6
    # The same to the last digit: which process measures link0, before or after trimesh
    # loaded SciPy (for broken.dae), no longer changes its hull (hull.py).
    assert aside['results'] == here['results']
    assert aside['results']['empty.stl'][0] == 'mesh-unreadable'
    assert aside['results']['link0.dae'][5] is False  # read-only, as measured here


CHECK_COMMAND = """
import json, os, signal, sys, time
from urdf_link_tools import cli
from urdf_link_tools.meshes import aside, elsewhere
started = []
original = aside.start
def start(*arguments, **keywords):
    child = original(*arguments, **keywords)
    started.append({'numpy': 'numpy' in sys.modules, 'coal': 'coal' in sys.modules,
                    'child': child is not None, 'files': len(child.requests) if child else 0})
    from urdf_link_tools.meshes.library import MeshLibrary  # NumPy: only now
    adopt = MeshLibrary.adopt_aside
    def adopt_aside(self, *arguments):
        adopted.append(adopt(self, *arguments))
        return adopted[-1]
    MeshLibrary.adopt_aside = adopt_aside
    from urdf_link_tools.checks import collisions
    from urdf_link_tools import analysis
    report = collisions.overlaps_report
    def overlaps_report(*arguments):
        overlaps.append(child is not None and not child.child._done)  # the child still reads
        return report(*arguments)
    collisions.overlaps_report = analysis.overlaps_report = overlaps_report
    from urdf_link_tools.collision import overlap, shared
    test_pairs = overlap.OverlapPlan.test
    def counted(self, numbers):  # the pairs of the shared overlaps tested in this process
        def each():
            for number in numbers:
                pairs_here.append(number)
                yield number
        return test_pairs(self, each())
    overlap.OverlapPlan.test = counted
    test_in_child = shared._claim_and_test
    if sys.argv[2] == 'dying':  # the child testing the pairs takes one and dies
        def dying(robot, meshes, queue, queued, told):
            aside.claim(queue)
            os.kill(os.getpid(), signal.SIGKILL)
        shared._claim_and_test = dying
    if sys.argv[2] == 'slow':  # the child takes pairs after this process's checks ended
        def slow(*arguments):
            claims = shared._claims
            def late(*claiming):
                time.sleep(1.5)
                yield from claims(*claiming)
            shared._claims = late  # in the child only
            return test_in_child(*arguments)
        shared._claim_and_test = slow
    return child
aside.start = start
adopted = []
overlaps = []
pairs_here = []
forked = []
fork = elsewhere.start
def start_child(function, calls):
    forked.append(function.__name__)
    return fork(function, calls)
elsewhere.start = start_child
if sys.argv[2] == 'alone':
    elsewhere.can_fork = lambda: False
status = cli.main(['check', sys.argv[1], '--format', 'json', '--fail-on', 'never',
                   '--package-dir', 'example-robot-data=' + sys.argv[3]])
print(json.dumps({'status': status, 'started': started, 'adopted': adopted,
                  'overlaps': overlaps, 'forked': forked, 'pairs_here': pairs_here}),
      file=sys.stderr)
"""


def _run_check(name: str, mode: str):
    """Check a corpus robot (CHECK_COMMAND in a fresh interpreter); return report and run."""
    path = str(corpus.urdf_path(name))
    share = str(corpus.prefix() / 'share' / 'example-robot-data')
    done = subprocess.run([sys.executable, '-c', CHECK_COMMAND, path, mode, share],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout), json.loads(done.stderr.splitlines()[-1])


def _check_both_ways(name: str):
    """Check a corpus robot with the reading child and in one process; return both runs."""
    (aside_report, aside_run), (alone_report, alone_run) = \
        _run_check(name, 'aside'), _run_check(name, 'alone')
    assert alone_run['started'] == [{'numpy': False, 'coal': False, 'child': False,
                                     'files': 0}]
    assert alone_run['adopted'] in ([], [0]) and alone_run['forked'] == []
    assert alone_run['overlaps'] == [False]  # computed by the check, here
    assert aside_run['status'] == alone_run['status'] == 0
    assert aside_report == alone_report
    return aside_report, aside_run


def test_the_check_command_forks_its_reader_before_numpy_and_finds_the_same():
    # `check` on one robot starts the reading child right after parsing, so that NumPy, coal
    # and the checks are imported in this process while the child reads (meshes.aside).
    _, aside_run = _check_both_ways('panda.urdf')
    # 19 files: 10 visual COLLADA (finger.dae used twice), 9 collision STL
    assert aside_run['started'] == [{'numpy': False, 'coal': False, 'child': True,
                                     'files': 19}]
    assert 3 <= aside_run['adopted'][0] < 19  # the child read some, this process the rest
    # The overlaps at rest need only the collision meshes, which this process measures:
    # computed once, while the child still reads the visual meshes.
    assert aside_run['overlaps'] == [True]
    assert aside_run['forked'] == ['_claim_and_read']


CLOSED_ONCE = """
import os, sys
from urdf_link_tools.meshes import MeshLibrary, aside
folder = sys.argv[1]
library = MeshLibrary()
names = sorted(os.listdir(folder))
started = aside.start(library, [(name, folder, False) for name in names], library.budget,
                      min_bytes=0)
queues = list(started.queues)
library.adopt_aside(started)  # reads, collects, closes the queues
reopened = [os.open(os.devnull, os.O_RDONLY) for _ in queues]  # the lowest numbers again
started.cancel()  # after the answer was taken: must close nothing
print(sorted(reopened) == sorted(queues), all(os.fstat(fd) for fd in reopened))
"""


def test_the_queues_are_closed_once_even_when_the_descriptor_numbers_come_back(tmp_path):
    # A descriptor number closed twice may by then name another file of this process.
    for name in ('link0.dae', 'link1.dae', 'hand.dae'):
        source = corpus.robots_dir() / 'panda_description' / 'meshes' / 'visual' / name
        (tmp_path / name).write_bytes(source.read_bytes())
    assert run(CLOSED_ONCE, str(tmp_path)).split() == ['True', 'True']


WORTH_COAL = """
import os, sys
from urdf_link_tools.meshes import aside
# (key, path, type, size, tried, measured): three measured files, the costliest first
sizes = [int(size) for size in sys.argv[1:]]
found = [((i,), 'f', 'stl', size, (), True) for i, size in enumerate(sizes)]
read, write = os.pipe()
os.write(write, b''.join(aside._INDEX.pack(i) for i in range(len(found))))
os.close(write)
answers = []
while True:
    answers.append(str(aside._worth_coal(found, read)))
    answers.append(str(aside.pending(read)))
    if aside.claim(read) is None:
        break
print(' '.join(answers), 'coal' in sys.modules)
"""


def test_the_child_imports_coal_only_for_measured_files_worth_it():
    # What is left in the measured queue is the tail of its order (the costliest first),
    # counted without reading the pipe: worth coal's import only while it costs more.
    big, small = str(3 * aside.ASIDE_COAL), '1000'
    assert run(WORTH_COAL, big, small, small).split() == [
        'True', '3', 'False', '2', 'False', '1', 'False', '0', 'False']
    assert run(WORTH_COAL, big, big, small).split() == [
        'True', '3', 'True', '2', 'False', '1', 'False', '0', 'False']


CHILD_READS = """
import sys
from urdf_link_tools.meshes import aside
from urdf_link_tools.meshes.files import Budget
from urdf_link_tools.meshes.resolve import PackageResolver
folder = sys.argv[1]
budget = Budget(10 ** 8)
found = aside.requests(PackageResolver({}), [(name, folder, True) for name in sys.argv[2:]],
                       budget.max_bytes, lambda key: False)
queues, rest = aside.index_queues([list(range(len(found))), []])
answers = aside._claim_and_read(found, queues, budget, True)
print(len(answers), [type(raw).__name__ for _, raw, _, _ in answers],
      [solid is None for _, _, solid, _ in answers], 'coal' in sys.modules,
      all((bounds[0] == raw.vertices.min(axis=0)).all() and
          (bounds[1] == raw.vertices.max(axis=0)).all() for _, raw, _, bounds in answers))
"""


def test_a_child_reads_the_few_measured_files_left_without_importing_coal():
    # Two small collision meshes: not worth the child's coal import, so it reads them and
    # the parent measures them (MeshLibrary.adopt_aside); but the finger, with fewer
    # vertices than coal's hulls start at, it measures (the hand is read first: the
    # costliest first).
    folder = str(corpus.robots_dir() / 'panda_description' / 'meshes' / 'collision')
    out = run(CHILD_READS, folder, 'finger.stl', 'hand.stl')
    # The child also sends each mesh's bounds, taken there.
    assert out.split('\n')[0] == "2 ['RawMesh', 'RawMesh'] [True, False] False True"


def test_an_icub_check_with_its_reading_child_finds_what_one_process_finds():
    # iCub: 56 COLLADA files, 28 of them measured. The child reaches the measured queue
    # when few are left there, which it then reads for this process to measure.
    _, aside_run = _check_both_ways('icub.urdf')
    assert aside_run['started'][0]['child'] is True
    assert aside_run['adopted'][0] > 0


SMALL_MEASURED = """
import sys
import numpy as np
from urdf_link_tools.meshes.library import read_and_measure
from urdf_link_tools.meshes.reading import Budget
from urdf_link_tools.meshes.solid import measure_solid
out = []
for path in sys.argv[1:]:
    raw, solid, _ = read_and_measure(path, 'stl', Budget(10**8), (), False, True)
    out.append('measured' if solid is not None else 'read')
    if solid is not None:  # the same solid as measuring it anywhere else
        again = measure_solid(raw)
        out.append(str(solid.volume == again.volume and
                       np.array_equal(solid.unit_inertia, again.unit_inertia)))
print(' '.join(out), 'coal' in sys.modules)
"""


def test_a_child_not_worth_coal_still_measures_the_meshes_that_need_none(tmp_path):
    # A mesh with fewer vertices than coal's hulls start at is measured by the NumPy
    # quickhull wherever it is: the reading child measures it even when the measured files
    # left are not worth its import of coal (iCub's 16-vertex boxes), a bigger one it only
    # reads, and coal is never imported for them.
    import trimesh
    box = mesh_attacks.broken_meshes(tmp_path)['good']
    sphere = trimesh.creation.icosphere(subdivisions=2, radius=0.1)
    big = mesh_attacks.binary_stl(tmp_path / 'sphere.stl', np.asarray(sphere.vertices),
                                  np.asarray(sphere.faces))
    assert run(SMALL_MEASURED, str(box), str(big)).split() == \
        ['measured', 'True', 'read', 'False']
