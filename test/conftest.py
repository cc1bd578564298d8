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

"""Fixtures shared by the report format tests."""

from cli_harness import checkout_with_samples
import pytest


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """Make a checkout-like working directory holding samples/ (robot and meshes)."""
    return checkout_with_samples(tmp_path, monkeypatch)
