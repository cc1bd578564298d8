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
A left link and its right mirror with the same fault: one finding, naming both.

A robot's left and right limbs are one design drawn twice (one xacro macro called with
``prefix:=left`` and ``prefix:=right``, or a CAD export mirrored): a centre of mass outside
the left wrist's geometry is outside the right one's too, by the same distance. Two
findings say one thing twice; this one keeps the first, names its mirror in ``links`` (so
the mirror's diagnostics and services still show it) and says where the mirror is.

Mirror names swap the side marks of a name: ``left``/``right`` in any case, a lone ``l``
or ``r`` (``l_forearm``, ``LWristRollLink``, ``wheel_R``) and a leg's ``FL``/``FR``,
``RL``/``RR``, ``HL``/``HR``, ``LF``/``RF`` and ``LH``/``RH``. Two findings are the same
fault when they have the same rule, severity and element and the same message once side
marks and numbers are set aside: a tensor or centre of mass written once for both sides
(mirrored, or copied) is one choice, even where the two meshes differ and the numbers
measured against them do. With the same numbers up to sign (a mirror's centre of mass has
the opposite y) within :data:`TOLERANCE`, the finding says the mirror has the same; else it
gives the mirror's own numbers too.

A finding about a pair of links (two links overlapping at rest, ``other_link``) merges with
the mirror pair's (the front-left thigh in its hip, and the front-right): its values name
the mirror pair (``mirror_link``, ``mirror_other_link``, the mirror's depth) and its fix
gives the mirror pair's SRDF entry too. It lists no links: a listing overlap finding is one
link's envelope over several (reports draw each pair of it). Such an envelope (a gripper's
motor housing over three finger links) merges with its mirror's over their mirrors: its
values name them (``mirror_links``, ``mirror_depths_mm``, ``mirror_points_in_link``) and its
fix gives the mirror's entries. Findings already grouped otherwise stay as they are.

A quadruped's four legs (or a base's four wheels) are one design drawn four times: once the
left and right sides are merged, a front pair's finding merges with its fore-aft
counterpart's, the rear pair's (and a front link without a mirror, a car's virtual front
wheel, with its rear one) (:data:`FORE_AFT_KEY`: ``FL``/``RL``, ``LF``/``LH``,
``front``/``rear``, ``hind`` or ``back``), on the same terms: one finding for all four links,
which they all see as their own. A pair's finding names the other pairs
(``fore_aft_links``, ``fore_aft_other_links``, their depths and points) and gives their
SRDF and MJCF entries too.
"""

from __future__ import annotations

import math
import re
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from urdf_link_tools.findings import Finding

#: relative difference of two numbers still read as one value printed twice (a mirrored
#: mesh's bounds and centroid come out of sums in another order)
TOLERANCE = 0.01

_WORDS = {'left': 'right', 'right': 'left', 'Left': 'Right', 'Right': 'Left',
          'LEFT': 'RIGHT', 'RIGHT': 'LEFT'}
_LEGS = {'FL': 'FR', 'FR': 'FL', 'RL': 'RR', 'RR': 'RL', 'HL': 'HR', 'HR': 'HL',
         'BL': 'BR', 'BR': 'BL', 'LF': 'RF', 'RF': 'LF', 'LH': 'RH', 'RH': 'LH',
         'LB': 'RB', 'RB': 'LB'}
_LEGS.update({key.lower(): value.lower() for key, value in _LEGS.items()})
_LETTERS = {'l': 'r', 'r': 'l', 'L': 'R', 'R': 'L'}
#: a side word anywhere; a leg code or a lone letter between separators (or a lone capital
#: before a capital: LWristRollLink)
_SEP = r'_\-./ \'"(),=:'
_SIDE = re.compile(
    r'(left|right|Left|Right|LEFT|RIGHT)'
    rf'|(?:^|(?<=[{_SEP}]))([FRHB][LR]|[LR][FHB]|[fhb][lr]|rl|rr|[lr][fhb])(?=$|[{_SEP}0-9])'
    rf'|(?:^|(?<=[{_SEP}]))([lLrR])(?=$|[{_SEP}0-9])'
    rf'|(?:^|(?<=[{_SEP}]))([LR])(?=[A-Z][a-z])')
_NUMBER = re.compile(r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')
_AXIS = re.compile(r"(about the link's )[xyz] axis|(V_)[xyz]( \+ V_)[xyz]")
#: a name with more side marks than this (a hostile one) is tried with all swapped only
MAX_MARKS = 8
#: the value naming the mirror link of a merged finding (and the other of a mirror pair)
MIRROR_KEY = 'mirror_link'
MIRROR_OTHER_KEY = 'mirror_other_link'
#: and the links the mirror of an envelope overlaps (', '-separated, as ``welded_links``)
MIRROR_LINKS_KEY = 'mirror_links'
#: the value naming the other link of a finding about a pair of links (an overlap at rest)
OTHER_KEY = 'other_link'
#: the values naming the fore-aft counterparts of a merged mirror finding (the rear pair of a
#: front pair), and the links they overlap (', '-separated, in the same order)
FORE_AFT_KEY = 'fore_aft_links'
FORE_AFT_OTHER_KEY = 'fore_aft_other_links'
SECOND_MODEL_KEY = 'second_model_links'
#: the values naming the numbered copies of a pair finding (``panda_2_link1`` and
#: ``panda_2_link3`` of ``panda_1_link1`` and ``panda_1_link3``), ', '-separated in order
COPY_KEY = 'copy_links'
COPY_OTHER_KEY = 'copy_other_links'
#: the value naming the links a repeated part hangs from (an omniwheel's hub, its copies')
REPEATED_KEY = 'hung_from'
#: the value naming the other instances of a macro one of whose lines a finding is about
#: (', '-separated, in the order of the findings)
INSTANCES_KEY = 'instance_links'
_DIGITS = re.compile(r'\d+')
#: a front or rear mark: the word, or a leg code (FL/RL, HL, BL; LF/LH, LB)
_FORE_AFT = re.compile(
    r'(front|Front|FRONT|rear|Rear|REAR|hind|Hind|HIND|back|Back|BACK)'
    rf'|(?:^|(?<=[{_SEP}]))([FRHBfrhb][LRlr]|[LRlr][FHBfhb])(?=$|[{_SEP}0-9])'
    # a lone front or back letter (Toyota HSR's base_f_bumper_link, base_b_bumper_link; not
    # r, often a right)
    rf'|(?:^|(?<=[{_SEP}]))([FBfb])(?=$|[{_SEP}])')
#: what a front mark becomes at the rear, one style per candidate name
_REAR_WORDS = {'front': ('rear', 'hind', 'back'), 'Front': ('Rear', 'Hind', 'Back'),
               'FRONT': ('REAR', 'HIND', 'BACK')}
_REAR_LETTERS = {'F': ('R', 'H', 'B'), 'f': ('r', 'h', 'b')}
#: what a pair's fix adds to the SRDF or the MJCF, and how deep it overlaps
_ENTRY = re.compile(r'<(?:disable_collisions|exclude) [^>]*/>')
_DEPTH = re.compile(r'about [^,;]* deep|touching \(less than [^)]*\)')


def mirror_name(name: str) -> Optional[str]:
    """Return the name with all its side marks swapped, None when it has none."""
    names = mirror_names(name)
    return names[0] if names else None


def mirror_names(name: str) -> List[str]:
    """
    Return the names a link's mirror may have, the likeliest first.

    Every side mark swapped; else ``left``/``right`` only; else one mark at a time: a lone
    letter is not always a side (psyonic's ``Left_index_L2``, whose mirror is
    ``Right_index_L2``: its ``L2`` is the second phalanx).
    """
    marks = list(_SIDE.finditer(name))
    if not marks:
        return []
    names = [_SIDE.sub(_swap, name)]
    words = [match for match in marks if match.group(1) is not None]
    if words and len(words) < len(marks):
        names.append(_swapped(name, words))
    if 1 < len(marks) <= MAX_MARKS:
        names += [_swapped(name, [match]) for match in marks]
    return list(dict.fromkeys(names))


def _swapped(name: str, marks: Sequence['re.Match[str]']) -> str:
    """Return the name with these marks swapped (the others kept)."""
    parts = []
    end = 0
    for match in marks:
        parts += [name[end:match.start()], _swap(match)]
        end = match.end()
    return ''.join(parts) + name[end:]


def _swap(match: 're.Match[str]') -> str:
    word, leg, letter, capital = match.groups()
    if word is not None:
        return _WORDS[word]
    if leg is not None:
        return _LEGS.get(leg, leg)
    return _LETTERS[letter if letter is not None else capital]


def fore_aft_names(name: str) -> List[str]:
    """
    Return the names a link's fore-aft counterpart may have, the likeliest first.

    Every front mark made a rear one (``FL_calf``: ``RL_calf``, ``HL_calf``, ``BL_calf``;
    ``LF_SHANK``: ``LH_SHANK``; ``front_left_wheel``: ``rear_left_wheel``...), or every rear
    mark a front one; none for a name with both, or with neither, or with more than
    :data:`MAX_MARKS` marks.
    """
    marks = list(_FORE_AFT.finditer(name))
    if not marks or len(marks) > MAX_MARKS:
        return []
    fronts = [_is_front(match) for match in marks]
    if any(fronts) and not all(fronts):
        return []
    names = []
    for style in range(3):
        parts = []
        end = 0
        for match in marks:
            parts += [name[end:match.start()], _fore_aft_swap(match, style)]
            end = match.end()
        names.append(''.join(parts) + name[end:])
    return list(dict.fromkeys(names))


def _is_front(match: 're.Match[str]') -> bool:
    word, code, letter = match.groups()
    if word is not None:
        return word in _REAR_WORDS
    if letter is not None:
        return letter in 'Ff'
    return code[0] in 'Ff' if code[1] in 'LRlr' else code[1] in 'Ff'


def _fore_aft_swap(match: 're.Match[str]', style: int) -> str:
    word, code, letter = match.groups()
    if letter is not None:
        return {'F': 'B', 'B': 'F', 'f': 'b', 'b': 'f'}[letter]
    if word is not None:
        if word in _REAR_WORDS:
            return _REAR_WORDS[word][style]
        return 'front' if word.islower() else 'FRONT' if word.isupper() else 'Front'
    if code[1] in 'LRlr':  # fore-aft letter first (Unitree's FL, RL)
        first = code[0]
        turned = _REAR_LETTERS[first][style] if first in _REAR_LETTERS else \
            ('F' if first.isupper() else 'f')
        return turned + code[1]
    # side letter first (ANYmal's LF, LH; Mini Pupper's lf, lb)
    last = code[1]
    if last in 'Ff':
        return code[0] + (('H', 'H', 'B') if last == 'F' else ('h', 'h', 'b'))[style]
    return code[0] + ('F' if last.isupper() else 'f')


def _neutral(text: str) -> str:
    return _SIDE.sub('~', text)


def _glued_marks(text: str, link: Optional[str]) -> str:
    """
    Blank the side mark a link's name starts with where other quoted names start with it.

    Mini Pupper's leg links are lf3, rb3..., and the feet welded to them lffoot, rbfoot:
    there the mark is glued to the rest of the name, which :data:`_SIDE` does not take for
    a mark, and the four legs' alike findings, each naming its own foot, stayed four
    (sweep X).
    """
    first = _SIDE.match(link or '')
    if first is None or first.group(1) is None and first.group(2) is None:
        return text  # (a lone letter, l_foot's: 'link_base' starts with it too)
    return re.sub("'" + re.escape(first.group(0)) + '(?=[A-Za-z0-9])', "'~", text)


#: a parenthesised list of names, in a message
_LISTED = re.compile(r'\(([^(), ]+(?:, [^(), ]+)+)\)')
#: an overlap's contact point, in a pair finding's message
_CONTACT = re.compile(r"at \([-+.\deE ]*\) in '[^']*''s frame")


def _shape(finding: Finding, fore_aft: bool = False) -> Tuple[str, List[float]]:
    """Return a finding's message without side (and fore-aft) marks and numbers, its numbers."""
    text = _glued_marks(finding.message, finding.link)
    for name in sorted(filter(None, (finding.link, _other(finding))), key=len, reverse=True):
        text = text.replace(name, '\0')
    text = _neutral(_FORE_AFT.sub('^', text) if fore_aft else text)
    # Where two shapes meet is a point of their contact patch, not of the design: ARX X7's
    # two grippers, their fingers 23.9 mm into each other, met at points 1 cm apart on a
    # flat face (the two arms' pair findings stayed two).
    text = _CONTACT.sub('at (~)', text)
    # A list's order follows depths that a mirror's parts round their own way (DRCSim's
    # iRobot hands: the right palm's four neighbours listed in another order than the left's)
    text = _LISTED.sub(lambda match: '(' + ', '.join(sorted(match.group(1).split(', '))) + ')',
                       text)
    # The axis a bound is worst about may flip on a tie: kuavo's feet (sweep K), ixx = iyy on
    # a foot square in x and y whose right mesh is the left one turned, bounds apart in the
    # 9th digit, were 'about the link's x axis' on the left, y on the right: two errors.
    text = _AXIS.sub(lambda match: f'{match.group(1)}~ axis' if match.group(1) else
                     f'{match.group(2)}~{match.group(3)}~', text)
    numbers = [abs(float(value)) for value in _NUMBER.findall(text)]
    return _NUMBER.sub('#', text), sorted(numbers)


