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

"""The package's exception hierarchy for what is fatal to reading a description."""

from __future__ import annotations

from typing import Optional


class UrdfError(Exception):
    """
    Base of every error this package raises about a robot description.

    :param message: what is wrong and what to do, in one line
    :param line: 1-based source line of the offending element, if known
    :param link: name of the link concerned, if any
    """

    def __init__(self, message: str, line: Optional[int] = None,
                 link: Optional[str] = None) -> None:
        self.message = message
        self.line = line
        self.link = link
        super().__init__(self.__str__())

    def __str__(self) -> str:
        """Render as 'line N: message' when the line is known."""
        if self.line:
            return f'line {self.line}: {self.message}'
        return self.message


class UrdfInputError(UrdfError):
    """The input could not be read at all (missing file, too large, xacro failure)."""


class UrdfSyntaxError(UrdfError):
    """The input is not well-formed XML, or uses a forbidden XML feature."""


class UrdfStructureError(UrdfError):
    """The XML is well-formed but is not a valid URDF (wrong root, bad attribute)."""
