"""The exported page as a SCORM 1.2 package: a zip that a course platform (Moodle, Canvas, Blackboard, SCORM
Cloud) imports as one activity.

    softmax-explainer export --scorm lesson.zip --step 4 --lock T

The zip holds `imsmanifest.xml` and the exported page, byte for byte as `export` writes it for the same options
(app/export.py `page_html`), so the lesson is in the page itself and the launch is the plain file: a fragment
would say it twice, and a platform that adds its own query to the launch address would put that inside it.

The page is a SCO (`adlcp:scormtype="sco"`) because it speaks SCORM 1.2's runtime when a platform offers it:
static/scorm.mjs finds the platform's `API` object by walking `window.parent` and `opener`, calls
`LMSInitialize`, sets `cmi.core.lesson_status` to "incomplete" and, when the learner completes the task of the
step the lesson opened at or a later one, to "completed" (with no guided path shown, at once: the page itself
is the activity), `LMSCommit`, and `LMSFinish` when the page goes. Where no platform offers one (the plain
file, a web host, a course page) it finds none and does nothing else.

The manifest follows ADL's SCORM 1.2 Content Aggregation Model: IMS Content Packaging 1.1.2 with ADL's
`adlcp` extension, one organization, one item, one resource. The schema files (`*.xsd`) that ADL's conformance
suite wants beside it are not shipped: the platforms named above do not read them, and they are ADL's and IMS's
text, not this project's.

    >>> import io, zipfile
    >>> z = zipfile.ZipFile(io.BytesIO(package("<!DOCTYPE html>", "A lesson")))
    >>> z.namelist()
    ['imsmanifest.xml', 'explainer.html']
"""

import io
import time
import zipfile
from xml.sax.saxutils import escape, quoteattr

CP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"  # IMS Content Packaging 1.1.2, as SCORM 1.2 names it
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"  # ADL's SCORM 1.2 extension
XSI = "http://www.w3.org/2001/XMLSchema-instance"
PAGE = "explainer.html"  # the exported page's name inside the package


def manifest(title: str, launch: str = PAGE) -> str:
    """The package's imsmanifest.xml: one organization whose one item launches the page as a SCO."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="softmax-explainer" version="1.0" xmlns="{CP}" xmlns:adlcp="{ADLCP}" xmlns:xsi="{XSI}"
          xsi:schemaLocation="{CP} imscp_rootv1p1p2.xsd {ADLCP} adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="softmax-explainer-organization">
    <organization identifier="softmax-explainer-organization">
      <title>{escape(title)}</title>
      <item identifier="softmax-explainer-item" identifierref="softmax-explainer-page" isvisible="true">
        <title>{escape(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="softmax-explainer-page" type="webcontent" adlcp:scormtype="sco" href={quoteattr(launch)}>
      <file href={quoteattr(PAGE)}/>
    </resource>
  </resources>
</manifest>
"""


def package(html: str, title: str) -> bytes:
    """The zip of the manifest and the page `html`, deflated (the page's 2.9 MB are about 1 MB in it)."""
    out = io.BytesIO()
    when = time.localtime()[:6]
    with zipfile.ZipFile(out, "w") as z:
        for name, text in (("imsmanifest.xml", manifest(title)), (PAGE, html)):
            entry = zipfile.ZipInfo(name, date_time=when)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16  # readable once unzipped, whatever the umask of whoever zipped it
            z.writestr(entry, text.encode("utf-8"), compresslevel=9)
    return out.getvalue()
