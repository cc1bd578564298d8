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
Run xacro as the code it is: in a child process with limits and an empty environment.

xacro files are programs (``${...}`` is Python, ``$(env ...)`` reads the environment,
``xacro.load_yaml`` reads files), and CI runs this checker on files from pull requests. So
:func:`expand_xacro` starts ``python -S -m urdf_link_tools.xacro.child`` with:

- a CPU limit (``timeout``) and three times that of wall-clock, RLIMIT_AS (``memory_bytes``),
  RLIMIT_FSIZE (the output), RLIMIT_NOFILE and RLIMIT_NPROC, set before any input is read;
- an environment holding nothing but what Python needs and the names in ``allow_env``
  (``$(env NAME)`` and ``$(optenv NAME)`` see only those);
- reads (``xacro:include``, ``xacro.load_yaml``) limited to the input's package (the nearest
  directory above it with a ``package.xml``, else its own directory), the package
  directories given, packages the robot finds through the ament index, and ``allow_dirs``;
- the restricted expression evaluator of :mod:`urdf_link_tools.xacro.evaluator`;
- output capped at ``max_bytes``;
- an empty private working directory, so nothing in the caller's directory is imported;
- no site module: no ``.pth`` file and no ``sitecustomize`` runs, and the path holds only the
  folders of urdf_link_tools, xacro and PyYAML.

