"""Jack Table Companion pad hub: MicroPython firmware for a Raspberry Pi Pico (RP2040 or RP2350).

Speaks protocol 1 of hardware/PROTOCOL.md over the Pico's USB serial port. Copy this file to
the Pico as ``main.py`` (Thonny, or ``mpremote cp pico_hub.py :main.py``) and plug it into the
table's computer; the app finds it by its USB id 2E8A:0005.

Wiring: each pad's button between a GP pin in BUTTON_PINS and ground (internal pull-up);
its light on the matching GP pin in LIGHT_PINS through a resistor or a transistor (see
hardware/WIRING.md). Change the two tuples to suit; up to 16 pads.

Timing: an interrupt stamps each edge with ticks_us() the moment it happens; the main loop
turns those into a 64-bit microsecond count since boot, debounces (the first edge counts,
the pad is then ignored for DEBOUNCE_US) and sends one line per press or release.
"""

import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:   # CPython, for the tests: the same wrapping 30-bit clock
    import time as _time

    def ticks_us():
        return int(_time.monotonic() * 1_000_000) & 0x3FFFFFFF

    def ticks_diff(a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

PROTOCOL = 1
FIRMWARE = "0.1"
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
LIGHT_PINS = (10, 11, 12, 13, 14, 15, 16, 17)   # None for a pad without a light
DEBOUNCE_US = 20_000
RING = 64   # edges the interrupt can hold before the main loop drains them


def checksum(body):
    value = 0
    for ch in body:
        value ^= ord(ch)
    return "%02X" % value


def frame(body):
    return "%s *%s\n" % (body, checksum(body))


class Hub:
    """Everything but the hardware: buttons and lights are objects with ``value()``,
    ``out(text)`` sends a line to the host."""

    def __init__(self, buttons, lights, out):
        self.buttons = buttons
        self.lights = lights
        self.out = out
        n = len(buttons)
        # Filled by the interrupt: no allocation there, only stores into these.
        self.ring_pad = bytearray(RING)
        self.ring_level = bytearray(RING)
        self.ring_ticks = [0] * RING
        self.head = 0
        self.tail = 0
        self.dropped = 0
        # The 64-bit clock: base_us is what base_raw (a ticks_us value) stands for.
        self.base_raw = ticks_us()
        self.base_us = 0
        # Debounce state per pad.
        self.down = [b.value() == 0 for b in buttons]
        self.last_edge = [None] * n
        self.pending = [None] * n   # (us, level) of the last edge ignored
        # Lights: [mode, on_ms, off_ms, toggles left, next change us, lit]
        self.light_state = [[0, 0, 0, 0, 0, False] for _ in range(n)]
        self.line = ""

    # -- time --
    def now_us(self):
        raw = ticks_us()
        self.base_us += ticks_diff(raw, self.base_raw)
        self.base_raw = raw
        return self.base_us

    def extend(self, raw):
        return self.base_us + ticks_diff(raw, self.base_raw)

    # -- the interrupt side --
    def irq(self, pad, level, raw):
        nxt = (self.head + 1) % RING
        if nxt == self.tail:
            self.dropped += 1
            return
        self.ring_pad[self.head] = pad
        self.ring_level[self.head] = level
        self.ring_ticks[self.head] = raw
        self.head = nxt

    # -- the main loop side --
    def send(self, body):
        self.out(frame(body))

    def hello(self):
        self.send("HUB %d %d %s" % (PROTOCOL, len(self.buttons), FIRMWARE))
        mask = 0
        for i, d in enumerate(self.down):
            if d:
                mask |= 1 << i
        self.send("S %X %d" % (mask, self.now_us()))

    def drain(self):
        now = self.now_us()
        while self.tail != self.head:
            i = self.tail
            self.edge(self.ring_pad[i], self.ring_level[i] == 0, self.extend(self.ring_ticks[i]))
            self.tail = (i + 1) % RING
        for pad in range(len(self.buttons)):
            self.settle(pad, now)
        return now

    def edge(self, pad, pressed, us):
        last = self.last_edge[pad]
        if last is not None and us - last < DEBOUNCE_US:
            self.pending[pad] = (us, pressed)
            return
        self.pending[pad] = None
        if pressed:
            if self.down[pad]:
                self.send("R %d %d" % (pad, us))   # its release fell inside a debounce gap
            self.report(pad, True, us)
        elif self.down[pad]:
            self.report(pad, False, us)

    def settle(self, pad, now):
        pend = self.pending[pad]
        if pend is None or now - self.last_edge[pad] < DEBOUNCE_US:
            return
        self.pending[pad] = None
        pressed = self.buttons[pad].value() == 0
        if pressed != self.down[pad]:
            self.report(pad, pressed, pend[0] if pend[1] == pressed else self.last_edge[pad])

    def report(self, pad, pressed, us):
        self.down[pad] = pressed
        self.last_edge[pad] = us
        self.send("%s %d %d" % ("P" if pressed else "R", pad, us))

    # -- commands from the host --
    def feed(self, ch, now):
        if ch in "\r\n":
            line, self.line = self.line, ""
            if line:
                self.command(line, now)
        elif len(self.line) < 120:
            self.line += ch
        else:
            self.line = ""

    def command(self, line, now):
        body, star, check = line.rpartition(" *")
        if not star or checksum(body) != check.upper():
            self.send("ERR bad-line")
            return
        f = body.split(" ")
        try:
            if f[0] == "HELLO":
                self.hello()
            elif f[0] == "PING":
                self.send("PONG %d %d" % (int(f[1]), now))
            elif f[0] == "L":
                self.light(int(f[1]), f[2:], now)
            else:
                self.send("ERR unknown-command")
        except (IndexError, ValueError):
            self.send("ERR bad-arguments")

    def light(self, pad, args, now):
        if not 0 <= pad < len(self.lights):
            raise ValueError
        state = self.light_state[pad]
        if args[0] == "B":
            on_ms, off_ms, n = int(args[1]), int(args[2]), int(args[3])
            state[:] = [2, on_ms, off_ms, 2 * n if n else -1, now + on_ms * 1000, True]
        else:
            lit = args[0] == "1"
            state[:] = [1 if lit else 0, 0, 0, 0, 0, lit]
        self.show(pad)

    def blink(self, now):
        for pad, state in enumerate(self.light_state):
            if state[0] != 2 or now < state[4]:
                continue
            state[5] = not state[5]
            if state[3] > 0:
                state[3] -= 1
                if state[3] == 0:   # done: blinks end dark
                    state[:] = [0, 0, 0, 0, 0, False]
            if state[0] == 2:
                state[4] = now + (state[1] if state[5] else state[2]) * 1000
            self.show(pad)

    def show(self, pad):
        light = self.lights[pad]
        if light is not None:
            light.value(1 if self.light_state[pad][5] else 0)


def main():
    import select

    import micropython
    from machine import Pin

    micropython.alloc_emergency_exception_buf(100)
    micropython.kbd_intr(-1)   # a 0x03 byte from the host must not stop the hub
    buttons = [Pin(gp, Pin.IN, Pin.PULL_UP) for gp in BUTTON_PINS]
    lights = [Pin(gp, Pin.OUT, value=0) if gp is not None else None for gp in LIGHT_PINS]
    hub = Hub(buttons, lights, sys.stdout.write)

    def handler_for(pad):
        def handler(pin):
            hub.irq(pad, pin.value(), ticks_us())
        return handler

    for pad, button in enumerate(buttons):
        button.irq(handler_for(pad), Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)

    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    hub.hello()
    while True:
        now = hub.drain()
        while poll.poll(0):
            hub.feed(sys.stdin.read(1), hub.now_us())
        hub.blink(now)
        if hub.dropped:
            hub.send("ERR dropped %d" % hub.dropped)
            hub.dropped = 0


if __name__ == "__main__":
    main()
