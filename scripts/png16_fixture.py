"""Writes the 16-bit PNG fixtures of tests/programs/io/imread_raw.q with the standard library
only (zlib, struct), independently of the image crate Blazar reads them with: a gray 3x4
image and an RGB 2x3 one. Usage: python3 scripts/png16_fixture.py tests/programs/io/imread_raw_fixture
"""
import struct, zlib, sys
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png16(path, rows, channels):
    h, w = len(rows), len(rows[0]) // channels
    ctype = 0 if channels == 1 else 2
    raw = b"".join(b"\x00" + b"".join(struct.pack(">H", v) for v in r) for r in rows)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, ctype, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)
png16(sys.argv[1] + "_gray16.png", [[0, 1, 255, 256], [1000, 4095, 32768, 40000], [65534, 65535, 12345, 7]], 1)
png16(sys.argv[1] + "_rgb16.png", [[65535, 0, 0, 0, 65535, 0, 0, 0, 65535], [1, 2, 3, 30000, 40000, 50000, 256, 512, 1024]], 3)
