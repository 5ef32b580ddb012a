"""GPP/3 line framing: a byte stream in, `\\n`-terminated lines out, with the byte cap.

Sans-IO like the rest of `gpp`: the adapters feed whatever chunks their pipes produce. The
JSON-RPC transport frames its lines with the same buffer.
"""

from __future__ import annotations

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024


class LineTooLong(Exception):
    def __init__(self, size: int, cap: int, head: bytes) -> None:
        super().__init__(f"line of {size}+ bytes exceeds {cap}")
        self.cap = cap
        self.head = head


class LineBuffer:
    """Splits a byte stream into lines, refusing a line longer than `cap` as soon as it shows.

    The cap is enforced on the buffered, newline-less tail after every feed, so a peer that
    never sends a newline costs at most `cap` plus one read chunk of memory.

    Chunks are kept as they were fed and each is searched for a newline once; a line is joined
    from them in one copy. (Appending to one growing buffer copied a multi-megabyte frame about
    nine times over as the buffer was resized.)
    """

    def __init__(self, cap: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self.cap = cap
        self._chunks: list[bytes] = []
        self._start = 0  # where the unread bytes begin in the first chunk
        self._scanned = 0  # chunks known to hold no newline past `_start`
        self._scanned_bytes = 0  # unread bytes in those chunks

    def feed(self, data: bytes) -> None:
        self._chunks.append(data)

    def next_line(self) -> bytes | None:
        """The next complete line without its newline, or None until more data arrives."""
        chunks = self._chunks
        if chunks and not self._scanned:  # `_cut` inlined for a line within the first chunk
            first, start = chunks[0], self._start
            end = first.find(b"\n", start)
            if end >= 0:
                if end - start > self.cap:
                    raise LineTooLong(end - start, self.cap, self.pending[:600])
                line = first[start:end]
                if end + 1 < len(first):
                    self._start = end + 1
                else:
                    del chunks[0]
                    self._start = 0
                return line
            self._scanned = 1
            self._scanned_bytes = len(first) - start
        while self._scanned < len(chunks):
            chunk = chunks[self._scanned]
            start = self._start if self._scanned == 0 else 0
            end = chunk.find(b"\n", start)
            if end >= 0:
                return self._cut(end)
            self._scanned += 1
            self._scanned_bytes += len(chunk) - start
        if self._scanned_bytes > self.cap:
            raise LineTooLong(self._scanned_bytes, self.cap, self.pending[:600])
        return None

    def _cut(self, end: int) -> bytes:
        """The line that ends at `end` in the first chunk not yet scanned; keep what follows."""
        chunks, last = self._chunks, self._scanned
        size = self._scanned_bytes + end - (self._start if last == 0 else 0)
        if size > self.cap:
            raise LineTooLong(size, self.cap, self.pending[:600])
        if last == 0:
            line = chunks[0][self._start : end]
        else:  # views: the first and last chunk are copied once, into the line
            first, final = memoryview(chunks[0])[self._start :], memoryview(chunks[last])[:end]
            line = b"".join((first, *chunks[1:last], final))
        rest = chunks[last]
        del chunks[:last]
        if end + 1 < len(rest):
            self._start = end + 1
        else:  # the line ended its chunk: drop it (chunks fed after it stay)
            del chunks[0]
            self._start = 0
        self._scanned = 0
        self._scanned_bytes = 0
        return line

    @property
    def pending(self) -> bytes:
        """A partial line left in the buffer (what was cut off at EOF)."""
        return b"".join(self._chunks)[self._start :]
