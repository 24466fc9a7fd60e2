#!/usr/bin/env python3
# pdedit.py: damages a perf.data file for the tests, one way at a time.
#   pdedit.py count FILE              records in the data section
#   pdedit.py size FILE N SIZE        the Nth record's size field set to SIZE
#   pdedit.py offset FILE N           the Nth record's offset
#   pdedit.py near FILE BYTES         the first record less than BYTES before the data's end
#   pdedit.py ids FILE                the first event's ids changed (no sample matches)
#   pdedit.py attrsize FILE SIZE      the header's attr_size set to SIZE
#   pdedit.py tid FILE N PID TID      the Nth sample's PID and TID (of the
#                                     first event's layout; -1 is -1)
#   pdedit.py hostname FILE NAME      the HOSTNAME feature's string set to NAME
#   pdedit.py osrelease FILE NAME     the OSRELEASE feature's string set to NAME
#                                     (no longer than the one it replaces)
import struct, sys

def header(b):
    size, attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQQ', b, 8)
    return attr_size, ao, asz, do, dsz

def records(b):
    _, _, _, do, dsz = header(b)
    off, end = do, do + dsz
    while off + 8 <= end:
        size = struct.unpack_from('<H', b, off + 6)[0]
        if size < 8:
            break
        yield off
        off += size

def feature(b, feat):
    """The (offset, size) of feature section feat."""
    _, _, _, do, dsz = header(b)
    bits = struct.unpack_from('<4Q', b, 72)
    set_ = [f for f in range(256) if bits[f // 64] >> (f % 64) & 1]
    if feat not in set_:
        sys.exit('pdedit.py: the file has no feature %d' % feat)
    return struct.unpack_from('<QQ', b, do + dsz + 16 * set_.index(feat))

cmd, name = sys.argv[1], sys.argv[2]
b = bytearray(open(name, 'rb').read())
if cmd == 'count':
    print(sum(1 for _ in records(b)))
    sys.exit(0)
if cmd == 'near':
    _, _, _, do, dsz = header(b)
    print(next(i for i, o in enumerate(records(b)) if do + dsz - o < int(sys.argv[3])))
    sys.exit(0)
if cmd == 'offset':
    print(list(records(b))[int(sys.argv[3])])
    sys.exit(0)
if cmd == 'size':
    off = list(records(b))[int(sys.argv[3])]
    struct.pack_into('<H', b, off + 6, int(sys.argv[4]))
elif cmd == 'ids':
    attr_size, ao, _, _, _ = header(b)
    io, isz = struct.unpack_from('<QQ', b, ao + attr_size - 16)
    for k in range(isz // 8):
        struct.pack_into('<Q', b, io + 8 * k, 0xdead0000 + k)
elif cmd in ('hostname', 'osrelease'):
    off, _ = feature(b, 3 if cmd == 'hostname' else 4)
    n = struct.unpack_from('<I', b, off)[0]
    new = sys.argv[3].encode()
    if len(new) >= n:
        sys.exit('pdedit.py: %s is longer than the %d bytes there' % (cmd, n))
    b[off + 4:off + 4 + n] = new + bytes(n - len(new))
elif cmd == 'tid':
    _, ao, _, _, _ = header(b)
    st = struct.unpack_from('<Q', b, ao + 24)[0]
    at = 8 + 8 * (st >> 16 & 1) + 8 * (st & 1)  # IDENTIFIER, IP
    if not st & 2:
        sys.exit('pdedit.py: the samples have no TID')
    off = [o for o in records(b)
           if struct.unpack_from('<I', b, o)[0] == 9][int(sys.argv[3])]
    struct.pack_into('<ii', b, off + at, int(sys.argv[4]), int(sys.argv[5]))
elif cmd == 'attrsize':
    struct.pack_into('<Q', b, 16, int(sys.argv[3]))
else:
    sys.exit('pdedit.py: unknown command ' + cmd)
open(name, 'wb').write(b)