def _same_numbers(first: Sequence[float], second: Sequence[float]) -> bool:
    return len(first) == len(second) and all(
        math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=1e-12) for a, b in zip(first, second))


def _value(finding: Finding, key: str) -> Optional[str]:
    for name, value in finding.values:
        if name == key:
            return value
    return None


def _other(finding: Finding) -> Optional[str]:
    """Return the other link of a finding about a pair of links, None for one link."""
    return _value(finding, OTHER_KEY)


def mirror_of(finding: Finding) -> Optional[str]:
    """Return the mirror link a finding was merged with, None if none."""
    return _value(finding, MIRROR_KEY) if finding.link else None


def co_owners(finding: Finding) -> Tuple[str, ...]:
    """
    Return the links besides its own whose finding this is: its mirror, its fore-aft pair.

    And the other links of a second collision model whose overlaps are one finding.

    Their diagnostics, services, JUnit cases and colours show it as their own.
    """
    mirror = mirror_of(finding)
    fore_aft = _value(finding, FORE_AFT_KEY) if finding.link else None
    # the links of a second collision model (checks.collisions): the finding is theirs
    models = _value(finding, SECOND_MODEL_KEY) if finding.link else None
    copies = _value(finding, COPY_KEY) if finding.link else None
    return ((mirror,) if mirror else ()) + (tuple(fore_aft.split(', ')) if fore_aft else ()) \
        + tuple(name for name in (models.split(', ') if models else ()) if name != finding.link) \
        + (tuple(copies.split(', ')) if copies else ())


