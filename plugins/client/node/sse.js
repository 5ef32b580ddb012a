// A sans-IO Server-Sent Events parser: text chunks in, complete events out. No sockets here, so
// the tests feed it any chunking (an event split mid-line, several events in one chunk).

/** @typedef {{event: string, data: string}} ServerSentEvent */

export class SseParser {
  #buffer = "";
  #event = "";
  /** @type {string[]} */
  #data = [];

  /**
   * Every event this chunk completes, in order; a partial line waits for the next chunk.
   * @param {string} chunk
   * @returns {ServerSentEvent[]}
   */
  feed(chunk) {
    this.#buffer += chunk;
    /** @type {ServerSentEvent[]} */
    const events = [];
    for (;;) {
      const newline = this.#buffer.search(/\r\n|\r|\n/);
      if (newline === -1) break;
      const width = this.#buffer.startsWith("\r\n", newline) ? 2 : 1;
      if (width === 1 && this.#buffer[newline] === "\r" && newline === this.#buffer.length - 1) {
        break; // a "\r" that may be half of "\r\n": wait for the next chunk
      }
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + width);
      const dispatched = this.#line(line);
      if (dispatched !== null) events.push(dispatched);
    }
    return events;
  }

  /** @param {string} line @returns {ServerSentEvent | null} */
  #line(line) {
    if (line === "") {
      if (this.#data.length === 0) {
        this.#event = "";
        return null;
      }
      const event = { event: this.#event || "message", data: this.#data.join("\n") };
      this.#event = "";
      this.#data = [];
      return event;
    }
    if (line.startsWith(":")) return null; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.#event = value;
    else if (field === "data") this.#data.push(value);
    return null; // id and retry mean nothing for a one-shot stream
  }
}
