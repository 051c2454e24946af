#!/usr/bin/env python3
"""An RP2040 firmware ELF as a UF2 file (Microsoft's USB flashing format, as
the Pico's boot ROM takes it by drag-and-drop), and its size.

    scripts/uf2.py IN.elf OUT.uf2

Every loadable segment with bytes in the Pico's flash (0x10000000, 2 MiB) is
written in 256-byte blocks, each in a 512-byte UF2 block carrying the RP2040's
family ID (0xe48bff56). Prints the flash and RAM the image takes. Standard
library only."""

import struct
import sys

FLASH = (0x10000000, 0x10000000 + 2 * 1024 * 1024)
RAM = (0x20000000, 0x20042000)
FAMILY_RP2040 = 0xE48BFF56
MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FLAG_FAMILY = 0x00002000


def segments(elf):
    """(physical address, file bytes, memory size, virtual address) of each PT_LOAD."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        sys.exit("not a 32-bit little-endian ELF file")
    (phoff,) = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    for i in range(phnum):
        p_type, offset, vaddr, paddr, filesz, memsz = struct.unpack_from(
            "<IIIIII", elf, phoff + i * phentsize
        )
        if p_type == 1:
            yield paddr, elf[offset : offset + filesz], memsz, vaddr


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    elf = open(sys.argv[1], "rb").read()
    pages = {}
    flash_bytes = ram_bytes = 0
    for paddr, data, memsz, vaddr in segments(elf):
        if RAM[0] <= vaddr < RAM[1]:
            ram_bytes += memsz
        if not data:
            continue
        if not FLASH[0] <= paddr and paddr + len(data) <= FLASH[1]:
            sys.exit(f"a segment at {paddr:#x} is outside the Pico's flash")
        flash_bytes += len(data)
        for i, b in enumerate(data):
            a = paddr + i
            pages.setdefault(a & ~0xFF, bytearray(256))[a & 0xFF] = b
    if not pages or min(pages) != FLASH[0]:
        sys.exit("the image does not start at the flash's first byte (no boot2)")
    out = bytearray()
    for n, addr in enumerate(sorted(pages)):
        block = struct.pack(
            "<IIIIIIII", MAGIC[0], MAGIC[1], FLAG_FAMILY, addr, 256, n, len(pages), FAMILY_RP2040
        )
        block += pages[addr] + bytes(476 - 256) + struct.pack("<I", MAGIC[2])
        out += block
    open(sys.argv[2], "wb").write(out)
    print(f"flash {flash_bytes} bytes ({flash_bytes / 1024:.1f} KiB of 2048), RAM {ram_bytes} bytes "
          f"({ram_bytes / 1024:.1f} KiB of 264); {len(pages)} UF2 blocks")


main()
