package org.mpcache.slave.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.thirdparty.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.slave.master.DatasetCounters;

/** The slave's counters of failed fills and fallbacks, by their enums. */
class SlaveCountersTest {
  private final SlaveCounters counters =
      new SlaveCounters(new DatasetCounters(10, 10, () -> 0L));

  @Test
  void slaveFillFailed_countsPerCauseAndSaysFirstOncePerCause() {
    assertTrue(counters.slaveFillFailed(FillFailure.QUEUE_FULL));
    assertFalse(counters.slaveFillFailed(FillFailure.QUEUE_FULL));
    assertTrue(counters.slaveFillFailed(FillFailure.HDFS_READ_FAILED));
    assertEquals(2L, counters.fillsBySlaveFailed().get(FillFailure.QUEUE_FULL));
    assertEquals(1L, counters.fillsBySlaveFailed().get(FillFailure.HDFS_READ_FAILED));
    assertEquals(0L, counters.fillsBySlaveFailed().get(FillFailure.SSD_ERROR));
    assertEquals(FillFailure.values().length, counters.fillsBySlaveFailed().size());
    assertEquals(3, counters.snapshot().getFillsBySlaveFailed());
  }

  @Test
  void fallback_countsPerCauseAndInAll() {
    counters.fallback(FallbackCauseProto.SLAVE_ERROR);
    counters.fallback(FallbackCauseProto.SLAVE_ERROR);
    counters.fallback(FallbackCauseProto.DEADLINE_EXCEEDED);
    assertEquals(2L, counters.fallbacksByCause().get(FallbackCauseProto.SLAVE_ERROR));
    assertEquals(1L, counters.fallbacksByCause().get(FallbackCauseProto.DEADLINE_EXCEEDED));
    assertEquals(0L, counters.fallbacksByCause().get(FallbackCauseProto.UNKNOWN_CAUSE));
    assertEquals(3, counters.snapshot().getFallbacks());
  }

  @Test
  void fallbackOf_aCauseOfANewerClient_isUnknownCause() throws Exception {
    ReportReadRequestProto.Builder r = ReportReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(new BlockKey("BP-1", 1, 1))).setBytesFromHdfs(1);
    assertNull(ClientEndpoint.fallbackOf(r.build()), "no fallback");
    assertEquals(FallbackCauseProto.SHORT_READ,
        ClientEndpoint.fallbackOf(r.clone().setFallback(FallbackCauseProto.SHORT_READ).build()));
    // As a newer client sends it: a value this slave's enum lacks, parsed from the wire.
    ReportReadRequestProto newer = ReportReadRequestProto.parseFrom(r.clone()
        .setUnknownFields(UnknownFieldSet.newBuilder().addField(
            ReportReadRequestProto.FALLBACK_FIELD_NUMBER,
            UnknownFieldSet.Field.newBuilder().addVarint(99).build()).build())
        .build().toByteArray());
    assertFalse(newer.hasFallback());
    assertEquals(FallbackCauseProto.UNKNOWN_CAUSE, ClientEndpoint.fallbackOf(newer));
  }
}
