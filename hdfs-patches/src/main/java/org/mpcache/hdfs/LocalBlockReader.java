package org.mpcache.hdfs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.ChecksumException;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.domain.DescriptorClient.Hold;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;

/**
 * Reads one cached block's file directly, through the open descriptor the slave on this host
 * passed over its domain socket ({@link DescriptorClient}): no RPC and no copy through the slave.
 * Every chunk is checked against the CRC32C the slave stored when the block was filled before any
 * of its bytes are returned, so a block changed on the SSD is detected as on the RPC path. The
 * file stays readable to its end even if the slave evicts the block meanwhile (its bytes are
 * immutable; the slave keeps the space reserved until this reader is closed).
 *
 * <p>This is the seam local-hit readers and benchmarks use: {@link #open}, {@link #read} at any
 * chunk-aligned offset, {@link #close}. Thread-safe: reads are positional and may run
 * concurrently; {@link #close} ends them.
 */
public final class LocalBlockReader implements Closeable {
  private final BlockKey key;
  private final Hold hold;
  private final FileChannel file;
  private final long length;
  private final int chunkSize;
  private final int[] checksums;
  private final AtomicLong bytesRead = new AtomicLong();

  /**
   * @param file the block file, read-only, closed by {@code hold}'s release
   * @param checksums the CRC32C of each chunk of {@code chunkSize} bytes, the last maybe shorter
   */
  LocalBlockReader(BlockKey key, Hold hold, FileChannel file, long length, int chunkSize,
      int[] checksums) {
    this.key = key;
    this.hold = hold;
    this.file = file;
    this.length = length;
    this.chunkSize = chunkSize;
    this.checksums = checksums;
  }

  /**
   * Asks the slave listening on {@code socketPath} for block {@code key}'s file.
   *
   * @param token the block's access token, URL-safe; empty when HDFS issued none
   * @param access the reader's access to the block when the request stands for its lookup (a
   *     grant counts the hit), null when the block was looked up already
   * @param length the block's length as the NameNode gave it
   * @param timeoutMs the limit of the exchange
   * @param releaseTimeoutMs how long closing waits for the slave to settle the lease
   * @return the reader, or null when the slave answered without a descriptor (not cached, not
   *     authorized): the slave's RPC is then the way to ask
   * @throws IOException when descriptors cannot be had at all here (no native library, socket
   *     unreachable) or the slave's answer does not describe this block
   */
  public static LocalBlockReader open(String socketPath, BlockKey key, String token,
      BlockAccessProto access, long length, long timeoutMs, long releaseTimeoutMs)
      throws IOException {
    DescriptorClient.Lease lease = DescriptorClient.request(socketPath,
        ProtoConverters.toProto(key), token, access, timeoutMs, releaseTimeoutMs);
    if (!lease.granted()) {
      return null;
    }
    try {
      DescriptorResponseProto r = lease.response();
      int chunk = r.getChunkSize();
      if (r.getLength() != length || chunk <= 0
          || r.getChecksumsCount() != (length + chunk - 1) / chunk) {
        throw new IOException("the slave described " + key + " as " + r.getLength()
            + " bytes in chunks of " + chunk + " with " + r.getChecksumsCount()
            + " checksums; the block has " + length + " bytes");
      }
      // By index: the list view boxes every checksum (16,384 of them for an 8 MiB block).
      int[] checksums = new int[r.getChecksumsCount()];
      for (int i = 0; i < checksums.length; i++) {
        checksums[i] = r.getChecksums(i);
      }
      return new LocalBlockReader(key, lease, lease.file(), length, chunk, checksums);
    } catch (IOException | RuntimeException e) {
      lease.release(0);
      throw e;
    }
  }

  public BlockKey key() {
    return key;
  }

  public long length() {
    return length;
  }

  /** Bytes covered by one stored checksum; reads start at multiples of it. */
  public int chunkSize() {
    return chunkSize;
  }

  /**
   * Reads and verifies the chunks from {@code alignedStart} (a multiple of {@link #chunkSize})
   * into {@code dst}, as many as fit and the block holds.
   *
   * @return the bytes placed at the start of {@code dst}: {@code dst.length} rounded down to
   *     whole chunks, or fewer at the block's end
   * @throws ChecksumException when a chunk does not match its stored checksum
   * @throws ShortReadException when the file ends before the block's length
   * @throws IllegalArgumentException when {@code alignedStart} is not chunk-aligned, is outside
   *     the block, or {@code dst} holds less than a chunk short of the block's end
   */
  public int read(long alignedStart, byte[] dst) throws IOException {
    return read(alignedStart, dst, 0, dst.length);
  }

