//! The peg board's firmware for a Raspberry Pi Pico (RP2040): it scans the
//! switch matrix under the holes and the frame buttons, debounces them
//! (`debounce.rs`), and speaks the tactus peg protocol (`protocol.rs`) on
//! USB, as a CDC serial port (`/dev/ttyACM*`, named by the flash chip's
//! unique ID under `/dev/serial/by-id/`), and on UART0 (GPIO 0 TX, GPIO 1
//! RX, 115200 8N1) for a wired or ser2net set-up: the same lines on both,
//! and commands taken from both.
//!
//! The processor sleeps (WFI) between scans; a scan every millisecond, the
//! USB controller or a byte on the UART wakes it. The interrupt handlers
//! only mask their own interrupt (so a level-triggered one does not fire
//! again and again) and the loop does the work, so no state is shared with
//! them.

#![no_std]
#![no_main]

use panic_halt as _;

use cortex_m::peripheral::NVIC;
use fugit::{ExtU32, RateExtU32};
use rp2040_hal as hal;

use hal::clocks::Clock;
use hal::gpio::{DynBankId, DynPinId, FunctionSioInput, Pin, PullUp};
use hal::pac;
use hal::pac::{interrupt, Interrupt};
use hal::timer::Alarm;
use hal::uart::{DataBits, StopBits, UartConfig, UartPeripheral};
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::*;
use usbd_serial::SerialPort;

use tactus_peg_board::debounce::{Change, Debouncer};
use tactus_peg_board::outbox::Outbox;
use tactus_peg_board::protocol::{self, Commands, Request};

mod pins {
    include!(concat!(env!("OUT_DIR"), "/pins.rs"));
}

/// The second-stage bootloader for the Pico's W25Q080 flash.
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The Pico's crystal.
const XTAL_HZ: u32 = 12_000_000;

/// One scan of the whole matrix every millisecond (1 kHz): a change is
/// seen within 1 ms of happening, and reported once it has held for
/// `debounce::SETTLE_US`.
pub const SCAN_PERIOD_US: u32 = 1_000;

/// A row driven low pulls a closed switch's column down through the diode
/// at once; 1 µs (125 cycles at 125 MHz) before the columns are read.
const ROW_DRIVE_CYCLES: u32 = 125;

/// After a row is let go, the columns it pulled low rise again through the
/// RP2040's pull-ups (50–80 kΩ): with a board's wiring (about 100 pF) some
/// 5 µs. The next row is driven only once every column reads high, or
/// after this many polls (about 30 µs) when one never does (a column
/// shorted to ground, which the `D` dump shows).
const COLUMN_RISE_POLLS: u32 = 400;

/// The watchdog restarts the board if the loop stops coming round (it
/// comes round at least every scan, 1 ms): a hung board comes back by
/// itself, and tactus, which sees it go and come back, reads it afresh.
const WATCHDOG_MS: u32 = 100;

/// USB vendor and product: Raspberry Pi's, as the Pico's own CDC serial
/// port uses; Linux's cdc_acm binds the port by its class.
const USB_VID_PID: UsbVidPid = UsbVidPid(0x2e8a, 0x000a);

/// A GPIO of pins.toml as an input with pull-up.
fn input_pull_up(num: u8) -> Pin<DynPinId, FunctionSioInput, PullUp> {
    // SAFETY: each GPIO of pins.toml is taken once here (build.rs checks
    // they are distinct and none is UART0's, the only typed pins used).
    let pin = unsafe {
        hal::gpio::new_pin(DynPinId {
            bank: DynBankId::Bank0,
            num,
        })
    };
    let Ok(pin) = pin.try_into_function::<FunctionSioInput>() else {
        // Every bank-0 GPIO can be an SIO input.
        unreachable!()
    };
    pin.into_pull_type::<PullUp>()
}

/// The switch matrix: rows are inputs with pull-up whose output latch is
/// low, so enabling a row's output drives it low and disabling lets it
/// float (open drain: two closed switches never short two driven rows,
/// diodes or not).
struct Matrix {
    sio: &'static pac::sio::RegisterBlock,
}

impl Matrix {
    fn new() -> Matrix {
        for &g in pins::ROWS.iter().chain(&pins::COLS).chain(&pins::BUTTONS) {
            // Configured; the pin object is not needed (dropping it changes nothing).
            let _ = input_pull_up(g);
        }
        // SAFETY: the SIO's GPIO set/clear registers are written only
        // here, for the rows' bits (atomic aliases: no read-modify-write).
        let sio = unsafe { &*pac::SIO::ptr() };
        let rows = pins::ROWS.iter().fold(0u32, |m, &g| m | 1 << g);
        sio.gpio_out_clr().write(|w| unsafe { w.bits(rows) });
        sio.gpio_oe_clr().write(|w| unsafe { w.bits(rows) });
        Matrix { sio }
    }

