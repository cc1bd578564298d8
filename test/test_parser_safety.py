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
Hostile XML never reaches outside the document and never exhausts the machine.

The parser refuses entity declarations and external DTDs, never opens a file the document
names, and keeps libxml2's depth and size limits.
"""

import io
import os
import subprocess
import sys
import textwrap

import pytest
from urdf_link_tools.errors import UrdfError, UrdfInputError, UrdfSyntaxError
from urdf_link_tools.loading import load_description
from urdf_link_tools.parser import parse_urdf_string

SECRET = 'TOP_SECRET_7f3a9c'

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<robot name="&lol9;"><link name="&lol9;"/></robot>"""


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / 'secret.txt'
    path.write_text(SECRET + '\n')
    return path


def test_billion_laughs_is_refused():
    with pytest.raises(UrdfSyntaxError) as info:
        parse_urdf_string(BILLION_LAUGHS)
    assert 'entities' in str(info.value)


@pytest.mark.parametrize('template', [
    '<!DOCTYPE r [<!ENTITY x SYSTEM "file://{path}">]><robot name="&x;"><link name="a"/>'
    '</robot>',
    '<!DOCTYPE r [<!ENTITY x SYSTEM "file://{path}">]><robot name="r"><link name="a">&x;'
    '</link></robot>',
    '<!DOCTYPE r [<!ENTITY % x SYSTEM "file://{path}"> %x;]><robot name="r"/>',
    '<!DOCTYPE r SYSTEM "file://{path}"><robot name="r"/>',
    '<!DOCTYPE r SYSTEM "{path}"><robot name="r"/>',
    '<!DOCTYPE r PUBLIC "-//x//y" "{path}"><robot name="r"/>',
])
def test_external_entities_are_refused_and_never_leak(template, secret_file):
    text = template.format(path=secret_file)
    for document in (text, text.encode()):
        with pytest.raises(UrdfError) as info:
            parse_urdf_string(document)
        assert SECRET not in str(info.value)


def test_plain_doctype_is_accepted():
    robot = parse_urdf_string('<!DOCTYPE robot><robot name="r"><link name="a"/></robot>')
    assert robot.link_names == ('a',)


