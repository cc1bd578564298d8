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
Say why a xacro expansion failed: one line naming the file, the line and what to do.

Used by :mod:`urdf_link_tools.xacro.child` inside the bounded child process only. Each
function turns what the instrumented xacro left behind (its file stack, the packages
``$(find)`` could not resolve, the arguments given) into the failure the parent reports.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, Iterator, List, Optional, Tuple, TYPE_CHECKING

from urdf_link_tools import read_policy

if TYPE_CHECKING:  # only for the annotations: the child imports this module
    from urdf_link_tools.xacro.child import State


def missing_inputs(state: 'State', stopped: Optional[BaseException] = None) -> Dict[str, Any]:
    """
    Return the failure naming every missing package and argument, and where each is used.

    The packages are those $(find) could not resolve, the arguments those with neither a
    default nor a value given.

    :param state: the expansion's state
    :param stopped: what stopped the expansion early, if it did (then more may be missing)
    """
    missing = list(state.missing.items())[:20]
    undefined = list(state.undefined.items())[:20]
    parts = []
    if len(missing) == 1:
        package, where = missing[0]
        parts.append(f'package {package!r} not found: pass --package-dir {package}=PATH{where}')
    elif missing:
        parts.append('packages not found: '
                     + ', '.join(f'{package!r}{where}' for package, where in missing)
                     + ': pass ' + ' '.join(f'--package-dir {package}=PATH'
                                            for package, _ in missing))
    later = state.declared_later
    if len(undefined) == 1:
        name, where = undefined[0]
        if name in later:
            parts.append(f'xacro argument {name} is used{where} before its <xacro:arg> at '
                         f'{later[name]} declares it (xacro reads in document order): move '
                         f'the declaration above its first use, or give it after the file '
                         f'as {name}:=VALUE')
        else:
            parts.append(f'undefined xacro argument {name}{where}: it has no default; give '
                         f'it after the file as {name}:=VALUE')
    elif undefined:
        parts.append('undefined xacro arguments: '
                     + ', '.join(f'{name}{where}' + (f' (declared only later, at {later[name]})'
                                                     if name in later else '')
                                 for name, where in undefined)
                     + ': they have no default; give them after the file as '
                     + ' '.join(f'{name}:=VALUE' for name, _ in undefined))
    places = {where for _, where in missing}
    elsewhere = [name for name, where in undefined if where not in places]
    if missing and elsewhere:
        # PRBT's gripper:=pg70 without prbt_pg70_support: its tcp_offset_xyz and _rpy are
        # declared in that package's files, and giving them by hand is no fix (sweep U). Not
        # for an argument used where the package is (the include's own file name).
        owners = ' or '.join(repr(package) for package, _ in missing[:3])
        parts[-1] += (f' (unless the files of {owners}, not read, declare '
                      + ('it' if len(undefined) == 1 else
                         'them' if len(elsewhere) == len(undefined) else
                         ', '.join(elsewhere)) + ': give the package first)')
    message = '; '.join(parts)
    if stopped is not None:
        error = re.sub(r"<class '[\w.]+'>: ", '', str(stopped)).strip().splitlines()
        at = here(state)
        them, are = ('it', 'it is') if len(missing) + len(undefined) == 1 \
            else ('them', 'they are')
        python2 = _PYTHON2.search(error[0]) if error else None
        if python2 is not None:
            # Not for want of an argument: heron's sensors.xacro indexes ${map(...)[0]},
            # which Python 3 refuses whatever is given (sweep R)
            word = python2.group(1)
            message += (f'; the expansion also stopped{" at " + at if at else ""} ('
                        f'{error[0][:200].rstrip()}), which no argument causes: a Python 2 '
                        f'expression, {word}(...)[i]; xacro 2 evaluates Python 3, where '
                        f'{word}() gives no list: write list({word}(...))[i]')
        else:
            message += (f'; the expansion stopped{" at " + at if at else ""}'
                        f'{" (" + error[0][:200].rstrip() + ")" if error else ""}, most likely '
                        f'for want of {them}: more may be named once {are} given')
    result = failed('package' if missing else 'argument', message)
    if missing:
        packages = [package[:200] for package, _ in missing]
        result['package'] = packages[0]
        result['packages'] = packages
    return result


#: what Python 3 says of a Python 2 expression that indexes map(), filter(), zip() or keys()
_PYTHON2 = re.compile(r"'(map|filter|zip|dict_keys|dict_values|dict_items|range)' object is not "
                      r'subscriptable')

