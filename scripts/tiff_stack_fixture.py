"""Writes tests/programs/io/tiffread_stack_fixture.tif: a 3-page, uncompressed, 16-bit
grayscale TIFF (little-endian), 2 rows x 3 columns per page, page k holding
1000 k + [[0, 1, 2], [3, 4, 5]] (page 2's last pixel is 65535). Written byte by byte
from the TIFF 6.0 baseline layout, independent of the TIFF code Blazar uses."""
import struct
import sys

ROWS, COLS = 2, 3


def page(k):
    vals = [1000 * k + i for i in range(ROWS * COLS)]
    if k == 2:
        vals[-1] = 65535
    return vals


def main(path):
    pages = [page(k) for k in range(3)]
    out = bytearray(b"II*\x00" + struct.pack("<I", 0))
    first_ifd_at = 4
    for k, vals in enumerate(pages):
        data_at = len(out)
        out += struct.pack("<%dH" % len(vals), *vals)
        if len(out) % 2:
            out += b"\x00"
        ifd_at = len(out)
        struct.pack_into("<I", out, first_ifd_at, ifd_at)
        tags = [
            (256, 3, 1, COLS),  # ImageWidth
            (257, 3, 1, ROWS),  # ImageLength
            (258, 3, 1, 16),  # BitsPerSample
            (259, 3, 1, 1),  # Compression: none
            (262, 3, 1, 1),  # Photometric: black is zero
            (273, 4, 1, data_at),  # StripOffsets
            (277, 3, 1, 1),  # SamplesPerPixel
            (278, 3, 1, ROWS),  # RowsPerStrip
            (279, 4, 1, 2 * ROWS * COLS),  # StripByteCounts
        ]
        out += struct.pack("<H", len(tags))
        for tag, typ, count, value in tags:
            if typ == 3:
                out += struct.pack("<HHIHH", tag, typ, count, value, 0)
            else:
                out += struct.pack("<HHII", tag, typ, count, value)
        first_ifd_at = len(out)
        out += struct.pack("<I", 0)
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main(sys.argv[1])
