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
What one engine refuses or changes, claimed only when that engine is a target.

Every claim here was run against MuJoCo 4.0 (``test_checks_engines.py``): its URDF import
discards visuals and reads collision meshes in STL, OBJ and MSH only ("no decoder found
for mesh file" for COLLADA and glTF), refuses a collision mesh whose vertices are coplanar
("cannot compute convex hull"), cannot open ``package://`` URIs unless the model sets
``<compiler strippath="true" meshdir=...>``, and then loads one file for all meshes of the
same file name. Its URDF reader takes each child it reads with ``FindSubElem``, which
refuses the whole robot when that child is repeated ("repeated element"): see
:data:`MUJOCO_READS_ONCE` (it discards visuals first, so only their ``<material>`` counts).
"""

from __future__ import annotations

from collections import Counter
import os
import re
from typing import Dict, Iterator, List, Set, Tuple

import numpy as np

from urdf_link_tools.checks.alignment import gltf_stored_z_up
from urdf_link_tools.checks.base import CheckContext, fmt, Rule
from urdf_link_tools.checks.model_wide import numberless
from urdf_link_tools.checks.names import NameSuggester
from urdf_link_tools.findings import Finding, LISTED, listed, Severity
from urdf_link_tools.meshes import gltf, MeshInfo
from urdf_link_tools.meshes.reading import SUPPORTED
from urdf_link_tools.model import GeometryElement, is_fragment, Link
from urdf_link_tools.parser.links import dollar_meant, DOLLAR_WHY

#: File types MuJoCo 4.0 decodes (case-insensitive).
MUJOCO_FORMATS = ('.stl', '.obj', '.msh')
#: Thinner than this fraction of its extent, a mesh's vertices are coplanar for MuJoCo's
#: Qhull: MuJoCo 4 loads a plate 1e-12 of its width thick, and refuses one 1e-13 thick
#: (review 15; 1e-9 before, a refusal claimed for plates MuJoCo loads)
COPLANAR = 3e-13
#: (parent, child) tags whose repetition MuJoCo 4.0 refuses (xml_urdf.cc reads them with
#: FindSubElem; each case run in test_checks_engines.py). A repeated <calibration>,
#: <safety_controller>, a collision's <material> or a visual's <origin> or <geometry>
#: compile: MuJoCo does not read them (it discards visuals).
MUJOCO_READS_ONCE = frozenset({
    ('link', 'inertial'), ('inertial', 'origin'), ('inertial', 'mass'), ('inertial', 'inertia'),
    ('collision', 'origin'), ('collision', 'geometry'), ('visual', 'material'),
    ('joint', 'parent'), ('joint', 'child'), ('joint', 'origin'), ('joint', 'axis'),
    ('joint', 'limit'), ('joint', 'dynamics'), ('joint', 'mimic')})

RULES = (
    Rule('mujoco-mesh-format', Severity.ERROR,
         'collision meshes in a format MuJoCo has no decoder for (COLLADA .dae, glTF; it '
         "reads STL, OBJ and MSH), and visual meshes too when the file's <mujoco><compiler "
         'discardvisual="false"> makes MuJoCo load them: reported once, with the links',
         'MuJoCo refuses the whole robot ("no decoder found for mesh file"). A claim about '
         'MuJoCo only: made with the mujoco target, silent for the others',
         'export the collision meshes as STL or OBJ (or use primitives), or give MuJoCo its '
         'own MJCF', 'MuJoCo 4.0 (test_checks_engines.py)'),
    Rule('mujoco-mesh-coplanar', Severity.ERROR,
         "a collision mesh's vertices are coplanar (a flat plate or a single face)",
         'MuJoCo refuses the robot ("has coplanar vertices, cannot compute convex hull"); '
         'replaces collision-mesh-broken for that mesh with the mujoco target',
         'use a thin box primitive (or a plane) instead of the flat mesh',
         'MuJoCo 4.0 (test_checks_engines.py)'),
    Rule('mujoco-repeated-material', Severity.ERROR,
         'visual elements hold several <material> (CAD exporters write them): reported once, '
         'with the links',
         'MuJoCo refuses the robot ("XML Error: repeated element: \'material\'"), although '
         'urdfdom uses the first and MuJoCo discards visuals (it reads their material '
         "first; a collision's is never read and compiles); it replaces the "
         'parse-duplicate-material info (which stays for the other targets)',
         'keep one <material> per element', 'MuJoCo 4.0 (test_checks_engines.py)'),
    Rule('mujoco-repeated-element', Severity.ERROR,
         'a child MuJoCo reads once is repeated: <origin>, <axis>, <limit>, <dynamics>, '
         '<mimic>, <parent> or <child> in a joint, <origin>, <mass> or <inertia> in an '
         'inertial, <origin> or <geometry> in a collision, a second <inertial> in a link: '
         'reported once, with the links',
         'MuJoCo refuses the whole robot ("XML Error: repeated element"), where urdfdom uses '
         'the first (it replaces the parse-duplicate-* warning, which stays for the other '
         'targets); a repeated <calibration>, '
         '<safety_controller>, or visual <origin> compiles (MuJoCo does not read them)',
         'keep one of each (merge the attributes into the first)',
         'MuJoCo 4.0 xml_util.cc (FindSubElem), xml_urdf.cc (test_checks_engines.py)'),
    Rule('mesh-gltf-up-axis', Severity.INFO,
         'the robot has glTF or GLB meshes, read here Z-up: turned +90 degrees about x from '
         "glTF's Y-up, as its specification, Drake, Blender and RViz since ros2/rviz#1482 "
         'place them: reported once, with the links (with an rviz or gazebo target); a '
         'warning when the files are stored Z-up against the specification (as stored, a '
         "link's glTF visuals match its collision geometry; read Y-up, they stand turned)",
         'RViz up to Kilted shows a glTF mesh as stored, turned -90 degrees about x from what '
         "is checked here, and so does Gazebo (gz-common keeps the file's root transform; "
         'not run here): a part that looks lying on its side there is that reader',
         'nothing to fix for Drake and new RViz; for the same pose in every reader, store '
         'the meshes as STL or OBJ (no up axis)',
         'glTF 2.0 specification (coordinate system); ros2/rviz#1482; gz-common '
         'AssimpLoader.cc'),
    Rule('gazebo-reference-unknown', Severity.WARNING,
         'a robot-level <gazebo reference="NAME"> names no link and no joint of the robot: '
         'one finding for all of them, with the gazebo target (an info unless one holds a '
         '<sensor> or <plugin>, or friction, damping or the like under a slip of a link or '
         "joint's name: a colour only changes how Gazebo draws a part, and friction for a "
         'part the robot does not have nothing)',
         "sdformat's URDF conversion inserts an extension into the link or joint it names "
         'and drops one that names neither without a word: its sensor, plugin, friction or '
         'colour has no effect',
         'write the name of the link or joint (with the prefix the links carry), or remove '
         'the extension', 'sdformat parser_urdf.cc (InsertSDFExtensionLink, '
         'InsertSDFExtensionJoint)'),
    Rule('mujoco-mesh-name-clash', Severity.WARNING,
         'different collision mesh files named by package:// (or file://) URIs share a '
         'file name (e.g. two link_1.stl in different folders): reported once; plain paths, '
         'which MuJoCo opens as they are, are not',
         'MuJoCo opens package:// meshes only with <compiler strippath="true" meshdir=...>, '
         'and then loads one file for every mesh of that name: the other parts get its shape',
         'rename the files so that their names are unique', 'MuJoCo 4.0 (test_checks_engines.py)'),
    Rule('mujoco-start-outside-limits', Severity.INFO,
         'the range of a revolute or prismatic joint leaves out 0, where MuJoCo starts every '
         'joint (qpos0; the URDF import does not move it into the range): one finding with '
         'the joints, and the pairs of links MuJoCo then finds in contact that do not touch '
         "at rest (MoveIt's default state, mid-range): with the mujoco target",
         'the simulation starts outside the limits (their constraints act from the first '
         'step: the arm jumps into range) and with parts in each other (Franka FR3: its '
         "joints 4 and 6, the hand 41 mm into link 5); the URDF cannot set MuJoCo's start",
         "start MuJoCo from a keyframe within the limits (the MJCF's <keyframe><key "
         "qpos=...>, then mj_resetDataKeyframe), e.g. MoveIt's default state",
         'MuJoCo 4.0 user_model (qpos0 = 0), xml_urdf.cc (test_checks_engines.py)'),
)


def _collision_meshes(ctx: CheckContext) -> Iterator[Tuple[Link, GeometryElement]]:
    for link in ctx.robot.links:
        for element in link.collisions:
            if element.geometry is not None and element.geometry.kind == 'mesh':
                yield link, element


def mujoco_refuses_flat(ctx: CheckContext, element: GeometryElement) -> bool:
    """Return True when MuJoCo is a target and the collision mesh's vertices are coplanar."""
    if 'mujoco' not in ctx.config.targets:
        return False
    mesh = ctx.mesh_for(element)
    if not isinstance(mesh, MeshInfo) or not mesh.face_count:
        return False
    key = ('coplanar', mesh.path, mesh.scale)
    if key not in ctx.memo:
        vertices = np.asarray(mesh.vertices, dtype=float)
        centred = vertices - vertices.mean(axis=0)
        if not np.all(np.isfinite(centred)):  # scaled past the floats (LAPACK fails on it)
            ctx.memo[key] = False
            return False
        spread = np.linalg.svd(centred, compute_uv=False)
        ctx.memo[key] = bool(spread[-1] <= COPLANAR * max(float(spread[0]), 1e-300))
    return bool(ctx.memo[key])


def _undecodable(ctx: CheckContext) -> List[Tuple[Link, GeometryElement]]:
    """Return the meshes MuJoCo loads and has no decoder for (it refuses the robot)."""
    undecodable: List[Tuple[Link, GeometryElement]] = []
    if ctx.robot.mujoco_keeps_visuals:  # <compiler discardvisual="false">: visuals load too
        undecodable.extend(
            (link, element) for link in ctx.robot.links for element in link.visuals
            if element.geometry is not None and element.geometry.kind == 'mesh'
            and os.path.splitext(element.geometry.filename)[1].lower() in SUPPORTED
            and os.path.splitext(element.geometry.filename)[1].lower() not in MUJOCO_FORMATS)
    for link, element in _collision_meshes(ctx):
        suffix = os.path.splitext(element.geometry.filename)[1].lower()
        # A file not found with no mesh format's extension is a typo, mesh-not-found's (HSR's
        # torso.std for torso.stl); a DAE not found is still a DAE.
        typo = suffix not in SUPPORTED and \
            getattr(ctx.mesh_for(element), 'rule', None) == 'mesh-not-found'
        if suffix not in MUJOCO_FORMATS and not typo:
            undecodable.append((link, element))
    return undecodable


def mujoco_refusal(ctx: CheckContext) -> str:
    """
    Return the rule by which MuJoCo refuses the robot as it is, or '' when it loads it.

    What MuJoCo would do with a robot it refuses is what it will do once the refusal is
    mended: said as an info, not a warning beside the error (iCub's and Romeo's COLLADA
    collision meshes; precision review X).
    """
    if 'mujoco' not in ctx.config.targets:
        return ''
    key = ('mujoco refusal', None)
    found = ctx.memo.get(key)
    if found is None:
        if _undecodable(ctx):
            found = 'mujoco-mesh-format'
        elif any(os.path.splitext(element.geometry.filename)[1].lower() in MUJOCO_FORMATS
                 and mujoco_refuses_flat(ctx, element) for _, element in _collision_meshes(ctx)):
            found = 'mujoco-mesh-coplanar'
        else:
            repeated = [note.rule[len('parse-duplicate-'):] for note in ctx.robot.notes
                        if note.rule.startswith('parse-duplicate-') and
                        (dict(note.values).get('parent'), note.rule[len('parse-duplicate-'):])
                        in MUJOCO_READS_ONCE]
            found = '' if not repeated else 'mujoco-repeated-element' if any(
                tag != 'material' for tag in repeated) else 'mujoco-repeated-material'
        ctx.memo[key] = found
    return str(found)


def check_mujoco(ctx: CheckContext) -> Iterator[Finding]:
    """Report what MuJoCo refuses or merges, when it is a target."""
    if 'mujoco' not in ctx.config.targets:
        return
    undecodable = _undecodable(ctx)
    names: Dict[str, Dict[str, List[Tuple[str, GeometryElement]]]] = {}
    keeps = ctx.robot.mujoco_keeps_visuals
    for link, element in _collision_meshes(ctx):
        filename = element.geometry.filename
        suffix = os.path.splitext(filename)[1].lower()
        if suffix in MUJOCO_FORMATS and mujoco_refuses_flat(ctx, element):
            yield ctx.finding(
                'mujoco-mesh-coplanar', Severity.ERROR,
                'the collision mesh\'s vertices are coplanar: MuJoCo refuses the robot ("has '
                'coplanar vertices, cannot compute convex hull")',
                link=link.name, element=element.label, line=element.line,
                suggestion='use a thin <box> (or the collision of the part it belongs to) '
                           'instead of a flat mesh', values=(('filename', filename),))
        if '://' not in filename:
            continue  # a plain path: MuJoCo opens it as it is, each file its own mesh
        mesh = ctx.mesh_for(element)
        where = getattr(mesh, 'path', None) or filename
        names.setdefault(os.path.basename(filename).lower(), {}).setdefault(
            ctx.real_path(where), []).append((link.name, element))
    if undecodable:
        links = tuple(dict.fromkeys(link.name for link, _ in undecodable))
        kinds = sorted({os.path.splitext(e.geometry.filename)[1] or 'no extension'
                        for _, e in undecodable})
        first = undecodable[0][1]
        groups = {element.group for _, element in undecodable}
        what = ' and '.join(group for group in ('collision', 'visual') if group in groups)
        yield ctx.finding(
            'mujoco-mesh-format', Severity.ERROR,
            f'{len(undecodable)} {what} mesh{"es" if len(undecodable) > 1 else ""} '
            f'({", ".join(kinds)}) MuJoCo has no decoder for: it refuses the robot ("no '
            f'decoder found for mesh file"; it reads STL, OBJ and MSH)'
            + ('; the file\'s <mujoco><compiler discardvisual="false"> makes it load the '
               'visual meshes too' if keeps else '') + f'. Links: {listed(links)}',
            line=first.geometry.line or first.line,
            suggestion=f'export the {what} meshes as STL or OBJ, or use primitives (or, if '
                       'the robot is not meant for MuJoCo, check it without that target)',
            values=(('count', len(undecodable)), ('formats', ', '.join(kinds))), links=links)
    yield from _repeated(ctx)
    clashes = {name: files for name, files in names.items() if len(files) > 1}
    if clashes:
        links = tuple(dict.fromkeys(link for files in clashes.values()
                                    for members in files.values() for link, _ in members))
        # Each name with the files that share it, as the description writes them (TALOS:
        # meshes/torso/base_link_collision.STL and meshes/gripper/base_link_collision.STL).
        written = {name: [members[0][1].geometry.filename for members in files.values()]
                   for name, files in clashes.items()}
        shown = '; '.join(f'{name}: {", ".join(files[:3])}'
                          + (f' and {len(files) - 3} more' if len(files) > 3 else '')
                          for name, files in list(written.items())[:5])
        second = list(next(iter(clashes.values())).values())[1][0][1]  # where it clashes
        yield ctx.finding(
            'mujoco-mesh-name-clash', Severity.WARNING,
            f'{len(clashes)} file name{"s" if len(clashes) > 1 else ""} used by different '
            f'collision mesh files ({shown}). MuJoCo opens package:// meshes only with '
            '<compiler strippath="true" meshdir=...>, and then loads one file for every mesh '
            f'of a name (links: {listed(links)})',
            element=second.label, line=second.geometry.line or second.line,
            suggestion='give every collision mesh file a unique name',
            values=(('names', ', '.join(clashes)),
                    ('files', '; '.join(file for files in written.values() for file in files))),
            links=links)


#: memo key: the ids of the parse notes (parse-duplicate-*) a MuJoCo finding says already
COVERED_NOTES = ('mujoco-covered-notes', None)


def _article(word: str) -> str:
    """Return 'an' before a vowel ('an inertial'), else 'a' ('a joint')."""
    return 'an' if word[:1].lower() in 'aeiou' else 'a'


def _repeated(ctx: CheckContext) -> Iterator[Finding]:
    """Report the repeated children MuJoCo refuses: materials apart (their own rule)."""
    materials, others = [], []
    for note in ctx.robot.notes:
        if not note.rule.startswith('parse-duplicate-'):
            continue
        tag = note.rule[len('parse-duplicate-'):]
        parent = dict(note.values).get('parent')
        if (parent, tag) in MUJOCO_READS_ONCE:
            (materials if tag == 'material' else others).append((parent, tag, note))
    # The parse notes these say already are not said again (analysis.analyze).
    ctx.memo[COVERED_NOTES] = frozenset(id(note) for _, _, note in materials + others)
    if materials:
        links = tuple(dict.fromkeys(note.link for _, _, note in materials if note.link))
        yield ctx.finding(
            'mujoco-repeated-material', Severity.ERROR,
            f'{len(materials)} visual{"s" if len(materials) > 1 else ""} hold several '
            '<material>: MuJoCo refuses the robot ("XML Error: repeated element: \'material\'"'
            f'), where urdfdom uses the first (links: {listed(links)})',
            line=materials[0][2].line, suggestion='keep one <material> per <visual>',
            values=(('count', len(materials)),), links=links)
    if others:
        links = tuple(dict.fromkeys(note.link for _, _, note in others if note.link))
        # Named by link: one macro line made for each side reads '(line 239)' twice (ARI).
        kinds = ', '.join(dict.fromkeys(
            (f"<{tag}> in link '{note.link}'" if parent == 'link' else
             f"<{tag}> in {_article(parent)} {parent} of '{note.link}'" if note.link else
             f'<{tag}> in {_article(parent)} {parent}') + f' (line {note.line})'
            for parent, tag, note in others[:5]))
        first = others[0]
        yield ctx.finding(
            'mujoco-repeated-element', Severity.ERROR,
            f'{len(others)} element{"s repeat" if len(others) > 1 else " repeats"} a child MuJoCo '
            f'reads once ({kinds}{", ..." if len(others) > 5 else ""}): MuJoCo refuses the '
            f'whole robot ("XML Error: repeated element: \'{first[1]}\'"), where urdfdom uses '
            f'the first (links: {listed(links)})',
            line=first[2].line,
            suggestion='keep one of each, with the values meant (the first is what urdfdom '
                       'and the other readers use)',
            values=(('count', len(others)),
                    ('elements', ', '.join(dict.fromkeys(f'{parent}/{tag}'
                                                         for parent, tag, _ in others)))),
            links=links)


def check_gltf_up(ctx: CheckContext) -> Iterator[Finding]:
    """Say once that glTF meshes are read Z-up, where RViz up to Kilted and Gazebo do not."""
    if not ctx.config.targets & {'rviz', 'gazebo'}:
        return
    elements = [(link, element) for link in ctx.robot.links
                for element in link.visuals + link.collisions
                if element.geometry is not None and element.geometry.kind == 'mesh'
                and SUPPORTED.get(os.path.splitext(element.geometry.filename)[1].lower())
                in gltf.FILE_TYPES]
    if not elements:
        return
    links = tuple(dict.fromkeys(link.name for link, _ in elements))
    first = elements[0][1]
    stored = gltf_stored_z_up(ctx)
    if stored:
        yield ctx.finding(
            'mesh-gltf-up-axis', Severity.WARNING,
            f'{len(elements)} glTF mesh{"es" if len(elements) > 1 else ""} (links: '
            f'{listed(links)}) {"are" if len(elements) > 1 else "is"} stored Z-up, against '
            "the glTF specification's Y-up: as stored, the visuals of "
            f'{len(stored)} link{"s" if len(stored) > 1 else ""} ({listed(stored)}) match '
            'their collision geometry; read Y-up, as the specification, Drake and RViz since '
            'ros2/rviz#1482 read them (and this checker), they stand turned 90 degrees about '
            'x from it. RViz up to Kilted and Gazebo show them as stored',
            line=first.geometry.line or first.line,
            suggestion="export the glTF files Y-up (the glTF convention; Blender's exporter "
                       'does with +Y Up), or store them as STL or OBJ (no up axis) for the '
                       'same pose in every reader',
            values=(('count', len(elements)), ('matching_links', len(stored))), links=links)
        return
    yield ctx.finding(
        'mesh-gltf-up-axis', Severity.INFO,
        f'{len(elements)} glTF mesh{"es" if len(elements) > 1 else ""} (links: '
        f'{listed(links)}) {"are" if len(elements) > 1 else "is"} read Z-up, turned +90 '
        "degrees about x from glTF's Y-up as the glTF specification, Drake and RViz since "
        'ros2/rviz#1482 place them; RViz up to Kilted shows them as stored (turned -90 '
        'degrees about x from what is checked here), and so does Gazebo (not run here)',
        line=first.geometry.line or first.line,
        suggestion='nothing to fix for Drake or a new RViz; a part lying on its side in an '
                   'older RViz or in Gazebo is that reader: store the meshes as STL or OBJ '
                   '(no up axis) for the same pose in every reader',
        values=(('count', len(elements)),), links=links)


def _meant(name: str, known: Set[str], index: Dict[str, Set[str]]) -> str:
    """
    Return the one name a reference means, '' if none.

    With blanks, without a '_link' suffix (or with one too many), or with a word left out.

    :param index: word -> the known names holding it (:func:`_word_index`)
    """
    bare = name.strip()
    forms = [bare, f'{bare}_link', f'{bare}_frame', f'link_{bare}']
    if bare.endswith('_link'):
        forms.append(bare[:-len('_link')])
    found = [form for form in forms if form in known]
    if found:
        return found[0] if len(found) == 1 else ''
    # every word of it in one name, the fewest words added: GEM's camera sensor on
    # 'front_camera_link', whose link became 'front_single_camera_link'; Mirte's wheel
    # friction on 'wheel_front_left', its link 'front_left_wheel' (not its joint's name)
    words = set(_words(bare))
    if len(words) < 2 or not words <= index.keys():
        return ''
    holding = set.intersection(*(index[word] for word in words))
    if not holding or len(holding) > _MOST_HOLDING:
        return ''  # (so many names hold its words that none is the one meant)
    extra = {other: len(set(_words(other)) - words) for other in holding}
    least = min(extra.values())
    fewest = [other for other, count in extra.items() if count == least]
    return fewest[0] if len(fewest) == 1 else ''


#: the most names holding a reference's words among which the one meant is looked for
_MOST_HOLDING = 100


def _word_index(names: Set[str]) -> Dict[str, Set[str]]:
    """Return, for each word of the names, the names holding it."""
    index: Dict[str, Set[str]] = {}
    for name in names:
        for word in _words(name):
            index.setdefault(word, set()).add(name)
    return index


def _words(name: str) -> List[str]:
    """Return the lower-case words of a name ('Front_left-wheel' -> front, left, wheel)."""
    return [word for word in re.split(r'[_\W]+', name.lower()) if word]


def _near(suggesters: Dict[str, NameSuggester], name: str) -> str:
    """
    Return a link or joint name close to a reference, '' for none.

    Among the links for a name ending in _link, the joints for _joint; never a name that
    differs only in its numbers (TALOS' left arm alone: its extension for
    'arm_left_1_joint', whose joint is not in the file, does not mean 'arm_left_7_joint').
    """
    kind = next((kind for kind in ('link', 'joint') if name.lower().endswith('_' + kind)), '')
    # one slip only: Atlas v4's 'l_farm' is 'l_ufarm' or 'l_lfarm' (its shapes-only model)
    close = [other for other in suggesters[kind].suggestions(name)
             if numberless(other) != numberless(name) and _typo(name, other)]
    if len(close) > 1:
        # Of several slips, the one with the same numbers (Doosan's 'link1'... for link_1
        # to link_6: each was two edits from its neighbours too, and none was said: sweep Z)
        numbers = _NUMBERS.findall(name)
        same = [other for other in close if _NUMBERS.findall(other) == numbers]
        close = same if len(same) == 1 else close
    return close[0] if len(close) == 1 else ''


_NUMBERS = re.compile(r'\d+')


def _typo(written: str, meant: str, most: int = 2) -> bool:
    """
    Return True when two names are at most ``most`` edits apart (a slip of the keys).

    difflib's ratio calls long names alike when they share a prefix and a suffix: Robotnik's
    'robot_front_cover_link' is not a slip of 'robot_front_laser_link'.
    """
    if abs(len(written) - len(meant)) > most:
        return False
    previous = list(range(len(meant) + 1))
    for row, char in enumerate(written, 1):
        current = [row]
        for column, other in enumerate(meant, 1):
            current.append(min(previous[column] + 1, current[column - 1] + 1,
                               previous[column - 1] + (char != other)))
        if min(current) > most:
            return False
        previous = current
    return previous[-1] <= most


#: what a ``<gazebo reference>`` may hold that only changes how Gazebo draws the part
_LOOKS = frozenset({'material', 'visual'})
#: the references whose meant name is looked for
SUGGESTED = 100


def check_gazebo_references(ctx: CheckContext) -> Iterator[Finding]:
    """
    Say once which ``<gazebo reference="NAME">`` extensions name no link and no joint.

    sdformat's URDF conversion (parser_urdf.cc) files each extension under its reference
    and inserts it into the link or joint of that name: an extension naming neither (a
    misspelt or renamed link, a prefix the links do not carry) is dropped without a word, and
    its sensor, plugin, friction or colour with it.
    """
    if 'gazebo' not in ctx.config.targets:
        return
    robot = ctx.robot
    known = {link.name for link in robot.links} | {joint.name for joint in robot.joints}
    dead = [(name, line, tags) for name, line, tags in robot.gazebo_references
            # (a joint written in SDF in a <gazebo>, the Robotiq hand's loop closures)
            if name.strip() and name not in known and name not in robot.gazebo_joints]
    if not dead or not robot.links or is_fragment(robot):
        return  # (a fragment's extensions name the links of the robots that include it)
    links = {link.name for link in robot.links}
    suggesters = {'link': NameSuggester(links), 'joint': NameSuggester(known - links),
                  '': NameSuggester(known)}
    # one entry per name: a macro called for four legs is one slip, said once
    # (by name: each call's expansion has lines of its own until they are mapped to the file)
    counts = Counter(name for name, _, _ in dead)
    lines = {name: line for name, line, _ in reversed(dead)}
    held: Dict[str, List[str]] = {}
    for name, _, tags in dead:
        held.setdefault(name, []).extend(tags)
    index = _word_index(known)
    shown = []
    slips = meant_names = lost = False
    for order, name in enumerate(counts):
        # (the names meant are looked for among the first SUGGESTED only: a generated file
        # of 50,000 references is one finding, not 50,000 searches)
        meant, would = dollar_meant(name, known) if order < SUGGESTED else ('', '')
        close = '' if order >= SUGGESTED else would or (
            '' if meant else _meant(name, known, index) or _near(suggesters, name))
        slips = slips or bool(meant)
        meant_names = meant_names or bool(meant or close)
        # A sensor or plugin is something the user counts on, and so is the friction or
        # damping of a part the robot has under another name; a colour only changes how
        # Gazebo draws it (Robotnik's base_footprint, a frame with nothing to draw), and
        # friction for a part the robot does not have (TALOS' arm alone, a leftover) nothing.
        tags = set(held[name])
        lost = lost or bool({'sensor', 'plugin'} & tags) or bool(
            (meant or close) and tags - _LOOKS)
        if len(shown) < LISTED:
            times = counts[name]
            shown.append(f"'{name}'" + (f' {times} times' if times > 1 else '')
                         + f' (line {lines[name]})'
                         + (f' (did you mean {meant}?)' if meant and not would else '')
                         + (f' (did you mean {close!r}?)' if close else ''))
    tags = list(dict.fromkeys(tag for name in counts for tag in held[name]))
    what = (f'{listed([f"<{tag}>" for tag in tags])} ha{"s" if len(tags) == 1 else "ve"}'
            if tags else 'it has')
    many = len(dead) > 1
    yield ctx.finding(
        'gazebo-reference-unknown', Severity.WARNING if lost else Severity.INFO,
        (f'{len(dead)} <gazebo> extensions name' if many else 'a <gazebo> extension names')
        + ' no link or joint of the robot: '
        + listed(shown, total=len(counts)) + '; Gazebo drops '
        + ('them' if many else 'it') + f' without a word, so {what} no effect'
        + (f' ({DOLLAR_WHY})' if slips else ''),
        line=dead[0][1],
        suggestion=('write the name of the link or joint each extension is meant for (with '
                    'the same prefix as the links)' if meant_names else
                    'remove the extension if its part is not in this robot, or write the name '
                    'of the link or joint it is meant for'),
        # (the first names, each clipped: every dead name whole made 28 MB reports, review 11)
        values=(('count', len(counts)),
                ('references', ' '.join(name[:128] for name in list(counts)[:LISTED]))))


def check_mujoco_start(ctx: CheckContext) -> Iterator[Finding]:
    """Report joints whose range leaves out 0, where MuJoCo starts them, and its contacts."""
    if 'mujoco' not in ctx.config.targets:
        return
    from urdf_link_tools.collision.configurations import default_position, joint_bounds
    outside = []
    for joint in ctx.robot.joints:
        if joint.type not in ('revolute', 'prismatic') or joint.limit is None or \
                joint.limit.lower is None or joint.limit.upper is None:
            continue
        lower, upper = joint_bounds(joint)
        if lower > 0.0 or upper < 0.0:
            outside.append((joint, lower, upper))
    if not outside:
        return
    unit = {'revolute': 'rad', 'prismatic': 'm'}
    ranges = [f"'{joint.name}' ({fmt(lower)} to {fmt(upper)} {unit[joint.type]})"
              for joint, lower, upper in outside]
    contacts = _start_contacts(ctx)
    said = ''
    if contacts:
        deepest = contacts[0]
        more = [f'{item.link1}/{item.link2} {fmt(item.depth * 1000.0, 3)} mm'
                for item in contacts[1:]]
        said = (f"; in that pose '{deepest.link1}' and '{deepest.link2}' are "
                f'{fmt(deepest.depth * 1000.0, 3)} mm into each other'
                + (f' (and {len(contacts) - 1} more pair{"s" if len(contacts) > 2 else ""}'
                   f' of links: {listed(more)})' if more else '')
                + ', which do not touch at rest: MuJoCo pushes them apart from the first step')
    home = [f"'{joint.name}' {fmt(default_position(joint), 4)}" for joint, _, _ in outside]
    first = outside[0][0]
    refusal = mujoco_refusal(ctx)
    yield ctx.finding(
        'mujoco-start-outside-limits', Severity.INFO,
        (f'Once MuJoCo loads the robot (it refuses it as it is, see {refusal}), it will '
         'start' if refusal else 'MuJoCo starts')
        + ' every joint at 0 (qpos0), outside the range of '
        f'{listed(ranges)}: '
        + ('their limit constraints act' if len(outside) > 1 else 'its limit constraint acts')
        + ' from the first step, and the robot jumps into range' + said,
        line=first.line,
        suggestion=('start MuJoCo from a keyframe within the limits: in the MJCF, <keyframe>'
                    '<key name="home" qpos="..."/></keyframe> and mj_resetDataKeyframe, e.g. '
                    f"MoveIt's default state ({listed(home)}, the others 0); the URDF "
                    "cannot set MuJoCo's start"),
        values=(('joints', listed([joint.name for joint, _, _ in outside])),
                ('contacts', len(contacts))),
        links=tuple(dict.fromkeys(name for item in contacts
                                  for name in (item.link1, item.link2))))


def _start_contacts(ctx: CheckContext) -> list:
    """Return MuJoCo's contacts with every joint at 0 that rest apart, deepest first."""
    from urdf_link_tools.checks.collisions import base_welded
    from urdf_link_tools.collision.bodies import build_bodies, CollisionLibraryMissing
    from urdf_link_tools.collision.overlap import HULL_ONLY_MIN, overlaps_at_rest
    if not any(link.collisions for link in ctx.robot.links):
        return []
    try:
        bodies, _ = build_bodies(ctx.robot, ctx.meshes)
        report = overlaps_at_rest(ctx.robot, bodies, joined=True, hulls=True,
                                  welded=base_welded(ctx), zero=True)
    except CollisionLibraryMissing:
        return []
    return [item for item in report.overlaps if item.depth >= HULL_ONLY_MIN]


CHECKS = (check_mujoco, check_gltf_up, check_gazebo_references, check_mujoco_start)
