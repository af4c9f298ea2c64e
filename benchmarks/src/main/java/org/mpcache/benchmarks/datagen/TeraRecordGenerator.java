package org.mpcache.benchmarks.datagen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * TeraGen-style records of {@link #RECORD_BYTES} bytes: a {@link #KEY_BYTES}-byte uniformly random
 * binary key, then {@code 00 11}, the row number as 32 upper-case hex digits, {@code 88 99 AA BB},
 * 48 filler letters derived from the row number, and {@code CC DD EE FF}. The layout follows
 * Hadoop's TeraGen, so the value is 90 bytes and the row number makes every record distinct.
 *
 * <p>Stateless and thread-safe.
 */
public final class TeraRecordGenerator implements DatasetGenerator {
  /** Bytes per record. */
  public static final int RECORD_BYTES = 100;
  /** Bytes of the sort key at the start of each record. */
  public static final int KEY_BYTES = 10;
  private static final int FILLER_BYTES = 48;
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  @Override
  public void generate(ByteSink sink, long targetBytes, long seed) throws IOException {
    SeededRandom random = new SeededRandom(seed);
    byte[] record = new byte[RECORD_BYTES];
    for (long row = 0; sink.written() < targetBytes; row++) {
      long high = random.nextLong();
      long low = random.nextLong();
      for (int i = 0; i < 8; i++) {
        record[i] = (byte) (high >>> (56 - 8 * i));
      }
      record[8] = (byte) (low >>> 56);
      record[9] = (byte) (low >>> 48);
      record[10] = 0x00;
      record[11] = 0x11;
      for (int i = 0; i < 32; i++) {
        int shift = 4 * (31 - i);
        record[12 + i] = shift >= 64 ? HEX[0] : HEX[(int) ((row >>> shift) & 0xf)];
      }
      record[44] = (byte) 0x88;
      record[45] = (byte) 0x99;
      record[46] = (byte) 0xAA;
      record[47] = (byte) 0xBB;
      for (int i = 0; i < FILLER_BYTES; i++) {
        record[48 + i] = (byte) ('A' + (row + i) % 26);
      }
      record[96] = (byte) 0xCC;
      record[97] = (byte) 0xDD;
      record[98] = (byte) 0xEE;
      record[99] = (byte) 0xFF;
      sink.put(record);
    }
  }
}