#: the most bytes of a file searched for a later <xacro:arg> (descriptions are far smaller)
DECLARATION_SEARCH_BYTES = 4_000_000


def declaration_after(state: 'State', name: str) -> str:
    """
    Return ``FILE:LINE`` of a ``<xacro:arg name="NAME">`` after the element being read, else ''.

    An argument used before the element that declares it (xArm's ``<robot
    name="xarm$(arg dof)">`` above ``<xacro:arg name="dof" default="7"/>``) is undefined
    where it is used, default or not: said so, rather than "it has no default". Only the
    file being read is searched, a file xacro was allowed to read.
    """
    source = state.tracer.source()
    if source is None or not state.allowed(source[0]):
        return ''
    path, line = source
    try:
        with open(path, 'rb') as stream:
            text = stream.read(DECLARATION_SEARCH_BYTES).decode('utf-8', 'replace')
    except OSError:
        return ''
    pattern = re.compile(r'<xacro:arg\b[^>]*?\bname\s*=\s*(["\'])' + re.escape(name) + r'\1')
    for match in pattern.finditer(text):
        found = text.count('\n', 0, match.start()) + 1
        if found > line:
            return f'{path}:{found}'
    return ''


def failed(kind: str, message: str) -> Dict[str, Any]:
    """Return the child's result for a failure of this kind (the message bounded)."""
    return {'ok': False, 'kind': kind, 'error': message[:4000]}


def place(state: 'State') -> Optional[List[Any]]:
    """Return [FILE, LINE] of the element xacro was processing, None when not known."""
    source = state.tracer.source()
    return [str(source[0]), int(source[1])] if source is not None else None


def here(state: 'State') -> str:
    """Return ``FILE:LINE`` of the element xacro was processing, else ''."""
    source = state.tracer.source()
    return f'{source[0]}:{source[1]}' if source is not None else ''


def location(state: 'State') -> str:
    """
    Return where xacro is, as `` (in FILE:LINE, included from ..., in macro ...)``, else ''.

    The line is the element xacro was processing (traced xacro only): for an element a macro
    made, the macro body's line, with the line of each call.
    """
    import xacro
    files = [name for name in (xacro.filestack or []) if name]
    source = state.tracer.source()
    calls = getattr(state.tracer.here, '_ult_stack', None) if source is not None else None
    parts = []
    if source is not None and source[0] not in files:
        parts.append(f'at {source[0]}:{source[1]}')
    if files and not os.path.isfile(files[-1]):
        # An include that fails has pushed the file it misses: the place is the file that
        # includes it (EZGripper's standalone file was said to fail "in" the missing one).
        files = files[:-1]
    if files:
        shown = list(files)
        if source is not None and source[0] in files:
            # the innermost occurrence: an include that fails has pushed the file it misses
            index = len(files) - 1 - files[::-1].index(source[0])
            shown[index] += f':{source[1]}'
        # The whole chain, as xacro's own "included from:" lines: an include that fails
        # names the missing file last, so the file that included it is the one to fix.
        chain = ''.join(f', included from {name}' for name in reversed(shown[-6:-1]))
        parts.append(f'in {shown[-1]}{chain}')
        if len(files) > 6:
            parts[-1] += f', and {len(files) - 6} more'
    if calls:
        parts.append('in macro ' + ' <- '.join(f'{name} called at {file}:{line}'
                                               for name, file, line in calls[:6]))
    else:
        macros = [macro.body.getAttribute('name') for macro in (xacro.macrostack or [])
                  if getattr(macro, 'body', None) is not None]
        if macros:
            parts.append('in macro ' + ' <- '.join(reversed(macros)))
    return ' (' + ', '.join(parts) + ')' if parts else ''


#: xacro tags ROS 1 also took without the prefix, each with the attribute it cannot lack
LEGACY_TAGS = {'macro': 'name', 'property': 'name', 'include': 'filename', 'arg': 'name',
               'insert_block': 'name', 'if': 'value', 'unless': 'value'}


