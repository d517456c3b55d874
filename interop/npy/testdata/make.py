"""Writes the .npy and .npz files of this folder, byte by byte, from numpy's
format specification (numpy.lib.format, NEP 1), without numpy.

A .npy file is the magic string b"\\x93NUMPY", the format version (1, 0),
the header length as a little-endian uint16, and the header: the repr of a
dict with keys 'descr', 'fortran_order' and 'shape' in that order, padded
with spaces and ended by a newline so that the data starts at a multiple
of 64 bytes, as numpy pads it. The elements follow in C order (the last
index fastest) or, where fortran_order is True, in Fortran order (the first
index fastest), in the byte order the descr names. An .npz file is a zip
archive of .npy files named after the arrays.

Element k of each array, counting in the file's order, is value(kind, k)
below; the Go tests compute the same values to check what they read.

Run: python3 make.py (from this folder). The files are committed; the
script documents how they were made.
"""
import struct
import zipfile


def header(descr, fortran, shape):
    if len(shape) == 1:
        s = "(%d,)" % shape[0]
    else:
        s = "(" + ", ".join(str(e) for e in shape) + ")"
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", s)
    n = 10 + len(d) + 1
    pad = (64 - n % 64) % 64
    h = d + " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode("latin1")


def value(kind, k):
    if kind == "b":
        return k % 3 == 0
    if kind in "iu":
        return k * 7 - (20 if kind == "i" else 0) + 20 * (kind == "u")
    if kind == "f":
        return k * 1.5 - 2.25
    return complex(k * 0.5, -k * 2.0)


def npy(descr, fortran, shape):
    order, kind, size = descr[0], descr[1], int(descr[2:])
    n = 1
    for e in shape:
        n *= e
    end = ">" if order == ">" else "<"
    code = {("b", 1): "?", ("i", 1): "b", ("i", 2): "h", ("i", 4): "i",
            ("i", 8): "q", ("u", 1): "B", ("u", 2): "H", ("u", 4): "I",
            ("u", 8): "Q", ("f", 4): "f", ("f", 8): "d", ("c", 8): "ff",
            ("c", 16): "dd"}[(kind, size)]
    data = b""
    for k in range(n):
        x = value(kind, k)
        if kind == "c":
            data += struct.pack(end + code, x.real, x.imag)
        else:
            data += struct.pack(end + code, x)
    return header(descr, fortran, shape) + data


FILES = {
    "f8_c_2x3.npy": ("<f8", False, (2, 3)),
    "i4_f_3x2.npy": ("<i4", True, (3, 2)),
    "b1_5.npy": ("|b1", False, (5,)),
    "c16_scalar.npy": ("<c16", False, ()),
    "f4_be_2x2x2.npy": (">f4", False, (2, 2, 2)),
    "u2_2x0x3.npy": ("<u2", False, (2, 0, 3)),
}

if __name__ == "__main__":
    for name, args in FILES.items():
        with open(name, "wb") as f:
            f.write(npy(*args))
    for name, method in (("arrays.npz", zipfile.ZIP_STORED),
                         ("arrays_compressed.npz", zipfile.ZIP_DEFLATED)):
        with zipfile.ZipFile(name, "w", method) as z:
            for entry, args in (("a.npy", ("<f8", False, (2, 3))),
                                ("b.npy", ("<i8", False, (4,)))):
                info = zipfile.ZipInfo(entry, date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = method
                z.writestr(info, npy(*args))
