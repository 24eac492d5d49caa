"""The pad hub's clock mapped onto the host's: the hub stamps each edge in microseconds on its
own clock; :class:`HubClock` turns those stamps into host monotonic seconds from PING/PONG
round trips, trusting the round trip with the lowest delay.
"""

from __future__ import annotations

from collections import deque


class HubClock:
    """Host time for hub timestamps. Each PING/PONG gives an offset (host minus hub) good to
    half its round trip; the offset from the quickest of the last ``keep`` round trips wins.

    >>> clock = HubClock()
    >>> clock.sent(1, host=100.000)
    >>> clock.pong(1, hub_us=5_000_000, host=100.010)       # a slow 10 ms round trip
    >>> clock.sent(2, host=101.000)
    >>> clock.pong(2, hub_us=6_000_400, host=101.001)       # a quick one: trusted
    >>> round(clock.to_host(6_500_000), 6)
    101.5001
    """

    def __init__(self, keep: int = 8):
        self.keep = keep
        self._sent: dict[int, float] = {}
        self._samples: deque[tuple[float, float]] = deque(maxlen=keep)   # (rtt, offset)
        self._provisional: float | None = None

    def reset(self) -> None:
        """The hub restarted (its clock with it)."""
        self._sent.clear()
        self._samples.clear()
        self._provisional = None

    def sent(self, seq: int, host: float) -> None:
        self._sent[seq] = host
        if len(self._sent) > 4 * self.keep:   # pongs that never came
            for old in sorted(self._sent)[: len(self._sent) - 2 * self.keep]:
                del self._sent[old]

    def pong(self, seq: int, hub_us: int, host: float) -> None:
        sent = self._sent.pop(seq, None)
        if sent is None or host < sent:
            return
        rtt = host - sent
        self._samples.append((rtt, (sent + host) / 2 - hub_us / 1e6))

    @property
    def synced(self) -> bool:
        return bool(self._samples)

    @property
    def best_rtt(self) -> float | None:
        return min(self._samples)[0] if self._samples else None

    @property
    def offset(self) -> float | None:
        if self._samples:
            return min(self._samples)[1]
        return self._provisional

    def to_host(self, hub_us: int, arrived: float | None = None) -> float:
        """Host time of a hub timestamp. Before the first PONG, the first event's arrival
        stands in (late by its transit time, a millisecond or so)."""
        offset = self.offset
        if offset is None:
            if arrived is None:
                raise ValueError("no clock mapping yet")
            offset = self._provisional = arrived - hub_us / 1e6
        return hub_us / 1e6 + offset