def co_listed(finding: Finding) -> Tuple[str, ...]:
    """Return the links a merged pair finding's other pairs overlap (the mirror's, fore-aft)."""
    names = (_value(finding, MIRROR_OTHER_KEY) or '', _value(finding, FORE_AFT_OTHER_KEY) or '',
             _value(finding, COPY_OTHER_KEY) or '')
    return tuple(name for text in names if text for name in text.split(', '))


def _envelope(finding: Finding) -> bool:
    """Return True for one link overlapping several (its ``links``: itself, then them)."""
    return bool(finding.links) and finding.links[0] == finding.link and \
        _other(finding) is not None


def _mergeable(finding: Finding) -> bool:
    # Another finding listing links (a model-wide choice) is a group already; so is a list of
    # pairs of a repeated part or of numbered copies (checks.collisions): a mirror's list of
    # pairs would be lost in the merge (its links are kept, not its pairs).
    return bool(finding.link) and (not finding.links or _envelope(finding)) and \
        not _value(finding, REPEATED_KEY) and not (finding.links and _value(finding, COPY_KEY))


def _key(finding: Finding) -> Tuple[str, FrozenSet[str]]:
    """Return what a finding is about: its rule and its link (and the links it overlaps)."""
    if finding.links:
        return finding.rule, frozenset(finding.links)
    other = _other(finding)
    return finding.rule, frozenset((finding.link or '', other) if other else
                                   (finding.link or '',))


