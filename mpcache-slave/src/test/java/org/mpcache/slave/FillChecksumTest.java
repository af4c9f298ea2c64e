package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.CommitRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.FillChecksums;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A fill's bytes carry their per-chunk CRC32C from the client to the slave: a write whose bytes
 * changed on the way (one bit flipped after the client computed its checksums) is refused, the
 * fill is aborted and nothing is stored; a write whose checksums do not fit its data is refused
 * at the edge naming the field. A real slave against a {@link FakeMaster}.
 */
class FillChecksumTest {
  private static final int BLOCK = 200_000;
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);

  @TempDir
  Path dir;
  private SlaveFixture fixture;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB client;
  private final byte[] data = new byte[BLOCK];

  @BeforeEach
  void start() throws Exception {
    fixture = new SlaveFixture(dir);
    slave = fixture.slave();
    client = fixture.client();
    fixture.awaitRegistration();
    new Random(5).nextBytes(data);
  }

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static BlockAccessProto access() {
    return SlaveFixture.access(K1, BLOCK, "/c", 2).build();
  }

  private long offerFill() throws IOException {
    LookupResponseProto r = RpcSupport.call(() -> client.lookup(null, LookupRequestProto
        .newBuilder().setAccess(access()).setOfferFill(true)
        .setPath(SlaveFixture.UNREACHABLE_HDFS + "/f").setBlockOffset(0).build()));
    assertTrue(r.hasFillId(), "a fill was offered: " + r.getMissReason());
    return r.getFillId();
  }

  /** A write of {@code data} with the checksums of {@code data}, to alter before it is sent. */
  private WriteRequestProto.Builder write(long fillId) {
    return FillChecksums.withData(WriteRequestProto.newBuilder().setFillId(fillId).setOffset(0),
        ByteString.copyFrom(data));
  }

  private boolean commit(long fillId) throws IOException {
    return RpcSupport.call(() -> client.commit(null, CommitRequestProto.newBuilder()
        .setFillId(fillId).setLength(BLOCK).build())).getCached();
  }

  @Test
  void write_bitFlippedAfterTheChecksums_refusedAbortedAndNothingStored() throws Exception {
    long id = offerFill();
    byte[] flipped = data.clone();
    flipped[BLOCK - 7] ^= 0x10;
    WriteRequestProto req = write(id).setData(ByteString.copyFrom(flipped)).build();

    IOException e = assertThrows(IOException.class,
        () -> RpcSupport.call(() -> client.write(null, req)));
    assertTrue(e.getMessage().contains("checksum mismatch") && e.getMessage().contains(
        String.valueOf((BLOCK - 7) / FillChecksums.CHUNK_BYTES * FillChecksums.CHUNK_BYTES)),
        "the error says which chunk did not match: " + e.getMessage());
    assertEquals(0, slave.fillsInProgress(), "the fill is aborted");
    assertFalse(commit(id), "nothing left to commit");
    assertEquals(List.of(), slave.getStore().cachedBlocks());
    assertTrue(slave.getStore().state(K1).isEmpty(), "no trace of the block in the store");
  }

  @Test
  void write_checksumsThatDoNotFitTheData_refusedNamingTheFieldAndTheFillGoesOn()
      throws Exception {
    long id = offerFill();
    for (WriteRequestProto bad : List.of(write(id).clearChecksums().build(),
        write(id).addChecksums(0).build(), write(id).setChecksumChunkBytes(0).build(),
        write(id).setChecksumChunkBytes(-1).build())) {
      IOException e = assertThrows(IOException.class,
          () -> RpcSupport.call(() -> client.write(null, bad)));
      assertTrue(e.getMessage().contains("checksum"), "the error names the field: " + e);
    }
    assertEquals(1, slave.fillsInProgress(), "a refused request leaves the fill alone");
    assertTrue(RpcSupport.call(() -> client.write(null, write(id).build())).getAccepted());
    assertTrue(commit(id), "the intact write commits");
    assertEquals(List.of(K1), slave.getStore().cachedBlocks());
  }
}
