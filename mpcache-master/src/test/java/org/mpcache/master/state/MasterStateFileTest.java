package org.mpcache.master.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.proto.MasterStateProtos.DatasetStateProto;
import org.mpcache.common.proto.MasterStateProtos.MasterStateProto;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;
import org.mpcache.master.MasterConfigKeys;

/** The checkpoint file: its frame, its version, its bound, and atomic replacement. */
class MasterStateFileTest {
  @TempDir
  Path dir;

  private static MasterStateProto state(long writtenMs, String dataset) {
    return MasterStateProto.newBuilder().setWrittenMs(writtenMs)
        .setPolicy(PolicyStateProto.newBuilder().setPolicy("mpcache").setAccessSeq(4)
            .setClock(1.25).addAuxiliary(dataset)
            .addDatasets(DatasetStateProto.newBuilder().setId(dataset).setSize(3)
                .setBlocksAccess(6)))
        .addDecommissioned("host1:50121").build();
  }

  @Test
  void save_thenLoad_roundTrip() throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    long size = f.save(state(1, "A"));
    assertEquals(Files.size(dir.resolve(MasterStateFile.NAME)), size);
    assertEquals(Optional.of(state(1, "A")), f.load());
    f.save(state(2, "B"));
    assertEquals(Optional.of(state(2, "B")), new MasterStateFile(dir, 1 << 20).load());
  }

  @Test
  void save_fileIsTheOwnersOnly_evenOverALeftOverTemporaryFile() throws IOException {
    Path tmp = dir.resolve(MasterStateFile.NAME + ".tmp");
    Files.writeString(tmp, "left over by a crash");
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
    new MasterStateFile(dir, 1 << 20).save(state(1, "A"));
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dir.resolve(MasterStateFile.NAME))));
  }

  @Test
  void load_noCheckpoint_isEmpty() throws IOException {
    assertEquals(Optional.empty(), new MasterStateFile(dir, 1 << 20).load());
  }

  @Test
  void load_flippedPayloadByte_failsItsChecksumNamingTheFile() throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    f.save(state(1, "A"));
    Path p = dir.resolve(MasterStateFile.NAME);
    byte[] b = Files.readAllBytes(p);
    b[20] ^= 0x40;
    Files.write(p, b);
    IOException e = assertThrows(MasterStateFile.FormatException.class, f::load);
    assertTrue(e.getMessage().startsWith(p.toString()) && e.getMessage().contains("checksum"),
        e.getMessage());
  }

  @Test
  void load_garbageOrTruncated_isAFormatError() throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    Path p = dir.resolve(MasterStateFile.NAME);
    Files.writeString(p, "not a checkpoint at all");
    assertTrue(assertThrows(MasterStateFile.FormatException.class, f::load).getMessage()
        .contains("bad magic"));
    f.save(state(1, "A"));
    byte[] b = Files.readAllBytes(p);
    Files.write(p, java.util.Arrays.copyOf(b, b.length - 3));
    assertTrue(assertThrows(MasterStateFile.FormatException.class, f::load).getMessage()
        .contains("truncated"));
  }

  @Test
  void load_validFrameWithUnparseablePayload_isAFormatError() throws IOException {
    byte[] payload = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(payload);
    Files.write(dir.resolve(MasterStateFile.NAME), ByteBuffer.allocate(8 + 8 + 3 + 4)
        .put("MPCSTATE".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(1)
        .putInt(3).put(payload).putInt((int) crc.getValue()).array());
    assertTrue(assertThrows(MasterStateFile.FormatException.class,
        new MasterStateFile(dir, 1 << 20)::load).getMessage().contains("cannot be parsed"));
  }

  @Test
  void load_unknownVersion_isAFormatErrorSayingSo() throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    f.save(state(1, "A"));
    Path p = dir.resolve(MasterStateFile.NAME);
    byte[] b = Files.readAllBytes(p);
    ByteBuffer.wrap(b).putInt(8, 2);
    Files.write(p, b);
    IOException e = assertThrows(MasterStateFile.FormatException.class, f::load);
    assertTrue(e.getMessage().contains("unknown version 2"), e.getMessage());
  }

  @Test
  void save_pastTheBound_isRefusedNamingTheKeyAndThePreviousCheckpointStays()
      throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 80);
    f.save(state(1, "A"));
    MasterStateProto big = state(2, "B".repeat(100));
    IOException e = assertThrows(MasterStateFile.TooLargeException.class, () -> f.save(big));
    assertTrue(e.getMessage().contains(MasterConfigKeys.STATE_MAX_BYTES_KEY), e.getMessage());
    assertEquals(Optional.of(state(1, "A")), f.load());
  }

  @Test
  void load_pastTheBound_isNotRead() throws IOException {
    new MasterStateFile(dir, 1 << 20).save(state(1, "B".repeat(100)));
    IOException e = assertThrows(MasterStateFile.FormatException.class,
        new MasterStateFile(dir, 80)::load);
    assertTrue(e.getMessage().contains(MasterConfigKeys.STATE_MAX_BYTES_KEY), e.getMessage());
  }

  @Test
  void save_crashMidWrite_leavesThePreviousCheckpointAndTheNextWriteSucceeds()
      throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    f.save(state(1, "A"));
    byte[] previous = Files.readAllBytes(dir.resolve(MasterStateFile.NAME));
    // A crash after part of the next checkpoint reached the temporary file, before the rename.
    Path tmp = dir.resolve(MasterStateFile.NAME + ".tmp");
    Files.write(tmp, java.util.Arrays.copyOf(previous, 11));
    assertEquals(Optional.of(state(1, "A")), new MasterStateFile(dir, 1 << 20).load());
    assertArrayEquals(previous, Files.readAllBytes(dir.resolve(MasterStateFile.NAME)));
    f.save(state(2, "B"));
    assertEquals(Optional.of(state(2, "B")), f.load());
    assertFalse(Files.exists(tmp), "the temporary file is renamed into place");
  }

  @Test
  void moveAside_keepsTheBadFileForInspection() throws IOException {
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    Files.writeString(dir.resolve(MasterStateFile.NAME), "junk");
    Path aside = f.moveAside();
    assertEquals(dir.resolve(MasterStateFile.NAME + ".corrupt"), aside);
    assertEquals("junk", Files.readString(aside));
    assertEquals(Optional.empty(), f.load());
  }
}
