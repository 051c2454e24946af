// The peg board in an emulator: the firmware's UF2 file (as a builder
// flashes it) runs in rp2040js from the RP2040's own boot ROM, in real time,
// with an 8×8 switch matrix and frame buttons wired to the GPIOs that
// pins.toml names, and a USB host and a UART peer at its ports.
//
//   node emulator.mjs --uf2 FILE --pins pins.toml [--uart FILE]
//
// Standard output carries exactly the bytes the firmware sends on its USB
// CDC serial port (what /dev/ttyACM0 would give); --uart gets the bytes it
// sends on UART0. Standard input takes one command a line:
//
//   close e4 | open e4       a switch under a hole closes (a peg seated) or opens
//   press 3 | release 3      a frame button
//   host <text>              <text>\n sent to the firmware over USB
//   uart <text>              <text>\n sent to the firmware on UART0 RX
//   serial                   the USB serial number string, read from the device
//   stats                    figures, as one JSON line on standard error
//   debug                    the USB controller's and the core's state
//   quit
//
// A command may start with "@N " (N: when it was sent, nanoseconds of the
// machine's monotonic clock, as process.hrtime gives it): it takes effect
// when the emulated clock (real time since this process started) reaches
// that moment, and never closer to the command before it than they were
// sent, however late this process reads them (a loaded machine): a peg
// lifted 30 ms after it was seated is never read in the same scan. Gaps
// over 100 ms may shrink (to no less than 100 ms) to catch up on lateness.
//
// TACTUS_EMULATOR_DEBUG=1 also says each USB request and transfer.
//
// The matrix is electrical, as the firmware sees it: a column reads low
// while a closed switch joins it to a row the firmware drives low; every
// other column and every released button reads high (the pull-up). The
// emulated clock is held to real time, so the firmware's debouncing meets
// switch changes at the pace a hand makes them; when the emulator cannot
// keep up, `stats` says by how much it fell behind.
//
// Every message on standard error is one line starting with "emulator:".

import { readFileSync, openSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { GPIOPinState, Simulator, USBCDC } from "rp2040js";
import { bootromB1 } from "./bootrom-b1.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const say = (text) => process.stderr.write(`emulator: ${text}\n`);
if (!args.uf2 || !args.pins) {
  say("usage: node emulator.mjs --uf2 FILE --pins pins.toml [--uart FILE]");
  process.exit(2);
}

// pins.toml: rows, cols and buttons as lists of GPIO numbers.
function pinList(text, key) {
  const m = text.match(new RegExp(`^${key}\\s*=\\s*\\[([0-9,\\s]*)\\]`, "m"));
  if (!m) throw new Error(`pins.toml has no ${key} = [...]`);
  return m[1].split(",").map((s) => s.trim()).filter(Boolean).map(Number);
}
const pinsText = readFileSync(args.pins, "utf8");
const ROWS = pinList(pinsText, "rows");
const COLS = pinList(pinsText, "cols");
const BUTTONS = pinList(pinsText, "buttons");

const simulator = new Simulator();
const mcu = simulator.rp2040;
// rp2040js's own messages (each register the firmware touches that it does
// not model, for one) go to standard error, errors only: standard output
// is the board's serial port.
const quiet = () => {};
mcu.logger = { debug: quiet, info: quiet, warn: quiet, error: (component, message) => say(`${component}: ${message}`) };
const clock = simulator.clock;
mcu.loadBootrom(bootromB1);

// The UF2 file, block by block, into the flash (0x10000000).
const uf2 = readFileSync(args.uf2);
if (uf2.length === 0 || uf2.length % 512) throw new Error(`${args.uf2} is not a UF2 file`);
for (let off = 0; off < uf2.length; off += 512) {
  const b = uf2.subarray(off, off + 512);
  const w = (i) => b.readUInt32LE(i * 4);
  if (w(0) !== 0x0a324655 || w(1) !== 0x9e5d5157 || b.readUInt32LE(508) !== 0x0ab16f30) {
    throw new Error(`${args.uf2}: block ${off / 512} is not a UF2 block`);
  }
  if (w(7) !== 0xe48bff56) throw new Error(`${args.uf2}: block ${off / 512} is not for the RP2040`);
  const addr = w(3);
  const size = w(4);
  mcu.flash.set(b.subarray(32, 32 + size), addr - 0x10000000);
}

// The switch matrix and the buttons.
const SQUARES = [];
for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) SQUARES.push("abcdefgh"[f] + (r + 1));
const closed = new Set();
const pressed = new Set();
// Real time (ns) and emulated time of each switch change not yet seen on a
// port, by the line the firmware should send for it.
const pending = new Map();
function wire() {
  for (let j = 0; j < 8; j++) {
    let low = false;
    for (let i = 0; i < 8 && !low; i++) {
      low = closed.has(8 * i + j) && mcu.gpio[ROWS[i]].value === GPIOPinState.Low;
    }
    mcu.gpio[COLS[j]].setInputValue(!low);
  }
  BUTTONS.forEach((g, n) => mcu.gpio[g].setInputValue(!pressed.has(n + 1)));
}
for (const g of ROWS) mcu.gpio[g].addListener(wire);
// Scans: each time the firmware drives the first row low.
let scans = 0;
mcu.gpio[ROWS[0]].addListener((state) => {
  if (state === GPIOPinState.Low) scans++;
});
wire();

