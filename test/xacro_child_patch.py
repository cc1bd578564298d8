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

The child is a real process (``python -m urdf_link_tools.xacro.child``); a ``sitecustomize``
module on its PYTHONPATH runs first and replaces one function of the package. Nothing in the
package itself knows about tests.
"""

import os
import pathlib
import textwrap

from urdf_link_tools.xacro import sandbox


def patch_child(monkeypatch, directory: pathlib.Path, code: str) -> None:
    """Make every xacro child this test starts run ``code`` at start-up."""
    site = directory / 'child_site'
    site.mkdir(exist_ok=True)
    (site / 'sitecustomize.py').write_text(textwrap.dedent(code))
    original = sandbox.child_environment

    def environment(allow_env):
        env = original(allow_env)
        env['PYTHONPATH'] = os.pathsep.join([str(site), env['PYTHONPATH']])
        return env

    monkeypatch.setattr(sandbox, 'child_environment', environment)


#: A tracer whose line table fails, as a bug in it would.
FAILING_TRACER = """
    from urdf_link_tools.xacro import tracer


    def table(elements, text):
        raise IndexError('injected tracer bug')


    tracer.table = table
"""

#: The child believes another xacro version is installed (tracing is then not attempted).
OTHER_XACRO_VERSION = """
    import importlib.metadata

    _version = importlib.metadata.version


    def version(name):
        return '9.9.9' if name == 'xacro' else _version(name)


    importlib.metadata.version = version
"""
