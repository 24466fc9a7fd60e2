#!/usr/bin/env python3
"""elfpatch: hand-made ELF sections for t717-fgsym-openings.

  elfpatch.py strp-sup FILE        every DW_AT_name in DW_FORM_strp becomes
                                   DW_FORM_strp_sup (a string of the
                                   alternate file), in FILE's .debug_abbrev
  elfpatch.py debuglink NAME OUT [CRC]
                                   a .gnu_debuglink section naming NAME
                                   (any path, kept whole; CRC, hex, else
                                   0: none to check) into OUT
  elfpatch.py altlink NAME OUT     a .gnu_debugaltlink section naming NAME,
                                   with a made-up build ID, into OUT
"""
import struct
import sys

DW_AT_name, DW_FORM_strp, DW_FORM_strp_sup = 0x03, 0x0E, 0x1D


def uleb(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def section(data, want):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def hdr(k):
        return struct.unpack_from("<IIQQQQ", data, shoff + k * shentsize)
    stroff = hdr(shstrndx)[4]
    for k in range(shnum):
        name, _, _, _, off, size = hdr(k)
        end = data.index(b"\0", stroff + name)
        if data[stroff + name:end] == want:
            return off, size
    sys.exit("elfpatch: no section %s" % want.decode())


def strp_sup(path):
    data = bytearray(open(path, "rb").read())
    off, size = section(data, b".debug_abbrev")
    i, end, n = off, off + size, 0
    while i < end:
        code, i = uleb(data, i)
        if code == 0:
            continue
        _, i = uleb(data, i)      # tag
        i += 1                    # children
        while True:
            at, i = uleb(data, i)
            fpos = i
            form, i = uleb(data, i)
            if form == 0x21:      # DW_FORM_implicit_const
                while data[i] & 0x80:
                    i += 1
                i += 1
            if at == 0 and form == 0:
                break
            if at == DW_AT_name and form == DW_FORM_strp:
                data[fpos] = DW_FORM_strp_sup
                n += 1
    if n == 0:
        sys.exit("elfpatch: no DW_AT_name in DW_FORM_strp")
    open(path, "wb").write(data)


def main():
    if sys.argv[1] == "strp-sup":
        strp_sup(sys.argv[2])
    elif sys.argv[1] == "debuglink":
        b = sys.argv[2].encode() + b"\0"
        crc = int(sys.argv[4], 16) if len(sys.argv) > 4 else 0
        b += b"\0" * (-len(b) % 4) + struct.pack("<I", crc)
        open(sys.argv[3], "wb").write(b)
    elif sys.argv[1] == "altlink":
        b = sys.argv[2].encode() + b"\0" + bytes(range(1, 21))
        open(sys.argv[3], "wb").write(b)
    else:
        sys.exit(__doc__)


main()