// The watchdog: the firmware must feed it; each time it would restart the
// chip is counted (rp2040js leaves the restart to its user) and said.
let watchdogFired = 0;
// (rp2040js keeps it only in its map of peripherals, at its address.)
const watchdog = mcu.peripherals[0x40058];
watchdog.onWatchdogTrigger = () => {
  watchdogFired++;
  say("watchdog fired");
};

// Figures: from a switch change to its line on USB, in real and emulated
// time; how far the emulated clock fell behind real time.
const latencies = { real_ms: [], emulated_ms: [] };
let worstLagMs = 0;
let instructions = 0;
let usbBytes = 0;

// USB: rp2040js's host side of a CDC port. Its control requests are sent
// 2 ms (emulated) apart, as a real host's are (a host waits 2 ms after
// SET_ADDRESS, USB 2.0 §9.2.6.3, and sends one request a frame at most):
// rp2040js's host would send the next one 10 µs after the last one's
// status, and usb-device, seeing both in one poll, would lose the status
// (and with it the address).
const SETUP_GAP_NS = 2_000_000;
const sendSetupNow = mcu.usbCtrl.sendSetupPacket.bind(mcu.usbCtrl);
const setups = [];
const setupAlarm = clock.createAlarm(() => {
  sendSetupNow(setups.shift());
  if (setups.length) setupAlarm.schedule(SETUP_GAP_NS);
});
mcu.usbCtrl.sendSetupPacket = (packet) => {
  if (process.env.TACTUS_EMULATOR_DEBUG) say(`setup ${Buffer.from(packet).toString("hex")}`);
  setups.push(packet);
  if (setups.length === 1) setupAlarm.schedule(SETUP_GAP_NS);
};
const cdc = new USBCDC(mcu.usbCtrl);
// The device's OUT buffers are served when there is something to send, as
// a real host does: rp2040js's host answers a buffer at once (with nothing
// when it has nothing, or not at all when it is armed before the host knows
// the endpoint, as usb-device arms it at reset), and a buffer left
// unanswered is never armed again.
const cdcRead = mcu.usbCtrl.onEndpointRead;
const armed = new Map();
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (process.env.TACTUS_EMULATOR_DEBUG) say(`ep${endpoint} armed ${size}`);
  armed.set(endpoint, size);
  pump();
};
function pump() {
  for (const [endpoint, size] of armed) {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.itemCount > 0) {
      armed.delete(endpoint);
      cdcRead(endpoint, size);
    }
  }
}
let connected = false;
const toDevice = [];
const usbEnabled = mcu.usbCtrl.onUSBEnabled;
mcu.usbCtrl.onUSBEnabled = () => { if (process.env.TACTUS_EMULATOR_DEBUG) say("usb enabled"); usbEnabled(); };
const usbReset = mcu.usbCtrl.onResetReceived;
mcu.usbCtrl.onResetReceived = () => { if (process.env.TACTUS_EMULATOR_DEBUG) say("usb reset"); usbReset(); };
cdc.onDeviceConnected = () => {
  // rp2040js's host raises DTR with a request to the device, where the CDC
  // specification (and usbd-serial) has it to the communication
  // interface, as Linux sends it on opening /dev/ttyACM0: sent again here,
  // as Linux does.
  mcu.usbCtrl.sendSetupPacket(new Uint8Array([0x21, 0x22, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00]));
  connected = true;
  say("usb connected");
  for (const b of toDevice.splice(0)) cdc.sendSerialByte(b);
  pump();
};
let usbLine = "";
cdc.onSerialData = (bytes) => {
  usbBytes += bytes.length;
  process.stdout.write(Buffer.from(bytes));
  for (const b of bytes) {
    if (b !== 10) { usbLine += String.fromCharCode(b); continue; }
    const seen = pending.get(usbLine);
    if (seen) {
      latencies.real_ms.push(Number(process.hrtime.bigint() - seen.real) / 1e6);
      latencies.emulated_ms.push((clock.nanos - seen.emulated) / 1e6);
      pending.delete(usbLine);
    }
    usbLine = "";
  }
};
// The serial number: a GET_DESCRIPTOR for string 3 on endpoint 0, its
// answer taken before the CDC host (which then ignores it).
let wantSerial = false;
const cdcWrite = mcu.usbCtrl.onEndpointWrite;
mcu.usbCtrl.onEndpointWrite = (endpoint, buffer) => {
  if (process.env.TACTUS_EMULATOR_DEBUG) say(`ep${endpoint} write ${buffer.length}`);
  if (endpoint === 0 && wantSerial && buffer.length > 2 && buffer[1] === 3) {
    wantSerial = false;
    let text = "";
    for (let i = 2; i + 1 < buffer[0] && i + 1 < buffer.length; i += 2) text += String.fromCharCode(buffer[i] | (buffer[i + 1] << 8));
    say(`serial ${text}`);
    return;
  }
  cdcWrite(endpoint, buffer);
};

