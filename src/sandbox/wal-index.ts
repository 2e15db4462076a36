// Has any connection, in any process, committed to this database since we last looked? Answered by
// reading the WAL-index header at the start of the `-shm` file: one pread, no lock. Asking SQLite
// instead (`PRAGMA data_version`) takes and releases a WAL read lock (two fcntl calls plus a VDBE
// program), ~7 µs of a ~37 µs sandbox GET under load (issue 7).
//
// Exact, from SQLite's documented WAL-mode file format (https://sqlite.org/walformat.html, 2.1):
// the shm file starts with two copies of the 48-byte WalIndexHdr, which every committing writer
// rewrites before its commit returns (its iChange counter is incremented by each transaction, and
// mxFrame, the salts and the checksum move with it); a reader compares the two copies. We keep the
// 96 bytes we last saw: any difference, torn reads included, counts as a change. A commit another
// process finished before a request was sent has therefore changed these bytes before we look.
//
// The file descriptor is the delicate part. SQLite locks the shm file with POSIX record locks,
// which belong to the process and are ALL dropped when the process closes ANY descriptor of that
// file. So there is one descriptor per file per process, shared by every `Db` on it, and it is
// closed only after the last of those `Db` connections has closed (SQLite releases its own locks
// then). Nothing else in pgw opens the database file's shm.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';

/** Two copies of WalIndexHdr (walformat.html 2.1). */
export const WAL_INDEX_HEADER_BYTES = 96;
const HEADER_COPY_BYTES = 48;
/** WalIndexHdr's iChange, "incremented with each transaction" (walformat.html 2.1): a u32 in the machine's byte order. */
const ICHANGE_OFFSET = 8;
const readCounter = endianness() === 'LE' ? (b: Buffer) => b.readUInt32LE(ICHANGE_OFFSET) : (b: Buffer) => b.readUInt32BE(ICHANGE_OFFSET);

/** iChange when the two copies agree (a header no writer is rewriting); else undefined. */
function commitCounter(header: Buffer, whole: boolean): number | undefined {
  if (!whole || header.compare(header, 0, HEADER_COPY_BYTES, HEADER_COPY_BYTES, WAL_INDEX_HEADER_BYTES) !== 0) return undefined;
  return readCounter(header);
}

interface SharedDescriptor {
  fd: number;
  users: number;
}

const descriptors = new Map<string, SharedDescriptor>();

export class WalIndexWatch {
  private readonly seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  private readonly now = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  private looked = false;
  private nowWhole = false;
  private closed = false;

  private constructor(
    private readonly key: string,
    private readonly shared: SharedDescriptor,
  ) {}

  /**
   * Watches `dbPath`'s WAL index. Call only while a connection in WAL mode has the database open
   * (so the shm file exists); undefined when it cannot be opened, in which case the caller asks
   * SQLite instead. Never closes a descriptor here: the connection may already hold locks.
   */
  static open(dbPath: string): WalIndexWatch | undefined {
    const path = `${dbPath}-shm`;
    let key: string;
    try {
      // The file's identity, not its name: a database deleted and made again at the same path is
      // another file, and one file reached through two names is one.
      const { dev, ino } = statSync(path, { bigint: true });
      key = `${dev}:${ino}`;
    } catch {
      return undefined;
    }
    let shared = descriptors.get(key);
    if (!shared) {
      let fd: number;
      try {
        fd = openSync(path, 'r');
      } catch {
        return undefined;
      }
      shared = { fd, users: 0 };
      descriptors.set(key, shared);
    }
    shared.users++;
    return new WalIndexWatch(key, shared);
  }

  /**
   * True when the header differs from the last look, on the first look, and whenever fewer than
   * 96 bytes could be read (a header SQLite has not written yet): never a missed change.
   */
  changed(): boolean {
    const whole = this.readHeader();
    if (whole && this.looked && this.now.equals(this.seen)) return false;
    this.now.copy(this.seen);
    this.looked = whole;
    return true;
  }

  /**
   * The commit counter of the header as last seen by `changed` (or taken by `acceptNow`):
   * undefined when that header was not whole. Read while holding the write lock, it is exact.
   */
  seenCommits(): number | undefined {
    return commitCounter(this.seen, this.looked);
  }

  /** Reads the header now and returns its commit counter (undefined: torn or not whole); what was seen does not move. */
  commitsNow(): number | undefined {
    this.nowWhole = this.readHeader();
    return commitCounter(this.now, this.nowWhole);
  }

  /** The header `commitsNow` read becomes the one seen: its changes are accounted for. */
  acceptNow(): void {
    this.now.copy(this.seen);
    this.looked = this.nowWhole;
  }

  /** Releases this watch's share of the descriptor: call after the connection has closed. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (--this.shared.users > 0) return;
    descriptors.delete(this.key);
    closeSync(this.shared.fd);
  }

  private readHeader(): boolean {
    return readSync(this.shared.fd, this.now, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES;
  }
}

/** Descriptors held per shm file (tests: proves sharing and closing). */
export function openWalIndexDescriptors(): number {
  return descriptors.size;
}
