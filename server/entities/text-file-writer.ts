import fs from 'node:fs';

/** Text gathered before one write to the file: a few writes per export instead of one per batch. */
const FLUSH_BYTES = 1 << 20;

/**
 * Appends text to a file through two reused buffers. A write stream turns every chunk into a new
 * Buffer that lives until the next garbage collection: a 141 MB export left some 50 MB of dead
 * buffers outstanding at its peak. Here the memory is two buffers of about FLUSH_BYTES.
 *
 * Text is encoded into one buffer while the other is being written, and `write` returns without
 * waiting for the disk unless both are taken: the export reads and formats its next rows while
 * the thread pool writes the last ones. Awaiting each batch's write instead left the reader idle
 * for a thread-pool round trip per batch, which on a loaded machine is milliseconds each time.
 */
export class TextFileWriter {
  private filling = Buffer.allocUnsafe(FLUSH_BYTES + (FLUSH_BYTES >> 2));
  private spare = Buffer.allocUnsafe(this.filling.length);
  private filled = 0;
  /** The write of the other buffer, until it ends (it rejects with the disk's error). */
  private inFlight: Promise<void> | null = null;
  /** Bytes accepted so far, written or about to be (an export's quota is checked against it). */
  bytesWritten = 0;

  private constructor(private readonly handle: fs.promises.FileHandle) {}

  static async create(file: string): Promise<TextFileWriter> {
    return new TextFileWriter(await fs.promises.open(file, 'wx'));
  }

  async write(text: string): Promise<void> {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    const room = text.length * 3;
    if (this.filled + room > this.filling.length) {
      if (this.filled > 0) await this.flush();
      if (room > this.filling.length) this.filling = Buffer.allocUnsafe(room);
    }
    const length = this.filling.write(text, this.filled, 'utf8');
    this.filled += length;
    this.bytesWritten += length;
    if (this.filled >= FLUSH_BYTES) await this.flush();
  }

  /** Everything written to the file, then the file closed; the first write error, if any, is thrown here or earlier. */
  async close(): Promise<void> {
    try {
      if (this.filled > 0) await this.flush();
      await this.inFlight;
    } finally {
      await this.handle.close();
    }
  }

  /** Hands the filled buffer to the disk and takes the other one, once the other's write has ended. */
  private async flush(): Promise<void> {
    await this.inFlight;
    const buffer = this.filling;
    const length = this.filled;
    this.filling = this.spare;
    this.spare = buffer;
    this.filled = 0;
    this.inFlight = this.writeAll(buffer, length);
    // Observed here so a failure between two calls is not an unhandled rejection; the next
    // flush or close awaits the same promise and throws it.
    this.inFlight.catch(() => {});
  }

  private async writeAll(buffer: Buffer, length: number): Promise<void> {
    for (let offset = 0; offset < length; ) {
      offset += (await this.handle.write(buffer, offset, length - offset)).bytesWritten;
    }
  }
}
