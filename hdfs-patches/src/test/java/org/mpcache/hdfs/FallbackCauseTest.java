package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;

/** The client's fallback causes as read reports carry them to the slave. */
class FallbackCauseTest {
  @Test
  void toProto_everyCause_isTheWireValueOfItsName() {
    for (FallbackCause c : FallbackCause.values()) {
      assertEquals(c.name(), c.toProto().name());
    }
    // Every wire value but the receiver's unknown one stands for a client cause.
    assertEquals(FallbackCauseProto.values().length - 1, FallbackCause.values().length);
  }
}
