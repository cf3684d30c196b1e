"""`softmax-explainer export --scorm lesson.zip`: the exported page in a SCORM 1.2 package (app/scorm.py).

The manifest is read as a platform reads it (namespaces, schema version, one organization, item and resource, a
SCO whose launch is a file of the zip), and the page in the zip is the page `export` writes for the same options,
byte for byte. Bokeh names a page's elements by random UUIDs and a counter, so both writes run here with the same
sequence of both. tests/browser/test_scorm.py runs the packaged page under a platform's API.
"""

import random
import uuid
import xml.etree.ElementTree as ET
import zipfile

import bokeh.util.serialization
import pytest

from app import export, scorm
from app.strings import TEXT

NS = {"cp": scorm.CP, "adlcp": scorm.ADLCP}
OPTIONS = ["--logits", "1.5,-0.25,3", "--classes", "cat,dog,fox", "--step", "4", "--lock", "T,y", "--hide", "eps",
           "--theme", "projector", "--lang", "ko"]


@pytest.fixture
def same_ids(monkeypatch):
    """Call it before each write: Bokeh's ids start again from the same counter and the same UUIDs."""
    def again():
        rng = random.Random(39)
        monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=rng.getrandbits(128), version=4))
        monkeypatch.setattr(bokeh.util.serialization, "_simple_id", 1000)
    return again


def written(tmp_path, same_ids, capsys):
    same_ids()
    assert export.main([str(tmp_path / "explainer.html"), *OPTIONS]) == 0
    same_ids()
    assert export.main(["--scorm", str(tmp_path / "lesson.zip"), *OPTIONS]) == 0
    out = capsys.readouterr().out
    assert "SCORM 1.2" in out and "lesson.zip" in out
    return (tmp_path / "explainer.html").read_bytes(), zipfile.ZipFile(tmp_path / "lesson.zip")


def test_the_package_holds_a_scorm_1_2_manifest_and_the_exported_page_byte_for_byte(tmp_path, same_ids, capsys):
    page, z = written(tmp_path, same_ids, capsys)
    assert z.testzip() is None
    assert sorted(z.namelist()) == ["explainer.html", "imsmanifest.xml"]
    assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
    assert z.read("explainer.html") == page
    # Deflated: the 2.9 MB page is about 1.1 MB in the zip.
    size = (tmp_path / "lesson.zip").stat().st_size
    assert size < 0.45 * len(page), (size, len(page))

    root = ET.fromstring(z.read("imsmanifest.xml"))
    assert root.tag == f"{{{scorm.CP}}}manifest"
    assert root.find("cp:metadata/cp:schema", NS).text == "ADL SCORM"
    assert root.find("cp:metadata/cp:schemaversion", NS).text == "1.2"
    (organization,) = root.findall("cp:organizations/cp:organization", NS)
    assert root.find("cp:organizations", NS).get("default") == organization.get("identifier")
    (item,) = organization.findall("cp:item", NS)
    assert organization.find("cp:title", NS).text == item.find("cp:title", NS).text == TEXT["ko"]["title"]
    (resource,) = root.findall("cp:resources/cp:resource", NS)
    assert item.get("identifierref") == resource.get("identifier")
    assert resource.get(f"{{{scorm.ADLCP}}}scormtype") == "sco"
    assert resource.get("type") == "webcontent"
    launch = resource.get("href")
    assert launch.split("#")[0] in z.namelist()
    assert [f.get("href") for f in resource.findall("cp:file", NS)] == ["explainer.html"]


def test_a_title_with_markup_characters_stays_text_in_the_manifest():
    root = ET.fromstring(scorm.manifest('<b>"T" & ε</b>', launch='explainer.html#a=1&b="2"'))
    assert root.find("cp:organizations/cp:organization/cp:title", NS).text == '<b>"T" & ε</b>'
    assert root.find("cp:resources/cp:resource", NS).get("href") == 'explainer.html#a=1&b="2"'


@pytest.mark.parametrize("argv", [[], ["page.html", "--scorm", "lesson.zip"]])
def test_export_takes_one_file_to_write(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        export.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "OUT.html" in err and "--scorm OUT.zip" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_refused_option_writes_no_package(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        export.main(["--scorm", str(tmp_path / "lesson.zip"), "-T", "0"])
    assert e.value.code == 2
    assert not (tmp_path / "lesson.zip").exists()
    assert "--temperature" in capsys.readouterr().err
