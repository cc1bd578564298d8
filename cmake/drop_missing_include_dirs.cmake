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

# Injected with -DCMAKE_PROJECT_INCLUDE=<this file> (scripts/setup.sh and the colcon defaults do it).
#
# The ROS 2 wheels on PyPI were built in a manylinux container, and the CMake targets they export
# still name that container's include folders (/opt/python/cp311-cp311/include/python3.11, ...)
# in INTERFACE_INCLUDE_DIRECTORIES. CMake refuses to generate a build that uses an imported target
# whose include folder does not exist. This drops such entries from every imported target at the
# end of the top-level directory, after all find_package() calls ran; the right Python headers
# still reach the generated code through the Python3 targets found on this machine.

cmake_minimum_required(VERSION 3.21)  # IMPORTED_TARGETS directory property, cmake_language(DEFER)

function(urdf_link_tools_drop_missing_include_dirs)
  get_property(_targets DIRECTORY "${CMAKE_SOURCE_DIR}" PROPERTY IMPORTED_TARGETS)
  foreach(_target IN LISTS _targets)
    get_target_property(_dirs "${_target}" INTERFACE_INCLUDE_DIRECTORIES)
    if(NOT _dirs)
      continue()
    endif()
    set(_kept "")
    set(_dropped "")
    foreach(_dir IN LISTS _dirs)
      # Keep generator expressions and relative entries: they are not literal folders.
      if(_dir MATCHES "\\$<" OR NOT IS_ABSOLUTE "${_dir}" OR EXISTS "${_dir}")
        list(APPEND _kept "${_dir}")
      else()
        list(APPEND _dropped "${_dir}")
      endif()
    endforeach()
    if(_dropped)
      list(REMOVE_DUPLICATES _dropped)
      message(STATUS "drop_missing_include_dirs: ${_target}: dropped ${_dropped}")
      set_property(TARGET "${_target}" PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_kept}")
    endif()
  endforeach()
endfunction()

# The development environment keeps its venv inside the repository, which is also the CMake source
# folder of urdf_link_tools; rosidl_generator_py's target then names the venv's NumPy headers,
# and CMake refuses to export a target whose include folders lie in the source folder. Those
# headers are needed to build, not by anyone using the installed package: keep them for the
# build only.
function(urdf_link_tools_build_only_source_include_dirs)
  get_property(_targets DIRECTORY "${CMAKE_SOURCE_DIR}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_target IN LISTS _targets)
    get_target_property(_dirs "${_target}" INTERFACE_INCLUDE_DIRECTORIES)
    if(NOT _dirs)
      continue()
    endif()
    set(_new "")
    set(_changed FALSE)
    foreach(_dir IN LISTS _dirs)
      # string(FIND), not a regular expression: folder names may hold '+' or '.'.
      string(FIND "${_dir}" "${CMAKE_SOURCE_DIR}/" _in_source)
      string(FIND "${_dir}" "${CMAKE_BINARY_DIR}/" _in_binary)
      if(NOT _dir MATCHES "\\$<" AND _in_source EQUAL 0 AND NOT _in_binary EQUAL 0)
        list(APPEND _new "$<BUILD_INTERFACE:${_dir}>")
        set(_changed TRUE)
      else()
        list(APPEND _new "${_dir}")
      endif()
    endforeach()
    if(_changed)
      message(STATUS "drop_missing_include_dirs: ${_target}: source-folder include dirs for the "
        "build only")
      set_property(TARGET "${_target}" PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_new}")
    endif()
  endforeach()
endfunction()

# CMAKE_PROJECT_INCLUDE runs right after project(), before any find_package(): defer the clean-up
# to the end of the top-level CMakeLists.txt.
if(CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL urdf_link_tools_drop_missing_include_dirs)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL urdf_link_tools_build_only_source_include_dirs)
endif()
