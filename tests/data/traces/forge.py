#!/usr/bin/env python3
"""forge.py -- rewrite a trace's header or last mark, recomputing its CRC-32,
for the forged traces here (tests/limits.sh): a header that names a machine
far larger than the records belong to, or a mark whose range of nodes is.

  forge.py IN OUT cube DIMENSIONS       the cube's dimension
  forge.py IN OUT complete PROCESSORS   the complete graph's processors
  forge.py IN OUT mark NODES            the last mark: nodes 0..NODES-1

Layout: traces/FORMAT.md (the header's axes, nodes and links at bytes
20, 24 and 28; a mark is the last 24 bytes before the checksum, its node
and node count at 12 and 16; the checksum is zlib's CRC-32 of the rest).
"""
import struct
import sys
import zlib

src, dst, what, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
d = bytearray(open(src, 'rb').read())
if d[:8] != b'\x89CUBETR\n':
    sys.exit(f'{src}: not a trace')
if what == 'cube':
    struct.pack_into('<III', d, 20, n, 1 << n, n)
elif what == 'complete':
    struct.pack_into('<III', d, 20, 0, n, n)
elif what == 'mark':
    struct.pack_into('<II', d, len(d) - 4 - 24 + 12, 0, n)
else:
    sys.exit(f'unknown field {what}')
struct.pack_into('<I', d, len(d) - 4, zlib.crc32(bytes(d[:-4])) & 0xffffffff)
open(dst, 'wb').write(d)