const uartOut = args.uart ? openSync(args.uart, "w") : null;
mcu.uart[0].onByte = (b) => {
  if (uartOut !== null) writeSync(uartOut, Buffer.from([b]));
};

// The boot ROM's own start reads the flash through the QSPI interface,
// which rp2040js does not model: the chip starts, as rp2040js's demos
// start it, at the second-stage bootloader, the first 256 bytes of the
// UF2 image (it sets up the flash and jumps to the firmware's vector
// table). The ROM's functions stay there for the firmware to call.
mcu.core.PC = 0x10000000;

// Runs the emulated chip, its clock held to real time. Executes in slices
// so the commands on standard input are read between them. A command takes
// effect when the emulated clock reaches the moment it arrived: when the
// emulation falls behind (a loaded machine), a hand's lift and put 30 ms
// apart still reach the firmware 30 ms apart, never in the same scan.
const started = process.hrtime.bigint();
const realNanos = () => Number(process.hrtime.bigint() - started);
const cycleNanos = 1e9 / 125e6;
/** @type {Array<{at: number, apply: () => void}>} */
const due = [];
function applyDue() {
  while (due.length && due[0].at <= clock.nanos) due.shift().apply();
}
function run() {
  const target = realNanos();
  let budget = 50_000;
  applyDue();
  while (clock.nanos < target && budget > 0) {
    const stop = due.length ? Math.min(target, due[0].at) : target;
    if (mcu.core.waiting) {
      const next = clock.nanosToNextAlarm;
      const until = Math.max(stop - clock.nanos, 1);
      clock.tick(next > 0 ? Math.min(next, until) : until);
      budget -= 10;
    } else {
      clock.tick(mcu.core.executeInstruction() * cycleNanos);
      instructions++;
      budget--;
    }
    applyDue();
  }
  const lagMs = (target - clock.nanos) / 1e6;
  if (lagMs > worstLagMs && target > 1e9) worstLagMs = lagMs;
  if (clock.nanos < target) setImmediate(run);
  else setTimeout(run, 1);
}
setTimeout(run, 0);
// The last timed command: when it was sent and when it took effect
// (emulated ns).
let lastSent = null;
let lastAt = null;
const SHRINKABLE_NS = 100e6;
/** Does `apply` at the command's moment (see the top of this file). */
function atNow(apply, sentNs) {
  let at = Math.max(realNanos(), clock.nanos);
  if (sentNs !== null) {
    at = Math.max(sentNs, clock.nanos);
    if (lastAt !== null) {
      const gap = Math.max(0, sentNs - lastSent);
      const late = Math.max(0, lastAt - lastSent);
      const shrink = gap > SHRINKABLE_NS ? Math.min(late, gap - SHRINKABLE_NS) : 0;
      at = Math.max(at, lastAt + gap - shrink);
    }
    lastSent = sentNs;
    lastAt = at;
  }
  if (due.length && at < due[due.length - 1].at) at = due[due.length - 1].at;
  due.push({ at, apply });
}