def _mirrored(names: FrozenSet[str], known: Set[str],
              names_of: Callable[[str], List[str]] = mirror_names) \
        -> Optional[FrozenSet[str]]:
    """
    Return the mirror of a link or pair of links, None when it has none in the robot.

    :param names_of: the names a link's counterpart may have (:func:`mirror_names`, or
        :func:`fore_aft_names` for the fore-aft counterpart); a link with none (a torso on
        the middle) is its own
    """
    mirrored = set()
    for name in names:
        candidates = names_of(name)
        if not candidates:
            mirrored.add(name)  # a link on the middle (a torso): its own mirror
            continue
        found = next((other for other in candidates if other in known), None)
        if found is None:
            return None
        mirrored.add(found)
    result = frozenset(mirrored)
    return result if result != names and len(result) == len(names) else None


def merge_mirrors(findings: List[Finding], link_names: Sequence[str]) -> List[Finding]:
    """
    Return the findings with each mirrored pair made one (see the module's text).

    :param findings: the findings of one analysis, in the order the checks made them
    :param link_names: the robot's links (a mirror name must be one of them)
    :return: the same findings, the second of each pair left out and the first naming it
    """
    known = set(link_names)
    keys = {index: _key(finding) for index, finding in enumerate(findings)
            if _mergeable(finding)}
    by_key = _indexed(keys)
    merged: Dict[int, Finding] = {}
    dropped: Set[int] = set()
    shapes: Dict[int, Tuple[str, List[float]]] = {}

    def shape_of(index: int) -> Tuple[str, List[float]]:
        if index not in shapes:
            shapes[index] = _shape(findings[index])
        return shapes[index]

    for index, (rule, names) in keys.items():
        if index in dropped or index in merged:
            continue
        mirror = _mirrored(names, known)
        if mirror is None:
            continue
        partner = _partner(findings, index, by_key.get((rule, mirror), ()), dropped, merged,
                           shape_of)
        if partner is None:
            continue
        dropped.add(partner)
        merged[index] = _merged(findings[index], findings[partner],
                                _same_numbers(shape_of(index)[1], shape_of(partner)[1]))
    return _merge_copies(_merge_fore_aft(_rebuilt(findings, merged, dropped), known), known)


def _indexed(keys: Dict[int, Tuple[str, FrozenSet[str]]]) \
        -> Dict[Tuple[str, FrozenSet[str]], List[int]]:
    """Return the indices of the findings under each key, in order."""
    by_key: Dict[Tuple[str, FrozenSet[str]], List[int]] = {}
    for index, key in keys.items():
        by_key.setdefault(key, []).append(index)
    return by_key


def _rebuilt(findings: List[Finding], merged: Dict[int, Finding],
             dropped: Set[int]) -> List[Finding]:
    """Return the findings with the merged ones in place and the dropped ones left out."""
    if not merged:
        return findings
    return [merged.get(index, finding) for index, finding in enumerate(findings)
            if index not in dropped]


