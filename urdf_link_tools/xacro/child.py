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
Expand one xacro file inside the bounded child process, tracing where each element came from.

Run as ``python -m urdf_link_tools.xacro.child LIMITS.json REQUEST.json`` by
:mod:`urdf_link_tools.xacro.sandbox` only. The first thing it does is lower its own resource
limits (address space, CPU seconds, file size, open files, processes), before xacro or any
input is read. Then it instruments the installed xacro without forking it:

- its symbol table and ``safe_eval`` (and ``$(eval ...)``) are replaced by
  :mod:`urdf_link_tools.xacro.evaluator`'s restricted evaluator;
- ``xacro.load_yaml`` and ``<xacro:include>`` may read only under the allowed directories;
  ``$(find NAME)`` resolves the given package directories first, then the ament index
  (``$(find-pkg-share NAME)``, a launch substitution, is refused as xacro refuses it);
- its minidom parser records each element's file and line, macro calls record their call
  chain, and YAML numbers remember their file and line (:mod:`urdf_link_tools.xacro.tracer`),
  so that the expansion can be written with a table from each expanded line to where its
  element was written. A failure of the tracer is this tool's, not the input's: the result
  carries it in ``tool_failures`` and the expansion, untraced.

The result (``result.json`` and ``expanded.urdf``) goes to the request's directory.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from typing import Any, Dict, List, Optional, Set, Tuple
from xml.dom import minidom
import xml.parsers.expat

from urdf_link_tools import read_policy
from urdf_link_tools.xacro import evaluator as xacro_eval
from urdf_link_tools.xacro import failures
from urdf_link_tools.xacro import tracer
from urdf_link_tools.xacro.tracer import YamlFloat, YamlInt

#: xacro versions whose internals the source tracing was written and tested against.
TRACED_VERSIONS = ('2.1.1',)


def set_limits(limits: Dict[str, int]) -> None:
    """Lower this process's resource limits (soft and hard: they cannot be raised again)."""
    cpu = int(limits['cpu_seconds'])
    table = [(resource.RLIMIT_AS, int(limits['memory_bytes'])),
             (resource.RLIMIT_CPU, cpu), (resource.RLIMIT_FSIZE, int(limits['file_bytes'])),
             (resource.RLIMIT_NOFILE, 64), (resource.RLIMIT_CORE, 0)]
    for which, value in table:
        hard = value + 1 if which == resource.RLIMIT_CPU else value
        ceiling = resource.getrlimit(which)[1]
        if ceiling != resource.RLIM_INFINITY:  # already lower: keep what the caller set
            value, hard = min(value, ceiling), min(hard, ceiling)
        resource.setrlimit(which, (value, hard))
    try:  # no new processes; root ignores RLIMIT_NPROC, the rest still hold
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    except (ValueError, OSError):
        pass


#: what $(arg NAME) of an argument without a value reads as, only for the expansion to go on
#: and find the others: '0' is false in <xacro:if>, a number in ${...}, and text in names
ARGUMENT_PLACEHOLDER = '0'

#: the most macro names a result carries (what a call without xacro: is told apart by)
MAX_MACROS = 5000

#: where $(find NAME) of a package that is not found points: a directory that does not exist
#: (nothing under it can be read), only for the expansion to go on and find the others
MISSING_PACKAGE_ROOT = '/nonexistent/urdf-link-tools/missing-package'


class _Unreadable(OSError):
    """The cause xacro looks for in a failed include (its text is said already)."""

    def __str__(self) -> str:
        return ''


