"""Small valid PDF files built by hand, for the tests and the bench: one writer of objects."""

from __future__ import annotations


def pdf_file(objects: list[bytes], *, info: int | None = None) -> bytes:
    """A PDF of ``objects`` (object 1 is the catalog) with a correct cross-reference table;
    ``info`` is the number of the document-information object, if any."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer_info = b" /Info %d 0 R" % info if info is not None else b""
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer_info,
        xref,
    )
    return bytes(out)


_PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def text_pdf(pages: list[str | None], title: str | None = None) -> bytes:
    """One Helvetica text line per page, or a drawn line where the text is None."""
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        _FONT,
    ]
    for i, text in enumerate(pages):
        content = (
            f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode() if text is not None else b"10 10 m 200 200 l S"
        )
        objects.append(_PAGE % (5 + 2 * i))
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    if title is None:
        return pdf_file(objects)
    objects.append(f"<< /Title ({title}) >>".encode())
    return pdf_file(objects, info=len(objects))


def pdf_document(streams: list[bytes], pages: list[int]) -> bytes:
    """A PDF whose page ``i`` draws the deflated content stream ``streams[pages[i]]``; pages
    may share a stream, as they may in a real file."""
    first_stream, first_page = 4, 4 + len(streams)
    kids = " ".join(f"{first_page + i} 0 R" for i in range(len(pages)))
    return pdf_file(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
            _FONT,
            *(b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(s), s) for s in streams),
            *(_PAGE % (first_stream + index) for index in pages),
        ]
    )
