package org.mpcache.hdfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;

/**
 * Test fixture: cached block files on the local disk with their chunk checksums, read through
 * {@link LocalBlockReader}s whose hold on the block stands in for the slave's descriptor lease
 * and counts its releases.
 */
final class BlockFiles {
  /** The stand-in for a slave's lease: held until released, or until the test lets it go. */
  static final class FakeHold implements DescriptorClient.Hold {
    private final FileChannel file;
    final AtomicInteger releases = new AtomicInteger();
    /** The bytes the reports and the release told of. */
    final AtomicLong bytesRead = new AtomicLong();
    /** The new readers' accesses the reports told of. */
    final List<BlockAccessProto> accesses = new CopyOnWriteArrayList<>();
    volatile boolean letGo;
    private volatile Runnable revoked = () -> { };

    FakeHold(FileChannel file) {
      this.file = file;
    }

    @Override
    public boolean held() {
      return !letGo && releases.get() == 0;
    }

    @Override
    public void release(long bytesRead) {
      releaseLater(bytesRead);
    }

    @Override
    public Future<?> report(long bytes, BlockAccessProto access) {
      bytesRead.addAndGet(bytes);
      if (access != null) {
        accesses.add(access);
      }
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public Future<?> releaseLater(long bytes) {
      bytesRead.addAndGet(bytes);
      if (releases.getAndIncrement() == 0) {
        try {
          file.close();
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void onRevoked(Runnable listener) {
      revoked = listener;
    }

    /** The slave removes the block: it revokes the hold. */
    void revoke() {
      letGo = true;
      revoked.run();
    }
  }

  /** One block file: its bytes as written, and the reader over it with its hold. */
  record Opened(byte[] bytes, LocalBlockReader reader, FakeHold hold) {
  }

  private final Path dir;
  private final int chunkSize;

  BlockFiles(Path dir, int chunkSize) {
    this.dir = dir;
    this.chunkSize = chunkSize;
  }

  /** A block {@code id} of {@code length} random bytes (seeded by {@code id}), opened. */
  Opened open(long id, int length) throws IOException {
    byte[] bytes = new byte[length];
    new Random(id).nextBytes(bytes);
    Path p = dir.resolve("blk_" + id);
    Files.write(p, bytes);
    int[] crcs = new int[(length + chunkSize - 1) / chunkSize];
    CRC32C crc = new CRC32C();
    for (int i = 0; i < crcs.length; i++) {
      crc.reset();
      crc.update(bytes, i * chunkSize, Math.min(chunkSize, length - i * chunkSize));
      crcs[i] = (int) crc.getValue();
    }
    FileChannel ch = FileChannel.open(p, StandardOpenOption.READ);
    FakeHold hold = new FakeHold(ch);
    return new Opened(bytes, new LocalBlockReader(new BlockKey("BP-1", id, 1), hold, ch, length,
        chunkSize, crcs), hold);
  }

  /** Flips a byte of block {@code id}'s file at {@code offset}, as a failing SSD would. */
  void corrupt(long id, long offset) throws IOException {
    try (FileChannel ch = FileChannel.open(dir.resolve("blk_" + id), StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) ~b.get(0));
      b.rewind();
      ch.write(b, offset);
    }
  }
}