class State:
    """What the instrumented xacro functions share during one expansion."""

    def __init__(self, request: Dict[str, Any]) -> None:
        self.input = request['input']
        self.max_bytes = int(request['max_bytes'])
        self.package_dirs: Dict[str, str] = dict(request.get('package_dirs', {}))
        self.ament_prefixes = [p for p in request.get('ament_prefix_path', '').split(':') if p]
        self.roots = [os.path.realpath(path) for path in request.get('roots', [])]
        #: the packages $(find) resolved, by name
        self.found: Dict[str, str] = {}
        #: the packages $(find) could not resolve, each with where it was asked for: the
        #: expansion goes on (the name becomes a directory that does not exist), so that
        #: one run names every package to add, not one a run
        self.missing: Dict[str, str] = {}
        #: macros called but never defined while packages were missing (likely defined in an
        #: include under one of them, skipped): each call is dropped so the expansion goes on
        self.skipped_calls: List[str] = []
        #: the $(arg NAME) without a default and not given, each with where it was first
        #: used: it reads as ARGUMENT_PLACEHOLDER, so that one run names all of them
        self.undefined: Dict[str, str] = {}
        #: of those, the ones a <xacro:arg> declares further down the same file: FILE:LINE
        self.declared_later: Dict[str, str] = {}
        #: pre-ROS 2 tags (<macro>, <property>, <include> without xacro:) in the files read,
        #: as (element, file, line): xacro 2 leaves them as they are
        self.legacy: List[Tuple[Any, str, int]] = []
        self.tracer = tracer.Tracer()
        self.trace = bool(request.get('trace', True))
        #: the include patterns xacro matched, with every name each matched
        self.globs: List[Tuple[str, List[str]]] = []
        #: the names of the macros defined (a call without xacro: is left as it is)
        self.macros: Set[str] = set()
        #: macro -> whether its body writes a <link>, and the macros it calls (the macros
        #: that make links: a call left without xacro: loses them)
        self.macro_bodies: Dict[str, Tuple[bool, Set[str]]] = {}
        #: the variables $(optenv NAME default) found unset here, so gave their default
        self.optenv_defaults: Dict[str, None] = {}

    def allowed(self, path: str) -> bool:
        """Return whether xacro may read a file (:func:`read_policy.read_refusal` decides)."""
        return read_policy.read_refusal(path, self.roots) is None

    def check_file(self, path: str, what: str) -> str:
        """Return the real path of a readable file xacro may open, or raise."""
        import xacro
        reason = read_policy.read_refusal(path, self.roots)
        if reason is not None:
            raise xacro.XacroException(f'{what}: {reason}')
        real = os.path.realpath(path)
        try:
            status = os.stat(real)
        except OSError as exc:
            # Carrying an IOError, as xacro's own parse raises it: <xacro:include
            # optional="true"> of a missing file is then skipped, as in xacro.
            raise xacro.XacroException(f'{what}: {path}: {exc.strerror}',
                                       exc=_Unreadable()) from None
        import stat
        if not stat.S_ISREG(status.st_mode):
            raise xacro.XacroException(f'{what}: {path} is not a regular file')
        if status.st_size > self.max_bytes:
            raise xacro.XacroException(f'{what}: {path} is larger than the description limit')
        return real

    def pending(self) -> bool:
        """Return whether packages or arguments are missing (then they are the error)."""
        return bool(self.missing or self.undefined)

    def skipped_include(self, path: str) -> bool:
        """
        Return whether an include is read as empty, for the expansion to go on.

        A file under a package $(find) could not resolve, and, once an argument has no value,
        an allowed file that does not exist (its path was likely built from the argument).
        """
        if self.missing and os.path.normpath(path).startswith(MISSING_PACKAGE_ROOT + os.sep):
            return True
        return bool(self.undefined) and self.allowed(path) and not os.path.exists(path)

    def find(self, package: str) -> str:
        """Resolve ``$(find NAME)``: only a package name, only given directories and the index."""
        import xacro
        try:
            path = read_policy.find_package(package, self.package_dirs, self.ament_prefixes)
        except ValueError as exc:
            raise xacro.XacroException(f'refused: $(find {package}): {exc}') from None
        if path is None:
            self.missing.setdefault(package, failures.location(self))
            return os.path.join(MISSING_PACKAGE_ROOT, package)
        # A package the robot names is one of the robot's package directories.
        self.roots.append(os.path.realpath(path))
        self.found[package] = path
        return path


