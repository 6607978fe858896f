#!/usr/bin/env python3
"""Build an N-page scanned PDF (default 40) from the real scanned pages of the
NHAI circulars in shared/corpora/pdfs_mixed/nhai_circulars_scanned.

Each page image is taken out as stored with `pdfimages -all` (poppler-utils);
the JPEG pages are cycled in order to fill N pages, each embedded unchanged
(DCTDecode) on an A4 page. Every page's content stream names its page number,
so no two pages share an OCR cache key: an index of the file recognises all N.

Usage: make-scan-pdf.py OUT.pdf [--pages N] [--source DIR]
Needs: python3 (stdlib only), pdfimages.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(HERE, "../../shared/corpora/pdfs_mixed/nhai_circulars_scanned")
A4 = (595, 842)


def jpeg_size(data):
    """(width, height, components) from a JPEG's SOF marker."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            return w, h, data[i + 9]
        i += 2 + length
    raise ValueError("no SOF marker")


def page_images(source, work):
    images = []
    for pdf in sorted(glob.glob(os.path.join(source, "*.pdf"))):
        prefix = os.path.join(work, os.path.basename(pdf)[:-4])
        subprocess.run(["pdfimages", "-all", pdf, prefix], check=True)
    for path in sorted(glob.glob(os.path.join(work, "*.jpg"))):
        with open(path, "rb") as f:
            data = f.read()
        w, h, comps = jpeg_size(data)
        if w > 1000 and h > 1000:
            images.append((data, w, h, comps))
    if not images:
        sys.exit("no scanned JPEG pages found in " + source)
    return images


def build(images, pages):
    objects = []  # object bodies, 1-based ids

    def add(body):
        objects.append(body)
        return len(objects)

    catalog = add(None)
    tree = add(None)
    kids = []
    for n in range(pages):
        data, w, h, comps = images[n % len(images)]
        cs = "/DeviceRGB" if comps == 3 else "/DeviceGray"
        img = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s "
                  b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n" % (w, h, cs.encode(), len(data))
                  + data + b"\nendstream")
        content = b"%% scanned page %d\nq %d 0 0 %d 0 0 cm /Im0 Do Q\n" % (n + 1, A4[0], A4[1])
        stream = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream")
        page = add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Resources << /XObject << /Im0 %d 0 R >> >> "
                   b"/Contents %d 0 R >>" % (tree, A4[0], A4[1], img, stream))
        kids.append(page)
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    objects[tree - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    return bytes(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--pages", type=int, default=40)
    ap.add_argument("--source", default=DEFAULT_SOURCE)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        images = page_images(args.source, work)
        pdf = build(images, args.pages)
    with open(args.out, "wb") as f:
        f.write(pdf)
    print(f"{args.out}: {args.pages} pages from {len(images)} scanned page images, {len(pdf)} bytes")


if __name__ == "__main__":
    main()
