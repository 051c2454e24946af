#!/usr/bin/env python3
"""The peg board's wiring drawing, docs/hardware/wiring.svg, from
firmware/peg-board/pins.toml (the file the firmware is built from), so the
drawing and the firmware cannot disagree; tests/project/hardware_docs.rs
checks the committed drawing is this script's output.

    python3 scripts/wiring_svg.py > docs/hardware/wiring.svg

Drawn: the Pico's GPIOs; eight row lines (ranks 1-8) and eight column lines
(files a-h) crossing under the board, a switch and a diode at each crossing
(four drawn in full, the rest as dots); the frame buttons from their GPIO to
ground; UART0 on GPIO 0 and 1. Standard library only."""

import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
text = (root / "firmware/peg-board/pins.toml").read_text()


def pins(key):
    m = re.search(rf"^{key}\s*=\s*\[([0-9,\s]*)\]", text, re.M)
    if not m:
        sys.exit(f"pins.toml has no {key}")
    return [int(x) for x in m.group(1).split(",") if x.strip()]


rows, cols, buttons = pins("rows"), pins("cols"), pins("buttons")
W, H = 1000, 720
GRID_X, GRID_Y, STEP = 330, 110, 58
out = []
w = out.append
w(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
  'role="img" aria-labelledby="title desc" font-family="sans-serif" font-size="13">')
w('<title id="title">Wiring of the tactus peg board</title>')
w('<desc id="desc">A Raspberry Pi Pico drives eight row lines, one per rank, '
  f'on GPIO {", ".join(map(str, rows))} (rank 1 to 8), and reads eight column lines, one per file, '
  f'on GPIO {", ".join(map(str, cols))} (file a to h). Under every hole a switch and a diode in series join its '
  'row and its column, the diode\'s cathode towards the row. '
  f'Frame buttons 1 to {len(buttons)} join GPIO {", ".join(map(str, buttons))} to ground. '
  'GPIO 0 and 1 are the serial port (UART0 TX and RX); the USB socket carries power and the same serial lines.</desc>')
w(f'<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>')
# The Pico.
w('<rect x="30" y="60" width="150" height="620" rx="8" fill="#e8f3e8" stroke="#1b5e20" stroke-width="2"/>')
w('<text x="105" y="50" text-anchor="middle" font-weight="bold">Raspberry Pi Pico</text>')
w('<text x="105" y="705" text-anchor="middle">USB: power and serial</text>')
w('<text x="40" y="640">GP0 UART0 TX</text>')
w('<text x="40" y="656">GP1 UART0 RX</text>')


def pin_y(i):
    return GRID_Y + i * STEP


# Rows: horizontal lines from the Pico across the grid.
for i, g in enumerate(rows):
    yy = pin_y(i)
    w(f'<text x="40" y="{yy + 4}">GP{g}</text>')
    w(f'<line x1="180" y1="{yy}" x2="{GRID_X + 7 * STEP + 30}" y2="{yy}" stroke="#b71c1c" stroke-width="2"/>')
    w(f'<text x="{GRID_X + 7 * STEP + 36}" y="{yy + 4}" fill="#b71c1c">rank {i + 1} (row {i})</text>')
# Columns: vertical lines, wired to the Pico along the bottom.
bottom = GRID_Y + 7 * STEP + 40
for j, g in enumerate(cols):
    xx = GRID_X + j * STEP
    w(f'<line x1="{xx}" y1="{GRID_Y - 30}" x2="{xx}" y2="{bottom + 10 + 6 * j}" stroke="#0d47a1" stroke-width="2"/>')
    w(f'<line x1="180" y1="{bottom + 10 + 6 * j}" x2="{xx}" y2="{bottom + 10 + 6 * j}" stroke="#0d47a1" stroke-width="1.5"/>')
    w(f'<text x="{xx}" y="{GRID_Y - 36}" text-anchor="middle" fill="#0d47a1">{"abcdefgh"[j]}</text>')
    w(f'<text x="{xx}" y="{GRID_Y - 52}" text-anchor="middle" fill="#0d47a1" font-size="11">GP{g}</text>')
w(f'<text x="40" y="{bottom + 20}">GP{cols[0]}..GP{cols[-1]}:</text>')
w(f'<text x="40" y="{bottom + 36}">files a..h</text>')
# A switch and a diode at each crossing: four in full, the rest as dots.
full = {(0, 0), (0, 1), (1, 0), (1, 1)}
for i in range(8):
    for j in range(8):
        x, yy = GRID_X + j * STEP, pin_y(i)
        if (i, j) in full:
            # From the column down-left to the row: switch, then diode.
            w(f'<g stroke="black" stroke-width="1.5" fill="none">'
              f'<line x1="{x}" y1="{yy - 26}" x2="{x - 10}" y2="{yy - 26}"/>'
              f'<line x1="{x - 10}" y1="{yy - 26}" x2="{x - 22}" y2="{yy - 34}"/>'
              f'<line x1="{x - 24}" y1="{yy - 26}" x2="{x - 30}" y2="{yy - 26}"/>'
              f'<line x1="{x - 30}" y1="{yy - 26}" x2="{x - 30}" y2="{yy - 18}"/>'
              f'<polygon points="{x - 36},{yy - 18} {x - 24},{yy - 18} {x - 30},{yy - 8}" fill="black"/>'
              f'<line x1="{x - 36}" y1="{yy - 8}" x2="{x - 24}" y2="{yy - 8}"/>'
              f'<line x1="{x - 30}" y1="{yy - 8}" x2="{x - 30}" y2="{yy}"/></g>')
        else:
            w(f'<circle cx="{x - 15}" cy="{yy - 15}" r="2.5" fill="#555"/>')
w(f'<text x="{GRID_X - 40}" y="{GRID_Y - 80}" font-size="12">each hole: a switch (reed or contact) and a diode, cathode to the row</text>')
# Buttons.
bx, by = 330, bottom + 80
w(f'<text x="{bx}" y="{by}" font-weight="bold">frame buttons, each from its GPIO to ground:</text>')
for n, g in enumerate(buttons):
    w(f'<text x="{bx + (n % 5) * 110}" y="{by + 22 + (n // 5) * 20}">B{n + 1}: GP{g}</text>')
w(f'<text x="{bx}" y="{by + 70}" font-size="12">rows driven low one at a time; columns and buttons read with the RP2040\'s pull-ups</text>')
w('</svg>')
print("\n".join(out))