def _install_safety(xacro: Any, substitution_args: Any, state: State) -> None:
    original_load_yaml = xacro.load_yaml

    def load_yaml(filename: str) -> Any:
        import yaml
        if not str(filename).strip():  # xacro would read the including file's directory
            raise xacro.XacroException('xacro.load_yaml was given an empty file name'
                                       + failures.empty_arguments_hint(state, 'PATH'))
        path = xacro.abs_filename_spec(filename)
        real = state.check_file(path, 'xacro.load_yaml')

        class OriginLoader(yaml.SafeLoader):
            pass

        def number(kind: type, base: Any) -> Any:
            def construct(loader: Any, node: Any) -> Any:
                value = kind(base(loader, node))
                value.origin = (path, node.start_mark.line + 1)
                return value
            return construct

        OriginLoader.add_constructor('tag:yaml.org,2002:float',
                                     number(YamlFloat, yaml.SafeLoader.construct_yaml_float))
        OriginLoader.add_constructor('tag:yaml.org,2002:int',
                                     number(YamlInt, yaml.SafeLoader.construct_yaml_int))
        for unit in xacro.ConstructUnits:
            OriginLoader.add_constructor(unit.value.tag, unit.constructor)
        xacro.filestack.append(path)
        try:
            with open(real) as stream:
                return xacro.YamlListWrapper.wrap(yaml.load(stream, Loader=OriginLoader))
        finally:
            xacro.filestack.pop()
            xacro.all_includes.append(path)

    load_yaml.__doc__ = original_load_yaml.__doc__
    builtins = xacro_eval.safe_builtins()
    symbols = {name: value for name, value in builtins.items()
               if name in xacro_eval.XACRO_GLOBAL_BUILTINS}
    math_names = xacro_eval.safe_math()
    symbols.update(math_names)
    python = xacro.NameSpace()
    python.update(builtins)
    python.update(xacro_eval.refused_builtins(xacro.XacroException))
    math_ns = xacro.NameSpace()
    math_ns.update(math_names)
    xacro_ns = xacro.NameSpace()
    dict.update(xacro_ns, xacro._global_symbols['xacro'])
    dict.__setitem__(xacro_ns, 'load_yaml', load_yaml)
    symbols.update(python=python, math=math_ns, xacro=xacro_ns, load_yaml=load_yaml,
                   abs_filename=xacro.abs_filename_spec, dotify=xacro.YamlDictWrapper)
    xacro._global_symbols = symbols
    xacro.load_yaml = load_yaml

    def safe_eval(expr: str, globals: Any, locals: Any = None) -> Any:  # noqa: A002
        try:
            return xacro_eval.guarded_eval(expr, globals, locals, state.max_bytes)
        except xacro_eval.UnsafeExpression as exc:
            raise xacro.XacroException(f'refused: {exc}') from None

    xacro.safe_eval = safe_eval

    def dollar_eval(text: str, context: Dict[str, Any]) -> str:
        functions = {'arg': lambda name: substitution_args.convert_value(
            substitution_args._eval_arg(name, args=context.get('arg', {})), 'auto'),
            'env': substitution_args._eval_env, 'optenv': substitution_args._eval_optenv,
            'find': state.find}
        names = dict(builtins)  # $(eval) sees every builtin: xacro evaluates it with no globals
        names.update(symbols)
        names.update(functions)
        return str(safe_eval(text, names,
                             substitution_args._DictWrapper(context.get('arg', {}), functions)))

    original_eval_arg = substitution_args._eval_arg

    def eval_arg(name: str, args: Any) -> Any:
        try:
            return original_eval_arg(name=name, args=args)
        except substitution_args.ArgException:
            if str(name) not in state.undefined:
                state.undefined[str(name)] = failures.location(state)
                later = failures.declaration_after(state, str(name))
                if later:
                    state.declared_later[str(name)] = later
            return ARGUMENT_PLACEHOLDER

    substitution_args._eval_arg = eval_arg
    original_optenv = substitution_args._eval_optenv

    def eval_optenv(name: str, default: str = '') -> str:
        if name not in os.environ and len(state.optenv_defaults) < 100:
            state.optenv_defaults[str(name)[:200]] = None
        return original_optenv(name, default)

    substitution_args._eval_optenv = eval_optenv
    substitution_args._eval = dollar_eval
    substitution_args._eval_find = state.find
    original_eval_text = xacro.eval_text

    def eval_text(text: Any, symbols: Any) -> Any:
        result = original_eval_text(text, symbols)
        if isinstance(result, str) and len(result) > state.max_bytes:
            raise xacro.XacroException('an expression made text larger than the description '
                                       'limit')
        return result

    xacro.eval_text = eval_text
    original_set_attribute = minidom.Element.setAttribute

    def set_attribute(element: Any, name: str, value: Any) -> None:
        # Only <xacro:attribute> sets a value that is not text (xacro's other attributes go
        # through str()): xacro 2.1.1 then writes '' for a false one and stops with a
        # traceback at the end for any other (minidom has no replace() on a float).
        if not isinstance(value, str):
            if value:
                raise xacro.XacroException(
                    f'<xacro:attribute name="{name}"> gives a {type(value).__name__} '
                    f'({str(value)[:40]}), not text: xacro 2.1.1 cannot write it (it stops '
                    'with a traceback); write value="${str(...)}"')
            value = ''
        original_set_attribute(element, name, value)

    minidom.Element.setAttribute = set_attribute

    def parse(inp: Any, filename: Optional[str] = None) -> Any:
        if inp is not None:
            raise xacro.XacroException('only files are expanded here')
        if filename != state.input and state.skipped_include(filename):
            # Nothing is read: the include of a package that is not found is empty, so that
            # the expansion goes on and one run names every package and argument to add.
            return minidom.parseString(b'<robot/>')
        if filename != state.input:
            real = state.check_file(filename, 'xacro:include')
        else:
            real = os.path.realpath(filename)
        with open(real, 'rb') as stream:
            data = stream.read(state.max_bytes + 1)
        if len(data) > state.max_bytes:
            raise xacro.XacroException(f'{filename} is larger than the description limit')
        if state.trace:
            document = tracer.LineBuilder(filename, state.tracer).parseString(data)
        else:
            document = minidom.parseString(data)
        state.legacy.extend(failures.legacy_tags(document, filename))
        return document

    xacro.parse = parse
    original_macro_call = xacro.handle_macro_call

    def handle_macro_call(node: Any, macros: Any, symbols: Any) -> Any:
        try:
            return original_macro_call(node, macros, symbols)
        except xacro.XacroException as exc:
            if not state.pending() or not str(exc).startswith('unknown macro name'):
                raise
        # Most likely a macro of an include that was skipped: the missing packages and
        # arguments are the error reported; the call is dropped to find the others.
        state.skipped_calls.append(node.tagName)
        xacro.replace_node(node, by=None)
        return True

    xacro.handle_macro_call = handle_macro_call
    original_grab_macro = xacro.grab_macro

    def grab_macro(elt: Any, macros: Any) -> Any:
        name = elt.getAttribute('name') if hasattr(elt, 'getAttribute') else ''
        if isinstance(name, str) and name and len(state.macros) < MAX_MACROS:
            name = name[6:] if name.startswith('xacro:') else name
            state.macros.add(name)
            state.macro_bodies[name] = _body_of(elt)
        return original_grab_macro(elt, macros)

    xacro.grab_macro = grab_macro

    class Glob:
        """xacro:include patterns match only files xacro may read (names elsewhere stay unseen)."""

        @staticmethod
        def glob(pattern: str) -> List[str]:
            import glob
            # What the pattern matched, every name (the result cache checks the robot again
            # once a file matching it comes or goes: --cache's glob dependencies).
            pattern = os.path.abspath(pattern)
            matched = glob.glob(pattern)
            state.globs.append((pattern, sorted(matched)))
            return [name for name in matched if state.allowed(name)]

    xacro.glob = Glob