    /// The raw matrix: bit `8 × rank + file` set for a closed switch, and
    /// bit n−1 of the second for a pressed button n.
    fn read(&self) -> (u64, u16) {
        let cols = pins::COLS.iter().fold(0u32, |m, &g| m | 1 << g);
        let mut holes = 0u64;
        for (rank, &row) in pins::ROWS.iter().enumerate() {
            self.sio
                .gpio_oe_set()
                .write(|w| unsafe { w.bits(1 << row) });
            cortex_m::asm::delay(ROW_DRIVE_CYCLES);
            let inputs = self.sio.gpio_in().read().bits();
            self.sio
                .gpio_oe_clr()
                .write(|w| unsafe { w.bits(1 << row) });
            for (file, &col) in pins::COLS.iter().enumerate() {
                if inputs & (1 << col) == 0 {
                    holes |= 1 << (8 * rank + file);
                }
            }
            for _ in 0..COLUMN_RISE_POLLS {
                if self.sio.gpio_in().read().bits() & cols == cols {
                    break;
                }
            }
        }
        let inputs = self.sio.gpio_in().read().bits();
        let mut buttons = 0u16;
        for (i, &g) in pins::BUTTONS.iter().enumerate() {
            if inputs & (1 << g) == 0 {
                buttons |= 1 << i;
            }
        }
        (holes, buttons)
    }
}

/// The USB serial number: the flash chip's unique ID, read once at power
/// up, as 16 hex digits (so `/dev/serial/by-id/usb-tactus_tactus_peg_board_<id>-if00`
/// names this board and no other).
fn serial_number() -> &'static str {
    static mut TEXT: [u8; 16] = [b'0'; 16];
    let mut id = [0u8; 8];
    // SAFETY: runs once, before USB starts and with interrupts masked.
    unsafe {
        rp2040_flash::flash::flash_unique_id(&mut id, true);
        let text = &mut *core::ptr::addr_of_mut!(TEXT);
        for (i, b) in id.iter().enumerate() {
            text[2 * i] = b"0123456789ABCDEF"[(b >> 4) as usize];
            text[2 * i + 1] = b"0123456789ABCDEF"[(b & 15) as usize];
        }
        core::str::from_utf8_unchecked(&*core::ptr::addr_of!(TEXT))
    }
}

/// The interrupts that end the loop's sleep.
const WAKERS: [Interrupt; 3] = [
    Interrupt::TIMER_IRQ_0,
    Interrupt::USBCTRL_IRQ,
    Interrupt::UART0_IRQ,
];

#[interrupt]
fn TIMER_IRQ_0() {
    NVIC::mask(Interrupt::TIMER_IRQ_0);
}

#[interrupt]
fn USBCTRL_IRQ() {
    NVIC::mask(Interrupt::USBCTRL_IRQ);
}

#[interrupt]
fn UART0_IRQ() {
    NVIC::mask(Interrupt::UART0_IRQ);
}