def legacy_tags(document: Any, filename: str) -> List[Tuple[Any, str, int]]:
    """
    Return the pre-ROS 2 xacro tags of a parsed file: ``(element, file, line)``, at most 20.

    ``<macro name=...>`` and its kin without the ``xacro:`` prefix were expanded by ROS 1's
    xacro; xacro 2 leaves them as they are, and the failure comes later (a ``${name}`` of the
    macro body evaluated as text: HSR's "name 'joint' is not defined").
    """
    found: List[Tuple[Any, str, int]] = []
    pending = [document.documentElement]
    while pending and len(found) < 20:
        node = pending.pop()
        if LEGACY_TAGS.get(node.tagName) and node.hasAttribute(LEGACY_TAGS[node.tagName]):
            source = getattr(node, '_ult_src', (filename, 0))
            found.append((node, source[0], source[1]))
        pending.extend(reversed([child for child in node.childNodes
                                 if child.nodeType == child.ELEMENT_NODE]))
    return found


def _legacy_hint(state: 'State', message: str, unknown: Optional[str]) -> Tuple[str, str]:
    """
    Return the message with which un-prefixed tag to fix, first when it is the likely cause.

    The tag around the failing element, else the first. It leads when the failure is in it,
    when a name is undefined (a macro body read as text) or when the unknown macro is one
    of them; otherwise the real error leads and the tag follows as a note (Robotnik's
    sensors: an unused ``<insert_block>`` in one file, a renamed macro the cause).

    :param unknown: the macro xacro did not know, when that was the failure
    """
    if not state.legacy:
        return message, ''
    chosen = state.legacy[0]
    inside = False
    node = state.tracer.here
    while node is not None and getattr(node, 'tagName', None) is not None:
        around = [item for item in state.legacy if item[0] is node
                  or getattr(item[0], '_ult_src', None) == getattr(node, '_ult_src', 0)]
        if around:
            chosen, inside = around[0], True
            break
        node = node.parentNode
    element, file, line = chosen
    others = [item for item in state.legacy if item is not chosen]
    kinds = ', '.join(sorted({f'<{item[0].tagName}>' for item in others}))
    also = f' (and {len(others)}{"+" if len(others) >= 19 else ""} more: {kinds})' \
        if others else ''
    hint = (f'{file}{":" + str(line) if line else ""}: <{element.tagName}> without the xacro: '
            f'prefix: xacro 2 (ROS 2) expands only xacro:-prefixed tags: write '
            f'<xacro:{element.tagName} ...>{also}')
    unprefixed = unknown is not None and any(
        item[0].tagName == 'macro' and item[0].getAttribute('name') == unknown
        for item in state.legacy)
    if inside or unprefixed or 'is not defined' in message:
        return f'{hint}; xacro then said: {message}', ''
    return message, f'; note: {hint}'


_MACRO_DEFINED = re.compile(r'<xacro:macro\b[^>]*?\bname\s*=\s*["\']([^"\']+)["\']')


def _unknown_macro_hint(state: 'State', name: str) -> str:
    """Say where a macro called before its definition is defined, or the closest names."""
    import difflib
    import xacro
    defined: Dict[str, Tuple[str, int]] = {}
    for file in dict.fromkeys([state.input] + list(xacro.filestack or ())
                              + list(xacro.all_includes or ())):
        for text in texts(state, [file]):
            for match in _MACRO_DEFINED.finditer(text):
                line = text.count('\n', 0, match.start()) + 1
                defined.setdefault(match.group(1), (file, line))
    if name in defined:
        file, line = defined[name]
        source = state.tracer.source()
        where = f'at line {line}' if source is not None and source[0] == file \
            else f'at {file}:{line}'
        namespace = _include_namespace(state, file)
        if namespace is not None:
            # (its macros are m.part, not part: the include is not what is late)
            return (f': it is defined {where}, in a file included with ns="{namespace}": '
                    f'call it <xacro:{namespace}.{name} ...>, or include the file without ns')
        return (f': it is defined later, {where}: xacro 2 expands in order, so move the '
                'definition (or its <xacro:include>) above the first call')
    close = difflib.get_close_matches(name, sorted(defined), n=1, cutoff=0.75)
    return (f': no <xacro:macro name="{name}"> in the files read'
            + (f' (did you mean {close[0]}?)' if close else ''))


_INCLUDE = re.compile(r'<xacro:include\b([^>]*)>')
_ATTRIBUTE = re.compile(r'\b(filename|ns)\s*=\s*("[^"]*"|\'[^\']*\')')