function pct(v, p) {
  if (!v.length) return null;
  const s = [...v].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
}

function send(text, toUart) {
  const bytes = [...Buffer.from(text + "\n")];
  if (toUart) for (const b of bytes) mcu.uart[0].feedByte(b);
  else if (connected) {
    for (const b of bytes) cdc.sendSerialByte(b);
    pump();
  } else toDevice.push(...bytes);
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (input) => {
  const timed = input.match(/^@(\d{1,20}) (.*)$/);
  // Monotonic nanoseconds as emulated time (since this process started).
  const sentNs = timed ? Number(BigInt(timed[1]) - started) : null;
  const line = timed ? timed[2] : input;
  const [cmd, arg = ""] = line.trim().split(/\s+(.*)/);
  const sq = SQUARES.indexOf(arg);
  const arrived = process.hrtime.bigint();
  // The line the firmware should send for a change, timed from when it
  // arrived (real) and when it took effect (emulated).
  const mark = (expect) => pending.set(expect, { real: arrived, emulated: clock.nanos });
  switch (cmd) {
    case "close":
    case "open":
      if (sq < 0) return say(`no such square: ${arg}`);
      return atNow(() => {
        if (cmd === "close") closed.add(sq); else closed.delete(sq);
        mark(`${cmd === "close" ? "P" : "L"} ${arg}`);
        wire();
      }, sentNs);
    case "press":
    case "release": {
      const n = Number(arg);
      if (!(n >= 1 && n <= BUTTONS.length)) return say(`no such button: ${arg}`);
      return atNow(() => {
        if (cmd === "press") { pressed.add(n); mark(`B ${n}`); } else pressed.delete(n);
        wire();
      }, sentNs);
    }
    case "host":
      return atNow(() => send(arg, false), sentNs);
    case "uart":
      return atNow(() => send(arg, true), sentNs);
    case "serial":
      wantSerial = true;
      mcu.usbCtrl.sendSetupPacket(new Uint8Array([0x80, 6, 3, 3, 0x09, 0x04, 64, 0]));
      return;
    case "debug": {
      const u = mcu.usbCtrl;
      say(`debug buffStatus=${u.buffStatus.toString(16)} intRaw=${u.intRaw.toString(16)} intEnable=${u.intEnable.toString(16)} ep2in=${mcu.usbDPRAMView.getUint32(0x80 + 2 * 8, true).toString(16)} ep1out=${mcu.usbDPRAMView.getUint32(0x80 + 1 * 8 + 4, true).toString(16)} nvicEnabled=${mcu.core.enabledInterrupts.toString(16)} pending=${mcu.core.pendingInterrupts.toString(16)} PM=${mcu.core.PM} waiting=${mcu.core.waiting} PC=${mcu.core.PC.toString(16)}`);
      return;
    }
    case "stats": {
      const seconds = realNanos() / 1e9;
      say("stats " + JSON.stringify({
        seconds: Math.round(seconds * 10) / 10,
        emulated_seconds: Math.round(clock.nanos / 1e8) / 10,
        worst_lag_ms: Math.round(worstLagMs * 10) / 10,
        scans_per_s: Math.round(scans / (clock.nanos / 1e9)),
        watchdog_fired: watchdogFired,
        mips: Math.round(instructions / seconds / 1e4) / 100,
        usb_bytes: usbBytes,
        changes: latencies.real_ms.length,
        real_p50_ms: pct(latencies.real_ms, 0.5),
        real_p99_ms: pct(latencies.real_ms, 0.99),
        real_max_ms: pct(latencies.real_ms, 1),
        emulated_p50_ms: pct(latencies.emulated_ms, 0.5),
        emulated_max_ms: pct(latencies.emulated_ms, 1),
      }));
      return;
    }
    case "quit":
      process.exit(0);
      return;
    case "":
      return;
    default:
      say(`unknown command: ${line}`);
  }
});
lines.on("close", () => process.exit(0));