def _partner(findings: List[Finding], first: int, candidates: Sequence[int],
             dropped: Set[int], merged: Dict[int, Finding],
             shape_of: Callable[[int], Tuple[str, List[float]]]) -> Optional[int]:
    finding = findings[first]
    shape = shape_of(first)[0]
    element = _neutral(finding.element or '')
    for index in candidates:
        if index in dropped or index in merged:
            continue
        other = findings[index]
        if other.severity != finding.severity or bool(other.links) != bool(finding.links):
            continue
        if finding.links and other.link not in (mirror_names(finding.link or '')
                                                or [finding.link]):
            continue  # the same links, but another one overlapping the rest
        if _other(finding) is None and _neutral(other.element or '') != element:
            continue  # (a pair's elements are said in its message, compared there)
        if (other.suggested_inertia is None) != (finding.suggested_inertia is None):
            continue  # a tensor to write on one only: not one fault
        if shape_of(index)[0] == shape:
            return index
    return None


def _merged(first: Finding, second: Finding, same: bool) -> Finding:
    """Return the finding of both (``same``: their numbers are equal up to sign)."""
    mirror = second.link or ''
    other = _other(second)
    if second.links:  # one link overlapping several: its mirror over their mirrors
        what = f"its mirror link '{mirror}'"
        fix = f'likewise for {what}: ' + ' '.join(
            match.group(0) for match in _ENTRY.finditer(second.suggestion))
        values = dict(second.values)
        extra = ((MIRROR_KEY, mirror), (MIRROR_LINKS_KEY, ', '.join(second.links[1:])),
                 ('mirror_depths_mm', values.get('depths_mm', '')),
                 ('mirror_points_in_link', values.get('points_in_link', '')))
        depth = _DEPTH.search(second.message)
        message = f'{first.message}; {what} intersects their mirrors too' + (
            f', the deepest {depth.group(0)}' if depth is not None else '')
    elif other is not None:  # a pair of links: the mirror pair, and its own entries
        what = f"the mirror pair '{mirror}' and '{other}'"
        entries = ' and '.join(match.group(0) for match in _ENTRY.finditer(second.suggestion))
        fix = f'likewise for {what}' + (f': {entries}' if entries else '')
        extra: Tuple[Tuple[str, str], ...] = ((MIRROR_KEY, mirror), (MIRROR_OTHER_KEY, other))
        extra += tuple((f'mirror_{key}', value) for key, value in second.values
                       if key in ('depth_mm', 'point_in_link'))
        depth = _DEPTH.search(second.message)
        # Where the two pairs touch differs with each side's frame: the depth says enough.
        message = f'{first.message}; {what} overlaps too' + (
            f', {depth.group(0)}' if depth is not None else '')
    else:
        what = f"its mirror link '{mirror}'"
        fix = f'likewise (mirrored) on {mirror!r}'
        extra = ((MIRROR_KEY, mirror),)
        if same:
            message = f'{first.message}; {what} has the same'
        else:  # one choice, with numbers of its own on each side: both are said
            message = f'{first.message}; {what} has the same fault: ' + \
                second.message.split('; ')[0]
            if second.suggestion:
                fix = f'on {mirror!r}: {second.suggestion}'
    fixes = tuple((finding.link, finding.suggested_inertia) for finding in (first, second)
                  if finding.link and finding.suggested_inertia is not None)
    # A pair's links stay unlisted (a listing overlap finding is one link's envelope over
    # several), and an envelope's list its own.
    return _joined(first, message, fix, extra,
                   first.links if first.links else (first.link or '', mirror) if other is None
                   else (), fixes)


def _joined(first: Finding, message: str, fix: str, extra: Tuple[Tuple[str, str], ...],
            links: Tuple[str, ...], fixes: tuple) -> Finding:
    """Return ``first`` saying ``message``, with ``fix`` after its own and ``extra`` values."""
    return Finding(
        rule=first.rule, severity=first.severity, message=message, link=first.link,
        element=first.element, line=first.line,
        suggestion=f'{first.suggestion}; {fix}' if first.suggestion else '',
        values=first.values + extra, suggested_inertia=first.suggested_inertia,
        file=first.file, macro_stack=first.macro_stack, value_source=first.value_source,
        links=links, links_suggested_inertia=fixes)  # type: ignore[arg-type]


def _fore_aft_key(finding: Finding) -> Optional[FrozenSet[str]]:
    """
    Return the links of a finding a fore-aft counterpart may share, else None.

    A link or a pair of links, merged with its mirror or without one (a car's front and
    rear virtual wheels); not an envelope, nor a finding grouped otherwise.
    """
    if not finding.link or _value(finding, MIRROR_LINKS_KEY) or _value(finding, FORE_AFT_KEY):
        return None
    mirror = mirror_of(finding)
    other = _other(finding)
    if mirror is None:
        if finding.links:
            return None
        return frozenset((finding.link, other) if other else (finding.link,))
    if other is None:
        return frozenset(finding.links)
    return frozenset((finding.link, other, mirror, _value(finding, MIRROR_OTHER_KEY) or ''))