def _include_namespace(state: 'State', file: str) -> Optional[str]:
    """Return the ns="..." of an include of this file (by its name) in the files read."""
    import xacro
    name = os.path.basename(file)
    for text in texts(state, list(dict.fromkeys([state.input] + list(xacro.all_includes or ())))):
        for match in _INCLUDE.finditer(text):
            values = {key: value[1:-1] for key, value in _ATTRIBUTE.findall(match.group(1))}
            if values.get('ns') and os.path.basename(values.get('filename', '')) == name:
                return values['ns']
    return None


_CONDITION = re.compile(r'<xacro:(if|unless)\b([^>]*?)(/?)>|</xacro:(?:if|unless)\s*>')
_CONDITION_VALUE = re.compile(r'\bvalue\s*=\s*("[^"]*"|\'[^\']*\')')
_PROPERTY_DEFINED = re.compile(r'<xacro:property\b[^>]*?\bname\s*=\s*["\']([^"\']+)["\']')
_ARG_DEFAULT = re.compile(r'<xacro:arg\b([^>]*)>')


def _conditions(text: str, position: int) -> List[Tuple[str, str, int]]:
    """Return the open <xacro:if>/<xacro:unless> around a position: (tag, value, line)."""
    stack: List[Tuple[str, str, int]] = []
    for match in _CONDITION.finditer(text, 0, position):
        if match.group(1) is None:
            if stack:
                stack.pop()
        elif not match.group(3):
            value = _CONDITION_VALUE.search(match.group(2))
            stack.append((match.group(1), value.group(1)[1:-1] if value else '',
                          text.count('\n', 0, match.start()) + 1))
    return stack


def undefined_name_hint(state: 'State', name: str) -> str:
    """
    Say where a name xacro did not know is defined, and under which conditions.

    Reachy 2's arm defines ``arm_offset_roll`` only inside ``<xacro:if value="${robot_model
    == 'beta'}">`` and its 'dvt' twin, and ``robot_model`` defaults to "none": the hint names
    the conditions and the argument to give. A name defined nowhere gets the closest one.
    """
    import difflib
    import xacro
    from urdf_link_tools.xacro.evaluator import SAFE_BUILTIN_NAMES
    if name in SAFE_BUILTIN_NAMES:
        return (f': xacro gives {name}() to expressions only as python.{name}() (write '
                f'${{python.{name}(...)}})')
    defined: List[str] = []
    guarded: List[Tuple[str, int, str, str]] = []
    arguments: Dict[str, str] = {}
    for file in dict.fromkeys([state.input] + list(xacro.filestack or ())
                              + list(xacro.all_includes or ())):
        for text in texts(state, [file]):
            for match in _ARG_DEFAULT.finditer(text):
                attributes = dict(re.findall(r'(\w+)\s*=\s*["\']([^"\']*)["\']',
                                             match.group(1)))
                if 'name' in attributes:
                    arguments.setdefault(attributes['name'], attributes.get('default', ''))
            for match in _PROPERTY_DEFINED.finditer(text):
                defined.append(match.group(1))
                if match.group(1) == name and len(guarded) < 3:  # (each a scan: bounded)
                    for tag, value, line in _conditions(text, match.start())[-1:]:
                        guarded.append((file, line, tag, value))
    if guarded:
        places = '; '.join(f'{file}:{line} <xacro:{tag} value="{value}">'
                           for file, line, tag, value in guarded[:3])
        words = {word for *_, value in guarded
                 for word in re.findall(r'[A-Za-z_]\w*', value)}
        context = getattr(xacro, 'substitution_args_context', None)
        values = context.get('arg') if isinstance(context, dict) else None
        if isinstance(values, dict):  # the values given, else the defaults
            arguments.update({str(key): str(value) for key, value in values.items()
                              if str(key) in arguments})
        given = [word for word in arguments if word in words][:3]
        literals = list(dict.fromkeys(literal for *_, value in guarded
                                      for literal in re.findall(r"'([^']*)'", value)))[:4]
        advice = ''
        if given:
            options = (f' (the conditions compare {"it" if len(given) == 1 else "them"} with '
                       + ', '.join(f"'{literal}'" for literal in literals) + ')') \
                if literals else ''
            advice = ('; ' + ', '.join(f'the argument {word} is "{arguments[word]}"'
                                       for word in given)
                      + f': give {"it" if len(given) == 1 else "them"} after the file as '
                      + ' '.join(f'{word}:=VALUE' for word in given) + options)
        which = 'a condition' if len(guarded) == 1 else 'conditions'
        return f': it is defined only under {which} that did not hold ({places}){advice}'

    if name not in defined:
        close = difflib.get_close_matches(name, sorted(set(defined)), n=1, cutoff=0.8)
        if close:
            return f' (did you mean the property {close[0]}?)'
    return ''


