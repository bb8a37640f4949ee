#!/usr/bin/env python3
"""Checks of the HTML reports as a browser shows them (tests/cli/html_reports.sh).

  html_check.py png FILE                     the screenshot is not blank
  html_check.py floorplan DOM CHIPLETS LINKS MEMORIES
  html_check.py report DOM REPORT.json        figures shown equal report.json's
  html_check.py validation DOM VALIDATION.json
Exits 1 with a message on the first failed check.
"""
import json
import re
import struct
import sys
import zlib


def fail(msg):
    print("FAIL", msg)
    sys.exit(1)


def png_pixels(path):
    """Decodes an 8-bit RGB or RGBA PNG (what Chromium writes) into rows of bytes."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                fail(f"{path}: unexpected PNG depth {depth} / colour type {colour}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def check_png(path):
    width, height, channels, rows = png_pixels(path)
    inked = colours = 0
    seen = set()
    for row in rows[::4]:
        for x in range(0, width * channels, channels * 4):
            px = row[x:x + 3]
            seen.add(px)
            if px != b"\xff\xff\xff":
                inked += 1
    colours = len(seen)
    sampled = len(rows[::4]) * len(range(0, width * channels, channels * 4))
    # A page of text, bars and a floorplan inks a few percent of it in many colours.
    if inked < 0.02 * sampled or colours < 8:
        fail(f"{path}: looks blank ({inked} of {sampled} sampled pixels inked, {colours} colours)")
    print(f"ok {path}: {100.0 * inked / sampled:.1f}% inked, {colours} colours")


def count(dom, cls):
    return len(re.findall(r'class="%s"' % cls, dom))


def num(v, d):
    """The report's number format (svg_num): fixed decimals, trailing zeros dropped."""
    s = f"{v:.{d}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def check_floorplan(dom_path, chiplets, links, memories):
    dom = open(dom_path).read()
    got = (count(dom, "chiplet"), count(dom, "link"), count(dom, "dram"))
    if got != (chiplets, links, memories):
        fail(f"{dom_path}: floorplan has {got} chiplets/links/memories, expected {(chiplets, links, memories)}")
    print(f"ok {dom_path}: {chiplets} chiplets, {links} links, {memories} memories drawn")


def cells(dom, table_id):
    table = re.search(r'<table id="%s">(.*?)</table>' % table_id, dom, re.S)
    if not table:
        fail(f"no table {table_id}")
    return [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)]


def unescape(s):
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def check_report(dom_path, report_path):
    dom, r = open(dom_path).read(), json.load(open(report_path))
    summary = {row[0]: row[1] for row in cells(dom, "summary")}
    if summary["latency"] != num(r["latency_ns"] / 1e3, 3) + " µs":
        fail(f"latency shown {summary['latency']}, report.json {r['latency_ns']} ns")
    if summary["energy"] != num(r["energy_pj"] / 1e6, 3) + " µJ":
        fail(f"energy shown {summary['energy']}, report.json {r['energy_pj']} pJ")
    rows = [row for row in cells(dom, "layers") if row]
    if len(rows) != len(r["layers"]):
        fail(f"{len(rows)} layer rows, report.json has {len(r['layers'])}")
    for row, l in zip(rows, r["layers"]):
        want = [l["name"], num(l["latency_ns"] / 1e3, 3), num(l["energy_pj"] / 1e6, 3), num(l["compute_ns"] / 1e3, 3),
                num(l["comm_ns"] / 1e3, 3), num(l["dram_ns"] / 1e3, 3)]
        if [unescape(c) for c in row[:6]] != want:
            fail(f"layer row {row} differs from report.json {want}")
    print(f"ok {dom_path}: summary and {len(rows)} layer rows equal report.json's")


def check_validation(dom_path, validation_path):
    dom, v = open(dom_path).read(), json.load(open(validation_path))
    rows = [row for row in cells(dom, "layers") if row]
    if len(rows) != len(v["layers"]):
        fail(f"{len(rows)} layer rows, validation.json has {len(v['layers'])}")
    for row, l in zip(rows, v["layers"]):
        if row[1] != num(l["analytical_ns"] / 1e3, 3) or row[2] != num(l["simulated_ns"] / 1e3, 3):
            fail(f"layer row {row} differs from validation.json {l}")
    if dom.count("<svg ") < 3:
        fail("validation page lacks its charts")
    print(f"ok {dom_path}: {len(rows)} layer rows equal validation.json's")


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "png":
        check_png(sys.argv[2])
    elif what == "floorplan":
        check_floorplan(sys.argv[2], *map(int, sys.argv[3:6]))
    elif what == "report":
        check_report(sys.argv[2], sys.argv[3])
    elif what == "validation":
        check_validation(sys.argv[2], sys.argv[3])
    else:
        fail("unknown check " + what)
