# Development entry points of urdf_link_tools. Every target that needs the environment runs
# `setup` first; scripts/setup.sh returns in a second or two when nothing changed.
# ROS_DISTRO=kilted make setup test uses the ROS 2 Kilted wheels (.venv-kilted/, build-kilted/,
# install-kilted/); the default is Jazzy (.venv/, build/, install/).
SHELL := /bin/bash
ENV := scripts/env.sh
PYTEST_FLAGS ?= -q -ra --durations=5
LINT_TESTS := test/test_copyright.py test/test_flake8.py test/test_pep257.py test/test_xmllint.py
SAMPLE := samples/sample_robot.urdf

.PHONY: setup test test-py310 lint run bench build-ros clean distclean

DISTRO := $(or $(ROS_DISTRO),jazzy)
SUFFIX := $(if $(filter jazzy,$(DISTRO)),,-$(DISTRO))

setup:
	scripts/setup.sh

# pytest exits with 5 when it collected no test; that is a failure here too, said out loud.
# A skipped test fails the run too, unless test/conftest.py's printed ALLOWED_SKIPS allows it
# (a broken interface build must not leave CI green with the ROS tests skipped).
test: setup
	@rc=0; URDF_LINK_TOOLS_FAIL_ON_SKIP=1 $(ENV) python -m pytest $(PYTEST_FLAGS) test || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; \
	exit $$rc

# The ROS-free suite on Python 3.10 with Ubuntu 22.04's numpy, SciPy, lxml, PyYAML and pycollada
# (Humble's), in .venv-py310/ (requirements/py310-jammy.txt); fails when no CPython 3.10 is found.
test-py310:
	scripts/py310_suite.sh

lint: setup
	@rc=0; $(ENV) python -m pytest $(PYTEST_FLAGS) $(LINT_TESTS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make lint: pytest collected no tests" >&2; fi; \
	exit $$rc

# The offline check first (it exits non-zero when it reports problems, which the sample robot
# has on purpose), then the node on the same robot until Ctrl-C.
run: setup
	$(ENV) urdf-link-tools check $(SAMPLE) || echo "make run: the check exited with $$? (2: the sample robot has errors, as it is made to)"
	$(ENV) urdf_link_tools_node --ros-args --params-file config/urdf_link_tools.yaml \
	    -p urdf_file:=$(SAMPLE)

bench: setup
	$(ENV) python -m bench.run_all

# Rebuild the ROS package (interfaces, executables, share data) even if its inputs did not change
# (CMake rebuilds incrementally).
build-ros:
	rm -f .venv$(SUFFIX)/.stamp-cmake
	scripts/setup.sh

# Build products of every distribution; `distclean` also drops the venvs (the next set-up takes
# about two minutes).
clean:
	rm -rf build build-* install install-* log *.egg-info .pytest_cache
	find . -path './.venv*' -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf .venv .venv-*