def _merge_fore_aft(findings: List[Finding], known: Set[str]) -> List[Finding]:
    """Return the findings with each merged mirror finding and its fore-aft one made one."""
    keys = {index: (finding.rule, key) for index, finding in enumerate(findings)
            for key in (_fore_aft_key(finding),) if key is not None}
    if len(keys) < 2:
        return findings
    by_key = _indexed(keys)
    merged: Dict[int, Finding] = {}
    dropped: Set[int] = set()
    for index, (rule, names) in keys.items():
        if index in dropped or index in merged:
            continue
        counterpart = _mirrored(names, known, fore_aft_names)
        if counterpart is None:
            continue
        first = findings[index]
        shape = _shape(first, fore_aft=True)
        element = _neutral(_FORE_AFT.sub('^', first.element or ''))
        for other in by_key.get((rule, counterpart), ()):
            second = findings[other]
            if other in dropped or other in merged or second.severity != first.severity or \
                    (second.suggested_inertia is None) != (first.suggested_inertia is None) or \
                    (mirror_of(second) is None) != (mirror_of(first) is None):
                continue
            if _other(first) is None and \
                    _neutral(_FORE_AFT.sub('^', second.element or '')) != element:
                continue
            theirs = _shape(second, fore_aft=True)
            if theirs[0] != shape[0]:
                continue
            dropped.add(other)
            merged[index] = _merged_fore_aft(first, second, _same_numbers(shape[1], theirs[1]))
            break
    return _rebuilt(findings, merged, dropped)


def _merged_fore_aft(first: Finding, second: Finding, same: bool) -> Finding:
    """Return the finding of a front link or pair and its rear one (merged with mirrors or not)."""
    values = dict(second.values)
    mirror = values.get(MIRROR_KEY)
    rear = (second.link or '',) + ((mirror,) if mirror else ())
    other = _other(second)
    if other is not None:  # pairs of links: the other pairs, and their entries
        others = (other,) + ((values.get(MIRROR_OTHER_KEY, ''),) if mirror else ())
        what = ('the fore-aft pairs ' if mirror else 'the fore-aft pair ') + ', '.join(
            f"'{link}' and '{partner}'" for link, partner in zip(rear, others))
        entries = ' and '.join(match.group(0) for match in _ENTRY.finditer(second.suggestion))
        fix = f'likewise for {what}' + (f': {entries}' if entries else '')
        depth = _DEPTH.search(second.message)
        message = f'{first.message}; {what} overlap{"" if mirror else "s"} too' + (
            f', {depth.group(0)}' if depth is not None else '')
        depths = (values.get('depth_mm', ''),) + \
            ((values.get('mirror_depth_mm', ''),) if mirror else ())
        points = (values.get('point_in_link', ''),) + \
            ((values.get('mirror_point_in_link', ''),) if mirror else ())
        extra: Tuple[Tuple[str, str], ...] = (
            (FORE_AFT_KEY, ', '.join(rear)), (FORE_AFT_OTHER_KEY, ', '.join(others)),
            ('fore_aft_depths_mm', ' '.join(depths)),
            ('fore_aft_points_in_link', ';'.join(points)))
        links: Tuple[str, ...] = ()
    else:
        names = ' and '.join(repr(name) for name in rear)
        what = f'its fore-aft counterpart{"s" if mirror else ""} {names}'
        have = 'have' if mirror else 'has'
        if same:
            message = f'{first.message}; {what} {have} the same'
            fix = f'likewise on {names}'
        else:  # one choice, with numbers of their own: theirs are said too
            message = f'{first.message}; {what} {have} the same fault: ' + \
                second.message.split('; ')[0]
            fix = f'on {names}: ' + second.suggestion.split('; ')[0] \
                if second.suggestion else f'likewise on {names}'
        extra = ((FORE_AFT_KEY, ', '.join(rear)),)
        links = first.links + tuple(name for name in second.links if name not in first.links) \
            if mirror else (first.link or '', second.link or '')
    fixes = first.links_suggested_inertia + second.links_suggested_inertia if mirror else \
        tuple((finding.link, finding.suggested_inertia) for finding in (first, second)
              if finding.link and finding.suggested_inertia is not None)
    return _joined(first, message, fix, extra, links, fixes)


def _numbered(known: Set[str]) -> Dict[Tuple[str, str], List[str]]:
    """Return, for each name's digit run, (the text before it, after it) -> the runs seen."""
    index: Dict[Tuple[str, str], List[str]] = {}
    for name in known:
        for match in _DIGITS.finditer(name):
            index.setdefault((name[:match.start()], name[match.end():]), []).append(
                match.group(0))
    return index


def _renumbered(name: str, prefix: str, old: str, new: str) -> Optional[str]:
    """Return a name with the run after ``prefix`` renumbered, itself if none, None if other."""
    if not name.startswith(prefix):
        return name
    run = _DIGITS.match(name, len(prefix))
    if run is None:
        return name
    if run.group(0) != old:
        return None  # the same place, another number: not the same instance
    return name[:len(prefix)] + new + name[run.end():]


