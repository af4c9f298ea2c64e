package org.mpcache.hdfs;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.ChecksumException;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A cached block read through its slave's {@code read} RPC, the transport every slave offers and
 * the last one tried. Each answer must start at or before the offset asked for, cover it, stay
 * inside the block and match its chunks' checksums. A sequential reader asks for
 * {@code mpcache.client.read.bytes} at a time and reads on from the last answer; a positional
 * one asks for what it reads.
 *
 * <p>Thread-safe: the last answer is replaced whole; no lock is held across a call.
 */
final class RpcBlockReader implements BlockReader {
  /** Verified bytes of the block from {@code start}. */
  private record Piece(long start, byte[] data) {
    boolean covers(long blockOff) {
      return blockOff >= start && blockOff < start + data.length;
    }
  }

  private final BlockTarget target;
  private final int requestBytes;
  private final boolean sequential;
  private volatile Piece last;

  /**
   * @param requestBytes the most bytes asked for per call
   * @param sequential whether each call asks for {@code requestBytes} (else for what is read)
   */
  RpcBlockReader(BlockTarget target, int requestBytes, boolean sequential) {
    this.target = target;
    this.requestBytes = requestBytes;
    this.sequential = sequential;
  }

  @Override
  public int read(long blockOff, byte[] b, int off, int len) throws IOException {
    Piece p = last;
    if (p == null || !p.covers(blockOff)) {
      int want = (int) Math.min(sequential ? requestBytes : Math.min(len, requestBytes),
          target.length() - blockOff);
      ReadResponseProto r = RpcSupport.call(() -> target.slave().proxy().read(null,
          ReadRequestProto.newBuilder().setBlock(target.access().getBlock()).setOffset(blockOff)
              .setLength(want).setBlockToken(target.token()).build()));
      p = new Piece(r.getOffset(), verified(r, blockOff));
      last = p;
    }
    int from = (int) (blockOff - p.start());
    int n = Math.min(len, p.data().length - from);
    System.arraycopy(p.data(), from, b, off, n);
    return n;
  }

  /**
   * The bytes of the slave's answer, checked: they must start at or before {@code blockOff},
   * cover it, stay inside the block, and every chunk must match its checksum.
   */
  private byte[] verified(ReadResponseProto r, long blockOff) throws IOException {
    byte[] data = r.getData().toByteArray();
    long start = r.getOffset();
    int chunk = r.getChunkSize();
    if (start > blockOff || start + data.length <= blockOff
        || start + data.length > target.length() || chunk <= 0) {
      throw new ShortReadException("short read of " + target.describe() + ": " + data.length
          + " bytes at " + start + " do not cover offset " + blockOff);
    }
    int chunks = (data.length + chunk - 1) / chunk;
    if (r.getChecksumsCount() != chunks) {
      throw new ChecksumException("slave " + target.slave().id() + " sent "
          + r.getChecksumsCount() + " checksums for " + chunks + " chunks of " + target.key(),
          start);
    }
    CRC32C crc = new CRC32C();
    for (int i = 0; i < chunks; i++) {
      int from = i * chunk;
      crc.reset();
      crc.update(data, from, Math.min(chunk, data.length - from));
      if ((int) crc.getValue() != r.getChecksums(i)) {
        throw new ChecksumException("checksum mismatch in " + target.key() + " at offset "
            + (start + from) + " from slave " + target.slave().id(), start + from);
      }
    }
    return data;
  }

  @Override
  public boolean holds(long blockOff) {
    Piece p = last;
    return p != null && p.covers(blockOff);
  }

  @Override
  public Transport transport() {
    return Transport.RPC;
  }

  @Override
  public Future<?> release() {
    return CompletableFuture.completedFuture(null);
  }
}