  /**
   * As {@link #read(long, byte[])}, into {@code dst[off, off + len)}: the caller's own buffer,
   * so that a read of whole chunks needs no copy. Bytes of a chunk that fails its check may
   * have been placed before the exception.
   */
  public int read(long alignedStart, byte[] dst, int off, int len) throws IOException {
    if (alignedStart % chunkSize != 0 || alignedStart < 0 || alignedStart >= length) {
      throw new IllegalArgumentException("Read of " + key + " at " + alignedStart
          + " is not at a chunk of its " + length + " bytes");
    }
    long left = length - alignedStart;
    int n = (int) Math.min(left, len - len % chunkSize);
    if (n <= 0) {
      throw new IllegalArgumentException("A buffer of " + len + " bytes holds no chunk of "
          + chunkSize + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(dst, off, n);
    while (b.hasRemaining()) {
      if (file.read(b, alignedStart + b.position() - off) < 0) {
        throw new ShortReadException("short read of " + key + " through its descriptor: the "
            + "file ends at " + (alignedStart + b.position() - off) + " of " + length
            + " bytes");
      }
    }
    CRC32C crc = new CRC32C();
    int first = (int) (alignedStart / chunkSize);
    for (int from = 0, i = first; from < n; from += chunkSize, i++) {
      crc.reset();
      crc.update(dst, off + from, Math.min(chunkSize, n - from));
      if ((int) crc.getValue() != checksums[i]) {
        throw new ChecksumException("checksum mismatch in " + key + " at offset "
            + (alignedStart + from) + " read through its descriptor", alignedStart + from);
      }
    }
    return n;
  }

  /**
   * Reads and verifies the block's bytes from {@code pos}, at any offset, into
   * {@code dst[off, off + len)}: whole chunks straight into {@code dst}, the chunks {@code dst}
   * covers only in part (the head and the tail of an unaligned read) through {@code scratch}, so
   * that no read allocates and every byte returned was checked.
   *
   * @param scratch at least {@link #chunkSize} bytes, used by one thread at a time
   * @return the bytes placed: {@code len}, or fewer at the block's end
   * @throws ChecksumException when a chunk read does not match its stored checksum
   */
  int readAt(long pos, byte[] dst, int off, int len, byte[] scratch) throws IOException {
    int n = (int) Math.min(len, length - pos);
    int done = 0;
    while (done < n) {
      long at = pos + done;
      int inChunk = (int) (at % chunkSize);
      int want = n - done;
      if (inChunk == 0 && want >= chunkSize) {
        done += read(at, dst, off + done, want);
      } else {
        int got = read(at - inChunk, scratch, 0, chunkSize);
        int k = Math.min(want, got - inChunk);
        System.arraycopy(scratch, inChunk, dst, off + done, k);
        done += k;
      }
    }
    return n;
  }

  /** Whether the slave still holds the block for this reader (see {@link Hold#held}). */
  boolean held() {
    return hold.held();
  }

  /**
   * Runs {@code listener} once the slave revokes the reader's hold on the block (it removed the
   * block): on the descriptor thread, so it must not block.
   */
  void onRevoked(Runnable listener) {
    hold.onRevoked(listener);
  }

  /**
   * Tells the slave, keeping the file open, of the bytes read since the last report and, unless
   * {@code access} is null, of a new reader of the block (counted as its hit); done once the
   * slave counted them, at once when there is nothing to tell.
   */
  Future<?> report(BlockAccessProto access) {
    long n = bytesRead.getAndSet(0);
    return n == 0 && access == null ? CompletableFuture.completedFuture(null)
        : hold.report(n, access);
  }

  /** Counts bytes handed to the reader, reported to the slave when the reader closes. */
  void served(long n) {
    bytesRead.addAndGet(n);
  }

  /** Closes the file and ends the slave's lease, waiting for the slave to settle it. Idempotent. */
  @Override
  public void close() {
    hold.release(bytesRead.getAndSet(0));
  }

  /**
   * Closes the file and ends the slave's lease without waiting: the returned future is done
   * once the slave has settled it (or the request's timeout closed the connection). Idempotent.
   */
  public Future<?> closeLater() {
    return hold.releaseLater(bytesRead.getAndSet(0));
  }
}
