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
  ``$(find NAME)`` resolves the given package directories first, then the ament index;
  ``$(find-pkg-share NAME)`` is read as ``$(find NAME)``;
- its minidom parser records each element's file and line, macro calls record their call
  chain, and YAML numbers remember their file and line (:mod:`urdf_link_tools.xacro.tracer`),
  so that the expansion can be written with a table from each expanded line to where its
  element was written. A failure of the tracer is this tool's, not the input's: the result
  carries it in ``tool_failures`` and the expansion, untraced.

The result (``result.json`` and ``expanded.urdf``) goes to the request's directory.
"""

import json
import os
import re
import resource
import sys
from typing import Any, Dict, Iterator, List, Optional
from xml.dom import minidom
import xml.parsers.expat

from urdf_link_tools import read_policy
from urdf_link_tools.xacro import evaluator as xacro_eval
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


#: where $(find NAME) of a package that is not found points: a directory that does not exist
#: (nothing under it can be read), only for the expansion to go on and find the others
MISSING_PACKAGE_ROOT = '/nonexistent/urdf-link-tools/missing-package'


def _missing_packages(state: 'State') -> Dict[str, Any]:
    """Return the failure naming every package $(find) could not resolve."""
    message = '; '.join(f'package {package!r} not found: pass --package-dir {package}=PATH'
                        f'{where}' for package, where in list(state.missing.items())[:20])
    failure = _failure('package', message)
    packages = [package[:200] for package in list(state.missing)[:20]]
    failure['package'] = packages[0]
    failure['packages'] = packages
    return failure


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
        self.tracer = tracer.Tracer()
        self.trace = bool(request.get('trace', True))

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
            raise xacro.XacroException(f'{what}: {path}: {exc.strerror}') from None
        import stat
        if not stat.S_ISREG(status.st_mode):
            raise xacro.XacroException(f'{what}: {path} is not a regular file')
        if status.st_size > self.max_bytes:
            raise xacro.XacroException(f'{what}: {path} is larger than the description limit')
        return real

    def find(self, package: str) -> str:
        """Resolve ``$(find NAME)``: only a package name, only given directories and the index."""
        import xacro
        try:
            path = read_policy.find_package(package, self.package_dirs, self.ament_prefixes)
        except ValueError as exc:
            raise xacro.XacroException(f'refused: $(find {package}): {exc}') from None
        if path is None:
            self.missing.setdefault(package, _where())
            return os.path.join(MISSING_PACKAGE_ROOT, package)
        # A package the robot names is one of the robot's package directories.
        self.roots.append(os.path.realpath(path))
        self.found[package] = path
        return path


def _install_safety(xacro: Any, substitution_args: Any, state: State) -> None:
    original_load_yaml = xacro.load_yaml

    def load_yaml(filename: str) -> Any:
        import yaml
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
    symbols = dict(xacro_eval.safe_builtins())
    math_names = xacro_eval.safe_math()
    symbols.update(math_names)
    symbols.update(xacro_eval.helpers(state.max_bytes))
    python = xacro.NameSpace()
    python.update(xacro_eval.safe_builtins())
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
            return xacro_eval.guarded_eval(expr, globals, locals)
        except xacro_eval.UnsafeExpression as exc:
            raise xacro.XacroException(f'refused: {exc}') from None

    xacro.safe_eval = safe_eval

    def dollar_eval(text: str, context: Dict[str, Any]) -> str:
        functions = {'arg': lambda name: substitution_args.convert_value(
            substitution_args._eval_arg(name, args=context.get('arg', {})), 'auto'),
            'env': substitution_args._eval_env, 'optenv': substitution_args._eval_optenv,
            'find': state.find}
        names = dict(symbols)
        names.update(functions)
        return str(safe_eval(text, names,
                             substitution_args._DictWrapper(context.get('arg', {}), functions)))

    substitution_args._eval = dollar_eval
    substitution_args._eval_find = state.find
    original_extension = xacro.eval_extension

    def eval_extension(text: str) -> Any:
        if text.startswith('$(find-pkg-share '):
            text = '$(find ' + text[len('$(find-pkg-share '):]
        return original_extension(text)

    xacro.eval_extension = eval_extension
    original_eval_text = xacro.eval_text

    def eval_text(text: Any, symbols: Any) -> Any:
        result = original_eval_text(text, symbols)
        if isinstance(result, str) and len(result) > state.max_bytes:
            raise xacro.XacroException('an expression made text larger than the description '
                                       'limit')
        return result

    xacro.eval_text = eval_text

    def parse(inp: Any, filename: Optional[str] = None) -> Any:
        if inp is not None:
            raise xacro.XacroException('only files are expanded here')
        if filename != state.input:
            real = state.check_file(filename, 'xacro:include')
        else:
            real = os.path.realpath(filename)
        with open(real, 'rb') as stream:
            data = stream.read(state.max_bytes + 1)
        if len(data) > state.max_bytes:
            raise xacro.XacroException(f'{filename} is larger than the description limit')
        if state.trace:
            return tracer.LineBuilder(filename, state.tracer).parseString(data)
        return minidom.parseString(data)

    xacro.parse = parse

    class Glob:
        """xacro:include patterns match only files xacro may read (names elsewhere stay unseen)."""

        @staticmethod
        def glob(pattern: str) -> List[str]:
            import glob
            return [name for name in glob.glob(pattern) if state.allowed(name)]

    xacro.glob = Glob


def _failure(kind: str, message: str) -> Dict[str, Any]:
    return {'ok': False, 'kind': kind, 'error': message[:4000]}


def _where() -> str:
    import xacro
    files = [name for name in (xacro.filestack or []) if name]
    macros = [macro.body.getAttribute('name') for macro in (xacro.macrostack or [])
              if getattr(macro, 'body', None) is not None]
    parts = []
    if files:
        # The whole chain, as xacro's own "included from:" lines: an include that fails
        # names the missing file last, so the file that included it is the one to fix.
        chain = ''.join(f', included from {name}' for name in reversed(files[-6:-1]))
        parts.append(f'in {files[-1]}{chain}')
        if len(files) > 6:
            parts[-1] += f', and {len(files) - 6} more'
    if macros:
        parts.append('in macro ' + ' <- '.join(reversed(macros)))
    return ' (' + ', '.join(parts) + ')' if parts else ''


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
        return _failure('unsupported', f'xacro {version} cannot be run restricted here '
                        f'({type(exc).__name__}: {exc}); install xacro 2.1.1')
    if state.trace:
        tracer.install(xacro, state.tracer)
    notes = []
    if version not in TRACED_VERSIONS:
        notes.append(f'xacro {version} is not the version source tracing was tested with '
                     f'({", ".join(TRACED_VERSIONS)}): findings give lines of the expanded '
                     'document (write it with --emit-urdf)')
    xacro.verbosity = 0
    try:
        document = xacro.process_file(state.input, mappings=dict(request.get('mappings', {})))
        elements, text = tracer.write(document)
    except MemoryError:
        return _failure('memory', 'xacro needed more memory than allowed' + _where())
    except RecursionError:
        return _failure('recursion', 'xacro recursed too deeply (a macro that calls itself?)'
                        + _where())
    except xml.parsers.expat.ExpatError as exc:
        return _failure('xml', f'not well-formed XML: {exc}' + _where())
    except Exception as exc:  # xacro raises many types; all mean the input is wrong
        # A missing package is the cause of what failed after it (an include under it).
        failure = _missing_packages(state) if state.missing else _xacro_failure(exc, state)
        unknown = _unknown_arguments(state, list(request.get('mappings', {})))
        if unknown and isinstance(failure.get('error'), str):
            failure['error'] = (failure['error'] + f'; {unknown}')[:4000]
        return failure
    if state.missing:
        return _missing_packages(state)
    unknown = _unknown_arguments(state, list(request.get('mappings', {})))
    if unknown:
        notes.append(unknown)
    table = tracer.EMPTY
    if state.trace and state.tracer.failure is None:
        try:  # the tool's own code: a failure here is no fault of the input
            table = tracer.table(elements, text)
        except Exception as exc:
            state.tracer.failed('writing the line table', exc)
    failures = []
    if state.tracer.failure is not None:
        table = tracer.EMPTY  # a partly traced expansion would name wrong lines
        failures.append(state.tracer.failure)
    if len(text) > state.max_bytes:
        return _failure('size', 'the expanded description is larger than the description '
                        'limit')
    with open(os.path.join(out_dir, 'expanded.urdf'), 'wb') as stream:
        stream.write(text)
    return {'ok': True, 'version': version, 'notes': notes, 'map': table,
            'includes': sorted(set(xacro.all_includes)), 'tool_failures': failures}


#: ${name} and $(arg name) in an include's filename
_NAMED_IN_PATH = re.compile(r'\$\{\s*([A-Za-z_][\w]*)|\$\(arg\s+([^)\s]+)\s*\)')
_INCLUDE_FILENAME = re.compile(r'<xacro:include\b[^>]*?\bfilename\s*=\s*("[^"]*"|\'[^\']*\')')


_ARG_DECLARED = re.compile(r'<[\w.-]*:?arg\b[^>]*?\bname\s*=\s*("[^"]*"|\'[^\']*\')')
_ARG_USED = re.compile(r'\$\(arg\s+([^)\s]+)\s*\)')


def _texts(state: State, names: List[str]) -> Iterator[str]:
    """Yield the text of each file xacro read (once each, bounded; unreadable ones skipped)."""
    for name in dict.fromkeys(name for name in names if name):
        try:
            with open(name, 'rb') as stream:
                yield stream.read(state.max_bytes).decode('utf-8', 'replace')
        except OSError:
            continue


def _unknown_arguments(state: State, given: List[str]) -> str:
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
    for text in _texts(state, [state.input] + list(xacro.filestack or ())
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


def _missing_file_hint(state: State) -> str:
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
        for text in _texts(state, files[:-1] + list(xacro.all_includes or ())):
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
                where = root
            return (f' ($(find {package}) is {where}: check --package-dir {package}=PATH, '
                    'or the file name)')
    return ''


def _xacro_failure(exc: Exception, state: State) -> Dict[str, Any]:
    cause = getattr(exc, 'exc', None)  # XacroException wraps what the expression raised
    if isinstance(cause, MemoryError):
        return _failure('memory', 'xacro needed more memory than allowed' + _where())
    if isinstance(cause, RecursionError):
        return _failure('recursion', 'xacro recursed too deeply' + _where())
    # xacro words some errors "<class 'x.y.SomeException'>: what": keep the what.
    message = re.sub(r"<class '[\w.]+'>: ", '', str(exc)).strip() or type(exc).__name__
    if cause is not None and str(cause) and message.count(str(cause)) > 1:
        message = message[:message.rfind(str(cause))].strip()
    if 'environment variable' in message and 'is not set' in message:
        message += ' (xacro sees only the variables named with --xacro-env)'
    argument = re.match(r'Undefined substitution argument (\S+)', message)
    if argument is not None:  # an <xacro:arg> without default, not given
        message = (f'{message.splitlines()[0]}: give it after the file as '
                   f'{argument.group(1)}:=VALUE')
    elif 'No such file' in message or 'xacro:include' in message:
        message += _missing_file_hint(state)
    kind = 'refused' if 'refused:' in message or 'outside the directories' in message \
        or 'may never read' in message else 'xacro'
    return _failure(kind, message.splitlines()[0] + _where())


def main(argv: Optional[List[str]] = None) -> int:
    """Run one expansion: ``LIMITS.json REQUEST.json``; the result goes next to REQUEST."""
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as stream:
        set_limits(json.load(stream))
    with open(argv[1]) as stream:
        request = json.load(stream)
    out_dir = os.path.dirname(os.path.abspath(argv[1]))
    try:
        result = expand(request, out_dir)
    except MemoryError:
        result = _failure('memory', 'xacro needed more memory than allowed')
    with open(os.path.join(out_dir, 'result.json'), 'w') as stream:
        json.dump(result, stream)
    return 0


if __name__ == '__main__':
    sys.exit(main())
