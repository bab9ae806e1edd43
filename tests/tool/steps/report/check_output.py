#!/usr/bin/env python3
"""Checks for report_peer_test, standard library only.

  check_output.py svg FILE               the file parses as XML with an <svg> root, every text lies
                                         inside its width (estimated); prints counts
  check_output.py png FILE [RRGGBB ...]  the PNG decodes, is not blank, and holds each colour
  check_output.py csv FILE               loads as a table (pandas when installed, else the csv
                                         module); prints its columns and one line per row
"""
import csv
import struct
import os
import sys
import xml.etree.ElementTree as ElementTree
import zlib

SVG = "{http://www.w3.org/2000/svg}"


# DejaVu Sans averages about 0.55 em a character; a little more keeps the check on the safe side.
CHARACTER_WIDTH = 0.6


def texts_outside(element, width, dx=0.0):
    """Texts whose estimated extent leaves [0, width], under the groups' translations."""
    transform = element.get("transform", "")
    if transform.startswith("translate("):
        dx += float(transform[len("translate("):].split(",")[0])
    out = []
    if element.tag == SVG + "text":
        text = element.text or ""
        extent = len(text) * float(element.get("font-size", "12")) * CHARACTER_WIDTH
        x = dx + float(element.get("x", "0"))
        left = {"start": x, "middle": x - extent / 2, "end": x - extent}[element.get("text-anchor", "start")]
        if left < -0.5 or left + extent > width + 0.5:
            out.append(f"{text!r} spans {left:.0f} to {left + extent:.0f} of {width:.0f}")
    for child in element:
        out += texts_outside(child, width, dx)
    return out


def check_svg(path):
    root = ElementTree.parse(path).getroot()
    if root.tag != SVG + "svg":
        sys.exit(f"{path}: root element is {root.tag}, not svg")
    rects = len(root.findall(f".//{SVG}rect"))
    # A curve's polyline carries its point as a tooltip; a legend's swatch does not.
    curves = [p for p in root.iter(SVG + "polyline") if p.find(SVG + "title") is not None]
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    print(f"svg rects={rects} curves={len(curves)} texts={len(texts)}")
    for text in texts:
        print("text:", text)
    outside = texts_outside(root, float(root.get("width")))
    if outside:
        sys.exit(f"{path}: text cut at the edge:\n  " + "\n  ".join(outside))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def decode_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        sys.exit(f"{path}: PNG depth {depth} colour type {colour} interlace {interlace} not handled")
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            line[i] = (line[i] + [0, left, up, (left + up) // 2, paeth(left, up, corner)][kind]) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def check_png(path, wanted):
    width, height, channels, rows = decode_png(path)
    colours, non_white = {}, 0
    for line in rows:
        for x in range(0, len(line), channels):
            pixel = tuple(line[x:x + 3])
            colours[pixel] = colours.get(pixel, 0) + 1
            if pixel != (255, 255, 255):
                non_white += 1
    share = non_white / (width * height)
    print(f"png {width}x{height} colours={len(colours)} non_white={share:.3f}")
    if len(colours) < 3 or share < 0.005:
        sys.exit(f"{path}: blank ({len(colours)} colours, {share:.4f} not white)")
    for hex_colour in wanted:
        target = tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))
        count = sum(n for c, n in colours.items() if max(abs(a - b) for a, b in zip(c, target)) <= 6)
        print(f"colour {hex_colour}: {count} pixels")
        if count < 50:
            sys.exit(f"{path}: colour #{hex_colour} missing ({count} pixels)")


def check_csv(path):
    try:
        import pandas  # what a user loads it with; scripts/setup.sh installs it
        frame = pandas.read_csv(path, keep_default_na=False, dtype=str)
        columns, rows = list(frame.columns), frame.values.tolist()
    except ImportError:
        if os.environ.get("CI"):
            sys.exit("pandas is not installed (scripts/setup.sh installs it)")
        with open(path, newline="") as f:
            table = list(csv.reader(f))
        columns, rows = table[0], table[1:]
    print("columns:", ",".join(columns))
    for row in rows:
        if len(row) != len(columns):
            sys.exit(f"{path}: a row of {len(row)} fields under {len(columns)} columns")
        print("row:", " ".join(f"{c}={v}" for c, v in zip(columns, row) if v != ""))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "svg":
        check_svg(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "csv":
        check_csv(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "png":
        check_png(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