@pytest.mark.parametrize('template', [
    '<!DOCTYPE r SYSTEM "file://{fifo}"><robot name="r"/>',
    '<!DOCTYPE r [<!ENTITY % x SYSTEM "file://{fifo}"> %x;]><robot name="r"/>',
    '<!DOCTYPE r [<!ENTITY x SYSTEM "file://{fifo}">]><robot name="r">&x;</robot>',
])
def test_parser_never_opens_a_file_the_document_names(template, tmp_path):
    """A FIFO blocks whoever opens it: a parse that touches it would hang and time out."""
    fifo = tmp_path / 'fifo'
    os.mkfifo(fifo)
    code = textwrap.dedent("""
        import sys
        from urdf_link_tools.parser import parse_urdf_string
        for doc in (sys.argv[1], sys.argv[1].encode()):
            try:
                parse_urdf_string(doc)
            except Exception as exc:
                print(type(exc).__name__)
    """)
    done = subprocess.run([sys.executable, '-c', code, template.format(fifo=fifo)],
                          capture_output=True, text=True, timeout=60,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ['UrdfSyntaxError', 'UrdfSyntaxError']


def test_deep_nesting_is_refused_with_a_line():
    text = '<robot name="r">\n' + '<a>' * 100000 + '</a>' * 100000 + '</robot>'
    with pytest.raises(UrdfSyntaxError) as info:
        parse_urdf_string(text)
    assert 'depth' in str(info.value) and info.value.line == 2


def test_huge_input_is_refused_before_parsing(tmp_path):
    path = tmp_path / 'big.urdf'
    with open(path, 'wb') as stream:
        stream.write(b'<robot name="r">')
        stream.write(b'<!--' + b'x' * (50 * 1024 * 1024) + b'-->')
        stream.write(b'</robot>')
    with pytest.raises(UrdfInputError) as info:
        load_description(str(path), max_bytes=32 * 1024 * 1024)
    assert 'larger than the limit' in str(info.value)
    with pytest.raises(UrdfInputError):
        load_description('-', max_bytes=1000, stdin=io.BytesIO(b'<robot/>' * 1000))


def test_dev_zero_and_directories_are_refused(tmp_path):
    with pytest.raises(UrdfInputError) as info:
        load_description('/dev/zero')
    assert 'not a regular file' in str(info.value)
    with pytest.raises(UrdfInputError):
        load_description(str(tmp_path))
    with pytest.raises(UrdfInputError):
        load_description(str(tmp_path / 'missing.urdf'))


def test_large_but_legal_description_parses(tmp_path):
    links = ''.join(f'<link name="l{i}"><visual><geometry><box size="1 1 1"/></geometry>'
                    f'</visual></link>' for i in range(10000))
    robot = parse_urdf_string(f'<robot name="r">{links}</robot>')
    assert len(robot.links) == 10000


@pytest.mark.parametrize('quote', ['"', "'"])
def test_an_attribute_past_4096_bytes_is_refused_at_its_line_before_the_parse(quote):
    # Red-team review 4: a 534-byte xacro named three links by 2 MB strings, which every
    # report quoted again and again (54 MB of JSON, 67 MB of HTML, 18 MB of Markdown).
    from urdf_link_tools.errors import UrdfStructureError
    name = 'A' * 2_000_000
    text = f'<robot name="r">\n<link name={quote}{name}{quote}/>\n</robot>'
    with pytest.raises(UrdfStructureError) as refused:
        parse_urdf_string(text)
    assert refused.value.line == 2
    assert 'the name="..." attribute holds 2,000,000 bytes, more than the 4,096' in \
        str(refused.value)
    assert name[:5000] not in str(refused.value)
    # 4,096 bytes is a name still (a path's PATH_MAX)
    assert parse_urdf_string(f'<robot name="r"><link name="{"A" * 4096}"/></robot>').links


def test_an_appledouble_file_is_named_as_what_it_is():
    # TienKung's __MACOSX/.../._humanoid.urdf (sweep L), a zip archive's macOS metadata:
    # "Document is empty; fix the XML (is the file complete?)".
    data = b'\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02\x00\x00\x00\t'
    with pytest.raises(UrdfSyntaxError) as refused:
        parse_urdf_string(data)
    assert 'AppleDouble file' in str(refused.value) and refused.value.line == 1


@pytest.mark.parametrize('document', [
    '<robot name="r"><!-- ' + 'a' * 2_000_000 + ' --><link name="a"/></robot>',
    '<robot name="r"><link name="a"><inertial><mass value="' + '1' * 2_000_000 + '"/>'
    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>',
    '<robot name="r"><link name="a" ' + 'b' * 2_000_000 + '="1"/></robot>',
], ids=['comment', 'number', 'attribute name'])  # (not the documents: PYTEST_CURRENT_TEST)
def test_one_long_word_anywhere_is_read_in_linear_time(tmp_path, document):
    # Red-team review 7: the long-name guard's search was tried from every position of a run
    # of name characters: a 40 KB comment took 13 s, a 900 KB number hours. (Quadratic,
    # these 2 MB would take days: the limit below is a hang guard, not a speed target.)
    path = tmp_path / 'long.urdf'
    path.write_text(document)
    done = subprocess.run([sys.executable, '-c',
                           'import sys\nfrom urdf_link_tools.parser import parse_urdf_string\n'
                           'from urdf_link_tools.errors import UrdfError\n'
                           'try:\n    parse_urdf_string(open(sys.argv[1], "rb").read())\n'
                           'except UrdfError as exc:\n    print(exc)\n', str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