#[hal::entry]
fn main() -> ! {
    let mut pac = pac::Peripherals::take().unwrap();
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    let Ok(clocks) = hal::clocks::init_clocks_and_plls(
        XTAL_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    ) else {
        panic!("the clocks did not start");
    };
    let sio = hal::Sio::new(pac.SIO);
    let pins = hal::gpio::Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );
    let serial_number = serial_number();
    let mut timer = hal::Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let Some(mut alarm) = timer.alarm_0() else {
        unreachable!("alarm 0 is taken once")
    };

    let uart_pins = (
        pins.gpio0.into_function::<hal::gpio::FunctionUart>(),
        pins.gpio1.into_function::<hal::gpio::FunctionUart>(),
    );
    let Ok(mut uart) = UartPeripheral::new(pac.UART0, uart_pins, &mut pac.RESETS).enable(
        UartConfig::new(115_200.Hz(), DataBits::Eight, None, StopBits::One),
        clocks.peripheral_clock.freq(),
    ) else {
        panic!("the UART did not start");
    };
    uart.enable_rx_interrupt();

    let usb_bus = UsbBusAllocator::new(hal::usb::UsbBus::new(
        pac.USBCTRL_REGS,
        pac.USBCTRL_DPRAM,
        clocks.usb_clock,
        true,
        &mut pac.RESETS,
    ));
    let mut usb_serial = SerialPort::new(&usb_bus);
    let Ok(builder) =
        UsbDeviceBuilder::new(&usb_bus, USB_VID_PID).strings(&[StringDescriptors::default()
            .manufacturer("tactus")
            .product("tactus peg board")
            .serial_number(serial_number)])
    else {
        unreachable!("one language")
    };
    // Control packets of 64 bytes, as the Pico SDK's devices use: a
    // descriptor comes in one packet.
    let Ok(builder) = builder.max_packet_size_0(64) else {
        unreachable!("64 is a valid size")
    };
    let mut usb_dev = builder.device_class(usbd_serial::USB_CLASS_CDC).build();

    let matrix = Matrix::new();
    let mut holes = Debouncer::<64>::new();
    let mut buttons = Debouncer::<{ pins::BUTTONS.len() }>::new();
    // The board as it stands at power-up, once the pull-ups have settled.
    cortex_m::asm::delay(125_000);
    let (raw_holes, _) = matrix.read();
    holes.settle_at(raw_holes);
    let mut last_raw = matrix.read();

    let mut usb_out = Outbox::new();
    let mut uart_out = Outbox::new();
    let mut commands_usb = Commands::default();
    let mut commands_uart = Commands::default();
    let mut hole_changes = heapless::Vec::<Change, 64>::new();
    let mut button_changes = heapless::Vec::<Change, { pins::BUTTONS.len() }>::new();
    let mut requests = heapless::Vec::<Request, 8>::new();
    // Power-up: the hello and the board, on the UART (a USB host asks).
    uart_out.line(&protocol::hello(serial_number));
    uart_out.line(&protocol::scan(holes.state()));

    alarm.enable_interrupt();
    let _ = alarm.schedule(SCAN_PERIOD_US.micros());
    watchdog.start(WATCHDOG_MS.millis());
    let mut was_open = false;
    loop {
        watchdog.feed();
        if alarm.finished() {
            alarm.clear_interrupt();
            let _ = alarm.schedule(SCAN_PERIOD_US.micros());
            let now = timer.get_counter().ticks();
            last_raw = matrix.read();
            holes.scan(now, last_raw.0, &mut hole_changes);
            buttons.scan(now, u64::from(last_raw.1), &mut button_changes);
            for c in &hole_changes {
                let line = if c.closed {
                    protocol::put(c.index)
                } else {
                    protocol::lifted(c.index)
                };
                usb_out.line(&line);
                uart_out.line(&line);
            }
            for c in button_changes.iter().filter(|c| c.closed) {
                let line = protocol::button(c.index + 1);
                usb_out.line(&line);
                uart_out.line(&line);
            }
        }

        // USB: a host that has the port open (DTR) gets the lines; while
        // none does, nothing is kept for it (a host asks for the board
        // when it opens the port).
        usb_dev.poll(&mut [&mut usb_serial]);
        let open = usb_dev.state() == UsbDeviceState::Configured && usb_serial.dtr();
        if open && !was_open {
            usb_out.line(&protocol::hello(serial_number));
            usb_out.line(&protocol::scan(holes.state()));
        }
        was_open = open;
        let mut buf = [0u8; 64];
        if let Ok(n) = usb_serial.read(&mut buf) {
            for &b in &buf[..n] {
                if let Some(r) = commands_usb.byte(b) {
                    let _ = requests.push(r);
                }
            }
        }
        if let Ok(n) = uart.read_raw(&mut buf) {
            for &b in &buf[..n] {
                if let Some(r) = commands_uart.byte(b) {
                    let _ = requests.push(r);
                }
            }
        }
        for r in requests.iter() {
            let line = match r {
                Request::Scan => protocol::scan(holes.state()),
                Request::Hello => protocol::hello(serial_number),
                Request::Diagnostic => protocol::diagnostic(
                    last_raw.0,
                    last_raw.1,
                    holes.longest_bounce_us().max(buttons.longest_bounce_us()),
                ),
            };
            usb_out.line(&line);
            uart_out.line(&line);
        }
        requests.clear();

        if open {
            usb_out.owed_scan(|| protocol::scan(holes.state()));
            usb_out.drain(|b| usb_serial.write(b).unwrap_or(0));
        } else {
            usb_out.clear();
        }
        uart_out.owed_scan(|| protocol::scan(holes.state()));
        uart_out.drain(|b| match uart.write_raw(b) {
            Ok(rest) => b.len() - rest.len(),
            Err(_) => 0,
        });

        // Sleep until the next scan, USB traffic or a byte on the UART.
        // With interrupts off, WFI still ends when one is pending, and its
        // handler runs once they are on again: nothing that happens
        // between the work above and the sleep is missed.
        cortex_m::interrupt::disable();
        for irq in WAKERS {
            // SAFETY: the handlers share no state with this loop.
            unsafe { NVIC::unmask(irq) };
        }
        if !alarm.finished() {
            cortex_m::asm::wfi();
        }
        // SAFETY: as above.
        unsafe { cortex_m::interrupt::enable() };
    }
}