def expand(request: Dict[str, Any], out_dir: str) -> Dict[str, Any]:
    """
    Expand the requested file; write ``expanded.urdf`` and return the result description.

    :param request: input, mappings, package_dirs, roots, max_bytes, ament_prefix_path
    :param out_dir: where to write the expansion
    :return: JSON-ready result
    """
    import xacro
    from xacro import substitution_args
    version = tracer.xacro_version(xacro)
    state = State(request)
    state.trace = state.trace and version in TRACED_VERSIONS
    try:
        _install_safety(xacro, substitution_args, state)
    except (AttributeError, TypeError, KeyError) as exc:
        # Fail closed: a xacro whose evaluator cannot be restricted is not run at all.
        return failures.failed('unsupported', f'xacro {version} cannot be run restricted '
                               f'here ({type(exc).__name__}: {exc}); install xacro 2.1.1')
    if state.trace:
        tracer.install(xacro, state.tracer)
    notes = []
    if version not in TRACED_VERSIONS:
        notes.append(f'xacro {version} is not the version source tracing was tested with '
                     f'({", ".join(TRACED_VERSIONS)}): findings give lines of the expanded '
                     'document (write it with --emit-urdf)')
    xacro.verbosity = 0
    if request.get('cwd'):
        xacro.root_dir = str(request['cwd'])  # what $(cwd) names: the user's directory
    try:
        document = xacro.process_file(state.input, mappings=dict(request.get('mappings', {})))
        elements, text = tracer.write(document)
    except BaseException as exc:
        failure = _failure(state, request, exc)
        if failure is None:
            raise
        # Where: for a CI annotation on the line (GitHub, SARIF), not only in the text.
        failure.setdefault('place', failures.place(state))
        failure['optenv_defaults'] = list(state.optenv_defaults)
        return failure
    invalid = tracer.invalid_text(elements, text)
    if invalid is not None:
        element, where, character = invalid
        source = getattr(element, '_ult_src', None)
        at = f' at {source[0]}:{source[1]}' if source is not None else ''
        failure = failures.failed(
            'xml', f'the expansion is not XML: {where}{at} holds the control character '
            f'U+{ord(character):04X}, which XML cannot hold: an expression there, or a '
            'property it uses, gave it (xacro writes it as it is, and URDF readers refuse the '
            'result): remove it')
        failure['place'] = [str(source[0]), int(source[1])] if source is not None else None
        return failure
    unknown = failures.unknown_arguments(state, list(request.get('mappings', {})))
    if state.pending():
        failure = failures.missing_inputs(state)
        if unknown:
            failure['error'] = (failure['error'] + f'; {unknown}')[:4000]
        return failure
    if unknown:
        notes.append(unknown)
    table = tracer.EMPTY
    if state.trace and state.tracer.failure is None:
        try:  # the tool's own code: a failure here is no fault of the input
            table = tracer.table(elements, text)
        except Exception as exc:
            state.tracer.failed('writing the line table', exc)
    tool_failures = []
    if state.tracer.failure is not None:
        table = tracer.EMPTY  # a partly traced expansion would name wrong lines
        tool_failures.append(state.tracer.failure)
    if len(text) > state.max_bytes:
        return failures.failed('size', 'the expanded description is larger than the '
                               'description limit')
    with open(os.path.join(out_dir, 'expanded.urdf'), 'wb') as stream:
        stream.write(text)
    return {'ok': True, 'version': version, 'notes': notes, 'map': table,
            'includes': sorted(set(xacro.all_includes)), 'tool_failures': tool_failures,
            'globs': state.globs, 'macros': sorted(state.macros),
            'link_macros': sorted(_making_links(state.macro_bodies)),
            'optenv_defaults': list(state.optenv_defaults)}


