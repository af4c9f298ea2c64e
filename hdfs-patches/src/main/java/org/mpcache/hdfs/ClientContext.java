package org.mpcache.hdfs;

import org.apache.hadoop.fs.FileSystem;

/**
 * What the streams of one {@link MpCacheFileSystem} share: its settings, its view of the slaves,
 * the threads that make calls off the readers' threads ({@code background}: lookups ahead,
 * batched miss lookups, read reports), the readers its open
 * streams hold ({@code openStreams}), the block files read through descriptors
 * ({@code descriptors}) and whether local hits take them yet ({@code descriptorGate}), and the
 * FileSystem's statistics (null in tests).
 *
 * <p>Immutable; its parts are thread-safe.
 */
record ClientContext(ClientConf conf, SlaveDirectory directory, BackgroundCalls background,
    OpenStreams openStreams, DescriptorCache descriptors, DescriptorGate descriptorGate,
    FileSystem.Statistics statistics) {

  /**
   * Counts {@code n} bytes a reader had from the cache, in the JVM's and the FileSystem's, and
   * towards its descriptors' gate.
   */
  void readFromCache(int n) {
    ClientCounters.get().readFromCache(n);
    descriptorGate.read(n);
    if (statistics != null) {
      statistics.incrementBytesRead(n);
    }
  }
}
