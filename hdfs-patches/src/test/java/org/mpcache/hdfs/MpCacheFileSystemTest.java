package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The intercepting FileSystem refuses client keys whose values do not fit what it sends. */
class MpCacheFileSystemTest {
  private static void assertRejected(String key, String value) throws Exception {
    assertRejected(key, value, "67108864");
  }

  /** Initializing with {@code key=value} fails naming the key and {@code bound}. */
  private static void assertRejected(String key, String value, String bound) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    try (MpCacheFileSystem fs = new MpCacheFileSystem()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> fs.initialize(URI.create("hdfs://127.0.0.1:1"), conf));
      assertTrue(e.getMessage().contains(key) && e.getMessage().contains(bound),
          "the error names the key and the bound: " + e.getMessage());
    }
  }

  @Test
  void initialize_readBytesAboveTheMax_rejectedNamingTheKey() throws Exception {
    assertRejected(ClientConfigKeys.READ_BYTES_KEY, "3g");
    assertRejected(ClientConfigKeys.READ_BYTES_KEY, "65m");
  }
}