The child returns the expansion pretty-printed, one element per line, and a table from each
of its lines to the xacro file and line that wrote the element and the macro calls that made
it (:class:`~urdf_link_tools.xacro.source_map.SourceMap`).
"""

from __future__ import annotations

from dataclasses import field
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from urdf_link_tools.errors import UrdfInputError
from urdf_link_tools.limits import DESCRIPTION_MAX_BYTES
from urdf_link_tools.read_policy import checkout_package, enclosing, is_package_name
from urdf_link_tools.records import record
from urdf_link_tools.xacro.source_map import SourceMap

#: Prefix of the notes that relay what xacro printed.
XACRO_SAYS = 'xacro says: '
#: Environment variables the child gets whatever the allow-list says: Python needs them.
BASE_ENV = ('LANG', 'LC_ALL')


@record
class XacroOptions:
    """
    How to expand xacro.

    :param mappings: xacro arguments, name -> value (``name:=value`` on the command line)
    :param package_dirs: package name -> directory, for ``$(find NAME)``
    :param allow_env: environment variables xacro may read
    :param allow_dirs: extra directories xacro may read files from
    :param timeout: CPU seconds; the wall-clock limit is three times as long (a busy machine
        stretches wall time; CPU is what an attack burns)
    :param memory_bytes: address-space limit of the child
    :param max_bytes: largest expansion (and largest file xacro may read)
    """

    mappings: Mapping[str, str] = field(default_factory=dict)
    package_dirs: Mapping[str, str] = field(default_factory=dict)
    allow_env: Tuple[str, ...] = ()
    allow_dirs: Tuple[str, ...] = ()
    timeout: float = 10.0
    memory_bytes: int = 1 << 30
    max_bytes: int = DESCRIPTION_MAX_BYTES


@record
class ToolFailure:
    """
    This tool's own code failed while expanding (the source tracer), not the input.

    :param what: what failed, e.g. 'the xacro source tracer (writing the line table)'
    :param error: the exception, one line
    :param traceback: the child's traceback (shown with --verbose)
    """

    what: str
    error: str
    traceback: str = ''


@record
class Expansion:
    """A xacro file expanded: URDF bytes, where each line came from, notes and failures."""

    data: bytes
    source_map: SourceMap
    notes: Tuple[str, ...] = ()
    #: the files it read, and what its include patterns matched (result_cache.glob_dependency)
    files: Tuple[str, ...] = ()
    tool_failures: Tuple[ToolFailure, ...] = ()
    #: the names of the macros the files define (a call without xacro: is left as it is)
    macros: FrozenSet[str] = frozenset()
    #: of those, the macros that make links (their body, or a macro it calls, has a <link>)
    link_macros: FrozenSet[str] = frozenset()


class XacroError(UrdfInputError):
    """
    xacro could not expand the file.

    ``public`` says what went wrong without quoting the file (the node reports it about files
    a parameter named); ``message`` has the detail for the person running the CLI; ``place``
    the file and line xacro was at, where known (a CI annotation is put there).
    """

    def __init__(self, message: str, public: str,
                 place: Optional[Tuple[str, int]] = None) -> None:
        self.public = public
        self.place = place
        super().__init__(message)


#: variable names a description must not learn are set (red-team review 7: $(optenv
#: GITHUB_TOKEN d) told a pull request that the runner holds the token): never said
_SECRET_NAME = re.compile(r'(?i)token|secret|pass|key|credential|auth|cookie|session|'
                          r'^(aws|gh|github|gitlab|azure|gcp|google|npm|pypi|docker)_')


def _hidden_variables(result: Mapping[str, object], options: XacroOptions) -> str:
    """
    Say which $(optenv NAME default) took its default though NAME is set here.

    xacro sees only the --xacro-env names: a job that sets NAME checks another robot than
    its launch builds (Doosan's MOBILE_USER_RAIL_ENABLED), and nothing said so.
    """
    names = [name for name in result.get('optenv_defaults') or ()  # type: ignore[attr-defined]
             if isinstance(name, str) and name in os.environ and name not in options.allow_env
             and not _SECRET_NAME.search(name)]
    if not names:
        return ''
    shown = ', '.join(names[:5])
    return (f'$(optenv {names[0]}) took its default, though {shown} '
            f'{"is" if len(names) == 1 else "are"} set in this environment: xacro sees only '
            'the variables named with --xacro-env (add ' +
            ' '.join(f'--xacro-env {name}' for name in names[:5])
            + f' to use {"it" if len(names) == 1 else "them"})')


def _found_in_repository(names: Sequence[str], source: str) -> str:
    """Return the missing packages found in the input's repository, as a hint ('' if none)."""
    from urdf_link_tools.packages import in_repository
    found = in_repository(names, source)
    if not found:
        return ''
    from urdf_link_tools.reports.sanitize import one_line
    return one_line('; in this repository: ' + ' '.join(
        f'--package-dir {name}={shlex.quote(folder)}' for name, folder in found.items()))


def package_root(path: str) -> str:
    """
    Return the directory of the package holding a file, else its work tree, else its folder.

    The package as :func:`.read_policy.checkout_package` finds it (not above the git work
    tree holding the file: a pull request checked out into a folder of another package had
    that package's files read, and --fix-inertia rewrite one of them, ../../victim.xacro,
    ninth red-team review). A work tree with no package.xml between it and the file is the
    root.
    """
    package = checkout_package(path)
    if package is not None:
        return package
    tree = enclosing(path, ('.git',))
    return tree[0] if tree is not None else os.path.dirname(os.path.abspath(path))


def parse_mappings(items: Sequence[str]) -> Dict[str, str]:
    """
    Read xacro arguments written ``name:=value``.

    :param items: the arguments
    :return: name -> value
    :raises ValueError: naming an argument that is not ``name:=value``
    """
    mappings = {}
    for item in items:
        name, separator, value = item.partition(':=')
        if not separator or not name.strip() or any(c.isspace() for c in name.strip()):
            raise ValueError(f'xacro argument {item!r} is not name:=value')
        mappings[name.strip()] = value
    return mappings


def _module_file(name: str) -> Optional[str]:
    """Return where a top-level module is, without importing it (None when missing)."""
    import importlib.util
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.has_location else None


def child_environment(allow_env: Sequence[str]) -> Dict[str, str]:
    """
    Return the child's environment: Python's needs and the allow-listed names only.

    The child runs without the site module (``-S``): its path is the folders of the three
    packages it imports, found here without importing them, and nothing else (no ``.pth``
    file runs; a venv's took 50 ms of the child's start).
    """
    paths = []
    for name in ('urdf_link_tools', 'xacro', 'yaml'):
        origin = _module_file(name)
        if origin is None:
            continue
        directory = os.path.dirname(os.path.dirname(os.path.abspath(origin)))
        if directory not in paths:
            paths.append(directory)
    env = {name: os.environ[name] for name in (*BASE_ENV, *allow_env) if name in os.environ}
    env['PYTHONPATH'] = os.pathsep.join(paths)
    env['PYTHONDONTWRITEBYTECODE'] = '1'
    return env


def child_command(work: str) -> List[str]:
    """Return the child's command line: its limits and request are files in ``work``."""
    return [sys.executable, '-S', '-s', '-m', 'urdf_link_tools.xacro.child',
            os.path.join(work, 'limits.json'), os.path.join(work, 'request.json')]


def _read_capped(path: str, limit: int) -> bytes:
    try:
        with open(path, 'rb') as stream:
            return stream.read(limit)
    except OSError:
        return b''


def xacro_cwd() -> str:
    """
    Return what xacro's ``$(cwd)`` names here: the physical working directory, '' if gone.

    xacro gives ``os.path.abspath('.')``; not the job's ``$PWD``, which
    :func:`~urdf_link_tools.reports.sanitize.working_directory` prefers for its walks.
    """
    try:
        return os.getcwd()
    except OSError:
        return ''


def expand_xacro(path: str, options: XacroOptions = XacroOptions(),
                 display: Optional[str] = None) -> Expansion:
    """
    Expand a xacro file in the bounded child process.

    :param path: the xacro file
    :param options: arguments, packages and limits
    :param display: how to name the file in messages (default: as given)
    :return: the expansion and its source map
    :raises XacroError: when xacro fails, is refused, or exceeds a limit
    """
    if _module_file('xacro') is None:  # only to say clearly that it is missing
        raise UrdfInputError(
            'this is a xacro file but the xacro package is not installed: pip install xacro, '
            'or expand it first with `xacro file.xacro > file.urdf`')
    name = display or path
    source = os.path.abspath(path)
    roots = [package_root(source), *options.package_dirs.values(), *options.allow_dirs]
    request = {
        'input': source, 'mappings': dict(options.mappings),
        'package_dirs': {key: os.path.abspath(value)
                         for key, value in options.package_dirs.items()},
        'roots': [os.path.abspath(root) for root in roots], 'max_bytes': options.max_bytes,
        'ament_prefix_path': os.environ.get('AMENT_PREFIX_PATH', ''),
        'environment': list(options.allow_env),
        # $(cwd): the directory the check runs in, as for xacro run there (the child runs
        # in a private folder of its own); what is read there is policed like any path.
        'cwd': xacro_cwd(),
    }
    cpu = max(1, int(options.timeout + 0.999))
    limits = {'cpu_seconds': cpu, 'memory_bytes': options.memory_bytes,
              'file_bytes': 3 * options.max_bytes + (1 << 20)}
    with tempfile.TemporaryDirectory(prefix='urdf_link_tools_xacro_') as work:
        for filename, content in (('limits.json', limits), ('request.json', request)):
            with open(os.path.join(work, filename), 'w') as stream:
                json.dump(content, stream)
        started = time.monotonic()
        with open(os.path.join(work, 'stderr.txt'), 'wb') as errors:
            child = subprocess.Popen(
                child_command(work), cwd=work, env=child_environment(options.allow_env),
                stdin=subprocess.DEVNULL,
                stdout=errors, stderr=errors, start_new_session=True)
            wall = 3 * options.timeout
            try:
                status = _wait(child, wall)
            except subprocess.TimeoutExpired:
                _kill(child)
                raise XacroError(
                    f'xacro took longer than {wall:g} s on {name} and was stopped '
                    '(an endless expansion? A big one that needs longer: --xacro-timeout S)',
                    'xacro took too long') from None
        elapsed = time.monotonic() - started
        result_path = os.path.join(work, 'result.json')
        if not os.path.exists(result_path):
            raise _crash(name, status, cpu, elapsed, options,
                         _read_capped(os.path.join(work, 'stderr.txt'), 4096))
        try:
            with open(result_path, 'rb') as stream:
                result = json.loads(stream.read(3 * options.max_bytes + (1 << 20)))
        except ValueError:
            raise XacroError(f'xacro on {name}: the child wrote no readable result',
                             'xacro failed') from None
        if not result.get('ok'):
            kind = result.get('kind', 'xacro')
            detail = result.get('error', '')
            if kind == 'memory':
                detail += f' (limit {options.memory_bytes >> 20} MiB)'
            public = _PUBLIC.get(kind, 'xacro failed')
            hidden = _hidden_variables(result, options)
            if hidden:
                detail += f'; {hidden}'
            packages = result.get('packages') or [result.get('package')]
            named = [package for package in packages if is_package_name(package)]
            if kind == 'package' and named:
                detail += _found_in_repository(named, source)
                # A package name says nothing of any file (the file could name anything in
                # $(find ...): only a ROS package name is said): the node can say which to add.
                quoted = ', '.join(repr(package) for package in named)
                public = (f'xacro: package{"s" if len(named) > 1 else ""} {quoted} not found: '
                          f'source {"their workspaces" if len(named) > 1 else "its workspace"}, '
                          'or add '
                          + ' '.join(f'{package}=PATH' for package in named)
                          + ' to the package_dirs parameter (launch argument package_dirs)')
            place = result.get('place')
            raise XacroError(f'xacro: {detail}', public,
                             (str(place[0]), int(place[1])) if isinstance(place, list)
                             and len(place) == 2 else None)
        with open(os.path.join(work, 'expanded.urdf'), 'rb') as stream:
            data = stream.read(options.max_bytes + 1)
        said = _read_capped(os.path.join(work, 'stderr.txt'), 4096).decode('utf-8', 'replace')
    source_map = SourceMap.from_table(result.get('map', {}), top=source)
    # xacro's own warnings (deprecations, redefined symbols), a few lines at most.
    warnings = tuple(XACRO_SAYS + line.strip()[:200] for line in said.splitlines()
                     if line.strip())[:10]
    failures = tuple(ToolFailure(str(item.get('what', 'the xacro child'))[:200],
                                 str(item.get('error', ''))[:1000],
                                 str(item.get('traceback', ''))[-4000:])
                     for item in result.get('tool_failures', ()) if isinstance(item, dict))
    from urdf_link_tools.result_cache import glob_dependency
    globs = tuple(glob_dependency(str(pattern), [str(name) for name in matched])
                  for pattern, matched in result.get('globs', ()))
    macros, link_macros = (frozenset(str(name)[:200] for name in result.get(key, ())[:5000]
                                     if isinstance(name, str))
                           for key in ('macros', 'link_macros'))
    hidden = _hidden_variables(result, options)
    return Expansion(data, source_map, tuple(result.get('notes', ())) + warnings
                     + ((hidden,) if hidden else ()),
                     tuple(result.get('includes', ())) + globs, failures, macros,
                     link_macros & macros)


_PUBLIC = {
    'memory': 'xacro needed more memory than allowed',
    'recursion': 'xacro recursed too deeply',
    'xml': 'a xacro file is not well-formed XML',
    'refused': 'xacro was refused an expression or a file',
    'argument': 'xacro arguments without a default were not given',
    'size': 'the expansion is larger than the description limit',
}


def _wait(child: subprocess.Popen, timeout: float) -> int:
    """
    Wait for the child's exit, at most ``timeout`` seconds, and return its status.

    Popen.wait with a timeout polls, sleeping up to 50 ms between looks: as long again as
    the whole expansion of a small robot. A process file descriptor (Linux 5.3) is readable
    the moment the child exits; elsewhere Popen.wait polls as before.

    :raises subprocess.TimeoutExpired: when it is still running after ``timeout``
    """
    try:
        descriptor = os.pidfd_open(child.pid)  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return child.wait(timeout=timeout)
    try:
        import select
        poller = select.poll()
        poller.register(descriptor, select.POLLIN)
        if not poller.poll(max(0, int(timeout * 1000))):
            raise subprocess.TimeoutExpired(child.args, timeout)
    finally:
        os.close(descriptor)
    return child.wait()


def _kill(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    child.wait()


def _crash(name: str, status: int, cpu: int, elapsed: float, options: XacroOptions,
           errors: bytes) -> XacroError:
    if status in (-signal.SIGXCPU, -signal.SIGKILL) and elapsed >= cpu * 0.5:
        return XacroError(f'xacro used more than {cpu} s of CPU on {name} and was stopped '
                          '(an endless expansion? A big one that needs longer: --xacro-timeout '
                          'S)', 'xacro took too long')
    if status == -signal.SIGXFSZ:
        return XacroError(f'xacro wrote more than the description limit on {name}',
                          _PUBLIC['size'])
    last = errors.decode('utf-8', 'replace').strip().splitlines()[-1:] or ['']
    if 'MemoryError' in last[0]:
        return XacroError(f'xacro needed more than {options.memory_bytes >> 20} MiB on {name}',
                          _PUBLIC['memory'])
    return XacroError(f'xacro stopped on {name} (exit status {status}): {last[0][:300]}',
                      'xacro failed')