def empty_arguments_hint(state: 'State', value: str) -> str:
    """
    Name the empty arguments the element being processed uses, as how to give them.

    An ``<xacro:arg>`` whose default is empty and that is not given (motoman's
    ``joint_velocities_file``) reaches ``xacro.load_yaml`` as an empty name.
    """
    import xacro
    context = getattr(xacro, 'substitution_args_context', None)
    values = context.get('arg') if isinstance(context, dict) else None
    if not isinstance(values, dict):
        return ''
    empty = [str(name) for name, given in values.items() if given == '']
    node = state.tracer.here
    attributes = getattr(node, 'attributes', None)
    words = set()
    if attributes is not None:
        for _, text in attributes.items():
            words.update(re.findall(r'[A-Za-z_][\w]*', text))
    named = [name for name in empty if name in words][:6] or (empty if len(empty) == 1 else [])
    if not named and empty:
        # Reached through a macro parameter or a property (ur_description's ur.xacro:
        # joint_limit_params and three more, each empty by default): the candidates.
        return (f' (the arguments {", ".join(empty[:6])}'
                + (f' and {len(empty) - 6} more' if len(empty) > 6 else '')
                + f' are empty; one of them probably names it: give it after the file as '
                f'NAME:={value})')
    if not named:
        return ''
    return (f' (the argument{"s" if len(named) > 1 else ""} {", ".join(named)} '
            f'{"are" if len(named) > 1 else "is"} empty: give '
            f'{"them" if len(named) > 1 else "it"} after the file as '
            + ' '.join(f'{name}:={value}' for name in named) + ')')


#: ${name} and $(arg name) in an include's filename
_NAMED_IN_PATH = re.compile(r'\$\{\s*([A-Za-z_][\w]*)|\$\(arg\s+([^)\s]+)\s*\)')
_INCLUDE_FILENAME = re.compile(r'<xacro:include\b[^>]*?\bfilename\s*=\s*("[^"]*"|\'[^\']*\')')


_ARG_DECLARED = re.compile(r'<[\w.-]*:?arg\b[^>]*?\bname\s*=\s*("[^"]*"|\'[^\']*\')')
_ARG_USED = re.compile(r'\$\(arg\s+([^)\s]+)\s*\)')


def texts(state: 'State', names: List[str]) -> Iterator[str]:
    """Yield the text of each file xacro read (once each, bounded; unreadable ones skipped)."""
    for name in dict.fromkeys(name for name in names if name):
        try:
            with open(name, 'rb') as stream:
                yield stream.read(state.max_bytes).decode('utf-8', 'replace')
        except OSError:
            continue


def unknown_arguments(state: 'State', given: List[str]) -> str:
    """
    Name the command-line arguments that no file read so far declares or uses, else ''.

    xacro takes any name:=value and ignores one nothing reads: a misspelt ``ur_typ:=ur5e``
    leaves ``ur_type`` at its default without a word. The closest declared names are given.
    """
    import difflib
    import xacro
    given = [name for name in given if not name.startswith('_')]
    if not given:
        return ''
    known = set()
    for text in texts(state, [state.input] + list(xacro.filestack or ())
                      + list(xacro.all_includes or ())):
        known.update(match[1:-1] for match in _ARG_DECLARED.findall(text))
        known.update(_ARG_USED.findall(text))
    unknown = [name for name in given if name not in known]
    if not unknown or not known:
        return ''
    parts = []
    for name in unknown[:6]:
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
        parts.append(f'{name}' + (f' (did you mean {close[0]}?)' if close else ''))
    many = len(unknown) > 1
    return (f'the argument{"s" if many else ""} {", ".join(parts)} given on the command line '
            f'{"are" if many else "is"} declared by no <xacro:arg> and used by no $(arg) in '
            f'the files read: {"they have" if many else "it has"} no effect')


