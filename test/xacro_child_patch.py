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
Run code in the xacro child process before it expands, to inject a failure of our own code.

The child is a real process (``python -S -m urdf_link_tools.xacro.child``, no site module, so
no ``sitecustomize``): the command line the sandbox builds is replaced by one that runs the
given code, then the child module as ``__main__``, as ``-m`` would. Nothing in the package
itself knows about tests.
"""

import pathlib
import textwrap

from urdf_link_tools.xacro import sandbox


def patch_child(monkeypatch, directory: pathlib.Path, code: str) -> None:
    """Make every xacro child this test starts run ``code`` at start-up."""
    patch = directory / 'child_patch.py'
    patch.write_text(textwrap.dedent(code))
    original = sandbox.child_command

    def command(work):
        python, *flags, module_flag, module, limits, request = original(work)
        assert module_flag == '-m'
        run = (f'import runpy; exec(compile(open({str(patch)!r}).read(), {str(patch)!r}, '
               f'"exec")); runpy.run_module({module!r}, run_name="__main__", alter_sys=True)')
        return [python, *flags, '-c', run, limits, request]

    monkeypatch.setattr(sandbox, 'child_command', command)


#: A tracer whose line table fails, as a bug in it would.
FAILING_TRACER = """
    from urdf_link_tools.xacro import tracer


    def table(elements, text):
        raise IndexError('injected tracer bug')


    tracer.table = table
"""

#: The child believes another xacro version is installed (tracing is then not attempted).
OTHER_XACRO_VERSION = """
    from urdf_link_tools.xacro import tracer


    tracer.xacro_version = lambda xacro: '9.9.9'
"""
