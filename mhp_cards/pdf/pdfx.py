"""PDF/X-4 for a print shop: the CMYK kit with an output intent, as press workflows expect it.

:func:`to_pdfx` takes a PDF the kit rendered in CMYK and makes it PDF/X-4: version 1.6, an
output intent (``GTS_PDFX``) carrying a CMYK ICC profile, XMP metadata naming the standard
(``pdfxid:GTS_PDFXVersion``), ``/Trapped /False``, and a TrimBox on every page. Fonts are
embedded and nothing is in RGB already (the kit's CMYK mode); the tests check all of it, and
Ghostscript reads the file, in ``tests/pdf/test_pdfx.py``.

No CMYK profile ships with the package: the free ones are not ours to relicense. The build
looks for the one Debian's Ghostscript installs — ``default_cmyk.icc`` of ``libgs-common``,
"Artifex CMYK SWOP Profile", AGPL-3+ — and takes the shop's own with ``--icc PATH`` (ask them:
often ISO Coated v2 / FOGRA39, which is not free to redistribute).
"""

from __future__ import annotations

import hashlib
import io
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from mhp_cards.errors import KitError, TypesetError

__all__ = ["ICC_SEARCH", "IccProfile", "find_icc", "read_icc", "to_pdfx"]

#: Where a free CMYK output profile is looked for when none is given (Debian's Ghostscript).
ICC_SEARCH: Final = (
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/usr/share/ghostscript/iccprofiles/default_cmyk.icc"),
)
#: reportlab's invariant documents are dated so; the XMP says the same.
_DATE: Final = "2000-01-01T00:00:00Z"


class IccProfile:
    """A CMYK output profile read from a file: its bytes and its description."""

    def __init__(self, path: Path, data: bytes, description: str) -> None:
        self.path = path
        self.data = data
        self.description = description


def _problem(message: str) -> KitError:
    return KitError([TypesetError("PDF/X-4", "output intent", message)])


def read_icc(path: Path) -> IccProfile:
    """An ICC profile of a CMYK printer; KitError when the file is not one."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise _problem(f"cannot read the ICC profile {path}: {error.strerror}") from None
    if len(data) < 132 or data[36:40] != b"acsp":
        raise _problem(f"{path} is not an ICC profile (no 'acsp' signature)")
    if data[16:20] != b"CMYK":
        space = data[16:20].decode("latin-1").strip()
        raise _problem(f"{path} is a {space} profile; PDF/X-4 for this kit needs a CMYK one")
    return IccProfile(path, data, _description(data) or path.stem)


def _description(data: bytes) -> str:
    """The profile's 'desc' tag (ICC v2 text description or v4 multi-localised text)."""
    count = struct.unpack(">I", data[128:132])[0]
    for index in range(count):
        signature, offset, size = struct.unpack(">4sII", data[132 + 12 * index : 144 + 12 * index])
        if signature != b"desc":
            continue
        tag = data[offset : offset + size]
        if tag[:4] == b"desc":
            length = struct.unpack(">I", tag[8:12])[0]
            return tag[12 : 12 + length].split(b"\0")[0].decode("latin-1").strip()
        if tag[:4] == b"mluc":
            record_offset = struct.unpack(">I", tag[24:28])[0]
            record_length = struct.unpack(">I", tag[20:24])[0]
            text = tag[record_offset : record_offset + record_length]
            return text.decode("utf-16-be", "replace").strip("\0 ")
    return ""


def find_icc(given: Path | None = None, search: Sequence[Path] = ICC_SEARCH) -> IccProfile:
    """The profile given, else the first free one installed; KitError saying how to get one."""
    if given is not None:
        return read_icc(given)
    for path in search:
        if path.is_file():
            return read_icc(path)
    raise _problem(
        "no CMYK ICC profile for the output intent: install Debian's ghostscript (its "
        "libgs-common has default_cmyk.icc) or give your print shop's profile with --icc PATH"
    )


def _xmp(title: str, document_id: str) -> bytes:
    title = title.replace("&", "&amp;").replace("<", "&lt;")
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreateDate>{_DATE}</xmp:CreateDate>
   <xmp:ModifyDate>{_DATE}</xmp:ModifyDate>
   <xmp:MetadataDate>{_DATE}</xmp:MetadataDate>
   <xmp:CreatorTool>mhp-cards</xmp:CreatorTool>
   <xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdf:Producer>mhp-cards (ReportLab, pypdf)</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>""".encode()


def to_pdfx(data: bytes, title: str, icc: IccProfile) -> bytes:
    """The CMYK PDF ``data`` as PDF/X-4 with ``icc`` as its output intent (same bytes in, out)."""
    try:  # pypdf is the optional 'prepress' extra: imported only when a PDF/X is asked for
        from pypdf import PdfReader, PdfWriter  # noqa: PLC0415
        from pypdf.generic import (  # noqa: PLC0415
            ArrayObject,
            DecodedStreamObject,
            DictionaryObject,
            NameObject,
            NumberObject,
            TextStringObject,
        )
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise _problem("PDF/X-4 needs pypdf: pip install 'mhp-cards[prepress]'") from None
    reader = PdfReader(io.BytesIO(data))
    writer = PdfWriter(clone_from=reader)
    writer.pdf_header = b"%PDF-1.6"
    digest = hashlib.sha256(data).hexdigest()
    document_id = f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"

    profile = DecodedStreamObject()
    profile.set_data(icc.data)
    profile[NameObject("/N")] = NumberObject(4)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFX"),
            NameObject("/OutputConditionIdentifier"): TextStringObject("Custom"),
            NameObject("/OutputCondition"): TextStringObject(icc.description),
            NameObject("/Info"): TextStringObject(icc.description),
            NameObject("/RegistryName"): TextStringObject(""),
            NameObject("/DestOutputProfile"): writer._add_object(profile),
        }
    )
    root = writer._root_object
    root[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    metadata = DecodedStreamObject()
    metadata.set_data(_xmp(title, document_id))
    metadata[NameObject("/Type")] = NameObject("/Metadata")
    metadata[NameObject("/Subtype")] = NameObject("/XML")
    root[NameObject("/Metadata")] = writer._add_object(metadata)
    info = writer._info.get_object() if writer._info is not None else None
    if isinstance(info, DictionaryObject):
        info[NameObject("/Trapped")] = NameObject("/False")
        info[NameObject("/GTS_PDFXVersion")] = TextStringObject("PDF/X-4")
    for page in writer.pages:
        if "/TrimBox" not in page:  # a page read, not cut: its trim is the sheet
            page[NameObject("/TrimBox")] = page.mediabox
    original_id = reader.trailer.get("/ID")
    if original_id is not None:
        writer._ID = original_id  # the same document as the one rendered: reproducible
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