def missing_file_hint(state: 'State') -> str:
    """
    Say what most likely built the path of a file that was not found.

    An argument left empty (``<xacro:arg name="dof" default=""/>``) builds an include path
    that does not exist (``arms/gen3/${dof}dof/...``): named when an ``<xacro:include>``
    filename of the files read so far uses it. Otherwise, a path under a package that ``$(find)``
    resolved names that package and where it was found (a ``--package-dir`` pointing at the
    wrong directory, or a file the package does not have).
    """
    import xacro
    files = [name for name in (xacro.filestack or []) if name]
    missing = files[-1] if files else ''
    context = getattr(xacro, 'substitution_args_context', None)
    values = context.get('arg') if isinstance(context, dict) else None
    empty = sorted(str(name) for name, value in values.items()
                   if value == '') if isinstance(values, dict) else []
    if empty:
        # The failing include may sit in a macro defined in any file read so far (Kinova's
        # load_robot, in kortex_robot.xacro, expanded from gen3.xacro).
        used = set()
        for text in texts(state, files[:-1] + list(xacro.all_includes or ())):
            for spec in _INCLUDE_FILENAME.findall(text):
                used.update(word for pair in _NAMED_IN_PATH.findall(spec) for word in pair
                            if word)
        named = [name for name in empty if name in used][:6]
        if named:
            return (f' (empty <xacro:arg>: {", ".join(named)}; a path built from an empty '
                    f'argument does not exist: give it after the file as {named[0]}:=VALUE)')
    for package, root in state.found.items():
        real = os.path.realpath(root)
        if missing and read_policy.inside(os.path.realpath(missing), real):
            if not os.path.isdir(real):
                where = f'{root}, which does not exist'
            elif not os.path.isfile(os.path.join(real, 'package.xml')):
                where = f'{root}, which holds no package.xml'
            else:
                relative = os.path.relpath(os.path.realpath(missing), real)
                return (f' (package {package} is {root}, and it has no {relative}'
                        + _near_name(missing, real) + ')')
            return (f' ($(find {package}) is {where}: check --package-dir {package}=PATH, '
                    'or the file name)')
    return ''


def _near_name(missing: str, root: str) -> str:
    """
    Name the file of the package a missing include probably meant, or ''.

    Files of the missing one's folder, inside the package only, whose name extends it or is
    close to it (EZGripper's ezgripper_dual.urdf.xacro is there as
    ezgripper_dual.urdf.xacro-call-inside-robot-arm-urdf: sweep Q).
    """
    import difflib
    folder, name = os.path.split(os.path.realpath(missing))
    if not read_policy.inside(folder, root) or not os.path.isdir(folder):
        return ': check the file name'
    try:
        names = sorted(entry.name for _, entry in zip(range(2000), os.scandir(folder))
                       if entry.is_file())
    except OSError:
        return ': check the file name'
    longer = [other for other in names if other.startswith(name) and other != name]
    close = longer[:1] or difflib.get_close_matches(name, names, 1, 0.8)
    if not close:
        return ': check the file name'
    meant = os.path.relpath(os.path.join(folder, close[0]), root)
    return f': did you mean {meant}? That file exists in the package'


def _macro_parameters(macro: Any) -> str:
    """
    Say which macro a call gave a parameter it does not declare, where, and what it takes.

    xacro names it ("when instantiating macro: load_arm (arm_macro.xacro)"); only the
    calling macro was said here (Kinova's load_robot passing gripper to gen3_lite's load_arm).
    """
    try:
        name = macro.body.getAttribute('name')
        history = macro.history[-1] if macro.history else []
        where = f' (defined in {history[-1]})' if history else ''
        params = [str(param) for param in macro.params][:20]
    except Exception:  # (another xacro's macro object: the message as it is)
        return ''
    return (f': macro {name}{where} takes '
            + (', '.join(params) if params else 'no parameters'))


def _yaml_mark(exc: Optional[BaseException]) -> str:
    """
    Say a YAML syntax error with its file and line, '' for another error.

    PyYAML's message spans lines (what, where, what else): only its first was kept, "while
    parsing a flow sequence", naming neither the YAML file nor its line.
    """
    for _ in range(5):  # xacro wraps what an expression raised, and wraps that again
        if getattr(exc, 'problem_mark', None) is not None or getattr(exc, 'exc', None) is None:
            break
        exc = exc.exc  # type: ignore[union-attr]
    mark = getattr(exc, 'problem_mark', None)
    if mark is None or not hasattr(exc, 'problem'):
        return ''
    what = '; '.join(str(part) for part in (getattr(exc, 'context', None),
                                            getattr(exc, 'problem', None)) if part)
    return (f'YAML: {what} (at {getattr(mark, "name", "?")}:{int(mark.line) + 1}, column '
            f'{int(mark.column) + 1})')


