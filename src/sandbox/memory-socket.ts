// Two connected in-memory streams standing in for a TCP connection between pgw and its own
// embedded sandbox (issue 23): the sandbox's node:http server takes one end as a connection
// (server.emit('connection')), pgw's node:http client the other (an Agent's createConnection).
// Both sides still speak HTTP/1.1 through Node's parser, so the request pipeline (routing, auth,
// faults, envelopes) and the client's HTTP core (retries, deadline, redaction) are unchanged;
// only the kernel's socket, the port and the event-loop turns of a real connection are gone.
// (stream.duplexPair exists from Node 22.6 only; and node:http wants a few net.Socket methods.)
import { Duplex } from 'node:stream';

class MemorySocket extends Duplex {
  peer!: MemorySocket;
  // What node:http reads of a net.Socket: an address for logs, and a connection that is open.
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly remoteFamily = 'IPv4';
  readonly connecting = false;

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.peer.push(chunk);
    callback();
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    for (const { chunk } of chunks) this.peer.push(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer.push(null);
    callback();
  }

  override _read(): void {
    // Data arrives when the peer writes.
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A closed connection closes for both sides, as a TCP reset would.
    if (!this.peer.destroyed) this.peer.destroy();
    callback(error);
  }

  // net.Socket's knobs, which node:http's client, server and Agent call: nothing to tune here.
  setKeepAlive(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setTimeout(_ms: number, onTimeout?: () => void): this {
    if (onTimeout) this.once('timeout', onTimeout);
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  destroySoon(): void {
    this.end();
  }
  address(): { address: string; family: string; port: number } {
    return { address: '127.0.0.1', family: 'IPv4', port: 0 };
  }
}

/** [client end, server end] of one in-memory connection. */
export function memorySocketPair(): [MemorySocket, MemorySocket] {
  const a = new MemorySocket();
  const b = new MemorySocket();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