def _copies(pair: Tuple[str, str], known: Set[str],
            index: Dict[Tuple[str, str], List[str]]) -> List[Tuple[str, str]]:
    """
    Return the numbered copies of a pair of links: one instance number changed in both.

    ``panda_1_link1`` and ``panda_1_link3`` (one arm macro called with ``panda_1_`` and
    ``panda_2_``): with the number after ``panda_`` made 2 in every name that has one,
    ``panda_2_link1`` and ``panda_2_link3`` are a copy, and ``base`` and ``panda_2_link1`` of
    ``base`` and ``panda_1_link1``. A name with another number there is no copy: ``link1``
    and ``link3`` of one arm are not one of ``link5`` and ``link7``.
    """
    found: List[Tuple[str, str]] = []
    for name in pair:
        for match in _DIGITS.finditer(name):
            prefix, old = name[:match.start()], match.group(0)
            # Another number at this place in either name: no copy for any new number (a
            # chain's link_3 and link_7 against each of its thousands of numbers).
            if any(_renumbered(each, prefix, old, old) is None for each in pair):
                continue
            for new in index.get((prefix, name[match.end():]), ()):
                if new == old:
                    continue
                copy = tuple(_renumbered(each, prefix, old, new) for each in pair)
                if None in copy or copy == pair or \
                        not all(each in known for each in copy) or copy in found:
                    continue
                found.append(copy)  # type: ignore[arg-type]
    return sorted(found)


def numbered_forms(pairs: Sequence[Tuple[str, str]]) -> Dict[str, List[Tuple[str, str]]]:
    """
    Return a group of pairs of links with an instance number blanked, for each such number.

    NVIDIA's Kaya: wheel 0's ``axle_0`` over ``roller_0_0_0`` to ``roller_0_1_4`` and its
    rollers over each other; with its 0 blanked, wheel 1's pairs with their 1 blanked are
    the same, so one is a numbered copy of the other. Names alike but for their numbers
    (``roller_#_#_#``) carry the instance number at one place, the first where all of them
    carry it (``roller_0_1_0``: the first 0); a name without the number (a base the copies
    share) stays as it is. The numbers tried are those of the first pair's names (the first
    :data:`MAX_MARKS`).

    :param pairs: the pairs of one group, in its order
    :return: number -> the pairs with it blanked (NUL, in no XML name), in the same order;
        only numbers that every name alike carries at one place, and some name does
    """
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    runs = {name: list(_DIGITS.finditer(name)) for name in names}
    alike: Dict[Tuple[str, ...], List[str]] = {}
    for name in names:
        alike.setdefault(tuple(_DIGITS.split(name)), []).append(name)
    # (at most MAX_MARKS: a hostile name's thousand numbers are not each tried)
    values = list(dict.fromkeys(match.group(0) for name in pairs[0]
                                for match in runs[name]))[:MAX_MARKS] if pairs else []
    forms: Dict[str, List[Tuple[str, str]]] = {}
    for value in values:
        blanked: Dict[str, str] = {}
        for members in alike.values():
            places = [place for place in range(len(runs[members[0]]))
                      if all(runs[name][place].group(0) == value for name in members)]
            if places:
                for name in members:
                    run = runs[name][places[0]]
                    blanked[name] = name[:run.start()] + '\0' + name[run.end():]
            elif any(run.group(0) == value for name in members for run in runs[name]):
                break  # the number at other places in names alike: no instance number
            else:
                blanked.update((name, name) for name in members)
        else:
            if any(blanked[name] != name for name in names):
                forms[value] = [(blanked[first], blanked[second]) for first, second in pairs]
    return forms


def _number_forms(pair: Tuple[str, str]) -> List[Tuple[str, str]]:
    """
    Return the pair with a number both names carry blanked in both, once per such number.

    Bullet's Vision 60: ``hip0`` and ``toe0``, a leg's parts numbered after their names
    (``hip#``, ``toe#``), where panda's arms carry theirs in a shared prefix (:func:`_copies`).
    The forms are sorted, so that a copy found in the other order has the same form.
    """
    first, second = pair
    forms = []
    for one in _DIGITS.finditer(first):
        for other in _DIGITS.finditer(second):
            if one.group(0) == other.group(0):
                forms.append(tuple(sorted((  # (NUL: in no XML name)
                    first[:one.start()] + '\0' + first[one.end():],
                    second[:other.start()] + '\0' + second[other.end():]))))
    return forms  # type: ignore[return-value]


