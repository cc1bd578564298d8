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

import os
from typing import Dict, Iterator, List, Tuple

import numpy as np

from urdf_link_tools.checks.alignment import gltf_stored_z_up
from urdf_link_tools.checks.base import CheckContext, Rule
from urdf_link_tools.findings import Finding, listed, Severity
from urdf_link_tools.meshes import gltf, MeshInfo
from urdf_link_tools.meshes.reading import SUPPORTED
from urdf_link_tools.model import GeometryElement, Link

#: File types MuJoCo 4.0 decodes (case-insensitive).
MUJOCO_FORMATS = ('.stl', '.obj', '.msh')
#: Thinner than this fraction of its extent, a mesh's vertices are coplanar for Qhull.
COPLANAR = 1e-9
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
    Rule('mujoco-mesh-name-clash', Severity.WARNING,
         'different collision mesh files share a file name (e.g. two link_1.stl in '
         'different folders): reported once',
         'MuJoCo opens package:// meshes only with <compiler strippath="true" meshdir=...>, '
         'and then loads one file for every mesh of that name: the other parts get its shape',
         'rename the files so that their names are unique', 'MuJoCo 4.0 (test_checks_engines.py)'),
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
        spread = np.linalg.svd(vertices - vertices.mean(axis=0), compute_uv=False)
        ctx.memo[key] = bool(spread[-1] <= COPLANAR * max(float(spread[0]), 1e-300))
    return bool(ctx.memo[key])


def check_mujoco(ctx: CheckContext) -> Iterator[Finding]:
    """Report what MuJoCo refuses or merges, when it is a target."""
    if 'mujoco' not in ctx.config.targets:
        return
    undecodable: List[Tuple[Link, GeometryElement]] = []
    names: Dict[str, Dict[str, List[Tuple[str, GeometryElement]]]] = {}
    keeps = ctx.robot.mujoco_keeps_visuals
    if keeps:  # the file's <compiler discardvisual="false">: the visual meshes load too
        undecodable.extend(
            (link, element) for link in ctx.robot.links for element in link.visuals
            if element.geometry is not None and element.geometry.kind == 'mesh'
            and os.path.splitext(element.geometry.filename)[1].lower() in SUPPORTED
            and os.path.splitext(element.geometry.filename)[1].lower() not in MUJOCO_FORMATS)
    for link, element in _collision_meshes(ctx):
        filename = element.geometry.filename
        suffix = os.path.splitext(filename)[1].lower()
        # A file not found with no mesh format's extension is a typo, mesh-not-found's (HSR's
        # torso.std for torso.stl); a DAE not found is still a DAE.
        typo = suffix not in SUPPORTED and \
            getattr(ctx.mesh_for(element), 'rule', None) == 'mesh-not-found'
        if suffix not in MUJOCO_FORMATS and not typo:
            undecodable.append((link, element))
        elif mujoco_refuses_flat(ctx, element):
            yield ctx.finding(
                'mujoco-mesh-coplanar', Severity.ERROR,
                'the collision mesh\'s vertices are coplanar: MuJoCo refuses the robot ("has '
                'coplanar vertices, cannot compute convex hull")',
                link=link.name, element=element.label, line=element.line,
                suggestion='use a thin <box> (or the collision of the part it belongs to) '
                           'instead of a flat mesh', values=(('filename', filename),))
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


CHECKS = (check_mujoco, check_gltf_up)