#: xacro's own elements: anything else written xacro:NAME calls the macro NAME
_DIRECTIVES = frozenset(('include', 'macro', 'property', 'arg', 'if', 'unless', 'insert_block',
                         'call', 'element', 'attribute', 'eval-comments'))


def _body_of(element: Any) -> Tuple[bool, Set[str]]:
    """Return whether a macro's body writes a <link>, and the macros it calls by name."""
    writes = False
    calls: Set[str] = set()
    for inner in element.getElementsByTagName('*'):
        tag = inner.tagName
        if tag == 'link':
            writes = True
        elif tag.startswith('xacro:') and tag[6:] not in _DIRECTIVES:
            calls.add(tag[6:])
    return writes, calls


def _making_links(bodies: Dict[str, Tuple[bool, Set[str]]]) -> Set[str]:
    """Return the macros that make links: those writing one, and those calling them."""
    making = {name for name, (writes, _) in bodies.items() if writes}
    grew = True
    while grew:
        found = {name for name, (_, calls) in bodies.items()
                 if name not in making and calls & making}
        making |= found
        grew = bool(found)
    return making


def _failure(state: State, request: Dict[str, Any],
             exc: BaseException) -> Optional[Dict[str, Any]]:
    """Return the result for an expansion that raised, None for what is not xacro's."""
    if isinstance(exc, MemoryError):
        return failures.failed('memory', 'xacro needed more memory than allowed'
                               + failures.location(state))
    if isinstance(exc, RecursionError):
        return failures.failed('recursion', 'xacro recursed too deeply (a macro that calls '
                               'itself?)' + failures.location(state))
    if isinstance(exc, xml.parsers.expat.ExpatError):
        return failures.failed('xml', f'not well-formed XML: {exc}' + failures.location(state))
    if not isinstance(exc, Exception):
        return None  # (KeyboardInterrupt, SystemExit: not the input's)
    # xacro raises many types; all mean the input is wrong. A missing package or argument is
    # the cause of what failed after it (an include under it, a path built from it).
    failure = failures.missing_inputs(state, exc) if state.pending() \
        else failures.xacro_failure(exc, state)
    unknown = failures.unknown_arguments(state, list(request.get('mappings', {})))
    if unknown and isinstance(failure.get('error'), str):
        failure['error'] = (failure['error'] + f'; {unknown}')[:4000]
    return failure


def main(argv: Optional[List[str]] = None) -> int:
    """Run one expansion: ``LIMITS.json REQUEST.json``; the result goes next to REQUEST."""
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as stream:
        set_limits(json.load(stream))
    with open(argv[1]) as stream:
        request = json.load(stream)
    # What Python needed to start (PYTHONPATH, LANG) is not the description's to read:
    # $(env NAME) and $(optenv NAME) see the --xacro-env names only.
    allowed = set(request.get('environment', ()))
    for name in [name for name in os.environ if name not in allowed]:
        del os.environ[name]
    out_dir = os.path.dirname(os.path.abspath(argv[1]))
    try:
        result = expand(request, out_dir)
    except MemoryError:
        result = failures.failed('memory', 'xacro needed more memory than allowed')
    with open(os.path.join(out_dir, 'result.json'), 'w') as stream:
        json.dump(result, stream)
    return 0


if __name__ == '__main__':
    sys.exit(main())