def _merge_copies(findings: List[Finding], known: Set[str]) -> List[Finding]:
    """
    Return the findings with the pair findings of numbered copies made one.

    Two arms from one macro (franka's dual_panda_example: ``panda_1_`` and ``panda_2_``)
    overlap at rest the same way: the same rule, severity and message once names and
    numbers are set aside, and the same numbers (the depths, within :data:`TOLERANCE`).
    Only pairs merged with nothing else (no mirror, no fore-aft counterpart).
    """
    keys = {}
    for index, finding in enumerate(findings):
        other = _other(finding)
        if finding.link and other and not finding.links and mirror_of(finding) is None \
                and not _value(finding, FORE_AFT_KEY) and \
                (_DIGITS.search(finding.link) or _DIGITS.search(other)):
            keys[(finding.rule, finding.link, other)] = index
    if len(keys) < 2:
        return findings
    numbered = _numbered(known)
    forms = {index: [(rule,) + form for form in _number_forms((link, other))]
             for (rule, link, other), index in keys.items()}
    by_form: Dict[Tuple[str, ...], List[int]] = {}
    for index, keyed in forms.items():
        for form in keyed:
            by_form.setdefault(form, []).append(index)
    merged: Dict[int, Finding] = {}
    dropped: Set[int] = set()
    for (rule, link, other), index in keys.items():
        if index in dropped:
            continue
        first = findings[index]
        shape = _shape(first)
        copies = []
        candidates = [keys.get((rule, name, partner), keys.get((rule, partner, name)))
                      for name, partner in _copies((link, other), known, numbered)]
        candidates += [theirs for form in forms[index] for theirs in by_form[form]]
        for theirs in dict.fromkeys(candidates):
            if theirs is None or theirs in dropped or theirs == index or theirs in merged:
                continue
            second = findings[theirs]
            their_shape = _shape(second)
            if second.severity != first.severity or their_shape[0] != shape[0] or \
                    not _same_numbers(shape[1], their_shape[1]):
                continue
            copies.append(second)
            dropped.add(theirs)
        if copies:
            merged[index] = _merged_copies(first, copies)
    return _rebuilt(findings, merged, dropped)


def _merged_copies(first: Finding, copies: List[Finding]) -> Finding:
    """Return a pair finding naming its numbered copies, with their SRDF or MJCF entries."""
    names = [(copy.link or '', _other(copy) or '') for copy in copies]
    what = ('the copy pair ' if len(copies) == 1 else 'the copy pairs ') + ', '.join(
        f"'{link}' and '{partner}'" for link, partner in names)
    own = set(_ENTRY.findall(first.suggestion))  # (links welded to one body: one entry)
    entries = ' and '.join(dict.fromkeys(
        match.group(0) for copy in copies for match in _ENTRY.finditer(copy.suggestion)
        if match.group(0) not in own))
    fix = f'likewise for {what}' + (f': {entries}' if entries else '')
    message = f'{first.message}; {what} (another instance of the same macro or part) ' \
              f'overlap{"s" if len(copies) == 1 else ""} the same way'
    extra = ((COPY_KEY, ', '.join(link for link, _ in names)),
             (COPY_OTHER_KEY, ', '.join(partner for _, partner in names)),
             ('copy_depths_mm', ' '.join(dict(copy.values).get('depth_mm', '')
                                         for copy in copies)),
             ('copy_points_in_link', ';'.join(dict(copy.values).get('point_in_link', '')
                                              for copy in copies)))
    return _joined(first, message, fix, extra, (), ())


def merge_instances(findings: Sequence[Finding]) -> Tuple[Finding, ...]:
    """
    Return the findings with those one macro line makes on several of its calls made one.

    realsense2_description's ``_d435.urdf.xacro`` called for two cameras: the tensor of
    ``camera1_link`` and that of ``camera2_link`` are one line of one macro, with the same
    numbers: one finding, naming both links (``links``, and :data:`INSTANCES_KEY`), whose
    fix there serves both. Only findings about one link, written in a macro, located at the
    same place and equal but for the link's own name; merged after the findings are located
    and after the ignore comments and the baseline are applied, so a comment at one call
    (which silences that call's findings only) means what it meant.
    Mirrors and copies merged before (a finding listing links) stay as they are.
    """
    groups: Dict[tuple, List[int]] = {}
    for index, finding in enumerate(findings):
        link = finding.link
        if not link or finding.links or not finding.macro_stack or not finding.file or \
                not finding.line:
            continue
        key = (finding.rule, finding.severity, finding.file, finding.line, finding.element,
               finding.message.replace(link, '\0'), finding.suggestion.replace(link, '\0'))
        groups.setdefault(key, []).append(index)
    merged: Dict[int, Finding] = {}
    dropped: Set[int] = set()
    for indices in groups.values():
        if len(indices) < 2:
            continue
        first, others = findings[indices[0]], [findings[index] for index in indices[1:]]
        names = tuple(str(other.link) for other in others)
        macro = first.macro_stack[0].name
        listed = ', '.join(f"'{name}'" for name in names)
        message = (f"{first.message}; the same line of macro '{macro}' makes it on "
                   f'{listed} too (another call of the macro)')
        fixes = tuple((finding.link, finding.suggested_inertia) for finding in [first] + others
                      if finding.link and finding.suggested_inertia is not None)
        merged[indices[0]] = _joined(
            first, message, f'one fix there serves its {len(indices)} calls',
            ((INSTANCES_KEY, ', '.join(names)),), (str(first.link),) + names, fixes)
        dropped.update(indices[1:])
    return tuple(merged.get(index, finding) for index, finding in enumerate(findings)
                 if index not in dropped)
