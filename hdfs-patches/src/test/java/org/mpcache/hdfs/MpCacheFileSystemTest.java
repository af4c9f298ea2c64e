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

  @Test
  void initialize_fillWriteBytesAboveTheMax_rejectedNamingTheKey() throws Exception {
    assertRejected(ClientConfigKeys.FILL_WRITE_BYTES_KEY, "3g");
  }

  @Test
  void initialize_fillQueueOutOfBoundsOrSmallerThanAWrite_rejectedNamingTheKey()
      throws Exception {
    assertRejected(ClientConfigKeys.FILL_QUEUE_BYTES_KEY, "2g", "1073741824");
    assertRejected(ClientConfigKeys.FILL_QUEUE_BYTES_KEY, "100", "4096");
    assertRejected(ClientConfigKeys.FILL_QUEUE_BYTES_KEY, "512k",
        ClientConfigKeys.FILL_WRITE_BYTES_KEY);
  }

  @Test
  void initialize_fillThreadsOutOfBounds_rejectedNamingTheKey() throws Exception {
    assertRejected(ClientConfigKeys.FILL_THREADS_KEY, "0", "1");
    assertRejected(ClientConfigKeys.FILL_THREADS_KEY, "65", "64");
  }
}
