package org.mpcache.slave.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;

class ChecksumFileTest {
  private static final BlockKey KEY = new BlockKey("BP-7-10.0.0.1-1", 42, 1001);
  private static final int[] CRCS = {11, -22, 33};
  @TempDir
  Path dir;
  private BlockFile file;
  private final BlockStorage storage = BlockStorage.local();

  @BeforeEach
  void prepare() throws IOException {
    storage.prepare(dir);
    file = new BlockFile(dir, KEY, BlockFile.Kind.FILL_CHECKSUMS);
  }

  private byte[] encoded(String datasetId, int datasetBlocks) {
    ByteBuffer b = ChecksumFile.encode(1024, CRCS, new CachedBlock(KEY, 2500, datasetId,
        datasetBlocks, "/user/ana/in/part-00000"));
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  private void store(byte[] bytes) throws IOException {
    storage.delete(file);
    storage.write(file, 0, ByteBuffer.wrap(bytes), true);
  }

  @Test
  void readHeader_roundTripsTheBlockAndItsDataset() throws IOException {
    store(encoded("/user/ana/in/\u00e9t\u00e9", 17));
    ChecksumFile.Header h = ChecksumFile.readHeader(storage, file, KEY);
    assertEquals(1024, h.chunkSize());
    assertEquals(new CachedBlock(KEY, 2500, "/user/ana/in/\u00e9t\u00e9", 17,
        "/user/ana/in/part-00000"), h.block());
    assertArrayEquals(CRCS, ChecksumFile.readChecksums(storage, file, 0, 3));
  }

  @Test
  void readHeader_aFlippedTrailerByte_failsOnTheHeaderCrc() throws IOException {
    byte[] b = encoded("/in", 3);
    b[b.length - 9] ^= 1; // inside datasetBlocks
    store(b);
    IOException e = assertThrows(IOException.class,
        () -> ChecksumFile.readHeader(storage, file, KEY));
    assertTrue(e.getMessage().contains("CRC"), e.getMessage());
  }

  @Test
  void readHeader_truncated_namesTheSizeMismatch() throws IOException {
    byte[] b = encoded("/in", 3);
    store(Arrays.copyOf(b, b.length - 5));
    IOException e = assertThrows(IOException.class,
        () -> ChecksumFile.readHeader(storage, file, KEY));
    assertTrue(e.getMessage().contains("expected " + b.length), e.getMessage());
  }

  @Test
  void readHeader_shorterThanTheFixedHeader_isRefused() throws IOException {
    store(Arrays.copyOf(encoded("/in", 3), 10));
    assertThrows(IOException.class, () -> ChecksumFile.readHeader(storage, file, KEY));
  }

  @Test
  void readHeader_versionOne_isRefusedNamingTheVersion() throws IOException {
    // The version 1 layout: magic, version, chunk size, length, then the CRCs.
    ByteBuffer v1 = ByteBuffer.allocate(20 + 4 * CRCS.length);
    v1.putInt(0x4d504343).putInt(1).putInt(1024).putLong(2500);
    for (int c : CRCS) {
      v1.putInt(c);
    }
    store(v1.array());
    IOException e = assertThrows(IOException.class,
        () -> ChecksumFile.readHeader(storage, file, KEY));
    assertTrue(e.getMessage().contains("format version 1"), e.getMessage());
  }

  @Test
  void readHeader_versionTwo_isReadWithAnUnknownFile() throws IOException {
    // The version 2 layout: version 3's without the file.
    byte[] pool = KEY.getBlockPoolId().getBytes(StandardCharsets.UTF_8);
    byte[] dataset = "/in".getBytes(StandardCharsets.UTF_8);
    int trailer = 4 + pool.length + 8 + 8 + 4 + dataset.length + 4 + 4;
    ByteBuffer v2 = ByteBuffer.allocate(24 + 4 * CRCS.length + trailer);
    v2.putInt(0x4d504343).putInt(2).putInt(1024).putLong(2500).putInt(trailer);
    for (int c : CRCS) {
      v2.putInt(c);
    }
    int trailerStart = v2.position();
    v2.putInt(pool.length).put(pool).putLong(KEY.getBlockId()).putLong(KEY.getGenerationStamp())
        .putInt(dataset.length).put(dataset).putInt(3);
    CRC32C crc = new CRC32C();
    crc.update(v2.array(), 0, 24);
    crc.update(v2.array(), trailerStart, v2.position() - trailerStart);
    v2.putInt((int) crc.getValue());
    store(v2.array());
    ChecksumFile.Header h = ChecksumFile.readHeader(storage, file, KEY);
    assertEquals(new CachedBlock(KEY, 2500, "/in", 3, ""), h.block());
    assertArrayEquals(CRCS, ChecksumFile.readChecksums(storage, file, 0, 3));
  }

  @Test
  void readHeader_ofAnotherBlock_isRefused() throws IOException {
    store(encoded("/in", 3));
    IOException e = assertThrows(IOException.class, () -> ChecksumFile.readHeader(storage, file,
        new BlockKey(KEY.getBlockPoolId(), 42, 1002)));
    assertTrue(e.getMessage().contains("names block"), e.getMessage());
  }

  @Test
  void readHeader_hugeTrailerLength_isRefusedBeforeAllocating() throws IOException {
    byte[] b = encoded("/in", 3);
    ByteBuffer.wrap(b).putInt(20, Integer.MAX_VALUE);
    store(b);
    IOException e = assertThrows(IOException.class,
        () -> ChecksumFile.readHeader(storage, file, KEY));
    assertTrue(e.getMessage().contains("Corrupt checksum header"), e.getMessage());
  }
}
