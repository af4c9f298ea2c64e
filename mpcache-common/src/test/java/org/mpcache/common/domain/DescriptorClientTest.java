package org.mpcache.common.domain;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.protocolPB.ProtoConverters;

class DescriptorClientTest {
  @TempDir
  Path dir;

  @Test
  void request_toASocketNobodyServesIsAnIOExceptionNamingIt() {
    assumeTrue(DescriptorClient.isAvailable(), "needs Netty's native epoll transport");
    String missing = dir.resolve("none.socket").toString();
    IOException e = assertThrows(IOException.class, () -> DescriptorClient.request(missing,
        ProtoConverters.toProto(new BlockKey("BP-1", 1, 1)), "", null, 5000, 5000));
    assertTrue(String.valueOf(e.getMessage()).contains("none.socket"), e.getMessage());
  }
}