def _lookup_failure(cause: BaseException, state: 'State', message: str) -> str:
    """
    Say which lookup of an expression failed, and what it was given.

    xacro gives only the missing key (``${dict(right=1, left=-1)[side]}`` with ``side``
    empty: "xacro: ''", human_hand): the expression is quoted from the element xacro was
    processing, and an empty argument it names is said as how to give it.
    """
    key = cause.args[0] if cause.args else None
    if isinstance(cause, KeyError):
        what = f'a dictionary in an expression has no entry {repr(key)[:80]}'
    else:
        what = 'a list in an expression has no element at that index'
    expression = re.search(r"when evaluating expression '(.{1,120})'", message)
    node = state.tracer.here
    attributes = getattr(node, 'attributes', None)
    if expression is not None:
        what += f' (${{{expression.group(1)}}})'
    elif attributes is not None:
        for name, text in attributes.items():
            if '${' in text and '[' in text:
                what += f' ({name}="{text[:120]}")'
                break
    if key == '':
        what += empty_arguments_hint(state, 'VALUE')
    return what


def xacro_failure(exc: Exception, state: 'State') -> Dict[str, Any]:
    """Return the failure for what xacro raised, with what most likely caused it."""
    cause = getattr(exc, 'exc', None)  # XacroException wraps what the expression raised
    if isinstance(cause, MemoryError):
        return failed('memory', 'xacro needed more memory than allowed' + location(state))
    if isinstance(cause, RecursionError):
        return failed('recursion', 'xacro recursed too deeply' + location(state))
    # xacro words some errors "<class 'x.y.SomeException'>: what": keep the what.
    message = re.sub(r"<class '[\w.]+'>: ", '', str(exc)).strip() or type(exc).__name__
    if cause is not None and str(cause) and message.count(str(cause)) > 1:
        message = message[:message.rfind(str(cause))].strip()
    marked = _yaml_mark(exc)
    if marked:
        message = marked
    first = message.splitlines()[0].strip() if message else ''
    inner = cause
    for _ in range(20):  # a lazy property's expression wraps the one that failed
        if getattr(inner, 'exc', None) is None:
            break
        inner = inner.exc  # type: ignore[union-attr]
    if isinstance(inner, (KeyError, IndexError)) and first in (
            repr(inner.args[0]) if inner.args else '', str(inner), type(inner).__name__):
        message = _lookup_failure(inner, state, message)
    if 'Unknown substitution command [find-pkg-share' in message:
        message = (message.splitlines()[0].split('. Valid commands')[0].rstrip('.')
                   + ': $(find-pkg-share NAME) is a launch substitution, which xacro does not '
                   'have: write $(find NAME)')
    if 'environment variable' in message and 'is not set' in message:
        message += ' (xacro sees only the variables named with --xacro-env)'
    invalid = re.match(r'Invalid parameter "([^"]{1,200})"', message)
    if invalid is not None and getattr(exc, 'macros', None):
        message = message.splitlines()[0].rstrip() + _macro_parameters(exc.macros[0])
    # (an argument without a value is not raised: the child collects them, missing_inputs)
    macro = re.match(r'unknown macro name: xacro:(\S+)', message)
    if macro is not None:
        message = message.splitlines()[0].rstrip() + _unknown_macro_hint(state, macro.group(1))
    elif 'No such file' in message or 'xacro:include' in message:
        message += missing_file_hint(state)
    else:
        undefined = re.match(r"name '([A-Za-z_]\w*)' is not defined", message)
        python2 = _PYTHON2.search(message)
        if undefined is not None:
            message = message.splitlines()[0].rstrip() + undefined_name_hint(
                state, undefined.group(1))
        elif python2 is not None:
            word = python2.group(1)
            message = (message.splitlines()[0].rstrip() + f': a Python 2 expression, '
                       f'{word}(...)[i]; xacro 2 evaluates Python 3, where {word}() gives no '
                       f'list: write list({word}(...))[i]')
    message, note = _legacy_hint(state, message, macro.group(1) if macro is not None else None)
    kind = 'refused' if 'refused:' in message or 'outside the directories' in message \
        or 'may never read' in message else 'xacro'
    return failed(kind, message.splitlines()[0].rstrip() + location(state) + note)
