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
Import modules without the cyclic garbage collector walking them meanwhile.

Importing NumPy, lxml, coal and this package makes a few hundred thousand objects that live
as long as the process (functions, classes, type annotations, docstrings). Each time 700 new
objects are tracked, Python's collector walks the youngest ones, and every tenth time the
older ones too: about 60 collections, 8 to 30 ms of a one-robot ``check`` (measured with
``gc.callbacks``), for no garbage. :func:`importing` pauses the collector while modules are
imported and then moves everything alive into the permanent generation (``gc.freeze``),
which later collections skip. Only for the first import of a module: in a process that
checks many robots, what a later robot leaves would be frozen with it.
"""

import contextlib
import gc
import sys
from typing import Iterator


@contextlib.contextmanager
def importing(module: str) -> Iterator[None]:
    """
    Pause the collector while ``module`` (and what it brings) is imported the first time.

    A no-op when it is imported already, or when the collector is paused by the caller.
    """
    if module in sys.modules or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
