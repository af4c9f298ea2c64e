package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.tiers.StorageTiers;

/**
 * Where the evaluation's storage tiers live on this machine, and what they measured: node
 * {@code i}'s HDD directory (DataNode storage, HDD local dirs), SSD directory (mpCache's cache and
 * localized data, everything in the all-SSD mode) and memory directory (the PACMan-like baseline's
 * in-memory cache). The harness asks for the directories and prints {@link #figures()} with every
 * result; an emulating implementation throttles the devices beneath them.
 *
 * <p>Implementations say whether they are thread-safe; the harness calls them from one thread.
 */
public interface TierLayout extends AutoCloseable {

  /** Node {@code node}'s HDD directory; exists when returned. */
  File hddDir(int node) throws IOException;

  /** Node {@code node}'s SSD directory; exists when returned. */
  File ssdDir(int node) throws IOException;

  /** Node {@code node}'s memory-backed directory; exists when returned. */
  File memoryDir(int node) throws IOException;

  /** True if the HDD and SSD directories sit on devices emulating those tiers. */
  boolean emulated();

  /**
   * One line per measured tier figure (such as "hdd: 138 MB/s sequential read, 8.1 ms per
   * seek"), or a notice saying why there are none.
   */
  List<String> figures();

  /**
   * Empties the operating system's page cache where the machine allows it, so the next reads
   * come from the tiers; returns false if it could not.
   */
  boolean dropCaches();

  /**
   * Runs {@code load}, which writes a workload's input, with the devices' limits lifted where the
   * tiers can lift them: loading is not timed, and the input of a real cluster is there before
   * its jobs run.
   */
  default <T> T load(StorageTiers.IoCallable<T> load) throws IOException {
    return load.call();
  }

  /** Adds to the cluster's configuration what the tiers need there (a read throttle, say). */
  default void configure(Configuration conf) {
  }

  /** Writes the measured figures as files into {@code dir} (nothing if there are none). */
  default void writeFigures(Path dir) throws IOException {
  }

  /** Releases the tiers (unmounts devices, deletes memory-backed directories). */
  @Override
  void close() throws IOException;
}
